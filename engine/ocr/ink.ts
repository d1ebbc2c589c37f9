// The ink of a read word in the prepared picture (engine/ocr/prepare.ts: text is dark on white there): its tight box,
// and the WCAG contrast of its pixels against the pixels right around them in the source frame. The detector's line
// boxes carry a margin around the glyphs (DB's unclip, about 1.6× the glyph height), and a percentile
// contrast over a padded box measures the photo as much as the type.
import { contrastRatio, luma8, relativeLuminance, type ContrastMeasure, type RgbPicture } from './contrast.js';
import type { OcrBox, OcrPicture, OcrWord } from './engine.js';
import type { InkPicture } from './prepare.js';
import { median, sortedMedian } from '../gates/kit/stats.js';

/** A prepared pixel darker than this is ink. */
export const INK = 128;
/** Rows and columns holding less than this share of the busiest row's (column's) ink are halo or stray specks. */
const PROFILE_SHARE = 0.08;
/** The rows of the letters' bodies (x-height or capitals) hold at least this share of the busiest row's ink. */
const CORE_SHARE = 0.3;
/** Ascenders and descenders reach at most this share of the body height beyond it; more is something else (grass, a shape). */
const MAX_EXTENT = 0.6;

const isInk = (p: OcrPicture, x: number, y: number) => p.gray[y * p.width + x] < INK;

/** The box shrunk to the rows and columns that hold the word's ink; the box itself when it holds none. */
export function tightBox(p: InkPicture, box: OcrBox): OcrBox {
  p.cover(box);
  const [x0, y0, x1, y1] = [Math.max(0, box.x0), Math.max(0, box.y0), Math.min(p.width, box.x1), Math.min(p.height, box.y1)];
  if (x1 <= x0 || y1 <= y0) return box;
  const rows = new Uint32Array(y1 - y0);
  const cols = new Uint32Array(x1 - x0);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!isInk(p, x, y)) continue;
      rows[y - y0]++;
      cols[x - x0]++;
    }
  }
  const span = (profile: Uint32Array): [number, number] | null => {
    const floor = Math.max(1, Math.max(...profile) * PROFILE_SHARE);
    const first = profile.findIndex((v) => v >= floor);
    if (first < 0) return null;
    let last = profile.length - 1;
    while (profile[last] < floor) last--;
    return [first, last + 1];
  };
  /** The body rows, widened row by row over ascenders and descenders while rows hold ink, by at most MAX_EXTENT of the body. */
  const rowSpan = (profile: Uint32Array): [number, number] | null => {
    const core = Math.max(...profile) * CORE_SHARE;
    let first = profile.findIndex((v) => v >= core && v > 0);
    if (first < 0) return null;
    let last = profile.length - 1;
    while (profile[last] < core) last--;
    const reach = Math.ceil((last + 1 - first) * MAX_EXTENT);
    const floor = Math.max(1, Math.max(...profile) * PROFILE_SHARE);
    for (let k = 0; k < reach && first > 0 && profile[first - 1] >= floor; k++) first--;
    for (let k = 0; k < reach && last < profile.length - 1 && profile[last + 1] >= floor; k++) last++;
    return [first, last + 1];
  };
  const r = rowSpan(rows);
  const c = span(cols);
  if (!r || !c) return box;
  return { x0: x0 + c[0], y0: y0 + r[0], x1: x0 + c[1], y1: y0 + r[1] };
}

/** Ring around the glyphs, px: from past NEAR (the anti-aliased edge) out to NEAR + FAR (a share of the text height, at least 3 px). */
const RING_NEAR = 1;
const RING_FAR_SHARE = 0.2;
/** The background is the quarter of the ring that contrasts most with the text: an outline, a shadow or a box edge
 * that separates the strokes from the picture is what the eye reads them against, though it is a minority of the ring. */
const SEPARATING_SHARE = 0.25;

/**
 * Contrast of the text pixels (ink in the prepared picture) against the pixels around them in `frame`, as WCAG
 * relative luminances of the text's median and of the ring's quarter that contrasts most; null when the box holds too little ink or nothing around it.
 * An outlined caption measures against its outline, a boxed one against its box: what the eye sees next to the strokes.
 */
