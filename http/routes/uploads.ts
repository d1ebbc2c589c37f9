// /v1/uploads: reserve a signed PUT URL, PUT the bytes to it, read the upload back.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { ServiceError } from '../../src/errors.js';
import type { PreflightService } from '../../src/service.js';
import { CreateUploadInputSchema, UploadSchema, UploadStoredSchema } from '../../src/uploads.js';
import { newRouter, registerRoute, type Authenticator, type RouteGroup } from '../route.js';

const UploadIdParams = z.object({ upload_id: z.string().min(1) });

export function uploadRoutes(auth: Authenticator, service: PreflightService): RouteGroup {
  const app = newRouter();
  registerRoute(app, auth, {
    method: 'post', path: '/', tag: 'Uploads', auth: 'uploads:write', summary: 'Reserve an upload',
    description: 'Returns a signed PUT URL (unguessable token, valid 1 hour). PUT the bytes to it, then create a job with upload_id. Field casing: snake_case.',
    body: CreateUploadInputSchema,
    responses: { 201: { description: 'The upload resource with its signed PUT URL (shown once)', schema: UploadSchema } },
  }, async ({ principal, body }) => {
    const { upload } = await service.createUpload(principal!, body);
    return { status: 201, body: upload };
  });

  registerRoute(app, auth, {
    method: 'get', path: '/{upload_id}', tag: 'Uploads', auth: 'uploads:write', summary: 'Upload status and metadata', params: UploadIdParams,
    responses: { 200: { description: 'The upload (the PUT token is not shown again)', schema: UploadSchema.extend({ bytesReceived: z.number().int().nullable(), sha256: z.string().nullable() }) } },
  }, async ({ principal, params }) => ({ status: 200, body: await service.getUpload(principal!, params.upload_id) }));

  registerRoute(app, auth, {
    method: 'put', path: '/{upload_id}/content', tag: 'Uploads', auth: 'public', summary: 'Send the media bytes to the signed URL',
    description: 'Authorised by the `token` query parameter of the signed URL, not by a bearer key. Streams to disk with the reserved size as the cap.',
    params: UploadIdParams, query: z.object({ token: z.string().optional() }),
    responses: { 200: { description: 'Stored', schema: UploadStoredSchema }, 410: { description: 'The URL expired' }, 413: { description: 'More bytes than reserved' } },
  }, async ({ c, params, query }) => {
    const body = c.req.raw.body;
    if (!body) throw new ServiceError('empty_body', 'PUT the media bytes as the request body.', {}, 400);
    const stored = await service.storeUploadContent(params.upload_id, query.token, Readable.fromWeb(body as unknown as NodeReadableStream));
    return { status: 200, body: stored };
  });
  return { base: '/v1/uploads', routes: app };
}
