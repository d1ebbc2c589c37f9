// ITU-R BS.1770-5 K-weighting: a high-shelf ("head") biquad followed by the RLB high-pass biquad.
// Coefficients are derived for any sample rate with the analogue prototypes libebur128 and ffmpeg use;
// at 48 kHz they reproduce the coefficients printed in BS.1770.

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

/**
 * One channel's K-weighting filter with Float64 state carried across chunks
 * (transposed direct form II for both stages).
 */
export class KWeightingFilter {
  private readonly shelf: Biquad;
  private readonly highPass: Biquad;
  private s1 = 0;
  private s2 = 0;
  private h1 = 0;
  private h2 = 0;

  constructor(sampleRate: number) {
    this.shelf = shelfCoefficients(sampleRate);
    this.highPass = highPassCoefficients(sampleRate);
  }

  /** Filters input[start, end) and returns the sum of the squared K-weighted samples. */
  sumOfSquares(input: Float32Array, start: number, end: number): number {
    const { b0, b1, b2, a1, a2 } = this.shelf;
    const { b0: c0, b1: c1, b2: c2, a1: d1, a2: d2 } = this.highPass;
    let s1 = this.s1;
    let s2 = this.s2;
    let h1 = this.h1;
    let h2 = this.h2;
    let sum = 0;
    for (let i = start; i < end; i++) {
      const x = input[i];
      const shelved = b0 * x + s1;
      s1 = b1 * x - a1 * shelved + s2;
      s2 = b2 * x - a2 * shelved;
      const y = c0 * shelved + h1;
      h1 = c1 * shelved - d1 * y + h2;
      h2 = c2 * shelved - d2 * y;
      sum += y * y;
    }
    this.s1 = s1;
    this.s2 = s2;
    this.h1 = h1;
    this.h2 = h2;
    return sum;
  }

  /**
   * {@link sumOfSquares} of this channel and of `other` (a filter for the same sample rate) in one loop, into
   * sums[0] and sums[1]: each recurrence waits on its own previous sample, so two of them side by side run in about
   * the time of one. The arithmetic, and so every bit of both sums, is that of two separate calls.
   */
  sumsOfSquaresWith(other: KWeightingFilter, input: Float32Array, otherInput: Float32Array, start: number, end: number, sums: Float64Array): void {
    const { b0, b1, b2, a1, a2 } = this.shelf;
    const { b0: c0, b1: c1, b2: c2, a1: d1, a2: d2 } = this.highPass;
    let s1 = this.s1, s2 = this.s2, h1 = this.h1, h2 = this.h2;
    let t1 = other.s1, t2 = other.s2, g1 = other.h1, g2 = other.h2;
    let sum = 0;
    let otherSum = 0;
    for (let i = start; i < end; i++) {
      const x = input[i];
      const u = otherInput[i];
      const shelved = b0 * x + s1;
      const otherShelved = b0 * u + t1;
      s1 = b1 * x - a1 * shelved + s2;
      t1 = b1 * u - a1 * otherShelved + t2;
      s2 = b2 * x - a2 * shelved;
      t2 = b2 * u - a2 * otherShelved;
      const y = c0 * shelved + h1;
      const v = c0 * otherShelved + g1;
      h1 = c1 * shelved - d1 * y + h2;
      g1 = c1 * otherShelved - d1 * v + g2;
      h2 = c2 * shelved - d2 * y;
      g2 = c2 * otherShelved - d2 * v;
      sum += y * y;
      otherSum += v * v;
    }
    this.s1 = s1;
    this.s2 = s2;
    this.h1 = h1;
    this.h2 = h2;
    other.s1 = t1;
    other.s2 = t2;
    other.h1 = g1;
    other.h2 = g2;
    sums[0] = sum;
    sums[1] = otherSum;
  }
}
