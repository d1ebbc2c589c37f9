// A caption over a moving photograph keeps its glyphs while the pixels between its letters change: the sampler then
// confirms a caption it has confirmed before by its glyphs instead of reading the next frame again. The glyph test
// must say "same" for the same caption over a panning photo and "changed" for a changed digit, a shifted or removed
// caption. Real material: Debian's nature photos (mate-backgrounds), DejaVu Sans Bold, the bundled ffmpeg's x264.
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { checked } from './helpers/checked.js';
import { generate } from './helpers/media.js';
import { drawtext } from './helpers/text-media.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { lumaOf } from '../engine/ocr/changes.js';
import { OcrEngine, type OcrLine } from '../engine/ocr/engine.js';
import { sameGlyphs, type GlyphFrame } from '../engine/ocr/glyphs.js';
import { KnownLines } from '../engine/ocr/known-lines.js';
import { tightBox } from '../engine/ocr/ink.js';
import { localContrastPicture } from '../engine/ocr/prepare.js';
import { textLines, unionBox, type TextLine } from '../engine/ocr/words.js';
import type { Report } from '../engine/report.js';

const PHOTO = '/usr/share/backgrounds/mate/nature/GreenMeadow.jpg';
const HINT = `needs Debian's nature photos (apt-get install mate-backgrounds)`;
const have = existsSync(PHOTO);
if (!have) console.warn(`skipped: ${HINT}`);

const [W, H] = [960, 540];
const caption = (text: string, enable: string, x = '(w-tw)/2') => drawtext({ text, size: 52, color: 'white', border: 4, x, y: 'h*0.80', enable });

/** 8 s of the photo panning right to left (40 px a second at 1280 × 720) under captions that change as the test needs. */
const panning = (name: string, captions: string[]) =>
  generate(`${name}.mp4`, [
    '-loop', '1', '-framerate', '25', '-i', PHOTO, '-t', '8',
    '-vf', ['scale=1600:900:force_original_aspect_ratio=increase', "crop=1280:720:x='300-40*t':y=60", ...captions].join(','),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-an',
  ]);

/** A caption until 4 s, its year changed until 5.5 s, then moved 6 px to the right until 7 s. */
const PAN_CAPTIONS = [
  caption('Rain moves in over the meadow 2024', 'lt(t,4)'),
  caption('Rain moves in over the meadow 2025', 'between(t,4,5.5)'),
  caption('Rain moves in over the meadow 2025', 'between(t,5.5,7)', '(w-tw)/2+6'),
];

/** The frame at `seconds` as the OCR stream sees it (960 × 540 RGB), with its luma and ink picture. */
async function frameAt(file: string, seconds: number): Promise<GlyphFrame & { rgb: Uint8Array }> {
  const { stdout } = await execa(ffmpegPath(), ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer' });
  const rgb = new Uint8Array(stdout);
  const luma = lumaOf({ rgb, width: W, height: H });
  return { rgb, luma, ink: localContrastPicture({ gray: luma, width: W, height: H }, true) };
}

/** The caption line read on `frame`, its words shrunk to their ink as the sampler does. */
async function captionLine(frame: GlyphFrame & { rgb: Uint8Array }): Promise<TextLine> {
  const engine = new OcrEngine();
  try {
    const read = await engine.recognise({ rgb: frame.rgb, width: W, height: H });
    const lines = textLines(read ?? [], H);
    expect(lines).toHaveLength(1);
    const words = lines[0].words.map((w) => ({ ...w, box: tightBox(frame.ink, w.box) }));
    return { ...lines[0], words, box: unionBox(words.map((w) => w.box)) };
  } finally {
    await engine.close();
  }
}

const gate = (r: Report, id: string) => r.gates.find((g) => g.gate === id)!;

describe.skipIf(!have)('glyphs of a caption over a moving photo', () => {
  it('are the same while the photo pans, and change with a digit, a shift or the caption gone', async () => {
    const file = await panning('glyphs-pan', PAN_CAPTIONS);
    const [a, b, digit, shifted, gone] = await Promise.all([1, 2.5, 4.5, 6, 7.5].map((t) => frameAt(file, t)));
    const line = await captionLine(a);
    expect(line.text).toContain('meadow 2024');
    // The photo moved 60 px under the caption: many of the line box's pixels changed, its strokes did not.
    expect(sameGlyphs(a, b, line)).toBe(true);
    expect(sameGlyphs(b, a, line)).toBe(true);
    expect(sameGlyphs(a, digit, line)).toBe(false);
    expect(sameGlyphs(a, shifted, line)).toBe(false);
    expect(sameGlyphs(a, gone, line)).toBe(false);
  });

  it('take the words two readings of the same place read alike, on a later frame with the same glyphs only', async () => {
    const file = await panning('glyphs-pan', PAN_CAPTIONS);
    const frames = await Promise.all([1, 2, 3, 4.5].map((t) => frameAt(file, t)));
    const known = new KnownLines<(typeof frames)[number]>((f) => f);
    const engine = new OcrEngine();
    const text = (lines: OcrLine[]) => lines.map((l) => l.words.map((w) => w.text).join(' ')).join(' / ');
    try {
      const readOn = async (f: (typeof frames)[number]) => {
        const lines = (await engine.recognise({ rgb: f.rgb, width: W, height: H }, undefined, undefined, known.wordsFor(f)))!;
        known.record(f, lines);
        return lines;
      };
      const first = await readOn(frames[0]);
      const second = await readOn(frames[1]);
      // Read once, then twice: both recognised.
      expect(known.reused).toBe(0);
      expect(text(second)).toBe(text(first));
      expect(text(first)).toContain('meadow 2024');
      // Read alike twice, same glyphs: the third frame takes those words for each of the caption's boxes.
      const third = await readOn(frames[2]);
      expect(known.reused).toBe(first.length);
      expect(text(third)).toBe(text(first));
      // A digit changed: recognised again, and read as it is now.
      const changed = await readOn(frames[3]);
      expect(known.reused).toBe(first.length);
      expect(text(changed)).toContain('meadow 2025');
    } finally {
      await engine.close();
    }
  });

  it('confirm a caption read and confirmed before without reading the next frame, and read the same text', async () => {
    const file = await panning('glyphs-pan-check', [caption('Rain moves in over the meadow', 'lt(t,6)')]);
    const r = (await checked(file, { profile: 'generic_creator_video', checks: 'text_contrast' })).report;
    const m = gate(r, 'text_contrast').measurements as { samplesRead: number; wholeReads: number; confirmations: number; textRead: { text: string; start: number; end: number }[] };
    // The photo moves, so every sample reads the whole picture; only the first sample of the caption needs a second
    // reading to be confirmed (and a sample whose next frame the glyph test does not trust).
    expect(m.wholeReads).toBe(m.samplesRead);
    expect(m.confirmations).toBeLessThan(m.samplesRead / 2);
    expect(m.textRead).toHaveLength(1);
    expect(m.textRead[0].text).toBe('Rain moves in over the meadow');
    expect(m.textRead[0].start).toBe(0);
    expect(m.textRead[0].end).toBeGreaterThanOrEqual(5.5);
  });
});
