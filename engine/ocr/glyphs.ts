// Whether a read line's glyphs are the same in two frames: the same strokes in the same place, so it reads the same
// words. A caption over a moving photo changes the pixels between its letters from frame to frame, so its box is never
// the same picture twice; its strokes are. The test says "same" only when it surely is: in each word's box, the cores of
// the strokes (ink pixels whose four neighbours are ink, clear of the anti-aliased edges the picture behind tints) of
// each frame must keep their brightness in the other. A stroke taken away (an 8 become a 9) leaves the first frame's
// cores on the background; a stroke added leaves the second frame's cores where the first had background.
import type { OcrBox } from './engine.js';
import { INK } from './ink.js';
import type { InkPicture } from './prepare.js';
import type { TextLine } from './words.js';

/** A core pixel whose luma moved further than this between the frames changed (coding noise on a still stroke stays
 * well under it; a stroke against the picture behind it differs by far more). */
const LUMA_TOLERANCE = 24;
/** Share of a word's core pixels that may change (a bright speck of the picture behind counted as ink): one glyph
 * changed in a word of a dozen moves several times more. Below 100 cores a word may not change at all. */
const MAX_CHANGED_SHARE = 0.01;
/** A line with fewer core pixels than this (thin or small type) says nothing sure: it is read again. */
const MIN_CORE_PIXELS = 24;
/** A word's box reaches this share of the line height to each side: a letter added to it. */
const WORD_REACH = 0.25;

/** A frame as the glyph test sees it: its luma and its prepared (ink) picture, the same size. */
export interface GlyphFrame {
  luma: Uint8Array;
  ink: InkPicture;
}

/** Core ink pixels of `a` in `box` (inside the picture by a pixel on every side), and how many changed their luma in `b`. */
function changedCores(a: GlyphFrame, b: GlyphFrame, box: OcrBox): { cores: number; changed: number } {
  a.ink.cover({ x0: box.x0 - 1, y0: box.y0 - 1, x1: box.x1 + 1, y1: box.y1 + 1 });
  const { width } = a.ink;
  const ink = a.ink.gray;
  let cores = 0;
  let changed = 0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let i = y * width + box.x0, end = y * width + box.x1; i < end; i++) {
      if (ink[i] >= INK || ink[i - 1] >= INK || ink[i + 1] >= INK || ink[i - width] >= INK || ink[i + width] >= INK) continue;
      cores++;
      const d = a.luma[i] - b.luma[i];
      if (d > LUMA_TOLERANCE || d < -LUMA_TOLERANCE) changed++;
    }
  }
  return { cores, changed };
}

/** Whether `line`, read in frame `a`, has the same glyphs in the same place in frame `b` (same size). */
export function sameGlyphs(a: GlyphFrame, b: GlyphFrame, line: TextLine): boolean {
  const { width, height } = a.ink;
  if (b.ink.width !== width || b.ink.height !== height || line.words.length === 0) return false;
  const reach = (line.box.y1 - line.box.y0) * WORD_REACH;
  let cores = 0;
  for (const word of line.words) {
    const box = {
      x0: Math.max(1, Math.floor(word.box.x0 - reach)),
      y0: Math.max(1, Math.floor(word.box.y0)),
      x1: Math.min(width - 1, Math.ceil(word.box.x1 + reach)),
      y1: Math.min(height - 1, Math.ceil(word.box.y1)),
    };
    if (box.x1 <= box.x0 || box.y1 <= box.y0) return false;
    for (const [from, to] of [[a, b], [b, a]]) {
      const found = changedCores(from, to, box);
      if (found.changed > Math.floor(MAX_CHANGED_SHARE * found.cores)) return false;
      cores += found.cores;
    }
  }
  return cores >= 2 * MIN_CORE_PIXELS;
}
