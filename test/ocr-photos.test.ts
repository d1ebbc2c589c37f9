// Text over real photographs (Debian's mate-backgrounds nature photos), drawn with DejaVu Sans Bold: outlined
// titles and captions, the style agents render most, must be read; the same photos without text must read nothing;
// and the gates must judge the text by its ink (tight boxes, contrast against the pixels around the strokes).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checked } from './helpers/checked.js';
import { generate } from './helpers/media.js';
import { FONT } from './helpers/text-media.js';
import { judgeWords } from '../engine/ocr/lexicon.js';
import type { Report } from '../engine/report.js';

const PHOTOS = '/usr/share/backgrounds/mate/nature';
const photo = (name: string) => `${PHOTOS}/${name}.jpg`;
const HINT = `needs Debian's nature photos in ${PHOTOS} (apt-get install mate-backgrounds)`;
const have = existsSync(photo('GreenMeadow'));
if (!have) console.warn(`skipped: ${HINT}`);

interface Drawn {
  text: string;
  size: number;
  y: string;
  color?: string;
  border?: number;
  box?: string;
}

function drawn(d: Drawn): string {
  const parts = [`fontfile=${FONT}`, `text='${d.text}'`, `fontsize=${d.size}`, `fontcolor=${d.color ?? 'white'}`, 'x=(w-tw)/2', `y=${d.y}`];
  if (d.border) parts.push(`borderw=${d.border}`, 'bordercolor=black');
  if (d.box) parts.push('box=1', `boxcolor=${d.box}`, 'boxborderw=14');
  return `drawtext=${parts.join(':')}`;
}

const still = (name: string, from: string, texts: Drawn[]) =>
  generate(`${name}.jpg`, ['-i', photo(from), '-vf', ['scale=1280:720:force_original_aspect_ratio=increase', 'crop=1280:720', ...texts.map(drawn)].join(','), '-frames:v', '1', '-q:v', '3']);

const video = (name: string, from: string, seconds: number, texts: Drawn[]) =>
  generate(`${name}.mp4`, [
    '-loop', '1', '-framerate', '25', '-i', photo(from), '-t', String(seconds),
    '-vf', ['scale=1280:720:force_original_aspect_ratio=increase', 'crop=1280:720', ...texts.map(drawn)].join(','),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-an',
  ]);

const gate = (r: Report, id: string) => r.gates.find((g) => g.gate === id)!;
/** What a text gate lists as read: at the top of its measurements, or under pixelText for gates that also judge a manifest. */
const linesRead = (r: Report, id: string) => {
  const m = gate(r, id).measurements;
  return ((m.textRead ?? (m.pixelText as Record<string, unknown> | undefined)?.textRead ?? []) as { text: string; box: { h: number } }[]);
};
const readText = (r: Report, id: string) => linesRead(r, id).map((l) => l.text);

describe.skipIf(!have)('text over photographs', () => {
  it('reads a bold outlined thumbnail title over a meadow and lists it in the gate measurements', async () => {
    const file = await still('ocr-photo-title', 'GreenMeadow', [{ text: 'HIDDEN MEADOW', size: 110, y: 'h*0.12', border: 8 }]);
    const r = (await checked(file, { profile: 'generic_creator_video', checks: 'thumbnail_text_readability,text_contrast' })).report;
    expect(readText(r, 'thumbnail_text_readability').join(' ')).toContain('HIDDEN');
    expect(readText(r, 'text_contrast')).toEqual(readText(r, 'thumbnail_text_readability'));
    // White fill against its black outline: above 4.5:1, and no flag about contrast.
    expect(gate(r, 'text_contrast').measurements.lowestContrastRatio as number).toBeGreaterThan(4.5);
    expect(r.flags.filter((f) => f.gate === 'text_contrast')).toEqual([]);
  });

  it('reads outlined captions over a photo, and two lines of one caption do not overlap', async () => {
    const file = await video('ocr-photo-captions', 'FreshFlower', 4, [
      { text: 'Seeds travel far', size: 56, y: 'h*0.70', border: 4 },
      { text: 'on a gentle breeze', size: 56, y: 'h*0.70+70', border: 4 },
    ]);
    const r = (await checked(file, { profile: 'generic_creator_video', checks: 'text_overlap,text_contrast' })).report;
    const read = readText(r, 'text_overlap').join(' ');
    expect(read).toContain('Seeds travel far');
    expect(read).toContain('gentle breeze');
    expect(r.flags.filter((f) => f.gate === 'text_overlap')).toEqual([]);
    // Word boxes come from the ink: a 56 px DejaVu Sans Bold line is about 41-54 px tall at 720 (cap height to
    // descender), so at most 8 % of the frame, not the 1.6× box Tesseract reports over the outline's halo.
    const lines = linesRead(r, 'text_overlap');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const t of lines) expect(t.box.h).toBeLessThan(0.085);
  });

  for (const name of ['Wood', 'Dune', 'RainDrops', 'GreenMeadow']) {
    it(`reads no words in the text-free ${name} photo`, async () => {
      const file = await still(`ocr-photo-none-${name}`, name, []);
      const r = (await checked(file, { profile: 'generic_creator_video', checks: 'text_contrast' })).report;
      expect(gate(r, 'text_contrast').measurements).toMatchObject({ textLines: 0, textRead: [] });
    });
  }
});

describe('all-caps lettering', () => {
  it('counts short capitals as acronyms beside words, and a line of nothing but them as nonsense', () => {
    expect(judgeWords('NASA launch 2024').unreal).toEqual([]);
    expect(judgeWords('BBC').unreal).toEqual([]);
    expect(judgeWords('HOW TO GROW A WILD MEADOW').unreal).toEqual([]);
    expect(judgeWords('QXV RTPL ZBNW').unreal).toEqual(['QXV', 'RTPL', 'ZBNW']);
    expect(judgeWords('XKQ VRTZ').realShare).toBe(0);
  });
});
