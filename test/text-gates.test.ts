// Text in the picture, end to end: generated media with drawn text goes through the real decode pass and offline OCR,
// and each text gate must flag what it is about (words, box, measure, time span, repair) and nothing else.
// A control set of text-free footage (noise, fractals, cellular automata, texture, gradients) must read no text at all.
import { describe, expect, it } from 'vitest';
import { checked } from './helpers/checked.js';
import { pixelOverlap } from '../engine/gates/text/text-overlap.js';
import { buildTracks } from '../engine/ocr/tracks.js';
import { thresholdsFor } from '../engine/gates/index.js';
import type { Report } from '../engine/report.js';
import { manifestFromJson } from '../engine/sidecars/formats/manifest.js';
import type { TextObservation, TextSignals } from '../engine/types.js';
import { textImage, textVideo, type DrawnText } from './helpers/text-media.js';

const TEXT_GATES = 'text_contrast,text_safe_area,text_overlap,text_crop_jitter,hallucinated_plate_text';
const flagsOf = (r: Report, gate: string) => r.flags.filter((f) => f.gate === gate);
const gate = (r: Report, id: string) => r.gates.find((g) => g.gate === id)!;
const HD = 'color=c=0x1e2a38:s=1280x720:r=25';

const caption = (text: string, extra: Partial<DrawnText> = {}): DrawnText => ({ text, size: 44, color: 'white', x: '(w-tw)/2', y: 'h-150', ...extra });

async function check(file: string, checks = TEXT_GATES, profile = 'generic_creator_video', sidecars = {}): Promise<Report> {
  return (await checked(file, { profile, checks, sidecars })).report;
}

describe('reading text in the picture', () => {
  it('reads a caption with its words, box and time span, and passes every text gate when it is well placed', async () => {
    const file = await textVideo('ocr-caption', HD, 8, [caption('Welcome to the show', { enable: 'between(t,2,6)' })]);
    const r = await check(file);
    for (const id of TEXT_GATES.split(',')) expect(gate(r, id).status, `${id}: ${JSON.stringify(gate(r, id))}`).toBe('pass');
    const m = gate(r, 'text_contrast').measurements;
    expect(m).toMatchObject({ textLines: 1, linesMeasured: 1, ocrPicture: '960x540', sampleIntervalSeconds: 1, ocrTimeouts: 0 });
    // White on #1e2a38: (1.05) / (0.0227 + 0.05) = 14.4:1 by the formula.
    expect(m.lowestContrastRatio as number).toBeGreaterThan(11);
    expect(m.samplesRead as number).toBeGreaterThanOrEqual(8);
    // OCR follows the text, not the clock: the first sample is read whole, the caption's arrival in an empty place as
    // a region, its departure (a change at a known line) as a band across the picture, and the samples between them,
    // whose pixels did not change, not at all (their lines are kept, and confirmed again by their unchanged pixels).
    expect(m).toMatchObject({ wholeReads: 1, regionReads: 2 });
    expect(m.unchangedSamples as number).toBeGreaterThanOrEqual(3);
    expect(m.keptLines as number).toBeGreaterThanOrEqual(3);
    expect(m.confirmations as number).toBeGreaterThanOrEqual(1);
    expect(m.confirmations as number).toBeLessThanOrEqual(3);
  });

  it('dates each line to within half a second of when it appears and goes, between samples one second apart', async () => {
    const file = await textVideo('ocr-caption-timing', HD, 8, [
      caption('Welcome to the show', { enable: 'between(t,2.3,5.2)' }),
      caption('Morning edition', { y: '120', enable: 'between(t,1,2.6)' }),
    ]);
    const r = await check(file, 'text_contrast');
    const m = gate(r, 'text_contrast').measurements;
    const read = m.textRead as { text: string; start: number; end: number }[];
    // Appears between samples 2 and 3: seen on the frame before sample 3. Goes between sample 5 and its confirming
    // frame: kept because sample 4 read and confirmed it, so it ends with that frame.
    expect(read.find((t) => t.text === 'Welcome to the show')).toMatchObject({ start: 2.5, end: 5.5 });
    // Appears on a sample (its frame before has nothing) and goes after the confirming frame of sample 2.
    expect(read.find((t) => t.text === 'Morning edition')).toMatchObject({ start: 1, end: 2.5 });
  });

  it('gives the same flags on repeated runs (determinism)', async () => {
    const file = await textVideo('ocr-lowcontrast', 'color=c=0xaaaaaa:s=1280x720:r=25', 5, [caption('Limited offer today', { size: 26 })]);
    const [a, b] = [await check(file), await check(file)];
    expect(a.flags.length).toBeGreaterThan(0);
    const strip = (r: Report) => JSON.stringify(r.gates.map((g) => ({ ...g, measurements: { ...g.measurements, ocrMs: 0 } })));
    expect(strip(b)).toBe(strip(a));
    expect(JSON.stringify(b.flags)).toBe(JSON.stringify(a.flags));
  });
});

