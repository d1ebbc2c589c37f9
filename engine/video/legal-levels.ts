// EBU R 103 legal levels on sparse full-resolution samples.
//
// Input: one picture as packed 8-bit yuv444p planes (Y, then Cb, then Cr; width*height bytes each), i.e. the
// Y'CbCr code values themselves. RGB from ffmpeg (rgb24/gbrp) cannot be used: the conversion clips every
// excursion below reference black or above reference white, which is exactly what R 103 measures.
// Ask ffmpeg for `format=yuv444p` on limited-range (tv/unknown) sources and `format=yuvj444p` on full-range (pc)
// sources (see `legalLevelsPixelFormat`): both keep the code values; only the chroma is upsampled to 4:4:4.
//
// Per sample: low-pass Y, Cb, Cr with R 103's measurement filter (horizontal [1,2,3,4,3,2,1]/16, vertical
// [1,2,1]/4, intra-field when interlaced), convert to R'G'B' with the source matrix and count pixels where any of
// R', G', B' lies outside −5 %..105 % of the nominal range. In 8-bit limited-range code values (16 = 0 %,
// 235 = 100 %) that window is 5..246. A full-range source has nominal 0..255 for Y (Y alone cannot exceed 0..100 %),
// but R', G', B' derived from it still can, through the chroma.
import type { LegalLevelSignals } from '../types.js';

export type YcbcrMatrix = 'bt709' | 'bt601' | 'bt2020';

export interface LegalLevelsOptions {
  /** Picture-area budget for excursions, percent (R 103: 1). */
  allowancePct: number;
  matrix: YcbcrMatrix;
  /** True when the samples carry full-range (0..255) code values. */
  fullRange: boolean;
  /** Filter vertically within each field (R 103 measures interlaced pictures intra-field). */
  interlaced?: boolean;
}

/** 8-bit limited-range code values of −5 % and 105 % (R 103 v3.0: 5..246). */
export const R103_MIN_CODE = 5;
export const R103_MAX_CODE = 246;

const LUMA_COEFFICIENTS: Record<YcbcrMatrix, { kr: number; kb: number }> = {
  bt709: { kr: 0.2126, kb: 0.0722 },
  bt601: { kr: 0.299, kb: 0.114 },
  bt2020: { kr: 0.2627, kb: 0.0593 },
};

const HORIZONTAL_TAPS = [1, 2, 3, 4, 3, 2, 1];
const VERTICAL_TAPS = [1, 2, 1];
/** Sum of both kernels' weights: 16 × 4. */
const FILTER_GAIN = 64;
const PCT_DIGITS = 4;

/** The ffmpeg pixel format the decode pass must deliver for a source of this colour range. */
export function legalLevelsPixelFormat(colorRange: 'tv' | 'pc' | null): 'yuv444p' | 'yuvj444p' {
  return colorRange === 'pc' ? 'yuvj444p' : 'yuv444p';
}

/** The matrix a source was encoded with: its tagged colour space, else BT.709 for HD and larger, BT.601 for SD. */
export function legalLevelsMatrix(colorSpace: string | null, height: number): YcbcrMatrix {
  if (colorSpace === 'bt709') return 'bt709';
  if (colorSpace === 'bt2020nc' || colorSpace === 'bt2020c') return 'bt2020';
  if (colorSpace === 'bt470bg' || colorSpace === 'smpte170m' || colorSpace === 'bt601') return 'bt601';
  return height >= 720 ? 'bt709' : 'bt601';
}

/**
 * Linear map from filtered Y'CbCr code values to R'G'B' expressed in 8-bit limited-range code units,
 * so one legal window (5..246) serves both limited- and full-range sources.
 */
interface RgbMap {
  lumaScale: number;
  lumaOffset: number;
  crToR: number;
  cbToG: number;
  crToG: number;
  cbToB: number;
}

function rgbMap(matrix: YcbcrMatrix, fullRange: boolean): RgbMap {
  const { kr, kb } = LUMA_COEFFICIENTS[matrix];
  const kg = 1 - kr - kb;
  // Limited range: Y' 16..235 (219 steps), Cb/Cr 16..240 around 128 (224 steps). Full range: 255 steps for both.
  const lumaScale = fullRange ? 219 / 255 : 1;
  const chromaScale = fullRange ? 219 / 255 : 219 / 224;
  return {
    lumaScale,
    lumaOffset: fullRange ? 16 : 0,
    crToR: 2 * (1 - kr) * chromaScale,
    cbToG: ((-2 * kb * (1 - kb)) / kg) * chromaScale,
    crToG: ((-2 * kr * (1 - kr)) / kg) * chromaScale,
    cbToB: 2 * (1 - kb) * chromaScale,
  };
}

const clampIndex = (i: number, size: number): number => (i < 0 ? 0 : i >= size ? size - 1 : i);

