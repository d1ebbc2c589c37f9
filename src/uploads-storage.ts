// Uploaded media in the object store: the signed PUT streams into it (size cap and SHA-256 on the way), and a worker
// reads it back as a file, in place on the local filesystem, or fetched to a temporary file from S3-compatible storage.
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from './errors.js';
import { streamToDisk } from './uploads.js';
import { LocalObjectStore, type ObjectStore } from './storage/object-store.js';

/** The object key of an upload's bytes (the same path the data dir always used: uploads/<id>/content). */
export const uploadKey = (uploadId: string) => `uploads/${uploadId}/content`;

/**
 * Streams a PUT body into the object store, refusing an empty body and more than `maxBytes`. An object store needs the
 * length up front, so the body is staged in a temporary file first when it is not the local filesystem.
 */
export async function storeUploadBody(objects: ObjectStore, uploadId: string, body: Readable, maxBytes: number): Promise<{ key: string; bytes: number; sha256: string }> {
  const key = uploadKey(uploadId);
  // On the filesystem store the body goes straight to its place (no staging copy of a large file).
  if (objects instanceof LocalObjectStore) return { key, ...(await streamToDisk(body, dirname(objects.url(key)), maxBytes)) };
  const staging = mkdtempSync(join(tmpdir(), 'preflight-upload-'));
  try {
    // The same metering as the filesystem store (size cap, empty body, SHA-256), into a staging folder.
    const staged = await streamToDisk(body, staging, maxBytes);
    await objects.putStream(key, createReadStream(staged.path).pipe(new PassThrough()), staged.bytes, 'application/octet-stream');
    return { key, bytes: staged.bytes, sha256: staged.sha256 };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The upload's bytes as a file on this machine; `cleanup` removes a temporary copy. */
export async function uploadedMediaFile(objects: ObjectStore, uploadId: string): Promise<{ path: string; cleanup: () => void }> {
  const key = uploadKey(uploadId);
  if (objects instanceof LocalObjectStore) return { path: objects.url(key), cleanup: () => {} };
  const stream = await objects.getStream(key);
  if (!stream) throw new ServiceError('upload_not_found', `Upload ${uploadId} has no stored content.`, { uploadId }, 404);
  const dir = mkdtempSync(join(tmpdir(), 'preflight-media-'));
  // The same file name as on the filesystem store, so reports name it the same wherever it was read from.
  const path = join(dir, 'content');
  try {
    await pipeline(stream, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