describe('text-free footage reads no text', () => {
  // Drawn at 5 fps (a fifth of the cost to generate, encode and decode): OCR reads 2 frames a second.
  const controls: [string, string][] = [
    ['noise', 'nullsrc=s=1280x720:r=5,geq=lum=random(1)*255:cb=128:cr=128'],
    ['colour noise texture', 'color=c=0x2d5a27:s=1280x720:r=5,noise=alls=60:allf=t+u'],
    ['foliage-like blurred texture', 'color=c=0x3a6b2a:s=1280x720:r=5,noise=alls=90:allf=t+u,boxblur=3:1,eq=contrast=1.4'],
    ['mandelbrot fractal', 'mandelbrot=s=1280x720:r=5'],
    ['cellular automaton', 'cellauto=s=1280x720:rule=110:r=5:random_fill_ratio=0.5'],
    ['game of life', 'life=s=1280x720:r=5:mold=10:ratio=0.3:death_color=#1f3b12:life_color=#9acd32'],
    ['sky gradient', "nullsrc=s=1280x720:r=5,geq=r='40+X/W*60':g='90+Y/H*100':b='180+40*sin(2*PI*(X/W+T/4))'"],
  ];
  for (const [name, source] of controls) {
    it(`reads no text in ${name}`, async () => {
      const file = await textVideo(`ocr-control-${name.replace(/\W+/g, '-')}`, source, 4, []);
      const r = await check(file);
      expect(r.flags, JSON.stringify(r.flags.map((f) => f.summary))).toEqual([]);
      expect(gate(r, 'text_contrast').measurements).toMatchObject({ textLines: 0 });
      expect(gate(r, 'text_contrast').measurements.samplesRead as number).toBeGreaterThanOrEqual(4);
    });
  }
});

describe('text_contrast', () => {
  it('blocks text under 3:1 and names the words, box, ratio, span and a backing shape', async () => {
    // White on #aaaaaa: (1.05) / (0.402 + 0.05) = 2.32:1.
    const file = await textVideo('ocr-lowcontrast', 'color=c=0xaaaaaa:s=1280x720:r=25', 5, [caption('Limited offer today', { size: 26 })]);
    const r = await check(file, 'text_contrast');
    const [f] = flagsOf(r, 'text_contrast');
    expect(f).toMatchObject({ severity: 'BLOCK', repair: { action: 'back_text_with_shape' } });
    expect(f.evidence.text).toBe('Limited offer today');
    expect(f.evidence.contrastRatio as number).toBeGreaterThan(2.0);
    expect(f.evidence.contrastRatio as number).toBeLessThan(2.7);
    expect(f.evidence.textIs).toBe('lighter');
    expect(f.evidence.box).toMatchObject({ y: expect.closeTo(0.79, 1) });
    expect(f.start).toBe(0);
    expect(f.end).toBeGreaterThanOrEqual(4);
    expect(f.repair.instruction).toMatch(/dark .*shape/);
    expect(f.repair.instruction).toContain('4.50:1');
  });

  it('watches normal-size text between 3:1 and 4.5:1 but passes the same contrast on large text', async () => {
    // White on #8a8a8a: (1.05) / (0.254 + 0.05) = 3.45:1.
    const grey = 'color=c=0x8a8a8a:s=1280x720:r=25';
    const small = await textVideo('ocr-midcontrast-small', grey, 4, [caption('Small print here', { size: 24 })]);
    const large = await textVideo('ocr-midcontrast-large', grey, 4, [caption('Large title here', { size: 64 })]);
    const s = flagsOf(await check(small, 'text_contrast'), 'text_contrast');
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ severity: 'WATCH', evidence: { largeText: false } });
    expect(s[0].evidence.contrastRatio as number).toBeGreaterThan(3);
    expect(s[0].evidence.contrastRatio as number).toBeLessThan(4.5);
    const l = await check(large, 'text_contrast');
    expect(gate(l, 'text_contrast')).toMatchObject({ status: 'pass', measurements: { textLines: 1 } });
  });
});

