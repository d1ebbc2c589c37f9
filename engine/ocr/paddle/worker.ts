// Model inference in a worker thread: the decode pass keeps reading frames while a picture is read. The worker only
// runs the two ONNX sessions; preparing tensors and reading their output happens in the caller (detect.ts,
// recognise.ts). Its code is a string so that it runs the same from the TypeScript sources, the compiled files and
// the bundled CLI, none of which need to know where the others put a worker file.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ModelFiles } from './models.js';
import type { FloatTensor } from './tensor.js';

export type ModelName = 'detection' | 'recognition';

/**
 * Threads each model call runs on. While OCR is the slowest part of a check the decoder waits for it, so the cores it
 * leaves are free: two threads read a 960 px picture about a quarter faster on two cores (same output; ORT splits a
 * call's work by output, not by sum). More than 4 gain little on pictures this size.
 */
const MAX_INFERENCE_THREADS = 4;
const inferenceThreads = () => Math.max(1, Math.min(MAX_INFERENCE_THREADS, availableParallelism()));

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const ort = await import(workerData.runtime);
  ort.env.wasm.numThreads = workerData.threads;
  ort.env.logLevel = 'error';
  const sessions = {
    detection: await ort.InferenceSession.create(workerData.detection),
    recognition: await ort.InferenceSession.create(workerData.recognition),
  };
  parentPort.on('message', async ({ id, model, data, dims }) => {
    try {
      const session = sessions[model];
      const out = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', data, dims) });
      const tensor = out[session.outputNames[0]];
      const copy = Float32Array.from(tensor.data);
      parentPort.postMessage({ id, data: copy, dims: tensor.dims }, [copy.buffer]);
    } catch (err) {
      parentPort.postMessage({ id, error: String(err) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((err) => parentPort.postMessage({ failed: String(err) }));
`;

interface Reply {
  id?: number;
  data?: Float32Array;
  dims?: number[];
  error?: string;
  ready?: boolean;
  failed?: string;
}

/** One worker thread holding both sessions; `run` posts a tensor and resolves with the model's output. */
export class InferenceWorker {
  private readonly worker: Worker;
  private readonly calls = new Map<number, { resolve: (t: FloatTensor) => void; reject: (err: Error) => void }>();
  private next = 0;
  private ended: Error | null = null;
  /** Settles when both models are loaded (rejects when they cannot be). */
  readonly ready: Promise<void>;

  constructor(files: ModelFiles, runtime: string) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...files, runtime, threads: inferenceThreads() } });
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (m: Reply) => {
        if (m.ready) resolve();
        else if (m.failed) reject(new Error(`OCR models failed to load: ${m.failed}`));
        else if (m.id !== undefined) this.answer(m);
      });
      const end = (err: Error) => {
        this.ended ??= err;
        reject(err);
        for (const call of this.calls.values()) call.reject(err);
        this.calls.clear();
      };
      this.worker.on('error', end);
      this.worker.on('exit', () => end(new Error('OCR worker exited')));
    });
    // A worker that never became ready is reported by the call that awaits it, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private answer(m: Reply): void {
    const call = this.calls.get(m.id!);
    this.calls.delete(m.id!);
    if (!call) return;
    if (m.error !== undefined) call.reject(new Error(m.error));
    else call.resolve({ data: m.data!, dims: m.dims! });
  }

  async run(model: ModelName, input: FloatTensor): Promise<FloatTensor> {
    await this.ready;
    if (this.ended) throw this.ended;
    const id = this.next++;
    return new Promise<FloatTensor>((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.worker.postMessage({ id, model, data: input.data, dims: input.dims }, [input.data.buffer as ArrayBuffer]);
    });
  }

  /** Calls posted and not yet answered. */
  get busy(): boolean {
    return this.calls.size > 0;
  }

  /** Whether the thread keeps the process alive: while a check uses it, not while it waits idle for the next. */
  keepAlive(on: boolean): void {
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  get usable(): boolean {
    return this.ended === null;
  }

  async terminate(): Promise<void> {
    await this.worker.terminate().catch(() => undefined);
  }
}
