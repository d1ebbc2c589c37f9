// WCAG 2.x contrast of text against its local background (W3C relative luminance and contrast ratio): relative luminance of each pixel of the
// text box (padded a little so the background around the glyphs is in), then the 95th against the 5th percentile.
import type { OcrBox } from './tesseract.js';
import { percentile } from '../gates/kit/stats.js';

/** sRGB 8-bit code value to linear light (WCAG 2.x, with the 0.04045 knee of IEC 61966-2-1). */
function linear(code: number): number {
  const c = code / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
const LINEAR = Float64Array.from({ length: 256 }, (_, i) => linear(i));

export function relativeLuminance(r: number, g: number, b: number): number {
  return 0.2126 * LINEAR[r] + 0.7152 * LINEAR[g] + 0.0722 * LINEAR[b];
}

export function contrastRatio(a: number, b: number): number {
  const [hi, lo] = a >= b ? [a, b] : [b, a];
  return (hi + 0.05) / (lo + 0.05);
}

export interface ContrastMeasure {
  ratio: number;
  lighterLuminance: number;
  darkerLuminance: number;
  /** Whether the text is the lighter side (fewer pixels sit near the lighter extreme than the darker one). */
  textIsLighter: boolean;
}

export interface RgbPicture {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** Share of the box height added around it so the background next to the glyphs is measured. */
const PAD = 0.2;

export function measureContrast(picture: RgbPicture, box: OcrBox): ContrastMeasure | null {
  const pad = Math.round((box.y1 - box.y0) * PAD);
  const x0 = Math.max(0, box.x0 - pad);
  const y0 = Math.max(0, box.y0 - pad);
  const x1 = Math.min(picture.width, box.x1 + pad);
  const y1 = Math.min(picture.height, box.y1 + pad);
  if (x1 - x0 < 2 || y1 - y0 < 2) return null;
  const values = new Float64Array((x1 - x0) * (y1 - y0));
  let k = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * picture.width + x) * 3;
      values[k++] = relativeLuminance(picture.rgb[i], picture.rgb[i + 1], picture.rgb[i + 2]);
    }
  }
  values.sort();
  const lo = percentile(values, 5);
  const hi = percentile(values, 95);
  const mid = (lo + hi) / 2;
  let lighter = 0;
  for (const v of values) if (v > mid) lighter++;
  return { ratio: contrastRatio(hi, lo), lighterLuminance: hi, darkerLuminance: lo, textIsLighter: lighter < values.length / 2 };
}
