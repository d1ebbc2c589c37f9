// Worker thread reading the decoder's interleaved float PCM from a pipe's file descriptor with blocking reads into one
// reused buffer, and splitting each whole batch into the planes of the next ring slot (pcm-ring.ts) for the meter
// threads. The main thread never touches the PCM: no stream, no buffer per read, no message per batch. It posts the
// frames read when the pipe ends (the decoder closed it), or the error that stopped it.
import { readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { deinterleave } from './pcm-meters.js';
import { PcmRing, type PcmRingBuffers } from './pcm-ring.js';

export interface PcmReaderWorkerData {
  fd: number;
  ring: PcmRingBuffers;
}

export type PcmReaderMessage = { frames: number } | { error: string };

const { fd, ring: buffers } = workerData as PcmReaderWorkerData;
const ring = PcmRing.attach(buffers);
const { channels, batchFrames } = buffers;
const frameBytes = channels * Float32Array.BYTES_PER_ELEMENT;
const batchBytes = batchFrames * frameBytes;
const staging = new Uint8Array(batchBytes);
const interleaved = new Float32Array(staging.buffer);

function run(): number {
  let frames = 0;
  for (let seq = 0; ; seq++) {
    let filled = 0;
    // Each read asks for no more than the batch still lacks, so a batch never straddles two reads' leftovers.
    for (let got = -1; filled < batchBytes && got !== 0; filled += got) got = readSync(fd, staging, filled, batchBytes - filled, null);
    const whole = Math.floor(filled / frameBytes);
    if (whole === 0) break;
    if (!ring.waitFree(seq)) return drain(frames);
    deinterleave(interleaved.subarray(0, whole * channels), ring.planes(seq), 0);
    ring.publish(seq, whole);
    frames += whole;
    if (filled < batchBytes) break;
  }
  return frames;
}

/** After an abort: reads the pipe to its end, so that the decoder finishes rather than waits on it. */
function drain(frames: number): number {
  while (readSync(fd, staging, 0, batchBytes, null) > 0);
  return frames;
}

let message: PcmReaderMessage;
try {
  message = { frames: run() };
} catch (err) {
  message = { error: err instanceof Error ? err.message : String(err) };
}
ring.close();
parentPort!.postMessage(message);
