// The ink picture is worked out only where it is read (engine/ocr/prepare.ts, inkPicture): a box's pixels must come out
// exactly as the whole picture's do, whatever was covered before, in whatever order, and while other pictures borrow
// the working arrays in between; and a small box must not cost the whole picture. Real material: a Debian photograph
// (mate-backgrounds) under an outlined and a boxed caption in DejaVu Sans Bold, and ffmpeg's testsrc2 pattern.
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { drawtext } from './helpers/text-media.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { inkPicture, localContrastPicture } from '../engine/ocr/prepare.js';
import type { OcrBox, OcrPicture } from '../engine/ocr/engine.js';

const PHOTO = '/usr/share/backgrounds/mate/nature/GreenMeadow.jpg';
const HINT = `needs Debian's nature photos (apt-get install mate-backgrounds)`;
const havePhoto = existsSync(PHOTO);
if (!havePhoto) console.warn(`skipped (the photo pictures): ${HINT}`);

const [W, H] = [960, 540];

/** One 960 × 540 luma picture of `input` (ffmpeg input arguments) under `filters`. */
async function lumaPicture(input: string[], filters: string[]): Promise<OcrPicture> {
  const vf = [...filters, `scale=${W}:${H}:flags=area`, 'format=gray'].join(',');
  const { stdout } = await execa(ffmpegPath(), ['-v', 'error', ...input, '-frames:v', '1', '-vf', vf, '-f', 'rawvideo', '-'], { encoding: 'buffer' });
  return { gray: new Uint8Array(stdout), width: W, height: H };
}

const photoPicture = () =>
  lumaPicture(['-i', PHOTO], [
    'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720',
    drawtext({ text: 'Rain moves in over the meadow', size: 52, color: 'white', border: 4, x: '(w-tw)/2', y: 'h*0.8' }),
    drawtext({ text: 'Chapter two', size: 40, color: 'white', box: 'black@0.6', x: '60', y: '60' }),
  ]);
const patternPicture = () => lumaPicture(['-f', 'lavfi', '-i', 'testsrc2=s=1280x720:d=1'], []);

/** A fixed sequence of boxes of every size, some past the picture's edges. */
function boxes(count: number): OcrBox[] {
  let seed = 20261205;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    const [x0, y0] = [Math.floor(next() * (W + 40)) - 20, Math.floor(next() * (H + 40)) - 20];
    return { x0, y0, x1: x0 + 1 + Math.floor(next() * 320), y1: y0 + 1 + Math.floor(next() * 120) };
  });
}

/** The pixels of `box` (clipped) that differ between two pictures. */
function differing(a: Uint8Array, b: Uint8Array, box: OcrBox): number {
  let n = 0;
  for (let y = Math.max(0, box.y0); y < Math.min(H, box.y1); y++) for (let x = Math.max(0, box.x0); x < Math.min(W, box.x1); x++) n += a[y * W + x] === b[y * W + x] ? 0 : 1;
  return n;
}

describe('the ink picture worked out where it is read', () => {
  for (const [name, picture, available] of [
    ['a captioned photograph', photoPicture, havePhoto],
    ['the test pattern', patternPicture, true],
  ] as const) {
    it.skipIf(!available)(`covers boxes of ${name} as the whole picture has them, while two other pictures take turns`, async () => {
      const p = await picture();
      for (const backingBoxes of [true, false]) {
        const whole = localContrastPicture(p, backingBoxes).gray;
        // Another picture's ink around the same boxes, and a third's, so the working arrays are lent on between covers.
        const mirrored = { ...p, gray: p.gray.slice().reverse() };
        const inverted = { ...p, gray: p.gray.map((v) => 255 - v) };
        const [lazy, other, third] = [inkPicture(p, backingBoxes), inkPicture(mirrored, backingBoxes), inkPicture(inverted, backingBoxes)];
        for (const box of boxes(40)) {
          lazy.cover(box);
          expect(differing(lazy.gray, whole, box)).toBe(0);
          other.cover({ x0: W - box.x1, y0: H - box.y1, x1: W - box.x0, y1: H - box.y0 });
          third.cover(box);
        }
        const otherWhole = localContrastPicture(mirrored, backingBoxes).gray;
        for (const box of boxes(40)) expect(differing(other.gray, otherWhole, { x0: W - box.x1, y0: H - box.y1, x1: W - box.x0, y1: H - box.y0 })).toBe(0);
        // Covering everything at last gives the whole picture.
        lazy.cover({ x0: 0, y0: 0, x1: W, y1: H });
        expect(differing(lazy.gray, whole, { x0: 0, y0: 0, x1: W, y1: H })).toBe(0);
      }
    });
  }

  it.skipIf(!havePhoto)('works out only around a small box: the rest of the picture stays untouched', async () => {
    const p = await photoPicture();
    const whole = localContrastPicture(p, true).gray;
    const lazy = inkPicture(p, true);
    const caption = { x0: 300, y0: 420, x1: 660, y1: 470 };
    lazy.cover(caption);
    expect(differing(lazy.gray, whole, caption)).toBe(0);
    // The whole picture has ink far from the caption (the boxed title, the meadow's texture), the lazy one none yet.
    const far = { x0: 0, y0: 0, x1: W, y1: 160 };
    expect(differing(whole, new Uint8Array(W * H).fill(255), far)).toBeGreaterThan(100);
    expect(differing(lazy.gray, new Uint8Array(W * H).fill(255), far)).toBe(0);
  });
});
