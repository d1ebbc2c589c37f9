// Reading response bodies under a byte cap: to a file (hashed as it streams) or into memory.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { addAbortSignal, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tooLarge } from './errors.js';

interface Metered {
  bytes: number;
  sha256: string;
}

/** Counts and hashes what passes through; fails the stream as soon as it goes over the cap. */
function byteMeter(maxBytes: number, host: string): { stream: Transform; result(): Metered } {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(tooLarge(host, maxBytes));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/** Writes the body to a new file (mode 0600). The caller deletes the file when this rejects. */
export async function saveBody(response: IncomingMessage, path: string, maxBytes: number, host: string, signal: AbortSignal): Promise<Metered> {
  const meter = byteMeter(maxBytes, host);
  await pipeline(response, meter.stream, createWriteStream(path, { flags: 'wx', mode: 0o600 }), { signal });
  return meter.result();
}

export async function readBody(response: IncomingMessage, maxBytes: number, host: string, signal: AbortSignal): Promise<Buffer> {
  const meter = byteMeter(maxBytes, host);
  const chunks: Buffer[] = [];
  await pipeline(
    response,
    meter.stream,
    async function collect(source: AsyncIterable<Buffer>) {
      for await (const chunk of source) chunks.push(chunk);
    },
    { signal },
  );
  return Buffer.concat(chunks);
}

/** At most `limit` bytes of the body as text; the rest is dropped with the connection. */
export async function readTruncatedText(response: IncomingMessage, limit: number, signal: AbortSignal): Promise<string> {
  addAbortSignal(signal, response);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  response.destroy();
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
