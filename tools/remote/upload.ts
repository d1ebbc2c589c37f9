// qc_run_local_file in remote mode: the local file goes to the server through a reserved upload, streamed in chunks
// (never read whole into memory), with upload progress.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { resolveMedia } from '../../src/ingress/media.js';
import type { Upload, UploadStored } from '../../src/uploads.js';
import type { RemoteApi } from './api.js';

const MAX_FILENAME_CHARS = 255;

export interface UploadedFile {
  uploadId: string;
  sizeBytes: number;
}

/** The file as a stream that counts what the request has taken; the request's backpressure paces the reads. */
function countingStream(path: string, onBytes: (sent: number) => void): Readable {
  async function* chunks() {
    let sent = 0;
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      sent += chunk.length;
      onBytes(sent);
      yield chunk;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

export async function uploadLocalFile(
  api: RemoteApi,
  filePath: string,
  opts: { signal?: AbortSignal; onProgress?: (sent: number, total: number) => void } = {},
): Promise<UploadedFile> {
  // The same existence and file-type checks, with the same messages, as a local run.
  const media = await resolveMedia({ file_path: filePath }, { inlineMaxBytes: 0 });
  const sizeBytes = media.ingress.bytes ?? 0;
  const contentType = media.ingress.contentType ?? 'application/octet-stream';
  const { body: upload } = await api.json<Upload>('POST', '/v1/uploads', {
    body: { filename: basename(media.path).slice(-MAX_FILENAME_CHARS), content_type: contentType, size_bytes: sizeBytes },
    signal: opts.signal,
  });
  const body = countingStream(media.path, (sent) => opts.onProgress?.(sent, sizeBytes));
  await api.putSigned<UploadStored>(upload.signedPutUrl, body, sizeBytes, contentType, opts.signal);
  return { uploadId: upload.uploadId, sizeBytes };
}
