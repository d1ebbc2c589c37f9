// Worker thread running one PCM meter (see pcm-meters.ts): it is sent batches of planar float frames,
// acknowledges each once measured (the parent's back-pressure), and answers `finish` with the result (the parent
// then ends the thread).
import { parentPort, workerData } from 'node:worker_threads';
import { PcmMeter, planesOf, type MeterKind, type PcmMeterOptions } from './pcm-meters.js';

/**
 * A batch is a SharedArrayBuffer that both meter threads read, one plane per channel of batch.length / channels
 * floats, of which the first `frames` are filled; it is not written again until both have acknowledged it.
 */
export type MeterWorkerMessage = { batch: Float32Array; frames: number } | { finish: true };

const { kind, options } = workerData as { kind: MeterKind; options: PcmMeterOptions };
const meter = new PcmMeter(kind, options);
const port = parentPort!;
port.on('message', (message: MeterWorkerMessage) => {
  if ('batch' in message) {
    meter.push(planesOf(message.batch, options.channels, message.frames));
    port.postMessage({ done: true });
  } else {
    port.postMessage({ result: meter.result() });
  }
});
