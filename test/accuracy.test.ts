// Accuracy on real footage (issue 14): a sentinel set of the corpus (bench/accuracy/) — for every gate the accuracy
// work touched, the clean files it used to cry wolf on and the defects it must find — is built from Debian's material
// and checked for real; every file must meet its expectations (no false flag, every defect at its gate, severity and
// span), OCR must keep reading what it reads today and invent nothing. `npm run bench -- accuracy` runs the whole
// corpus and prints the confusion table; the suite runs this set to stay within CI's time.
import { describe, expect, it } from 'vitest';
import { buildCorpus, mapLimit } from '../bench/accuracy/build.js';
import { CORPUS } from '../bench/accuracy/corpus.js';
import { findMaterials, missingHint } from '../bench/accuracy/materials.js';
import { recallByStyle } from '../bench/accuracy/match.js';
import { checkEntry, type FileResult } from '../bench/accuracy/run.js';

/** Each with why it is here: a clean control the gates once flagged, or a defect they must find. */
// Defects with a test of their own on generated media (a freeze inside a pan, a looped sequence and blurred fill in
// visual-gates, clipping through an AAC decode in audio-accuracy) are left to those tests and to the bench's corpus.
const SENTINELS: Record<string, string> = {
  'static-sway-16x9': 'clean: small motion in a static shot was a loop_freeze BLOCK',
  'screen-recording-16x9': 'clean: typing and a moving cursor was a "still for the whole file" WATCH',
  'slideshow-held-16x9': 'clean: held slides between cuts were freezes',
  'thumb-none-wood': 'clean: a soft-focus photo was 62 % padding, BLOCK',
  'captions-outlined-16x9': 'clean: outlined captions over a photo (OCR recall)',
  'captions-plain-2line-16x9': 'clean: two lines of one caption "overlapped"',
  'captions-low-contrast-16x9': 'defect: a low-contrast caption, text_contrast BLOCK',
  'thumb-title-storm': 'clean: a bold thumbnail title that read nothing',
  'thumb-small-text': 'defect: small thumbnail text, thumbnail_text_readability BLOCK',
  'thumb-faint-title': 'defect: a title at 30 % opacity, too faint for the ink picture, text_contrast BLOCK',
  'music-only': 'clean: music judged as a podcast',
  'sync-clapper-16x9': 'clean: clapper cuts in sync',
  'sync-clapper-late300': 'defect: audio 300 ms late against clapper cuts',
  'audiogram-late300': 'defect: speech 300 ms behind its waveform over a moving photo, found by the level correlation',
};

/**
 * Misses still open (issue 14), held exactly: a fix, or a new way of failing, makes the test fail until this list
 * says so.
 */
const KNOWN_MISSES: Record<string, string[]> = {
  // The 22 px line is read now, and its contrast measured: the 2 px outline is as thick as the strokes, so the ring
  // around the ink mixes outline and photo (3.37:1) where the eye sees white on black.
  'thumb-small-text': ['text_contrast: unexpected WATCH 0.0–0.0 s ""tips for sandy coastal gardens" has a contrast of 3.37:1 against its background (normal text needs 4.50:1)"'],
};

/** Lines of the set's ground truth, and those read in full today: 18 of 19 (PaddleOCR; tesseract.js read 8 of 18). The
 * faint title is read in half: "SUMMER", not "FIELDS" over the flower. */
const LINES = 19;
const LINES_READ_AT_LEAST = 18;

const entries = CORPUS.filter((e) => e.name in SENTINELS);
const materials = findMaterials();
const hint = missingHint(materials, entries.flatMap((e) => e.needs));

describe.skipIf(hint)(`accuracy on real footage${hint ? ` (skipped: ${hint})` : ''}`, () => {
  let results: FileResult[] = [];

  it('builds and checks the sentinel set', async () => {
    expect(entries.map((e) => e.name).sort()).toEqual(Object.keys(SENTINELS).sort());
    const { built } = await buildCorpus({ entries, materials, concurrency: 2 });
    results = await mapLimit(built, 2, checkEntry);
    for (const r of results) expect(r.skipped, r.name).toBeUndefined();
  }, 900_000);

  it.each(Object.entries(SENTINELS))('%s meets its expectations (%s)', (name) => {
    const r = results.find((f) => f.name === name);
    // Undefined (the file was not checked) differs from every list, so it fails here too.
    expect(r?.match?.mismatches, name).toEqual(KNOWN_MISSES[name] ?? []);
  });

  it('reads the caption lines and titles it reads today and invents no words', () => {
    const lines = results.flatMap((f) => f.ocr?.lines ?? []);
    const read = recallByStyle(lines).reduce((s, r) => ({ lines: s.lines + r.lines, linesRead: s.linesRead + r.linesRead }), { lines: 0, linesRead: 0 });
    expect(read.lines).toBe(LINES);
    expect(read.linesRead).toBeGreaterThanOrEqual(LINES_READ_AT_LEAST);
    for (const f of results.filter((x) => x.expect.textFree)) expect(f.ocr?.extraWords ?? [], f.name).toEqual([]);
  });
});
