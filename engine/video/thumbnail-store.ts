// Every frame's thumbnail (loops.ts), for the whole file, compared two at a time by a WebAssembly kernel
// (thumb-distance.wat) sixteen cells at a time. A static picture (a screen recording, a held slide) makes hundreds of
// earlier frames candidates for each new one, and each candidate is compared whole.
//
// The newest frames stay in the kernel's memory, in a ring; older ones go to a temporary file in blocks and are read
// back one at a time when compared, so the memory stays flat however long the file is (an hour at 30 fps is 62 MB of
// 24×24 thumbnails). Candidates are visited newest first, so most comparisons read the ring.
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { growMemory, instantiateKernel } from '../wasm-kernel.js';
import { THUMB_DISTANCE_WASM } from './thumb-distance-kernel.js';

/** Frames the ring grows by until it is full. */
const GROWTH_FRAMES = 4096;

export interface ThumbnailStoreLimits {
  /** Frames kept in memory (a multiple of `spillFrames`): 9 minutes at 30 fps, 9.4 MB of 24×24 thumbnails. */
  residentFrames: number;
  /** Frames written to the file at a time. */
  spillFrames: number;
}

const DEFAULT_LIMITS: ThumbnailStoreLimits = { residentFrames: 16 * 1024, spillFrames: 1024 };

interface DistanceKernel {
  memory: WebAssembly.Memory;
  distance(a: number, b: number, size: number, cellMax: number, limit: number): number;
}

/** The kernel's "no limit": larger than any sum of thumbnail cells. */
const NO_LIMIT = 0x7fffffff;

/** Which of two places a spilled thumbnail is read into: a comparison's two sides never share one. */
export type Side = 0 | 1;

/** The open file older thumbnails go to; `path` only while it could not be unlinked yet. */
interface SpillFile {
  fd: number;
  path: string | null;
}

/** A spill file's descriptor is closed when its store is collected, should a check end without closing it. */
const spillFiles = new FinalizationRegistry<SpillFile>((file) => closeSpill(file));

function closeSpill(file: SpillFile): void {
  closeSync(file.fd);
  // A file left behind in the temporary folder is not worth failing a check (or a collection) for.
  if (!file.path) return;
  try {
    unlinkSync(file.path);
  } catch {
    // left for the system's clean-up of its temporary folder
  }
}

/** Thumbnails of equal size, frame by frame. */
export class ThumbnailStore {
  private readonly kernel = instantiateKernel<DistanceKernel>(THUMB_DISTANCE_WASM, 0);
  /** The kernel's memory as bytes (a new view after it grows): two sides, then the ring. */
  bytes = new Uint8Array(this.kernel.memory.buffer);
  size = 0;
  length = 0;
  /** Frames before this one are in the file, no longer in the ring. */
  private spilled = 0;
  /** The frame each side holds, or −1. */
  private readonly sideFrame = [-1, -1];
  private file: SpillFile | null = null;
  /** Infinity once no spill file could be made: every thumbnail then stays in memory, as the ring never wrapped. */
  private residentFrames: number;
  private readonly spillFrames: number;

  constructor({ residentFrames, spillFrames }: ThumbnailStoreLimits = DEFAULT_LIMITS) {
    if (residentFrames % spillFrames !== 0 || residentFrames < 2 * spillFrames) {
      throw new RangeError('residentFrames must be a multiple of spillFrames, at least two of them');
    }
    this.residentFrames = residentFrames;
    this.spillFrames = spillFrames;
  }

  push(thumb: Uint8Array): void {
    if (this.length === 0) this.size = thumb.length;
    if (thumb.length !== this.size) throw new RangeError(`thumbnail of ${thumb.length} bytes, expected ${this.size}`);
    const n = this.length;
    // The block about to be overwritten goes to the file first.
    if (n >= this.residentFrames && n % this.spillFrames === 0) this.spill(n - this.residentFrames);
    if (n < this.residentFrames && this.ringBytes(n + 1) > this.bytes.length) {
      growMemory(this.kernel.memory, this.ringBytes(Math.min(this.residentFrames, n + GROWTH_FRAMES)));
      this.bytes = new Uint8Array(this.kernel.memory.buffer);
    }
    this.bytes.set(thumb, this.ringAt(n));
    this.length++;
  }

  /** Where frame i's thumbnail starts in {@link bytes}; a spilled one is first read into `side`. */
  offset(i: number, side: Side = 0): number {
    if (i >= this.spilled) return this.ringAt(i);
    const at = side * this.size;
    if (this.sideFrame[side] !== i) {
      readSync(this.file!.fd, this.bytes, at, this.size, i * this.size);
      this.sideFrame[side] = i;
    }
    return at;
  }

  /** The sum of the absolute differences of frames a's and b's cells; -1 once a cell differs by more than `cellMax` or the sum passes `limit`. */
  distance(a: number, b: number, cellMax: number, limit: number): number {
    return this.kernel.distance(this.offset(a, 0), this.offset(b, 1), this.size, Math.min(cellMax, 255), Math.min(limit, NO_LIMIT));
  }

  /** Closes the spill file, if there is one; the store cannot be read afterwards. */
  close(): void {
    if (!this.file) return;
    spillFiles.unregister(this);
    closeSpill(this.file);
    this.file = null;
  }

  /** The memory the two sides and a ring of `frames` take. */
  private ringBytes(frames: number): number {
    return (2 + frames) * this.size;
  }

  /** Where frame i sits in the ring (after the two sides). */
  private ringAt(i: number): number {
    return (2 + (i % this.residentFrames)) * this.size;
  }

  /** Writes the block of frames from `first` to the file (or, with no file, keeps every frame in memory from now on). */
  private spill(first: number): void {
    const frames = this.spillFrames;
    this.file ??= this.openSpillFile();
    if (!this.file) {
      this.residentFrames = Infinity;
      return;
    }
    const bytes = frames * this.size;
    let written = 0;
    try {
      while (written < bytes) written += writeSync(this.file.fd, this.bytes, this.ringAt(first) + written, bytes - written, first * this.size + written);
    } catch (err) {
      throw new Error(`the loop finder could not write older thumbnails to its file in ${tmpdir()}: ${(err as Error).message}`, { cause: err });
    }
    this.spilled = first + frames;
  }

  /** The spill file, or null when the temporary folder takes none (the thumbnails then all stay in memory). */
  private openSpillFile(): SpillFile | null {
    const path = join(tmpdir(), `preflight-thumbnails-${process.pid}-${randomBytes(6).toString('hex')}`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch {
      return null;
    }
    let pending: string | null = null;
    // Unlinked at once where the system allows it (not Windows), so the file goes with the descriptor, even on a crash.
    try {
      unlinkSync(path);
    } catch {
      pending = path;
    }
    const file = { fd, path: pending };
    spillFiles.register(this, file, this);
    return file;
  }
}
