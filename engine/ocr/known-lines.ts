// The words the recogniser read in the last few frames, each with its detected box and its frame, so that a box
// detected again in the same place around the same glyphs (engine/ocr/glyphs.ts) takes those words instead of being
// recognised again: a terminal's lines above the one being typed, a caption over a moving photo. Only words that two
// recognitions of that place read alike are given again, so a misread (a glyph lost at a crop's edge) is not carried
// from frame to frame. Detection still runs on every reading; only recognition, most of a line's cost, is spared.
// Deterministic: it looks only at frames read before, in stream order.
import type { KnownWords, OcrBox, OcrLine, OcrWord } from './engine.js';
import { sameGlyphs, type GlyphFrame } from './glyphs.js';
import { tightBox } from './ink.js';
import type { InkPicture } from './prepare.js';
import { boxesOverlap } from './words.js';

/** Frames whose readings are kept (a sample, its confirmation, the sample before and its confirmation). */
const FRAMES_KEPT = 4;
/** A detected box is the one read before when each edge lies within this share of its height (at least 2 px). */
const EDGE_TOLERANCE = 0.15;
const MIN_EDGE_TOLERANCE_PX = 2;

interface Reading<F> {
  frame: F;
  line: OcrLine;
  /** Two recognitions of this place read these words alike. */
  agreed: boolean;
  /** Its words shrunk to their ink on its frame, once a later box is compared with it. */
  tight?: OcrWord[];
}

const textOf = (line: OcrLine) => line.words.map((w) => w.text).join(' ');

function samePlace(a: OcrBox, b: OcrBox): boolean {
  const tolerance = Math.max(MIN_EDGE_TOLERANCE_PX, (b.y1 - b.y0) * EDGE_TOLERANCE);
  const near = (p: number, q: number) => Math.abs(p - q) <= tolerance;
  return near(a.x0, b.x0) && near(a.y0, b.y0) && near(a.x1, b.x1) && near(a.y1, b.y1);
}

/** The words with their boxes shrunk to their ink (a recognised word's box spans its whole detected line). */
const tightWords = (ink: InkPicture, words: OcrWord[]): OcrWord[] => words.map((w) => ({ ...w, box: tightBox(ink, w.box) }));

export class KnownLines<F extends object> {
  private readings: Reading<F>[] = [];
  private readonly frames: F[] = [];
  /** Boxes given words already read, in all. */
  reused = 0;

  /** `glyphs` gives a frame's luma and ink picture (computed once per frame by the caller). */
  constructor(private readonly glyphs: (frame: F) => GlyphFrame) {}

  /** The known words of a box detected on `frame`, except where a line of `exclude` lies (those must be read). */
  wordsFor(frame: F, exclude: readonly OcrBox[] = []): KnownWords {
    return (box) => {
      if (exclude.some((e) => boxesOverlap(e, box))) return null;
      for (const reading of this.readings) {
        const { frame: earlier, line, agreed } = reading;
        if (!agreed || earlier === frame || !samePlace(line.box, box)) continue;
        const then = this.glyphs(earlier);
        reading.tight ??= tightWords(then.ink, line.words);
        if (!sameGlyphs(then, this.glyphs(frame), { words: reading.tight, box: line.box, text: '', confidence: 0 })) continue;
        this.reused++;
        return structuredClone(line.words);
      }
      return null;
    };
  }

  /**
   * Keeps what a reading of `frame` found, in picture coordinates. A line read alike in the same place on an earlier
   * frame is agreed; so is one given known words, whose reading it repeats.
   */
  record(frame: F, lines: readonly OcrLine[]): void {
    const fresh = lines.map((line) => ({
      frame,
      line: structuredClone(line),
      agreed: this.readings.some((r) => r.frame !== frame && samePlace(r.line.box, line.box) && textOf(r.line) === textOf(line)),
    }));
    if (!this.frames.includes(frame)) {
      this.frames.push(frame);
      if (this.frames.length > FRAMES_KEPT) {
        const dropped = this.frames.shift()!;
        this.readings = this.readings.filter((r) => r.frame !== dropped);
      }
    }
    this.readings.push(...fresh);
  }
}
