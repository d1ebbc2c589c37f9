// Lettering the detector finds but the recogniser cannot read surely enough to count as text (camouflaged, distorted
// or stylised type on a still picture). It is not text for the gates that judge words, but it is exactly what a
// thumbnail's readability and contrast are about, so it is reported apart.
import type { ContrastMeasure, RgbPicture } from './contrast.js';
import type { OcrLine } from './engine.js';
import type { InkPicture } from './prepare.js';
import { inkMissesWord, lineContrast, tightBox } from './ink.js';
import { boxesOverlap, countAlnum, type TextLine } from './words.js';

/** The detector's mean text probability over the region: surely lettering. */
const MIN_DETECTION_SCORE = 0.9;
/** At least a line of type: this tall (px of the OCR picture) and this many times as wide as tall (several letters). */
const MIN_HEIGHT_PX = 12;
const MIN_ASPECT = 3;
/** The recogniser made at least this many letters or digits of it, at least this sure (0..100): letters it nearly
 * reads (mirrored type reads at 75-85 %), not patterns it forces letters onto (testsrc2's swatches read at 11-27 %). */
const MIN_GUESS_CHARS = 3;
const MIN_GUESS_CONFIDENCE = 50;

export interface UnreadLine {
  box: { x0: number; y0: number; x1: number; y1: number };
  detectionScore: number;
  /** What the recogniser made of it, and its mean confidence (0..100). */
  guess: string;
  guessConfidence: number;
  contrast: ContrastMeasure | null;
}

/** `prepared` gives the ink picture of the frame (engine/ocr/prepare.ts), made only when some lettering is unread. */
export function unreadLines(read: OcrLine[], kept: TextLine[], frame: RgbPicture, prepared: () => InkPicture): UnreadLine[] {
  const out: UnreadLine[] = [];
  for (const line of read) {
    const { box } = line;
    const [w, h] = [box.x1 - box.x0, box.y1 - box.y0];
    const guess = line.words.map((word) => word.text.trim()).join(' ');
    if ((line.detectionScore ?? 0) < MIN_DETECTION_SCORE || h < MIN_HEIGHT_PX || w < h * MIN_ASPECT) continue;
    if (countAlnum(guess) < MIN_GUESS_CHARS || kept.some((k) => boxesOverlap(k.box, box))) continue;
    const guessConfidence = line.words.reduce((s, word) => s + word.confidence, 0) / Math.max(1, line.words.length);
    if (guessConfidence < MIN_GUESS_CONFIDENCE) continue;
    // Measured as read text is: its ink against the pixels around it, or within its box when too faint to be ink.
    const ink = tightBox(prepared(), box);
    const inkBox = inkMissesWord({ text: guess, confidence: guessConfidence, box }, ink) ? null : ink;
    out.push({ box, detectionScore: line.detectionScore!, guess, guessConfidence, contrast: lineContrast(frame, prepared(), inkBox, [box]) });
  }
  return out;
}
