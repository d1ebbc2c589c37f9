// Worker thread running PCM meters (see pcm-meters.ts) on the batches of a shared ring (pcm-ring.ts): it measures
// each batch as it is published with each of its meters in turn, releases it, and once the ring is closed posts the
// meters' results in the order of its kinds. An aborted ring ends it without them.
import { parentPort, workerData } from 'node:worker_threads';
import { PcmMeter, type MeterKind, type PcmMeterOptions } from './pcm-meters.js';
import { PcmRing, type PcmRingBuffers } from './pcm-ring.js';

export interface MeterWorkerData {
  kinds: MeterKind[];
  options: PcmMeterOptions;
  ring: PcmRingBuffers;
  /** This thread's reader number on the ring. */
  reader: number;
}

const { kinds, options, ring: buffers, reader } = workerData as MeterWorkerData;

/**
 * The measuring loop is a function's, not the module body's. In the body of this module, run unbundled (the engine in
 * process, as the MCP server runs it), the same loop made a 60-minute podcast's check take 1.22 times the wall time and
 * 1.28 times the CPU it takes from the CLI's bundle. The time was in the statistics kernel, whose loop then kept a
 * dozen vectors on the stack and ran at a speed that depended on the frames above it; it no longer does
 * (stats-scan.wat).
 */
function measure(): void {
  const ring = PcmRing.attach(buffers);
  const meters = kinds.map((kind) => new PcmMeter(kind, options));
  let seq = 0;
  for (let frames = ring.take(seq); frames >= 0; frames = ring.take(seq)) {
    const planes = ring.planes(seq, frames);
    for (const meter of meters) meter.push(planes);
    ring.release(reader, seq++);
  }
  if (!ring.aborted) parentPort!.postMessage({ results: meters.map((meter) => meter.result()) });
}

measure();
