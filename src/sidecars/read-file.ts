// Reads one local sidecar file with the size cap checked before anything is read, and never blocks on a FIFO.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { invalidSidecar, sidecarNotFound, sidecarTooLarge } from './errors.js';
import type { SidecarOrigin } from './origin.js';

const READ_CHUNK_BYTES = 1024 * 1024;

export interface ReadOptions {
  maxBytes: number;
  /** Refuse to follow a symbolic link at the last path component (files found in a sidecar directory). */
  noFollow?: boolean;
}

export async function readSidecarFile(path: string, origin: SidecarOrigin, { maxBytes, noFollow = false }: ReadOptions): Promise<Buffer> {
  const stats = await stat(path).catch((error: unknown) => {
    throw fileError(error, origin);
  });
  if (stats.isDirectory()) throw invalidSidecar(origin, 'is a directory, not a file');
  if (!stats.isFile()) throw invalidSidecar(origin, 'is not a regular file');
  if (stats.size > maxBytes) throw sidecarTooLarge(origin, stats.size, maxBytes);

  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  const handle = await open(path, flags).catch((error: unknown) => {
    throw fileError(error, origin);
  });
  try {
    // The file may have grown since stat (or report size 0, like /proc files): stop one byte past the cap.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw sidecarTooLarge(origin, null, maxBytes);
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

export function fileError(error: unknown, origin: SidecarOrigin): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return sidecarNotFound(origin);
  if (code === 'EACCES' || code === 'EPERM') return invalidSidecar(origin, 'cannot be read (permission denied)');
  if (code === 'ELOOP') return invalidSidecar(origin, 'is a symbolic link, which is not followed here');
  return invalidSidecar(origin, `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`);
}
