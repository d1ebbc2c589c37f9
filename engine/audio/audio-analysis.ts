// Runs the two PCM meters of the decode pass either here or, for long programmes, in worker threads: each in a thread of
// its own for sound alone, both in one beside a picture's decode (meterThreadsFor). The loudness meter and the
// statistics then measure in parallel with the main thread (which reads the other pipes, and for a video measures
// frames) instead of queueing on one core behind it. Every way runs the same meter code on the same batches of frames.
import { closeSync, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoudnessMeasurements } from '../types.js';
import { deinterleave, Deinterleaver, PcmMeter, pcmStagingBytes, type MeterKind, type PcmMeterOptions } from './pcm-meters.js';
import type { MeterWorkerData } from './meter-worker.js';
import type { PcmReaderMessage, PcmReaderWorkerData } from './pcm-reader-worker.js';
import { PcmRing } from './pcm-ring.js';
import type { AudioStats } from './stats.js';

/**
 * Programmes at least this long are measured in worker threads (below it, starting two workers costs more than it
 * saves). Measured with the WebAssembly meters, podcast checks in the main thread against threads: 2 min 7 % faster
 * and 20 MB smaller, 5 min even, 10 min 4 % slower; a 1-min 720p screen recording 2 % faster and 32 MB smaller.
 */
export const WORKER_MIN_SECONDS = 180;
/**
 * Programmes at least this long have their PCM read from the pipe by a thread of its own. Measured on a podcast: the
 * thread (its start and 10 MB) cost 3 % more time on 1 minute and saved 12 % on 10 minutes.
 */
