// Which OCR output is text. OCR reads "words" into foliage, noise and checkerboards, mostly with low confidence and
// implausible shapes; a word is kept only when its confidence, its letters and its box all look like set type.
import { wordsKey } from '../text/match.js';
import type { OcrBox, OcrLine, OcrWord } from './engine.js';

/** Words below this confidence (mean character probability, 0..100) are dropped. */
export const WORD_MIN_CONFIDENCE = 70;
/** A kept line's words must average at least this confidence (video, confirmed by a neighbouring sample). */
export const LINE_MIN_CONFIDENCE = 80;
/** A single picture has no neighbouring sample to confirm its text, so it must be read more surely. */
export const STILL_LINE_MIN_CONFIDENCE = 85;
/** Glyph boxes shorter than this (px of the OCR picture) are too small to read reliably. */
export const MIN_TEXT_HEIGHT_PX = 9;
/** Text taller than this share of the picture is a shape, not type. */
const MAX_TEXT_HEIGHT_FRACTION = 0.4;
/** Box width per character, as a share of the box height: set type sits between these. */
const MIN_WIDTH_PER_CHAR = 0.15;
const MAX_WIDTH_PER_CHAR = 1.6;
/** A kept line needs at least this many letters or digits. */
const MIN_LINE_CHARS = 3;

export interface TextLine {
  text: string;
  words: OcrWord[];
  box: OcrBox;
  /** Mean confidence of the kept words. */
  confidence: number;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;
export const countAlnum = (s: string) => (s.match(LETTER_OR_DIGIT) ?? []).length;

/** Lower case, Upper case, Capitalised, or with digits: "uC", "EmEE" and "mE" are how noise reads, not how type is set. */
function plausibleCase(letters: string): boolean {
  if (letters.length <= 1) return true;
  const rest = letters.slice(1);
  return letters === letters.toLowerCase() || letters === letters.toUpperCase() || rest === rest.toLowerCase();
}

function oneCharDominates(s: string): boolean {
  if (s.length < 3 || /^\p{N}+$/u.test(s)) return false;
  const counts = new Map<string, number>();
  for (const c of s.toLowerCase()) counts.set(c, (counts.get(c) ?? 0) + 1);
  return Math.max(...counts.values()) / s.length >= 0.8;
}

export function boxHeight(b: OcrBox): number {
  return b.y1 - b.y0;
}

export const boxesOverlap = (a: OcrBox, b: OcrBox) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Whether two boxes (or row spans) share a row. */
export const rowsOverlap = (a: Pick<OcrBox, 'y0' | 'y1'>, b: Pick<OcrBox, 'y0' | 'y1'>) => a.y0 < b.y1 && b.y0 < a.y1;

export function unionBox(boxes: OcrBox[]): OcrBox {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/** Whether one OCR word has the confidence and the shape of set type in a picture `pictureHeight` px tall. */
export function isTypeset(word: OcrWord, pictureHeight: number): boolean {
  const text = word.text.trim();
  const alnum = countAlnum(text);
  if (word.confidence < WORD_MIN_CONFIDENCE || alnum < 2 || alnum / text.length < 0.6) return false;
  const h = boxHeight(word.box);
  if (h < MIN_TEXT_HEIGHT_PX || h > pictureHeight * MAX_TEXT_HEIGHT_FRACTION) return false;
  const perChar = (word.box.x1 - word.box.x0) / (h * text.length);
  if (perChar < MIN_WIDTH_PER_CHAR || perChar > MAX_WIDTH_PER_CHAR) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  return plausibleCase(letters) && !oneCharDominates(text.replace(/[^\p{L}\p{N}]/gu, ''));
}

/** A one-character word ("a", "I", "3") read as surely as a typeset word: kept only beside typeset words of its line. */
function isSureSingle(word: OcrWord): boolean {
  return /^[\p{L}\p{N}]$/u.test(word.text.trim()) && word.confidence >= WORD_MIN_CONFIDENCE;
}

/** The lines of one OCR result that read as text: typeset words only, and enough of them, surely enough read. */
export function textLines(lines: OcrLine[], pictureHeight: number, minLineConfidence = LINE_MIN_CONFIDENCE): TextLine[] {
  const out: TextLine[] = [];
  for (const line of lines) {
    const typeset = line.words.map((w) => isTypeset(w, pictureHeight));
    if (!typeset.includes(true)) continue;
    const words = line.words.filter((w, i) => typeset[i] || isSureSingle(w));
    const text = words.map((w) => w.text.trim()).join(' ');
    const confidence = words.reduce((s, w) => s + w.confidence, 0) / words.length;
    if (countAlnum(text) < MIN_LINE_CHARS || confidence < minLineConfidence) continue;
    out.push({ text, words, box: unionBox(words.map((w) => w.box)), confidence });
  }
  return out;
}

/** Similarity of two texts, 0..1, from the edit distance of their keys. */
export function textSimilarity(a: string, b: string): number {
  const [x, y] = [wordsKey(a), wordsKey(b)];
  if (x === y) return 1;
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return 1 - prev[y.length] / longest;
}
