// Pipes of our own for decoder outputs, in place of the child's stdio pipes: the long audio's, which a worker thread
// reads with blocking reads so that its bytes never pass through the main thread's event loop, and the picture
// outputs', which the main thread reads into one reused buffer. Node has no pipe(2): a named FIFO opened from both ends
// gives the same pair of descriptors, and is unlinked at once (the descriptors stay valid). Linux only, where opening
// a FIFO for reading and writing at once is defined not to block (fifo(7)); elsewhere, or without mkfifo, null: the
// caller then reads the child's pipes the usual way.
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from './run.js';

export interface PipePair {
  /** Blocking read end (libuv opens it close-on-exec; a socket made on it sets it non-blocking). */
  readFd: number;
  /** Write end, to hand to the decoder as one of its stdio descriptors and close here once it is spawned. */
  writeFd: number;
}

/** `count` pipes from one mkfifo (a spawn holds the event loop several milliseconds), or null. */
export async function openPipePairs(count: number): Promise<PipePair[] | null> {
  if (process.platform !== 'linux') return null;
  const dir = mkdtempSync(join(tmpdir(), 'preflight-pipe-'));
  const paths = Array.from({ length: count }, (_, i) => join(dir, `fifo-${i}`));
  const pairs: PipePair[] = [];
  try {
    if ((await runTool('mkfifo', ['-m', '600', ...paths], { timeoutMs: 10_000 })).exitCode !== 0) return null;
    for (const path of paths) pairs.push(openFifo(path));
    return pairs;
  } catch {
    for (const pair of pairs) closePair(pair);
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function openFifo(path: string): PipePair {
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
}

function closePair(pair: PipePair): void {
  closeSync(pair.readFd);
  closeSync(pair.writeFd);
}