describe('text_safe_area', () => {
  const corner = (name: string) => textVideo(name, HD, 4, [{ text: 'Corner label', size: 36, color: 'white', x: '12', y: '12' }]);

  it('flags text outside the action-safe area: WATCH for web delivery, BLOCK for broadcast', async () => {
    const file = await corner('ocr-corner');
    const [web] = flagsOf(await check(file, 'text_safe_area'), 'text_safe_area');
    expect(web).toMatchObject({ severity: 'WATCH', evidence: { text: 'Corner label', outsideActionSafe: ['left', 'top'] }, repair: { action: 'move_text' } });
    expect(web.summary).toContain('action-safe');
    expect(web.repair.instruction).toContain('x 5 %-95 %, y 5 %-95 %');
    const [broadcast] = flagsOf(await check(file, 'text_safe_area', 'broadcast_r128'), 'text_safe_area');
    expect(broadcast.severity).toBe('BLOCK');
  });

  it('blocks a 9:16 caption under the bottom platform UI zone', async () => {
    const file = await textVideo('ocr-vertical-low', 'color=c=0x1e2a38:s=720x1280:r=25', 4, [{ text: 'Follow for more', size: 48, color: 'white', x: '(w-tw)/2', y: 'h-200' }]);
    const r = await check(file, 'text_safe_area', 'shorts');
    const ui = flagsOf(r, 'text_safe_area').find((f) => 'shareUnderUi' in f.evidence)!;
    expect(ui).toMatchObject({ severity: 'BLOCK', evidence: { text: 'Follow for more', zones: ['bottom'] } });
    expect(ui.evidence.shareUnderUi).toBe(1);
  });
});

describe('text_crop_jitter (read text)', () => {
  it('blocks text cut by the frame edge', async () => {
    const file = await textVideo('ocr-edge', HD, 4, [{ text: 'Breaking news tonight', size: 44, color: 'white', x: '-40', y: '300' }]);
    const [f] = flagsOf(await check(file, 'text_crop_jitter'), 'text_crop_jitter');
    expect(f).toMatchObject({ severity: 'BLOCK', evidence: { edges: ['left'], source: 'read in the picture (OCR)' }, repair: { action: 'move_text' } });
    expect(f.summary).toContain('cut by the left edge');
  });

  it('watches text that jumps back and forth between neighbouring frames, not text in a steady crawl', async () => {
    // The text jumps at a quarter past and a quarter to each second: between every sample and its confirming frame.
    const jitter = await textVideo('ocr-jitter', HD, 5, [{ text: 'Stay tuned for more', size: 44, color: 'white', x: '300+24*mod(floor(t*2+0.5)\\,2)', y: '400' }]);
    const [f] = flagsOf(await check(jitter, 'text_crop_jitter'), 'text_crop_jitter');
    expect(f).toMatchObject({ severity: 'WATCH', evidence: { text: 'Stay tuned for more' }, repair: { action: 'align_text' } });
    expect(f.evidence.largestShiftFraction as number).toBeGreaterThan(0.012);
    expect(f.evidence.largestShiftFraction as number).toBeLessThan(0.03);
    const crawl = await textVideo('ocr-crawl', HD, 5, [{ text: 'Stay tuned for more', size: 44, color: 'white', x: '200+40*t', y: '400' }]);
    expect(flagsOf(await check(crawl, 'text_crop_jitter'), 'text_crop_jitter')).toEqual([]);
  });
});

