// Runs the two PCM meters of the decode pass either here or, for long programmes, each in a worker thread of its
// own: the loudness meter and the statistics then measure in parallel with each other and with the main thread (which
// reads the pipes, and for a video measures frames) instead of queueing on one core behind each other. Both ways run
// the same meter code on the same frames.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoudnessMeasurements } from '../types.js';
import { deinterleave, Deinterleaver, PcmMeter, planesOf, type MeterKind, type PcmMeterOptions } from './pcm-meters.js';
import type { MeterWorkerMessage } from './meter-worker.js';
import type { AudioStats } from './stats.js';

/** Programmes at least this long are measured in worker threads (below it, starting two workers costs more than it saves). */
export const WORKER_MIN_SECONDS = 30;
/** Frames are sent to the workers in batches of about this many bytes. */
const BATCH_BYTES = 1 << 20;
/** Batches a worker may have queued before the source is asked to pause ... */
const MAX_QUEUED_BATCHES = 4;
/** ... and the queue it must come down to before the source resumes. */
const RESUME_QUEUED_BATCHES = 1;

export interface AudioMeasurements {
  loudness: LoudnessMeasurements;
  stats: AudioStats;
}

export interface AudioAnalysis {
  /** Where the meters run. */
  readonly where: 'threads' | 'main';
  /** Whole interleaved frames; the caller may reuse the array once this returns. */
  push(interleaved: Float32Array): void;
  /** True while the meters are behind: the caller should pause its source until {@link whenCaughtUp} resolves. */
  readonly behind: boolean;
  whenCaughtUp(): Promise<void>;
  finish(): Promise<AudioMeasurements>;
  /** Stops the meters (a cancelled or failed decode). */
  abort(): Promise<void>;
}

class InThreadAnalysis implements AudioAnalysis {
  private readonly loudness: PcmMeter<'loudness'>;
  private readonly stats: PcmMeter<'stats'>;
  private readonly split: Deinterleaver;
  readonly where = 'main';
  readonly behind = false;

  constructor(opts: PcmMeterOptions) {
    this.loudness = new PcmMeter('loudness', opts);
    this.stats = new PcmMeter('stats', opts);
    this.split = new Deinterleaver(opts.channels);
  }

  push(interleaved: Float32Array): void {
    const planar = this.split.planar(interleaved);
    this.loudness.push(planar);
    this.stats.push(planar);
  }

  whenCaughtUp(): Promise<void> {
    return Promise.resolve();
  }

  async finish(): Promise<AudioMeasurements> {
    return { loudness: this.loudness.result(), stats: this.stats.result() };
  }

  async abort(): Promise<void> {}
}

/** A batch of frames shared by the two threads, one plane per channel, back in the pool once both have measured it. */
interface Batch {
  /** The whole shared buffer: the planes end to end. */
  floats: Float32Array;
  planes: Float32Array[];
  readers: number;
}

/** One meter in a worker thread, with its queue of unacknowledged batches (acknowledged in order). */
class MeterThread<R> {
  private readonly worker: Worker;
  private readonly sent: Batch[] = [];
  private failure: Error | null = null;
  private readonly result: Promise<R>;

