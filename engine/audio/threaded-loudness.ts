// The loudness meter on a worker thread when the compiled worker is at hand (the built package), else on this
// thread (tests running the TypeScript sources). Both run the same LoudnessMeter over the same chunks, so the
// figures are identical; only where the work happens differs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoudnessMeasurements } from '../types.js';
import { LoudnessMeter, type LoudnessMeterOptions } from './loudness.js';
import type { LoudnessWorkerMessage } from './loudness-worker.js';

/** Chunks sent but not yet measured before the sender should pause its input (each is ~64 KB of PCM). */
export const MAX_LOUDNESS_BACKLOG = 32;

export interface PcmMeter {
  /** Takes ownership of the planes: the caller must not reuse them. */
  push(planes: Float32Array[]): void;
  readonly backlog: number;
  /** Resolves when the backlog is at most `count` chunks. */
  whenBacklogAtMost(count: number): Promise<void>;
  result(): Promise<LoudnessMeasurements>;
  /** Stops the thread without a result (a failed or cancelled pass). */
  abort(): void;
}

class InlineMeter implements PcmMeter {
  private readonly meter: LoudnessMeter;
  readonly backlog = 0;
  constructor(opts: LoudnessMeterOptions) {
    this.meter = new LoudnessMeter(opts);
  }
  push(planes: Float32Array[]): void {
    this.meter.push(planes);
  }
  whenBacklogAtMost(): Promise<void> {
    return Promise.resolve();
  }
  result(): Promise<LoudnessMeasurements> {
    return Promise.resolve(this.meter.result());
  }
  abort(): void {}
}

class WorkerMeter implements PcmMeter {
  private readonly worker: Worker;
  private pending = 0;
  private waiters: { count: number; resolve: () => void }[] = [];
  private finished: Promise<LoudnessMeasurements> | null = null;
  private resolveResult: ((r: LoudnessMeasurements) => void) | null = null;
  private rejectResult: ((e: Error) => void) | null = null;
  private failure: Error | null = null;

  constructor(script: URL, opts: LoudnessMeterOptions) {
    this.worker = new Worker(script, { workerData: opts });
    this.worker.on('message', (m: { type: 'ack' } | { type: 'result'; result: LoudnessMeasurements }) => {
      if (m.type === 'ack') {
        this.pending--;
        this.waiters = this.waiters.filter((w) => (this.pending <= w.count ? (w.resolve(), false) : true));
      } else {
        this.resolveResult?.(m.result);
        void this.worker.terminate();
      }
    });
    this.worker.on('error', (error) => this.fail(error));
  }

  get backlog(): number {
    return this.pending;
  }

  push(planes: Float32Array[]): void {
    if (this.failure) return;
    this.pending++;
    const message: LoudnessWorkerMessage = { type: 'chunk', planes };
    this.worker.postMessage(message, planes.map((p) => p.buffer as ArrayBuffer));
  }

  whenBacklogAtMost(count: number): Promise<void> {
    if (this.pending <= count || this.failure) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  result(): Promise<LoudnessMeasurements> {
    this.finished ??= new Promise<LoudnessMeasurements>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.resolveResult = resolve;
      this.rejectResult = reject;
      const message: LoudnessWorkerMessage = { type: 'finish' };
      this.worker.postMessage(message);
    });
    return this.finished;
  }

  abort(): void {
    void this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure = error;
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    this.rejectResult?.(error);
  }
}

const WORKER_SCRIPT = new URL('./loudness-worker.js', import.meta.url);

export function createPcmMeter(opts: LoudnessMeterOptions): PcmMeter {
  return existsSync(fileURLToPath(WORKER_SCRIPT)) ? new WorkerMeter(WORKER_SCRIPT, opts) : new InlineMeter(opts);
}