describe('hallucinated_plate_text (read text)', () => {
  const plate = () => textVideo('ocr-plate', HD, 5, [{ text: 'Qxvrtplk Zbnmwq', size: 48, color: 'white', x: '200', y: '200' }]);
  const manifest = (approved?: string) =>
    manifestFromJson({
      schema: 'preflight-manifest/1',
      segments: [{ start: 0, end: 5, kind: 'generated_plate', ...(approved ? { onScreenText: [{ text: approved, approved: true }] } : {}) }],
    });

  it('watches lettering that is not real words, and blocks it on a generated plate', async () => {
    const file = await plate();
    const [bare] = flagsOf(await check(file, 'hallucinated_plate_text'), 'hallucinated_plate_text');
    expect(bare).toMatchObject({ severity: 'WATCH', evidence: { onGeneratedPlate: false, notWords: ['Qxvrtplk', 'Zbnmwq'] } });
    const [onPlate] = flagsOf(await check(file, 'hallucinated_plate_text', 'generic_creator_video', { manifest: manifest() }), 'hallucinated_plate_text');
    expect(onPlate).toMatchObject({ severity: 'BLOCK', evidence: { onGeneratedPlate: true }, repair: { action: 're_render_plate' } });
  });

  it('passes lettering the manifest approves, and real words', async () => {
    const file = await plate();
    const approved = await check(file, 'hallucinated_plate_text', 'generic_creator_video', { manifest: manifest('Qxvrtplk Zbnmwq') });
    expect(gate(approved, 'hallucinated_plate_text')).toMatchObject({ status: 'pass', measurements: { pixelText: { approvedLines: 1 } } });
    const words = await textVideo('ocr-plate-words', HD, 4, [{ text: 'Fresh coffee daily', size: 48, color: 'white', x: '200', y: '200' }]);
    expect(gate(await check(words, 'hallucinated_plate_text'), 'hallucinated_plate_text').status).toBe('pass');
  });
});

describe('thumbnail_text_readability', () => {
  const dark = 'color=c=0x202020:s=1280x720';

  it('passes a few large words in the middle of a thumbnail', async () => {
    const file = await textImage('ocr-thumb-good', dark, [{ text: 'BIG WIN', size: 150, color: 'yellow', x: '(w-tw)/2', y: '(h-th)/2' }]);
    const r = await check(file, 'thumbnail_text_readability,text_contrast,text_safe_area', 'thumbnail');
    expect(r.flags).toEqual([]);
    expect(gate(r, 'thumbnail_text_readability').measurements).toMatchObject({ textLines: 1, words: 2, sampleIntervalSeconds: 0, ocrPicture: '1280x720' });
  });

  it('flags small text, too many words and text under the duration badge', async () => {
    const file = await textImage('ocr-thumb-bad', dark, [
      { text: 'how I fixed every single mistake in my first edit', size: 30, color: 'white', x: '80', y: '120' },
      { text: 'Watch now', size: 40, color: 'white', x: 'w-tw-40', y: 'h-th-40' },
    ]);
    const flags = flagsOf(await check(file, 'thumbnail_text_readability', 'thumbnail'), 'thumbnail_text_readability');
    const small = flags.find((f) => f.repair.action === 'enlarge_text')!;
    expect(small).toMatchObject({ severity: 'BLOCK' });
    expect(small.evidence.heightAtThumbnailPx as number).toBeLessThan(8);
    // 12 words drawn, all read: the lone "I" counts beside the typeset words of its line.
    expect(flags.find((f) => f.repair.action === 'cut_words')).toMatchObject({ severity: 'WATCH', evidence: { words: 12 } });
    expect(flags.find((f) => f.repair.action === 'move_text')).toMatchObject({ severity: 'WATCH', evidence: { text: 'Watch now', underDurationBadge: true } });
  });
});

