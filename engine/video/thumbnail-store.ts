// Every frame's thumbnail (loops.ts), kept for the whole file one after another in the memory of a WebAssembly kernel
// (thumb-distance.wat) that compares two of them sixteen cells at a time. A static picture (a screen recording, a held
// slide) makes hundreds of earlier frames candidates for each new one, and each candidate is compared whole.
import { growMemory, instantiateKernel } from '../wasm-kernel.js';
import { THUMB_DISTANCE_WASM } from './thumb-distance-kernel.js';

/** Frames the thumbnails' memory grows by. */
const GROWTH_FRAMES = 4096;

interface DistanceKernel {
  memory: WebAssembly.Memory;
  distance(a: number, b: number, size: number, cellMax: number, limit: number): number;
}

/** The kernel's "no limit": larger than any sum of thumbnail cells. */
const NO_LIMIT = 0x7fffffff;

/** Thumbnails of equal size, frame by frame. */
export class ThumbnailStore {
  private readonly kernel = instantiateKernel<DistanceKernel>(THUMB_DISTANCE_WASM, 0);
  /** The kernel's memory as bytes (a new view after it grows). */
  bytes = new Uint8Array(this.kernel.memory.buffer);
  size = 0;
  length = 0;

  push(thumb: Uint8Array): void {
    if (this.length === 0) this.size = thumb.length;
    if (thumb.length !== this.size) throw new RangeError(`thumbnail of ${thumb.length} bytes, expected ${this.size}`);
    if (this.offset(this.length + 1) > this.bytes.length) {
      growMemory(this.kernel.memory, this.offset(this.length + GROWTH_FRAMES));
      this.bytes = new Uint8Array(this.kernel.memory.buffer);
    }
    this.bytes.set(thumb, this.offset(this.length));
    this.length++;
  }

  /** Where frame i's thumbnail starts in {@link bytes}. */
  offset(i: number): number {
    return i * this.size;
  }

  /** The sum of the absolute differences of frames a's and b's cells; -1 once a cell differs by more than `cellMax` or the sum passes `limit`. */
  distance(a: number, b: number, cellMax: number, limit: number): number {
    return this.kernel.distance(this.offset(a), this.offset(b), this.size, Math.min(cellMax, 255), Math.min(limit, NO_LIMIT));
  }
}