/** Horizontal 7-tap pass of one plane into `out` (values scaled by 16). Edges repeat the border pixel. */
function filterRows(plane: Uint8Array, width: number, height: number, out: Uint16Array): void {
  const reach = (HORIZONTAL_TAPS.length - 1) / 2;
  const edgeSum = (row: number, x: number): number => {
    let sum = 0;
    for (let k = 0; k < HORIZONTAL_TAPS.length; k++) sum += HORIZONTAL_TAPS[k] * plane[row + clampIndex(x + k - reach, width)];
    return sum;
  };
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < Math.min(reach, width); x++) out[row + x] = edgeSum(row, x);
    // Interior pixels: the unrolled [1,2,3,4,3,2,1] kernel without edge handling (the hot loop).
    for (let x = reach, i = row + reach; x < width - reach; x++, i++) {
      out[i] = plane[i - 3] + 2 * plane[i - 2] + 3 * plane[i - 1] + 4 * plane[i] + 3 * plane[i + 1] + 2 * plane[i + 2] + plane[i + 3];
    }
    for (let x = Math.max(reach, width - reach); x < width; x++) out[row + x] = edgeSum(row, x);
  }
}

/**
 * Vertical 3-tap pass (values scaled by 16 × 4 = 64 afterwards). Interlaced pictures use the neighbours of
 * the same field (two rows away); rows without a same-field neighbour repeat themselves.
 */
function filterColumns(rows: Uint16Array, width: number, height: number, interlaced: boolean, out: Uint16Array): void {
  const step = interlaced ? 2 : 1;
  for (let y = 0; y < height; y++) {
    const above = (y - step >= 0 ? y - step : y) * width;
    const here = y * width;
    const below = (y + step < height ? y + step : y) * width;
    for (let x = 0; x < width; x++) {
      out[here + x] = VERTICAL_TAPS[0] * rows[above + x] + VERTICAL_TAPS[1] * rows[here + x] + VERTICAL_TAPS[2] * rows[below + x];
    }
  }
}

export class LegalLevelsAccumulator {
  private readonly allowancePct: number;
  private readonly interlaced: boolean;
  private readonly map: RgbMap;
  private samples = 0;
  private worstPct = 0;
  private worstAt = 0;
  private readonly overAllowance: { atSeconds: number; outOfRangePct: number }[] = [];
  private rowBuffer = new Uint16Array(0);
  private filtered: Uint16Array[] = [];

  constructor(opts: LegalLevelsOptions) {
    if (!(opts.allowancePct >= 0)) throw new RangeError(`allowancePct must be ≥ 0, got ${opts.allowancePct}`);
    this.allowancePct = opts.allowancePct;
    this.interlaced = opts.interlaced ?? false;
    this.map = rgbMap(opts.matrix, opts.fullRange);
  }

  /** Adds one sample: packed yuv444p planes of `width`×`height` 8-bit code values taken at `atSeconds`. */
  push(frame: Uint8Array, width: number, height: number, atSeconds: number): void {
    const area = width * height;
    if (!(width > 0 && height > 0) || !Number.isInteger(width) || !Number.isInteger(height)) {
      throw new RangeError(`invalid picture size ${width}×${height}`);
    }
    if (frame.length < area * 3) throw new RangeError(`yuv444p frame of ${width}×${height} needs ${area * 3} bytes, got ${frame.length}`);
    const [y, cb, cr] = this.lowPass(frame, width, height);
    const pct = (this.countOutOfRange(y, cb, cr, area) / area) * 100;
    this.record(round(pct), atSeconds);
  }

  finish(): LegalLevelSignals {
    return {
      samples: this.samples,
      worstOutOfRangePct: this.worstPct,
      worstAtSeconds: this.worstAt,
      samplesOverAllowance: this.overAllowance.map((s) => ({ ...s })),
    };
  }

  private lowPass(frame: Uint8Array, width: number, height: number): Uint16Array[] {
    const area = width * height;
    if (this.rowBuffer.length !== area) {
      this.rowBuffer = new Uint16Array(area);
      this.filtered = [new Uint16Array(area), new Uint16Array(area), new Uint16Array(area)];
    }
    for (let p = 0; p < 3; p++) {
      filterRows(frame.subarray(p * area, (p + 1) * area), width, height, this.rowBuffer);
      filterColumns(this.rowBuffer, width, height, this.interlaced, this.filtered[p]);
    }
    return this.filtered;
  }

  private countOutOfRange(y: Uint16Array, cb: Uint16Array, cr: Uint16Array, area: number): number {
    const m = this.map;
    // Legal when the value rounds into 5..246.
    const low = R103_MIN_CODE - 0.5;
    const high = R103_MAX_CODE + 0.5;
    let count = 0;
    for (let i = 0; i < area; i++) {
      const luma = m.lumaOffset + (m.lumaScale * y[i]) / FILTER_GAIN;
      const pb = cb[i] / FILTER_GAIN - 128;
      const pr = cr[i] / FILTER_GAIN - 128;
      const r = luma + m.crToR * pr;
      const g = luma + m.cbToG * pb + m.crToG * pr;
      const b = luma + m.cbToB * pb;
      if (r < low || r >= high || g < low || g >= high || b < low || b >= high) count++;
    }
    return count;
  }

  private record(pct: number, atSeconds: number): void {
    this.samples++;
    if (this.samples === 1 || pct > this.worstPct) {
      this.worstPct = pct;
      this.worstAt = atSeconds;
    }
    if (pct > this.allowancePct) this.overAllowance.push({ atSeconds, outOfRangePct: pct });
  }
}

function round(value: number): number {
  const f = 10 ** PCT_DIGITS;
  return Math.round(value * f) / f;
}