describe('lettering that cannot be read', () => {
  // A title drawn mirrored (a flipped layer, or an image model's lettering): the detector finds a line of type, OCR
  // makes no sure reading of it. The same title the right way round is read and passes.
  const title = { text: 'AUTUMN HARVEST', size: 110, color: 'white', border: 4, x: '(w-tw)/2', y: 'h*0.4' };

  it('watches a mirrored title on a thumbnail, with what OCR made of it, and passes the same title the right way round', async () => {
    const mirrored = await check(await textImage('ocr-thumb-mirrored', 'mandelbrot=s=1280x720', [title], ['hflip']), 'thumbnail_text_readability,text_contrast', 'thumbnail');
    const [flag] = flagsOf(mirrored, 'thumbnail_text_readability');
    expect(flag).toMatchObject({ severity: 'WATCH', repair: { action: 'make_text_legible' }, evidence: { guess: expect.stringMatching(/VAAH/) } });
    expect(flag.evidence.guessConfidence as number).toBeLessThan(85);
    expect(flag.summary).toMatch(/^The lettering at x \d.* looks like text but cannot be read/);
    expect(gate(mirrored, 'thumbnail_text_readability').measurements).toMatchObject({ textLines: 0, unreadTextRegions: 1 });
    // White with a black outline: its contrast is measured and passes.
    expect(flagsOf(mirrored, 'text_contrast')).toEqual([]);
    expect(gate(mirrored, 'text_contrast').measurements).toMatchObject({ linesMeasured: 1 });

    const upright = await check(await textImage('ocr-thumb-upright', 'mandelbrot=s=1280x720', [title]), 'thumbnail_text_readability', 'thumbnail');
    expect(upright.flags).toEqual([]);
    expect(gate(upright, 'thumbnail_text_readability').measurements).toMatchObject({ textLines: 1, unreadTextRegions: 0 });
  });

  it("takes no pattern for lettering: testsrc2's striped swatches, which OCR forces letters onto at under 30 %", async () => {
    const pattern = await check(await textImage('ocr-thumb-pattern', 'testsrc2=s=640x360', []), 'thumbnail_text_readability,text_contrast', 'thumbnail');
    expect(gate(pattern, 'thumbnail_text_readability').measurements).toMatchObject({ unreadTextRegions: 0 });
    expect(pattern.flags.filter((f) => f.repair.action === 'make_text_legible' || String(f.summary).startsWith('The lettering'))).toEqual([]);
  });
});

describe('text tracks', () => {
  const reading = (text: string, at: number, confirmText: string): TextObservation => ({
    atSeconds: at,
    text,
    box: { x: 0.2, y: 0.8, w: 0.5, h: 0.06 },
    confirmBox: { x: 0.2, y: 0.8, w: 0.5, h: 0.06 },
    confirmAtSeconds: at + 0.5,
    confirmText,
    confidence: 90,
    words: [],
    contrast: null,
  });

  it('keeps a misread letter in one track but splits captions that change in place', () => {
    const misread = buildTracks([reading('Caption twelve', 0, 'Caption twelve'), reading('Caption twe1ve', 1, 'Caption twelve'), reading('Caption twelve', 2, 'Caption twelve')], 2, 0.5);
    expect(misread).toHaveLength(1);
    expect(misread[0]).toMatchObject({ text: 'Caption twelve', start: 0, end: 2.5 });
    const changed = buildTracks([reading('Caption 12', 0, 'Caption 12'), reading('Caption 12', 1, 'Caption 12'), reading('Caption 13', 2, 'Caption 13')], 2, 0.5);
    expect(changed.map((t) => [t.text, t.start, t.end])).toEqual([
      ['Caption 12', 0, 1.5],
      ['Caption 13', 2, 2.5],
    ]);
  });
});

