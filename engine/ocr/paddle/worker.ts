// Model inference in a child process: the decode pass keeps reading frames while a picture is read. The child runs
// the two ONNX sessions, and the steps next to them whose data is large (a picture's detector input and line boxes, the
// recogniser's columns the decoder reads) with detect.ts's and recognise.ts's own functions; everything else happens
// in the caller. A process rather than a thread because a call that times out must be ended wherever it is, and
// ending a thread inside a native runtime call aborts the whole process; a process is killed safely. Its code is a
// string so that it runs the same from the TypeScript sources, the compiled files and the bundled CLI, none of which
// need to know where the others put a worker file.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { RgbPicture } from '../contrast.js';
import { boxesOfMap, DETECTION_BOXES, DETECTION_INPUT, detectionTensor, type DetectedBox } from './detect.js';
import { keptColumns } from './recognise.js';
import type { ModelFiles, OcrRuntime } from './models.js';
import type { FloatTensor } from './tensor.js';

export type ModelName = 'detection' | 'recognition';

/**
 * Threads each model call runs on. While OCR is the slowest part of a check the decoder waits for it, so the cores it
 * leaves are free: two threads read a 960 px picture about a fifth (native) to a quarter (WebAssembly) faster on two
 * cores (same output; ORT splits a call's work by output, not by sum). More than 4 gain little on pictures this size.
 */
const MAX_INFERENCE_THREADS = 4;
const inferenceThreads = () => Math.max(1, Math.min(MAX_INFERENCE_THREADS, availableParallelism()));

/** Bytes of buffers the OCR child lets go between its collections (see WORKER_SOURCE). */
const GC_BUDGET_BYTES = 16 * 1024 * 1024;

// The child ends itself when its parent goes (exit, crash or kill), even in the middle of a call. A picture to detect
// text in is sent as it is and its line boxes come back: a quarter of the bytes of the detector's input one way and
// next to none of its map the other, and no tensor or map for the parent to allocate and collect. The functions are
// self-contained, so their source runs here as it runs in the parent.
const WORKER_SOURCE = `
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
const { stride, scale, shift } = ${JSON.stringify(DETECTION_INPUT)};
const DETECTION_BOXES = ${JSON.stringify(DETECTION_BOXES)};
const detectionTensor = ${detectionTensor.toString()};
const boxesOfMap = ${boxesOfMap.toString()};
const keptColumns = ${keptColumns.toString()};
(async () => {
  const setup = JSON.parse(process.argv[1]);
  const loaded = await import(setup.runtime.url);
  const ort = loaded.InferenceSession ? loaded : loaded.default;
  ort.env.logLevel = 'error';
  let options = {};
  if (setup.runtime.package === 'onnxruntime-node') {
    // Spinning threads between calls would take the cores the decoder needs. The CPU memory arena stays on: without it
    // every call allocates its activations afresh, and a 960 px detection costs 2.6 times the CPU. Memory patterns
    // (a plan kept per input shape) are off: crops and lines come in many shapes, so they only hold memory (about
    // 70 MB) and did not make a call faster. Neither changes an output.
    options = { intraOpNumThreads: setup.threads, interOpNumThreads: 1, enableCpuMemArena: true, enableMemPattern: false, extra: { session: { intra_op: { allow_spinning: '0' } } } };
  } else ort.env.wasm.numThreads = setup.threads;
  const sessions = {
    detection: await ort.InferenceSession.create(setup.detection, options),
    recognition: await ort.InferenceSession.create(setup.recognition, options),
  };
  // The detector's input and the box search's arrays are kept from call to call. What a call still leaves behind (the
  // message it was sent, the runtime's output, the reply) lies outside the JS heap, which barely grows here, so V8
  // would collect it only once some 64 MB had piled up: it is collected every GC_BUDGET bytes instead.
  let detectorInput;
  const scratch = { seen: new Uint8Array(0), stack: new Int32Array(0) };
  const GC_BUDGET = ${GC_BUDGET_BYTES};
  let uncollected = 0;
  process.on('message', async ({ id, model, data, dims, picture, keep }) => {
    try {
      const session = sessions[model];
      // Taken while the runtime reads it, so that a call arriving meanwhile builds its own.
      const spare = detectorInput;
      detectorInput = undefined;
      const input = picture ? detectionTensor(picture.rgb, picture.width, picture.height, stride, scale, shift, spare) : { data, dims };
      const out = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', input.data, input.dims) });
      detectorInput = picture ? input.data : spare;
      const tensor = out[session.outputNames[0]];
      // What was sent and what the runtime made (a reply, smaller than the output it comes from, rides along).
      uncollected += (picture ? picture.rgb : data).byteLength + tensor.data.byteLength;
      if (picture) {
        const [mapHeight, mapWidth] = tensor.dims.slice(-2);
        process.send({ id, boxes: boxesOfMap(tensor.data, mapWidth, mapHeight, picture.width, picture.height, DETECTION_BOXES, scratch) });
      } else if (keep) {
        const [batch, steps, classes] = tensor.dims;
        process.send({ id, data: keptColumns(tensor.data, batch * steps, classes, keep), dims: [batch, steps, keep.length] });
      } else process.send({ id, data: tensor.data, dims: tensor.dims });
    } catch (err) {
      process.send({ id, error: String(err) });
    }
    if (uncollected >= GC_BUDGET) {
      uncollected = 0;
      gc();
    }
  });
  process.send({ ready: true });
})().catch((err) => process.send({ failed: String(err) }));
`;

