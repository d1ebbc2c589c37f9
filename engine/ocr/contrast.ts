// WCAG 2.x relative luminance and contrast ratio (W3C); engine/ocr/ink.ts applies them to text pixels and the pixels
// around them.

/** sRGB 8-bit code value to linear light (WCAG 2.x, with the 0.04045 knee of IEC 61966-2-1). */
function linear(code: number): number {
  const c = code / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
const LINEAR = Float64Array.from({ length: 256 }, (_, i) => linear(i));

/** 8-bit BT.709-weighted luma of the RGB pixel at byte offset `k` (integer weights summing to 256). */
export const luma8 = (rgb: Uint8Array, k: number): number => (rgb[k] * 54 + rgb[k + 1] * 183 + rgb[k + 2] * 19) >> 8;

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