describe('text_overlap (read text)', () => {
  const obs = (text: string, at: number, x: number, y: number, w: number, h: number): TextObservation => ({
    atSeconds: at,
    text,
    box: { x, y, w, h },
    confirmBox: { x, y, w, h },
    confirmAtSeconds: at + 0.5,
    confirmText: text,
    confidence: 95,
    words: [{ text, confidence: 95, box: { x, y, w, h } }],
    contrast: null,
  });
  const signals = (observations: TextObservation[]): TextSignals => ({
    engine: 'test',
    pictureWidth: 960,
    pictureHeight: 540,
    sampleIntervalSeconds: 1,
    samples: 3,
    changeSamples: 0,
    wholeReads: 3,
    regionReads: 0,
    unchangedSamples: 0,
    keptLines: 0,
    confirmations: 3,
    startSearches: 0,
    unconfirmedLines: 0,
    recognitionsSpared: 0,
    timeouts: 0,
    ocrMs: 0,
    tracks: buildTracks(observations, 2, 0.5),
    unreadText: [],
  });

  it('flags two lines read in the same sample whose boxes overlap, by the shared ratios', () => {
    const th = thresholdsFor('text_overlap', 'video_site_longform');
    const over = signals([obs('Headline one', 1, 0.1, 0.4, 0.4, 0.08), obs('Second line', 1, 0.2, 0.42, 0.4, 0.08), obs('Headline one', 2, 0.1, 0.4, 0.4, 0.08), obs('Second line', 2, 0.2, 0.42, 0.4, 0.08)]);
    const { flags, measurements } = pixelOverlap(over, th);
    expect(flags).toHaveLength(1);
    // The boxes share 0.3 × 0.06 of the smaller box's 0.4 × 0.08: 56 %.
    expect(flags[0]).toMatchObject({ severity: 'BLOCK', start: 1, end: 2.5, evidence: { overlapRatio: expect.closeTo(0.5625, 2) } });
    expect(measurements).toMatchObject({ overlappingPairs: 1, pairsCompared: 2 });
    const apart = signals([obs('Headline one', 1, 0.1, 0.4, 0.4, 0.08), obs('Second line', 1, 0.1, 0.6, 0.4, 0.08)]);
    expect(pixelOverlap(apart, th).flags).toEqual([]);
  });
});

describe('text over texture', () => {
  it('reads a caption drawn straight onto a busy texture, and only the caption', async () => {
    const texture = 'color=c=0x3a6b2a:s=1280x720:r=5,noise=alls=90:allf=t+u';
    const file = await textVideo('ocr-over-texture', texture, 4, [caption('Into the forest', { size: 56 })]);
    const r = await check(file, 'text_contrast');
    expect(gate(r, 'text_contrast').measurements).toMatchObject({ textLines: 1 });
  });
});

describe('captions on a backing box', () => {
  const boxed = (name: string, background: string) =>
    textVideo(name, background, 3, [{ text: 'Boxed caption over the picture', size: 44, color: 'white', x: '(w-tw)/2', y: 'h-150', box: 'black@0.6' }]);

  it('reads a caption on a half-transparent box over a plain, a graded and a fractal picture', async () => {
    for (const [name, background] of [
      ['grey', 'color=c=0x808080:s=1280x720:r=25'],
      ['gradient', "nullsrc=s=1280x720:r=5,geq=r='40+X/W*60':g='90+Y/H*100':b='180+40*sin(2*PI*(X/W+T/4))'"],
      ['fractal', 'mandelbrot=s=1280x720:r=5'],
    ]) {
      const r = await check(await boxed(`ocr-boxed-${name}`, background), 'text_contrast');
      const m = gate(r, 'text_contrast').measurements;
      expect(m.textLines, name).toBeGreaterThanOrEqual(1);
      expect(r.flags, name).toEqual([]);
    }
  });
});
