// The HTTP door (Hono). This build serves the health check and the signed upload PUT used by qc_create_upload_url;
// the authenticated /v1 API arrives with the REST issue. Routes only translate: the service does the work.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { EngineError } from '../engine/errors.js';
import { ServiceError } from '../src/errors.js';
import type { PreflightService } from '../src/service.js';

function errorBody(code: string, message: string, details: Record<string, unknown> = {}) {
  return { error: { code, message, details } };
}

export function createHttpApp(service: PreflightService): Hono {
  const app = new Hono();

  app.onError((err, c) => {
    if (err instanceof ServiceError) return c.json(errorBody(err.code, err.message, err.details), err.status as ContentfulStatusCode);
    if (err instanceof EngineError) return c.json(errorBody(err.code, err.message, err.details), 400);
    process.stderr.write(`preflight http: ${err.stack ?? err.message}\n`);
    return c.json(errorBody('internal_error', 'The server failed to handle this request.'), 500);
  });
  app.notFound((c) => c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}.`), 404));

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.put('/v1/uploads/:uploadId/content', async (c) => {
    const body = c.req.raw.body;
    if (!body) return c.json(errorBody('empty_body', 'PUT the media bytes as the request body.'), 400);
    const stored = await service.storeUploadContent(c.req.param('uploadId'), c.req.query('token'), Readable.fromWeb(body as unknown as NodeReadableStream));
    return c.json(stored, 200);
  });

  return app;
}