interface Reply {
  id?: number;
  data?: Float32Array;
  dims?: number[];
  boxes?: DetectedBox[];
  error?: string;
  ready?: boolean;
  failed?: string;
}

/**
 * One child process holding both sessions: `detect` answers a picture's line boxes, `recognise` the columns the
 * decoder reads, `run` a model's whole output.
 */
export class InferenceWorker {
  private readonly child: ChildProcess;
  private readonly calls = new Map<number, { resolve: (answer: FloatTensor | DetectedBox[]) => void; reject: (err: Error) => void }>();
  private next = 0;
  private ended: Error | null = null;
  private readonly exited: Promise<void>;
  /** Settles when both models are loaded (rejects when they cannot be). */
  readonly ready: Promise<void>;

  constructor(files: ModelFiles, runtime: OcrRuntime) {
    const setup = JSON.stringify({ ...files, runtime, threads: inferenceThreads() });
    // stdout stays untouched: in stdio MCP mode it carries the protocol alone.
    this.child = spawn(process.execPath, ['--expose-gc', '-e', WORKER_SOURCE, setup], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
    this.exited = new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.once('error', () => resolve());
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.on('message', (m: Reply) => {
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
      this.child.on('error', end);
      this.child.on('exit', () => end(new Error('OCR worker exited')));
    });
    // A worker that never became ready is reported by the call that awaits it, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private answer(m: Reply): void {
    const call = this.calls.get(m.id!);
    this.calls.delete(m.id!);
    if (!call) return;
    if (m.error !== undefined) call.reject(new Error(m.error));
    else call.resolve(m.boxes ?? { data: m.data!, dims: m.dims! });
  }

  /** Runs `model` on a tensor and answers its output. */
  run(model: ModelName, input: FloatTensor): Promise<FloatTensor> {
    return this.call<FloatTensor>({ model, data: input.data, dims: input.dims });
  }

  /** The recogniser's output for `input` (lines × columns × classes), of the classes `keep` only (keptColumns). */
  recognise(input: FloatTensor, keep: Int32Array): Promise<FloatTensor> {
    return this.call<FloatTensor>({ model: 'recognition', data: input.data, dims: input.dims, keep });
  }

  /** The line boxes the detector finds in a picture: detectedBoxes(map of detectionInput(picture)), made in the child. */
  detect(picture: RgbPicture): Promise<DetectedBox[]> {
    const { rgb, width, height } = picture;
    return this.call<DetectedBox[]>({ model: 'detection', picture: { rgb, width, height } });
  }

  /** Sends one call; its answer is the kind of reply that message asks for (boxes for a picture, else a tensor). */
  private async call<T extends FloatTensor | DetectedBox[]>(message: { model: ModelName; data?: Float32Array; dims?: number[]; picture?: RgbPicture; keep?: Int32Array }): Promise<T> {
    await this.ready;
    if (this.ended) throw this.ended;
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (answer: FloatTensor | DetectedBox[]) => void, reject });
      this.child.send({ id, ...message });
    });
  }

  /** Calls sent and not yet answered. */
  get busy(): boolean {
    return this.calls.size > 0;
  }

  /** Whether the child keeps the process alive: while a check uses it, not while it waits idle for the next. */
  keepAlive(on: boolean): void {
    if (on) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }

  get usable(): boolean {
    return this.ended === null;
  }

  async terminate(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
