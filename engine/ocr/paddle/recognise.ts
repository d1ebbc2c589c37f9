// Text recognition with PaddleOCR's CRNN/SVTR model: a line crop in as a 48 px tall tensor, per-column character
// probabilities out, read by greedy CTC decoding (best character per column, repeats merged, blanks dropped). The
// columns of each character give the words their boxes.
import type { OcrBox, OcrWord } from '../engine.js';
import type { RgbPicture } from '../contrast.js';
import type { FloatTensor } from './tensor.js';

/** The recogniser's input height, and the width narrower crops are padded to (PaddleOCR's rec_image_shape). */
const INPUT_HEIGHT = 48;
const MIN_INPUT_WIDTH = 320;
/** Wider crops are squeezed to this: a line longer than 40 × its height is rare in a caption. */
const MAX_INPUT_WIDTH = 1920;
/** Blank columns between two characters are a space when a column's space probability reaches this (elsewhere it
 * stays near 0; between words it reads 0.2–0.7). */
const GAP_SPACE_PROBABILITY = 0.1;
/** Input pixels per output column. */
const COLUMN_PX = 8;

/** The crop `box` of the picture resized to 48 px tall (bilinear), padded to MIN_INPUT_WIDTH; its resized width too. */
export function recognitionInput(p: RgbPicture, box: OcrBox): { tensor: FloatTensor; width: number } {
  const cw = box.x1 - box.x0;
  const ch = box.y1 - box.y0;
  const width = Math.max(1, Math.min(MAX_INPUT_WIDTH, Math.ceil((INPUT_HEIGHT * cw) / ch)));
  const padded = Math.max(MIN_INPUT_WIDTH, Math.ceil(width / COLUMN_PX) * COLUMN_PX);
  const data = new Float32Array(3 * INPUT_HEIGHT * padded);
  const plane = INPUT_HEIGHT * padded;
  // Bilinear sampling: per output column its two source columns and weight, likewise per row.
  const axis = (n: number, from: number, length: number, limit: number) => {
    const lo = new Int32Array(n);
    const hi = new Int32Array(n);
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const f = Math.min(limit - 1, Math.max(0, from + (i + 0.5) * (length / n) - 0.5));
      lo[i] = Math.floor(f);
      hi[i] = Math.min(limit - 1, lo[i] + 1);
      a[i] = f - lo[i];
    }
    return { lo, hi, a };
  };
  const xs = axis(width, box.x0, cw, p.width);
  const ys = axis(INPUT_HEIGHT, box.y0, ch, p.height);
  // Plain consts, not destructured array literals: those were allocated per pixel (240 MB of garbage a minute of video).
  for (let y = 0; y < INPUT_HEIGHT; y++) {
    const r0 = ys.lo[y] * p.width;
    const r1 = ys.hi[y] * p.width;
    const ay = ys.a[y];
    for (let x = 0; x < width; x++) {
      const c0 = xs.lo[x];
      const c1 = xs.hi[x];
      const ax = xs.a[x];
      for (let c = 0; c < 3; c++) {
        // Channel c of the tensor is BGR: the picture's channel 2 - c.
        const o = 2 - c;
        const top = p.rgb[(r0 + c0) * 3 + o] * (1 - ax) + p.rgb[(r0 + c1) * 3 + o] * ax;
        const bottom = p.rgb[(r1 + c0) * 3 + o] * (1 - ax) + p.rgb[(r1 + c1) * 3 + o] * ax;
        data[c * plane + y * padded + x] = (top * (1 - ay) + bottom * ay) / 127.5 - 1;
      }
    }
  }
  return { tensor: { data, dims: [1, 3, INPUT_HEIGHT, padded] }, width };
}

/** The recogniser's alphabet: index 0 is CTC's blank, then the dictionary's lines, then a space. */
export interface Alphabet {
  chars: string[];
  /** Indexes the decoder may choose (blank included): Latin script, digits, punctuation, space. */
  allowed: Int32Array;
  space: number;
  /** The space's place in `allowed`. */
  spaceSlot: number;
}