  /** `onMeasured` is called with each batch measured, `onFailed` when the thread fails or stops. */
  constructor(kind: MeterKind, opts: PcmMeterOptions, onMeasured: (batch: Batch) => void, onFailed: () => void) {
    this.worker = new Worker(workerUrl(), { workerData: { kind, options: opts } });
    this.result = new Promise<R>((resolve, reject) => {
      this.worker.on('message', (message: { done?: true; result?: R }) => {
        if (message.done) onMeasured(this.sent.shift()!);
        else resolve(message.result as R);
      });
      this.worker.on('error', (err) => {
        this.failure = err;
        reject(err);
        onFailed();
      });
      this.worker.on('exit', (code) => {
        const err = new Error(`the ${kind} meter thread stopped (exit ${code})`);
        reject(err);
        if (!this.failure) this.failure = err;
        onFailed();
      });
    });
    // Rejections surface when finish() awaits the result.
    this.result.catch(() => undefined);
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  get queued(): number {
    return this.sent.length;
  }

  send(batch: Batch, frames: number): void {
    this.sent.push(batch);
    const message: MeterWorkerMessage = { batch: batch.floats, frames };
    this.worker.postMessage(message);
  }

  async finish(): Promise<R> {
    this.worker.postMessage({ finish: true });
    try {
      return await this.result;
    } finally {
      await this.worker.terminate();
    }
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

class WorkerAnalysis implements AudioAnalysis {
  readonly where = 'threads';
  private readonly loudness: MeterThread<LoudnessMeasurements>;
  private readonly stats: MeterThread<AudioStats>;
  private readonly channels: number;
  /** Frames of one batch. */
  private readonly batchFrames: number;
  /** Batches both threads have measured, to be filled again: memory stays a few batches whatever the duration. */
  private readonly pool: Batch[] = [];
  private batch: Batch;
  private filled = 0;
  private waiters: (() => void)[] = [];

  constructor(opts: PcmMeterOptions) {
    const measured = (batch: Batch) => {
      if (--batch.readers === 0) this.pool.push(batch);
      this.wake();
    };
    const failed = () => this.wake();
    this.loudness = new MeterThread('loudness', opts, measured, failed);
    this.stats = new MeterThread('stats', opts, measured, failed);
    this.channels = opts.channels;
    this.batchFrames = batchFloats(opts.channels) / opts.channels;
    this.batch = this.nextBatch();
  }

  get behind(): boolean {
    return Math.max(this.loudness.queued, this.stats.queued) >= MAX_QUEUED_BATCHES;
  }

  /** Splits the frames into the batch's planes as it copies them in: once for both threads. */
  push(interleaved: Float32Array): void {
    const channels = this.channels;
    const frames = Math.floor(interleaved.length / channels);
    let offset = 0;
    while (offset < frames) {
      const take = Math.min(frames - offset, this.batchFrames - this.filled);
      deinterleave(interleaved.subarray(offset * channels, (offset + take) * channels), this.batch.planes, this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.batchFrames) this.dispatch();
    }
  }

  whenCaughtUp(): Promise<void> {
    if (this.caughtUp()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async finish(): Promise<AudioMeasurements> {
    if (this.filled > 0) this.dispatch();
    const [loudness, stats] = await Promise.all([this.loudness.finish(), this.stats.finish()]);
    return { loudness, stats };
  }

  async abort(): Promise<void> {
    await Promise.all([this.loudness.stop(), this.stats.stop()]);
  }

  private caughtUp(): boolean {
    return Math.max(this.loudness.queued, this.stats.queued) <= RESUME_QUEUED_BATCHES || this.loudness.failed || this.stats.failed;
  }

  private wake(): void {
    if (!this.caughtUp()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Both threads read the one shared batch (nothing is copied). */
  private dispatch(): void {
    this.batch.readers = 2;
    this.stats.send(this.batch, this.filled);
    this.loudness.send(this.batch, this.filled);
    this.batch = this.nextBatch();
    this.filled = 0;
  }

  private nextBatch(): Batch {
    const pooled = this.pool.pop();
    if (pooled) return pooled;
    const floats = new Float32Array(new SharedArrayBuffer(this.batchFrames * this.channels * Float32Array.BYTES_PER_ELEMENT));
    return { floats, planes: planesOf(floats, this.channels, this.batchFrames), readers: 0 };
  }
}

/** Floats of one batch sent to the threads: whole frames. The meters see the PCM in pushes of this size. */
export function batchFloats(channels: number): number {
  return Math.max(1, Math.floor(BATCH_BYTES / 4 / channels)) * channels;
}

/** The compiled worker entry beside this module; absent when this module runs from TypeScript source (tests). */
function workerUrl(): URL {
  return new URL('./meter-worker.js', import.meta.url);
}

function workersAvailable(): boolean {
  return import.meta.url.endsWith('.js') && existsSync(fileURLToPath(workerUrl())) && availableParallelism() >= 2;
}

/** The analysis for a programme of about `seconds`: in worker threads when it is long and they can run. */
export function createAudioAnalysis(opts: PcmMeterOptions, seconds: number): AudioAnalysis {
  return seconds >= WORKER_MIN_SECONDS && workersAvailable() ? new WorkerAnalysis(opts) : new InThreadAnalysis(opts);
}
