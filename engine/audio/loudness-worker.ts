// Runs a LoudnessMeter on its own thread: the decode pass sends it the planar PCM chunks it also measures itself,
// so the meter's K-weighting and true-peak oversampling use the second core instead of queuing behind the rest.
import { parentPort, workerData } from 'node:worker_threads';
import { LoudnessMeter, type LoudnessMeterOptions } from './loudness.js';

export type LoudnessWorkerMessage = { type: 'chunk'; planes: Float32Array[] } | { type: 'finish' };

const port = parentPort;
if (port) {
  const meter = new LoudnessMeter(workerData as LoudnessMeterOptions);
  port.on('message', (message: LoudnessWorkerMessage) => {
    if (message.type === 'chunk') {
      meter.push(message.planes);
      port.postMessage({ type: 'ack' });
    } else port.postMessage({ type: 'result', result: meter.result() });
  });
}
