// Worker thread running one PCM meter (see pcm-meters.ts): it is sent batches of planar float frames,
// acknowledges each once measured (the parent's back-pressure), and answers `finish` with the result (the parent
// then ends the thread).
import { parentPort, workerData } from 'node:worker_threads';
import { PcmMeter, type MeterKind, type PcmMeterOptions } from './pcm-meters.js';

/** A batch is one view per channel of a SharedArrayBuffer that both meter threads read; it is not written again until both have acknowledged it. */
export type MeterWorkerMessage = { planes: Float32Array[] } | { finish: true };

const { kind, options } = workerData as { kind: MeterKind; options: PcmMeterOptions };
const meter = new PcmMeter(kind, options);
const port = parentPort!;
port.on('message', (message: MeterWorkerMessage) => {
  if ('planes' in message) {
    meter.push(message.planes);
    port.postMessage({ done: true });
  } else {
    port.postMessage({ result: meter.result() });
  }
});
