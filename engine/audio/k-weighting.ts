// ITU-R BS.1770-5 K-weighting: a high-shelf ("head") biquad followed by the RLB high-pass biquad.
// Coefficients are derived for any sample rate with the analogue prototypes libebur128 and ffmpeg use;
// at 48 kHz they reproduce the coefficients printed in BS.1770. The filter itself runs in WebAssembly
// (k-weighting.wat), two channels at a time.

import { copyInAligned, instantiateKernel } from '../wasm-kernel.js';
import { K_WEIGHTING_WASM } from './k-weighting-kernel.js';

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  /** Denominator, normalised so that a0 = 1. */
  a1: number;
  a2: number;
}

const SHELF_F0_HZ = 1681.974450955533;
const SHELF_GAIN_DB = 3.999843853973347;
const SHELF_Q = 0.7071752369554196;
/** libebur128's band-gain exponent for the shelf's mid-frequency term. */
const SHELF_BAND_EXPONENT = 0.4996667741545416;
const HIGHPASS_F0_HZ = 38.13547087602444;
const HIGHPASS_Q = 0.5003270373238773;

export function shelfCoefficients(sampleRate: number): Biquad {
  const k = Math.tan((Math.PI * SHELF_F0_HZ) / sampleRate);
  const vh = Math.pow(10, SHELF_GAIN_DB / 20);
  const vb = Math.pow(vh, SHELF_BAND_EXPONENT);
  const a0 = 1 + k / SHELF_Q + k * k;
  return {
    b0: (vh + (vb * k) / SHELF_Q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / SHELF_Q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / SHELF_Q + k * k) / a0,
  };
}

/** The RLB high-pass keeps BS.1770's unnormalised numerator [1, -2, 1]. */
export function highPassCoefficients(sampleRate: number): Biquad {
  const k = Math.tan((Math.PI * HIGHPASS_F0_HZ) / sampleRate);
  const a0 = 1 + k / HIGHPASS_Q + k * k;
  return {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / HIGHPASS_Q + k * k) / a0,
  };
}

/** The kernel's memory layout (k-weighting.wat). */
const COEFFICIENTS_BYTE = 0;
const SUMS_BYTE = 224;
const SAMPLES_BYTE = 256;
/** Frames of each channel the kernel's memory holds at once (64 KB a channel: the slice stays in cache). */
const SLICE = 16_384;

interface KernelExports {
  memory: WebAssembly.Memory;
  run(a: number, b: number, frames: number): void;
}

/**
 * The K-weighting filters of two channels, or of one, with Float64 state carried across chunks: a WebAssembly kernel
 * (k-weighting.wat) filters both at once, one per f64x2 lane, and sums each one's squared output. Each sum has the
 * bits of the plain loop per channel (direct form I for both stages, test/loudness.test.ts holds it to that loop).
 */
export class KWeightingPair {
  private readonly kernel: KernelExports;
  /** The kernel's memory as floats. */
  private readonly floats: Float32Array;
  private readonly sums: Float64Array;
  /** Where the loaded frames of each channel start in the kernel's memory (the same, for a single channel). */
  private firstByte = SAMPLES_BYTE;
  private secondByte = SAMPLES_BYTE;
  private first: Float32Array = new Float32Array(0);
  private second: Float32Array | null = null;
  /** The frames [loadedStart, loadedEnd) of the current planes are in the kernel's memory. */
  private loadedStart = 0;
  private loadedEnd = 0;

  constructor(sampleRate: number, readonly single = false) {
    // Each channel's slice has 4 bytes to spare, to be copied in at its own alignment.
    this.kernel = instantiateKernel<KernelExports>(K_WEIGHTING_WASM, SAMPLES_BYTE + 2 * (4 * SLICE + 4));
    const { memory } = this.kernel;
    const { b0, b1, b2, a1, a2 } = shelfCoefficients(sampleRate);
    const { b0: c0, b1: c1, b2: c2, a1: d1, a2: d2 } = highPassCoefficients(sampleRate);
    // The kernel adds the high-pass numerator's terms (these) rather than multiplying by them; the tests' plain loop multiplies.
    new Float64Array(memory.buffer, COEFFICIENTS_BYTE, 10).set([b0, b1, b2, a1, a2, c0, c1, c2, d1, d2]);
    this.floats = new Float32Array(memory.buffer);
    this.sums = new Float64Array(memory.buffer, SUMS_BYTE, 2);
  }

  /** The planes the next calls filter: a chunk of each channel (`second` null for a single channel). */
  planes(first: Float32Array, second: Float32Array | null): void {
    if ((second === null) !== this.single) throw new RangeError(this.single ? 'a single channel takes one plane' : 'a pair takes two planes');
    if (second && second.length !== first.length) throw new RangeError('the two planes differ in length');
    this.first = first;
    this.second = second;
    this.loadedStart = this.loadedEnd = 0;
  }

  /**
   * Filters frames [start, end) of the planes, the chunk's next ones. Returns the sums of the squared K-weighted
   * samples: [0] the first channel's, [1] the second's (for a single channel, the first's again). The array is the
   * kernel's, valid until the next call.
   */
  sumsOfSquares(start: number, end: number): Float64Array {
    this.sums.fill(0);
    for (let at = start; at < end; ) {
      if (at < this.loadedStart || at >= this.loadedEnd) this.load(at);
      const until = Math.min(end, this.loadedEnd);
      const offset = 4 * (at - this.loadedStart);
      this.kernel.run(this.firstByte + offset, this.secondByte + offset, until - at);
      at = until;
    }
    return this.sums;
  }

  private load(at: number): void {
    const end = Math.min(this.first.length, at + SLICE);
    this.firstByte = this.secondByte = copyInAligned(this.floats, SAMPLES_BYTE, this.first.subarray(at, end));
    if (this.second) this.secondByte = copyInAligned(this.floats, SAMPLES_BYTE + 4 * SLICE + 4, this.second.subarray(at, end));
    this.loadedStart = at;
    this.loadedEnd = end;
  }
}