export function inkContrast(frame: RgbPicture, prepared: InkPicture, box: OcrBox): ContrastMeasure | null {
  prepared.cover(box);
  const far = RING_NEAR + Math.max(3, Math.round((box.y1 - box.y0) * RING_FAR_SHARE));
  const [x0, y0] = [Math.max(0, box.x0 - far), Math.max(0, box.y0 - far)];
  const [x1, y1] = [Math.min(prepared.width, box.x1 + far), Math.min(prepared.height, box.y1 + far)];
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 2 || h < 2) return null;
  // Distance (chessboard, px) of each pixel of the area from the nearest ink pixel inside the box, in two sweeps (each
  // pixel from its four neighbours already swept): exact, as the pass-per-pixel-of-distance growth it replaced.
  const FAR_AWAY = 0x7fffffff;
  const distance = new Int32Array(w * h).fill(FAR_AWAY);
  for (let y = Math.max(y0, box.y0); y < Math.min(y1, box.y1); y++) {
    for (let x = Math.max(x0, box.x0); x < Math.min(x1, box.x1); x++) if (isInk(prepared, x, y)) distance[(y - y0) * w + (x - x0)] = 0;
  }
  const step = (i: number, j: number) => {
    if (distance[j] < FAR_AWAY && distance[j] + 1 < distance[i]) distance[i] = distance[j] + 1;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (x > 0) step(i, i - 1);
      if (y > 0) {
        step(i, i - w);
        if (x > 0) step(i, i - w - 1);
        if (x < w - 1) step(i, i - w + 1);
      }
    }
  }
  for (let y = h - 1; y >= 0; y--) {
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (x < w - 1) step(i, i + 1);
      if (y < h - 1) {
        step(i, i + w);
        if (x < w - 1) step(i, i + w + 1);
        if (x > 0) step(i, i + w - 1);
      }
    }
  }
  const textValues = new Float64Array(w * h);
  const aroundValues = new Float64Array(w * h);
  let [texts, arounds] = [0, 0];
  const scaleX = frame.width / prepared.width;
  const scaleY = frame.height / prepared.height;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = distance[y * w + x];
      if (d !== 0 && (d <= RING_NEAR || d > far)) continue;
      const k = (Math.min(frame.height - 1, Math.floor((y + y0) * scaleY)) * frame.width + Math.min(frame.width - 1, Math.floor((x + x0) * scaleX))) * 3;
      const luminance = relativeLuminance(frame.rgb[k], frame.rgb[k + 1], frame.rgb[k + 2]);
      if (d === 0) textValues[texts++] = luminance;
      else aroundValues[arounds++] = luminance;
    }
  }
  if (texts < 4 || arounds < 4) return null;
  // Sorted in place, natively (the values are luminances: no NaN).
  const text = textValues.subarray(0, texts).sort();
  const around = aroundValues.subarray(0, arounds).sort();
  const lighter = sortedMedian(text) >= sortedMedian(around);
  const quarter = (values: Float64Array, fromTop: boolean) => values[Math.min(values.length - 1, Math.floor((fromTop ? 1 - SEPARATING_SHARE : SEPARATING_SHARE) * values.length))];
  // The text's colour is that of its stroke cores: anti-aliased edges, a large share of thin strokes at OCR size,
  // are blends with what is around.
  const t = quarter(text, lighter);
  const b = quarter(around, !lighter);
  return { ratio: contrastRatio(t, b), lighterLuminance: Math.max(t, b), darkerLuminance: Math.min(t, b), textIsLighter: lighter };
}

/** Faint text: a pixel this many code values off the box's median is ink (the prepared picture needs FLOOR, 24). */
const FAINT_INK_LEVELS = 10;
/** A word whose ink in the prepared picture spans less than this share of its box is not that ink (see below). */
const MIN_INK_SPAN = 0.6;

/** A word this short may be one narrow glyph ("I", "1."), far narrower than its box. */
const MIN_SPAN_CHARS = 3;

/** Whether the ink found for a word (its tight box) is too narrow to be the word: faint type next to strong shapes. */
export function inkMissesWord(word: OcrWord, tight: OcrBox): boolean {
  return word.text.trim().length >= MIN_SPAN_CHARS && tight.x1 - tight.x0 < (word.box.x1 - word.box.x0) * MIN_INK_SPAN;
}

/**
 * Contrast of faint text, which the prepared picture does not show as ink (white at 30 % over a photo differs from
 * it by a few tens of code values): pixels of the words' boxes more than FAINT_INK_LEVELS lighter, or darker, than
 * the boxes' median are ink of that polarity; the text is the polarity whose ink spans more of the boxes' columns
 * (letters run the width of a word, a shape beside it does not), measured against the pixels that are neither.
 */
export function faintInkContrast(frame: RgbPicture, boxes: OcrBox[]): ContrastMeasure | null {
  const pixels: number[] = [];
  const lumas: number[] = [];
  for (const b of boxes) {
    for (let y = Math.max(0, b.y0); y < Math.min(frame.height, b.y1); y++) {
      for (let x = Math.max(0, b.x0); x < Math.min(frame.width, b.x1); x++) {
        pixels.push(y * frame.width + x);
        lumas.push(luma8(frame.rgb, (y * frame.width + x) * 3));
      }
    }
  }
  if (pixels.length < 16) return null;
  const middle = median(lumas);
  const columns = { light: new Set<number>(), dark: new Set<number>() };
  const lum = { light: [] as number[], dark: [] as number[], rest: [] as number[] };
  pixels.forEach((i, n) => {
    const d = lumas[n] - middle;
    const side = d > FAINT_INK_LEVELS ? 'light' : d < -FAINT_INK_LEVELS ? 'dark' : 'rest';
    if (side !== 'rest') columns[side].add(i % frame.width);
    lum[side].push(relativeLuminance(frame.rgb[i * 3], frame.rgb[i * 3 + 1], frame.rgb[i * 3 + 2]));
  });
  const side = columns.light.size >= columns.dark.size ? 'light' : 'dark';
  if (lum[side].length < 4 || lum.rest.length < 4) return null;
  const t = median(lum[side]);
  const b = median(lum.rest);
  return { ratio: contrastRatio(t, b), lighterLuminance: Math.max(t, b), darkerLuminance: Math.min(t, b), textIsLighter: t >= b };
}

/**
 * The contrast of a line of text: its ink (in `inkBox`) against the pixels around it, or, when the ink picture does
 * not hold the words (`inkBox` null: faint type) or too little of them, measured within the words' boxes.
 */
export function lineContrast(frame: RgbPicture, prepared: InkPicture, inkBox: OcrBox | null, wordBoxes: OcrBox[]): ContrastMeasure | null {
  return (inkBox ? inkContrast(frame, prepared, inkBox) : null) ?? faintInkContrast(frame, wordBoxes);
}
