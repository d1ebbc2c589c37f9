// Worker thread reading the decoder's interleaved float PCM from a pipe's file descriptor with blocking reads into a
// staging area of the ring's shared memory, and splitting each whole batch into the planes of the next ring slot
// (pcm-ring.ts) for the meter threads: stereo with a WebAssembly kernel (deinterleave.wat), other layouts in
// TypeScript. The main thread never touches the PCM: no stream, no buffer per read, no message per batch. It posts the
// frames read when the pipe ends (the decoder closed it), or the error that stopped it.
import { readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { DEINTERLEAVE_WASM } from './deinterleave-kernel.js';
import { deinterleave, pcmReadBytes, pcmStagingBytes } from './pcm-meters.js';
import { PcmRing, type PcmRingBuffers } from './pcm-ring.js';
import { instantiateKernelOn } from '../wasm-kernel.js';

export interface PcmReaderWorkerData {
  fd: number;
  /** A ring with pcmStagingBytes(channels) spare bytes: the reader's staging area. */
  ring: PcmRingBuffers;
}

export type PcmReaderMessage = { frames: number } | { error: string };

interface DeinterleaveKernel {
  stereo(src: number, left: number, right: number, frames: number): void;
}

const { fd, ring: buffers } = workerData as PcmReaderWorkerData;
const ring = PcmRing.attach(buffers);
const { channels, batchFrames } = buffers;
const frameBytes = channels * Float32Array.BYTES_PER_ELEMENT;
const READ_BYTES = pcmReadBytes(channels);
if (buffers.spareBytes < pcmStagingBytes(channels)) throw new RangeError('the PCM reader needs a ring with room for its staging area');
const staging = new Uint8Array(buffers.memory.buffer, buffers.spareByte, pcmStagingBytes(channels));
const interleaved = new Float32Array(staging.buffer, staging.byteOffset, staging.length / Float32Array.BYTES_PER_ELEMENT);
const kernel = channels === 2 ? instantiateKernelOn<DeinterleaveKernel>(DEINTERLEAVE_WASM, { pcm: { memory: buffers.memory } }) : null;

/** Splits the first `frames` frames of the staging area into `planes` from frame `at` on. */
function split(frames: number, planes: Float32Array[], at: number): void {
  if (kernel) kernel.stereo(staging.byteOffset, planes[0].byteOffset + 4 * at, planes[1].byteOffset + 4 * at, frames);
  else deinterleave(interleaved.subarray(0, frames * channels), planes, at);
}

function run(): number {
  let frames = 0;
  /** Bytes of a frame the last read ended in, at the start of `staging`. */
  let carried = 0;
  for (let seq = 0; ; seq++) {
    if (!ring.waitFree(seq)) return drain(frames);
    const planes = ring.planes(seq);
    let filled = 0;
    let got = -1;
    while (filled < batchFrames && got !== 0) {
      // Never more than the batch still lacks (which is more than the carried part of a frame): no read spills into the next batch.
      got = readSync(fd, staging, carried, Math.min(READ_BYTES, (batchFrames - filled) * frameBytes) - carried, null);
      const bytes = carried + got;
      const whole = Math.floor(bytes / frameBytes);
      split(whole, planes, filled);
      filled += whole;
      carried = bytes - whole * frameBytes;
      if (carried > 0) staging.copyWithin(0, whole * frameBytes, bytes);
    }
    if (filled > 0) ring.publish(seq, filled);
    frames += filled;
    if (got === 0) return frames;
  }
}

/** After an abort: reads the pipe to its end, so that the decoder finishes rather than waits on it. */
function drain(frames: number): number {
  while (readSync(fd, staging, 0, READ_BYTES, null) > 0);
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