export const PIPE_READER_MIN_SECONDS = 300;
/** The threads' meters take frames in batches of about this many bytes. */
const BATCH_BYTES = 1 << 20;
/** Batches the meters may have queued before the source is asked to pause ... */
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
  /** Whole interleaved frames; the caller may reuse the array once this returns. Not for an analysis reading a pipe. */
  push(interleaved: Float32Array): void;
  /** Frames taken in so far (pushed, or read from the pipe a batch at a time). */
  readonly frames: number;
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
  frames = 0;

  constructor(opts: PcmMeterOptions) {
    this.loudness = new PcmMeter('loudness', opts);
    this.stats = new PcmMeter('stats', opts);
    this.split = new Deinterleaver(opts.channels);
  }

  push(interleaved: Float32Array): void {
    const planar = this.split.planar(interleaved);
    this.frames += planar[0].length;
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

/** A worker thread that posts one message: its result, or nothing when its ring was aborted. */
class ResultThread<R> {
  private readonly worker: Worker;
  private readonly result: Promise<R>;

  /** `onFailed` is called when the thread fails or stops without its result. */
  constructor(file: string, workerData: unknown, what: string, onFailed: () => void) {
    this.worker = new Worker(workerUrl(file), { workerData });
    this.result = new Promise<R>((resolve, reject) => {
      let answered = false;
      this.worker.on('message', (message: R) => {
        answered = true;
        resolve(message);
      });
      this.worker.on('error', (err) => {
        reject(err);
        onFailed();
      });
      this.worker.on('exit', (code) => {
        if (answered) return;
        reject(new Error(`the ${what} thread stopped (exit ${code})`));
        onFailed();
      });
    });
    // Rejections surface when the result is awaited.
    this.result.catch(() => undefined);
  }

  async finish(): Promise<R> {
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

/** Slots of the ring: the batches being measured, queued and filled. */
const RING_SLOTS = MAX_QUEUED_BATCHES + 2;

/**
 * The meters in worker threads (one for both, or one each) reading one shared ring of batches (pcm-ring.ts), each
 * batch split into channel planes once for both meters. The batches come from the caller's pushes or, given a pipe's
 * file descriptor, from another thread that reads the decoder's PCM itself with blocking reads (pcm-reader-worker.ts):
 * then the PCM never passes through the main thread, and the decoder waits on the pipe while the meters catch up.
 */
class WorkerAnalysis implements AudioAnalysis {
  readonly where = 'threads';
  private readonly ring: PcmRing;
  /** The meter threads: both meters in one, or one each (loudness, then statistics). */
  private readonly meters: ResultThread<{ results: (LoudnessMeasurements | AudioStats)[] }>[];
  private readonly reader: ResultThread<PcmReaderMessage> | null = null;
  private readonly batchFrames: number;
  /** The batch the caller's pushes are filling, and how far. */
  private seq = 0;
  private planes: Float32Array[] | null = null;
  private filled = 0;
  private pushed = 0;
  private failed = false;

  constructor(opts: PcmMeterOptions, private pipeFd: number | null, meterThreads: MeterThreads) {
    this.batchFrames = batchFloats(opts.channels) / opts.channels;
    const groups: MeterKind[][] = meterThreads === 1 ? [['loudness', 'stats']] : [['loudness'], ['stats']];
    this.ring = PcmRing.create(RING_SLOTS, opts.channels, this.batchFrames, groups.length, pipeFd === null ? 0 : pcmStagingBytes(opts.channels));
    const failed = () => {
      this.failed = true;
      this.ring.abort();
    };
    this.meters = groups.map((kinds, reader) => {
      // Sound alone (a meter a thread): the meters yield to the decoder (meter-worker.ts says why, and why not beside a picture).
      const data: MeterWorkerData = { kinds, options: opts, ring: this.ring.buffers, reader, yieldToDecoder: meterThreads === 2 };
      return new ResultThread('meter-worker.js', data, `${kinds.join(' and ')} meter`, failed);
    });
    if (pipeFd !== null) {
      const data: PcmReaderWorkerData = { fd: pipeFd, ring: this.ring.buffers };
      this.reader = new ResultThread('pcm-reader-worker.js', data, 'PCM reader', failed);
    }
  }

  get frames(): number {
    return this.reader ? this.ring.publishedFrames : this.pushed;
  }

  get behind(): boolean {
    return this.ring.queued >= MAX_QUEUED_BATCHES && !this.failed;
  }

  /** Splits the frames into the ring's planes as it copies them in: once for both threads. */
  push(interleaved: Float32Array): void {
    if (this.reader) throw new Error('this audio analysis reads its PCM from a pipe');
    const channels = this.ring.buffers.channels;
    const frames = Math.floor(interleaved.length / channels);
    let offset = 0;
    while (offset < frames) {
      // A caller that ignores `behind` waits here rather than overwriting a batch still being measured.
      if (!this.planes && !this.ring.waitFree(this.seq)) return;
      this.planes ??= this.ring.planes(this.seq);
      const take = Math.min(frames - offset, this.batchFrames - this.filled);
      deinterleave(interleaved.subarray(offset * channels, (offset + take) * channels), this.planes, this.filled);
      this.filled += take;
      offset += take;
      this.pushed += take;
      if (this.filled === this.batchFrames) this.publish();
    }
  }

  async whenCaughtUp(): Promise<void> {
    await this.ring.whenQueuedAtMost(RESUME_QUEUED_BATCHES);
  }

  async finish(): Promise<AudioMeasurements> {
    try {
      if (this.reader) {
        const read = await this.reader.finish();
        if ('error' in read) throw new Error(`reading the decoded audio failed: ${read.error}`);
      } else {
        if (this.filled > 0) this.publish();
        this.ring.close();
      }
      const [loudness, stats] = (await Promise.all(this.meters.map((meter) => meter.finish()))).flatMap((thread) => thread.results);
      return { loudness: loudness as LoudnessMeasurements, stats: stats as AudioStats };
    } catch (err) {
      await this.abort();
      throw err;
    } finally {
      this.closePipe();
    }
  }

  async abort(): Promise<void> {
    this.ring.abort();
    await Promise.all([...this.meters.map((meter) => meter.stop()), this.reader?.stop()]);
    this.closePipe();
  }

  private publish(): void {
    this.ring.publish(this.seq++, this.filled);
    this.planes = null;
    this.filled = 0;
  }

  /** The reader thread's pipe is closed once it has stopped (closing it under a blocking read would not end the read). */
  private closePipe(): void {
    if (this.pipeFd === null) return;
    closeSync(this.pipeFd);
    this.pipeFd = null;
  }
}

/** Floats of one batch sent to the threads: whole frames. The meters see the PCM in pushes of this size. */
export function batchFloats(channels: number): number {
  return Math.max(1, Math.floor(BATCH_BYTES / 4 / channels)) * channels;
}

/** The compiled worker entry beside this module; absent when this module runs from TypeScript source (tests). */
function workerUrl(file: string): URL {
  return new URL(`./${file}`, import.meta.url);
}

function workersAvailable(): boolean {
  const files = ['meter-worker.js', 'pcm-reader-worker.js'];
  return import.meta.url.endsWith('.js') && files.every((file) => existsSync(fileURLToPath(workerUrl(file)))) && availableParallelism() >= 2;
}

/** Where the meters of a programme of about `seconds` run: in worker threads when it is long and they can. */
export function audioAnalysisPlace(seconds: number): AudioAnalysis['where'] {
  return seconds >= WORKER_MIN_SECONDS && workersAvailable() ? 'threads' : 'main';
}

/** Whether the PCM of a programme of about `seconds` is worth a thread that reads the decoder's pipe itself. */
export function wantsPipeReader(seconds: number): boolean {
  return seconds >= PIPE_READER_MIN_SECONDS && audioAnalysisPlace(seconds) === 'threads';
}

/** Threads the meters of an analysis in threads run in: both in one, or one each. */
export type MeterThreads = 1 | 2;

/**
 * The meter threads of a programme whose picture is decoded too, or of sound alone. A picture's decoder keeps the
 * cores busy, so a second meter thread buys no time there and costs its isolate: on a 10-minute 1080p pattern's
 * technical check one thread for both took 0.99× the time of two (three pairs) and 9 MB less, and on the hour the
 * process tree's peak fell from 302 to 294 MB. Sound alone leaves the meters a core of their own, where each in its
 * own thread keeps up with the decoder.
 */
export function meterThreadsFor(withPicture: boolean): MeterThreads {
  return withPicture ? 1 : 2;
}

/**
 * The analysis for a programme of about `seconds`. Given `pipeFd`, the read end of a blocking pipe the decoder writes
 * the PCM to, an analysis in threads reads it there and owns it (it closes it); otherwise the caller pushes the PCM.
 */
export function createAudioAnalysis(opts: PcmMeterOptions, seconds: number, pipeFd: number | null = null, meterThreads: MeterThreads = 2): AudioAnalysis {
  return audioAnalysisPlace(seconds) === 'threads' ? new WorkerAnalysis(opts, pipeFd, meterThreads) : new InThreadAnalysis(opts);
}
