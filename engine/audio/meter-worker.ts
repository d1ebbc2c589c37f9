// Worker thread running PCM meters (see pcm-meters.ts) on the batches of a shared ring (pcm-ring.ts): it measures
// each batch as it is published with each of its meters in turn, releases it, and once the ring is closed posts the
// meters' results in the order of its kinds. An aborted ring ends it without them.
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { PcmMeter, type MeterKind, type PcmMeterOptions } from './pcm-meters.js';
import { PcmRing, type PcmRingBuffers } from './pcm-ring.js';

export interface MeterWorkerData {
  kinds: MeterKind[];
  options: PcmMeterOptions;
  ring: PcmRingBuffers;
  /** This thread's reader number on the ring. */
  reader: number;
  /** Run below the process's priority (see {@link yieldToTheDecoder}). */
  yieldToDecoder: boolean;
}

const { kinds, options, ring: buffers, reader, yieldToDecoder } = workerData as MeterWorkerData;

/**
 * How much lower than the process the meters run (nice values) for sound alone. The decoder is then one thread, the
 * chain the check waits on, and the meters keep up with it either way; at the same priority the scheduler took it off
 * a core for them 31 000 times on a 60-minute podcast. 10 farm-bench pairs of that check: 0.94x the wall time at +10,
 * 0.96x at +19, the same CPU. Beside a picture it is not done: the decoder fills both cores, the meter thread fell
 * behind, and the decoder then waited on its full audio pipe (a 10-minute 720p technical check, 1.41x its decode
 * against 1.20x).
 */
const METER_NICE_STEP = 10;

/** Only Linux gives each thread its own nice value; elsewhere the call would lower the whole process. */
function yieldToTheDecoder(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, Math.min(19, getPriority(0) + METER_NICE_STEP));
  } catch {
    // A priority that cannot be changed leaves the meters as they were.
  }
}

/**
 * The measuring loop is a function's, not the module body's. In the body of this module, run unbundled (the engine in
 * process, as the MCP server runs it), the same loop made a 60-minute podcast's check take 1.22 times the wall time and
 * 1.28 times the CPU it takes from the CLI's bundle. The time was in the statistics kernel, whose loop then kept a
 * dozen vectors on the stack and ran at a speed that depended on the frames above it; it no longer does
 * (stats-scan.wat).
 */
function measure(): void {
  if (yieldToDecoder) yieldToTheDecoder();
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
