// A blocking pipe for one decoder output that a worker thread reads with blocking reads, so that the output's bytes
// never pass through the main thread's event loop. Node has no pipe(2): a named FIFO opened from both ends gives the
// same pair of descriptors, and is unlinked at once (the descriptors stay valid). Linux only, where opening a FIFO for
// reading and writing at once is defined not to block (fifo(7)); elsewhere, or without mkfifo, null: the caller then
// reads a pipe of its own the usual way.
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from './run.js';

export interface PipePair {
  /** Blocking read end, for a worker thread (libuv opens it close-on-exec). */
  readFd: number;
  /** Write end, to hand to the decoder as one of its stdio descriptors and close here once it is spawned. */
  writeFd: number;
}

export async function openPipePair(): Promise<PipePair | null> {
  if (process.platform !== 'linux') return null;
  const dir = mkdtempSync(join(tmpdir(), 'preflight-pipe-'));
  const path = join(dir, 'pcm');
  try {
    if ((await runTool('mkfifo', ['-m', '600', path], { timeoutMs: 10_000 })).exitCode !== 0) return null;
    // Opening one end alone blocks until the other is open. Held open for reading and writing at once (which does not
    // block), the FIFO lets each end then open in blocking mode without waiting; the holder is closed after.
    const holder = openSync(path, constants.O_RDWR);
    try {
      const readFd = openSync(path, constants.O_RDONLY);
      try {
        return { readFd, writeFd: openSync(path, constants.O_WRONLY) };
      } catch (err) {
        closeSync(readFd);
        throw err;
      }
    } finally {
      closeSync(holder);
    }
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
