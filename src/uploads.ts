// Reserved uploads: an unguessable, expiring token in a signed PUT URL; the bytes stream to disk with a size cap and sha256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { ServiceError } from './errors.js';
import { newId } from './ingress/media.js';

/** How long a signed PUT URL stays valid. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;
/** Largest upload anyone may reserve; plans may allow less. */
export const MAX_UPLOAD_BYTES = 20 * 1024 ** 3;

export const CreateUploadInputSchema = z.object({
  filename: z.string().min(1).max(255).describe('Name of the file to upload (its extension tells the media format).'),
  content_type: z.string().min(1).max(255).describe('MIME type of the file, e.g. video/mp4.'),
  size_bytes: z.number().int().min(1).max(MAX_UPLOAD_BYTES).describe('Exact size of the file in bytes: the PUT may not send more.'),
});
export type CreateUploadInput = z.infer<typeof CreateUploadInputSchema>;

export const UploadSchema = z.object({
  uploadId: z.string(),
  filename: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  workspaceId: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  status: z.enum(['created', 'uploaded']),
  signedPutUrl: z.string(),
  expiresAt: z.string(),
  storageMode: z.enum(['host_temp_storage', 'durable_filesystem', 'object_storage']),
  objectKey: z.string().nullable(),
  objectUrl: z.string().nullable(),
});
export type Upload = z.infer<typeof UploadSchema>;

export const UploadStoredSchema = z.object({
  uploadId: z.string(),
  status: z.literal('uploaded'),
  storageMode: z.enum(['host_temp_storage', 'durable_filesystem', 'object_storage']),
  bytesReceived: z.number().int(),
  sha256: z.string(),
  objectKey: z.string().optional(),
  objectUrl: z.string().optional(),
});
export type UploadStored = z.infer<typeof UploadStoredSchema>;

/** The stored record: the token itself is never kept, only its hash. */
export interface UploadRecord extends Omit<Upload, 'signedPutUrl'> {
  tokenSha256: string;
  putPath: string;
  bytesReceived: number | null;
  sha256: string | null;
  createdAt: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** Who reserves an upload: its workspace, and the key and owner recorded on it when known. */
export interface UploadOwner {
  workspaceId: string;
  keyId?: string | null;
  ownerEmail?: string | null;
}

export function newUploadRecord(owner: UploadOwner, input: CreateUploadInput, now = new Date()): { record: UploadRecord; token: string } {
  const uploadId = newId('upl');
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    record: {
      uploadId,
      filename: input.filename,
      contentType: input.content_type,
      sizeBytes: input.size_bytes,
      workspaceId: owner.workspaceId,
      ownerEmail: owner.ownerEmail ?? null,
      apiKeyId: owner.keyId ?? null,
      status: 'created',
      expiresAt: new Date(now.getTime() + UPLOAD_URL_TTL_MS).toISOString(),
      storageMode: 'durable_filesystem',
      objectKey: null,
      objectUrl: null,
      tokenSha256: hashToken(token).toString('hex'),
      putPath: `/v1/uploads/${uploadId}/content`,
      bytesReceived: null,
      sha256: null,
      createdAt: now.toISOString(),
    },
  };
}

export function signedPutUrl(baseUrl: string, record: UploadRecord, token: string | null): string {
  return `${baseUrl}${record.putPath}?token=${token ?? '<redacted: shown once at creation>'}`;
}

/** Checks the PUT token in constant time, and that the upload is still open. */
export function assertPutAllowed(record: UploadRecord | undefined, token: string | undefined, now = new Date()): asserts record is UploadRecord {
  const given = hashToken(token ?? '');
  const expected = record ? Buffer.from(record.tokenSha256, 'hex') : Buffer.alloc(32);
  if (!record || !token || !timingSafeEqual(given, expected)) {
    throw new ServiceError('upload_not_found', 'No upload for this URL, or the token is wrong. Reserve a new upload URL.', {}, 404);
  }
  if (record.status === 'uploaded') throw new ServiceError('upload_already_stored', `Upload ${record.uploadId} already has its content.`, {}, 409);
  if (new Date(record.expiresAt) < now) throw new ServiceError('upload_expired', `The upload URL expired at ${record.expiresAt}. Reserve a new one.`, {}, 410);
}

/**
 * Bytes of a refused PUT's body (a wrong token, an expired URL, past the reservation) that are still read, and thrown
 * away, before the answer: the client then reads it on a connection it may go on using. Past this the body is cut off,
 * and the connection with it.
 */
export const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 ** 2;

/** Reads a refused body to its end and drops it, or cuts it off past `limit` bytes. */
export async function discardBody(body: Readable, limit = REFUSED_BODY_DRAIN_BYTES): Promise<void> {
  let bytes = 0;
  const drop = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(bytes > limit ? new Error('refused body past the drain limit') : null);
    },
  });
  // Past the limit the pipeline destroys the body: that is the cut-off, nothing to report.
  await pipeline(body, drop).catch(() => undefined);
}

/** Streams a body to `<dir>/content`, refusing nothing at all and more than `maxBytes`; returns size and sha256. */
export async function streamToDisk(body: Readable, dir: string, maxBytes: number): Promise<{ path: string; bytes: number; sha256: string }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'content');
  const part = `${path}.part`;
  const hash = createHash('sha256');
  let bytes = 0;
  const tooLarge = () => new ServiceError('upload_too_large', `The upload is larger than the ${maxBytes} bytes reserved (size_bytes).`, { maxBytes }, 413);
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      // Over the reservation nothing more is stored; the rest is read to its end (within the drain) and dropped.
      if (bytes > maxBytes + REFUSED_BODY_DRAIN_BYTES) done(tooLarge());
      else if (bytes > maxBytes) done();
      else {
        hash.update(chunk);
        done(null, chunk);
      }
    },
  });
  try {
    await pipeline(body, meter, createWriteStream(part, { mode: 0o600 }));
    if (bytes > maxBytes) throw tooLarge();
    if (bytes === 0) throw new ServiceError('empty_body', 'The PUT had no bytes: send the media as the request body. The upload URL stays valid.', {}, 400);
  } catch (err) {
    rmSync(part, { force: true });
    throw err;
  }
  renameSync(part, path);
  return { path, bytes, sha256: hash.digest('hex') };
}

export function publicUpload(record: UploadRecord, baseUrl: string, token: string | null = null): Upload {
  const { tokenSha256: _t, putPath: _p, bytesReceived: _b, sha256: _s, createdAt: _c, ...rest } = record;
  return { ...rest, signedPutUrl: signedPutUrl(baseUrl, record, token) };
}