/** Latin letters, digits and the punctuation of Latin-script text: the model's Chinese characters are never chosen. */
const LATIN = /^[\x21-\x7e\p{Script=Latin}‘’“”–—…€£]$/u;

export function alphabetOf(dictionary: string): Alphabet {
  const chars = ['', ...dictionary.split(/\r?\n/).filter((c, i, all) => c !== '' || i < all.length - 1), ' '];
  const allowed = chars.map((c, i) => (i === 0 || c === ' ' || LATIN.test(c) ? i : -1)).filter((i) => i >= 0);
  const space = chars.length - 1;
  return { chars, allowed: Int32Array.from(allowed), space, spaceSlot: allowed.indexOf(space) };
}

/**
 * The probabilities of the classes `keep`, in that order, of each of the `columns` columns of `probs` (columns × `size`
 * classes): all the decoder reads of the recogniser's output, a few hundred of its 6,625 classes. It uses nothing from
 * outside its body: the OCR child runs its source on the output and sends back only these.
 */
export function keptColumns(probs: Float32Array, columns: number, size: number, keep: ArrayLike<number>): Float32Array {
  const kept = new Float32Array(columns * keep.length);
  for (let t = 0, k = 0; t < columns; t++) for (let j = 0; j < keep.length; j++, k++) kept[k] = probs[t * size + keep[j]];
  return kept;
}

export interface ReadText {
  text: string;
  words: OcrWord[];
}

/**
 * Greedy CTC decoding of `probs` (columns × the alphabet's allowed classes: {@link keptColumns}) for a crop at `box`
 * that was resized to `width` input px:
 * words are the runs between spaces, each boxed from its first to its last character's column, and scored by the mean
 * probability of its characters (0..100).
 */
export function decodeLine(probs: Float32Array, columns: number, alphabet: Alphabet, box: OcrBox, width: number): ReadText {
  const { allowed, spaceSlot } = alphabet;
  const size = allowed.length;
  const read: { index: number; column: number; p: number }[] = [];
  let previous = 0;
  let spaceSince = 0;
  for (let t = 0; t < columns; t++) {
    let best = 0;
    let bestP = -1;
    for (let j = 0; j < size; j++) {
      const p = probs[t * size + j];
      if (p > bestP) [best, bestP] = [allowed[j], p];
    }
    spaceSince = Math.max(spaceSince, probs[t * size + spaceSlot]);
    if (best !== 0 && best !== previous) {
      // The model (trained mostly on Chinese) often leaves the space between Latin words as blanks whose space
      // probability stands out: such a gap is a space too.
      if (best !== alphabet.space && spaceSince >= GAP_SPACE_PROBABILITY && read.length && read[read.length - 1].index !== alphabet.space) {
        read.push({ index: alphabet.space, column: t, p: spaceSince });
      }
      read.push({ index: best, column: t, p: bestP });
      spaceSince = 0;
    }
    previous = best;
  }
  const toPicture = (column: number) => box.x0 + Math.min(1, (column * COLUMN_PX) / width) * (box.x1 - box.x0);
  const words: OcrWord[] = [];
  let run: typeof read = [];
  const flush = () => {
    if (run.length === 0) return;
    const text = run.map((r) => alphabet.chars[r.index]).join('');
    const confidence = (100 * run.reduce((s, r) => s + r.p, 0)) / run.length;
    // The line's first and last words reach the line's ends: a character column marks where a letter was read, not
    // where its ink starts, and a word cut by the frame edge must reach the edge.
    const x0 = words.length === 0 ? box.x0 : Math.floor(toPicture(run[0].column - 0.5));
    const x1 = run[run.length - 1] === read[read.length - 1] ? box.x1 : Math.ceil(toPicture(run[run.length - 1].column + 1.5));
    words.push({ text, confidence, box: { x0: Math.max(box.x0, x0), y0: box.y0, x1: Math.min(box.x1, x1), y1: box.y1 } });
    run = [];
  };
  for (const r of read) {
    if (r.index === alphabet.space) flush();
    else run.push(r);
  }
  flush();
  return { text: words.map((w) => w.text).join(' '), words };
}
