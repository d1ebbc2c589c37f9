// The picture Tesseract reads: each pixel's distance from its local mean, dark on white. Tesseract binarises with one
// global threshold, so white text and black text on a mid-grey background cannot both survive it; measured against
// the local background, text of either polarity becomes dark strokes on white and flat or smooth areas vanish.
import type { OcrPicture } from './tesseract.js';

/** Local window radius as a share of the picture's long side (40 px at 960). */
const WINDOW_FRACTION = 1 / 24;
/** Gain on the distance from the local mean (a difference of 128 code values or more is full black). */
const GAIN = 2;

export function localContrastPicture(p: OcrPicture): OcrPicture {
  const { gray, width: w, height: h } = p;
  const r = Math.max(4, Math.round(Math.max(w, h) * WINDOW_FRACTION));
  const stride = w + 1;
  const integral = new Float64Array(stride * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += gray[y * w + x];
      integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1] + row;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(w, x + r + 1);
      const sum = integral[y1 * stride + x1] - integral[y0 * stride + x1] - integral[y1 * stride + x0] + integral[y0 * stride + x0];
      const mean = sum / ((x1 - x0) * (y1 - y0));
      out[y * w + x] = 255 - Math.min(255, GAIN * Math.abs(gray[y * w + x] - mean));
    }
  }
  return { gray: out, width: w, height: h };
}
