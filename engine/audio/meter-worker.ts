// Worker thread running one PCM meter (see pcm-meters.ts) on the batches of a shared ring (pcm-ring.ts): it measures
// each batch as it is published, releases it, and once the ring is closed posts the meter's result. An aborted ring
// ends it without one.
import { parentPort, workerData } from 'node:worker_threads';
import { PcmMeter, type MeterKind, type PcmMeterOptions } from './pcm-meters.js';
import { PcmRing, type PcmRingBuffers } from './pcm-ring.js';

export interface MeterWorkerData {
  kind: MeterKind;
  options: PcmMeterOptions;
  ring: PcmRingBuffers;
  /** This thread's reader number on the ring. */
  reader: number;
}

const { kind, options, ring: buffers, reader } = workerData as MeterWorkerData;
const ring = PcmRing.attach(buffers);
const meter = new PcmMeter(kind, options);
let seq = 0;
for (let frames = ring.take(seq); frames >= 0; frames = ring.take(seq)) {
  meter.push(ring.planes(seq, frames));
  ring.release(reader, seq++);
}
if (!ring.aborted) parentPort!.postMessage({ result: meter.result() });
