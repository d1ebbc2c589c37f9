import { videoOnly, videoSignals } from './helpers/media-info.js';
import { describe, expect, it } from 'vitest';
import { DELIVERY_PROFILES, DELIVERY_PROFILE_IDS, type DeliveryProfileId } from '../engine/profiles/index.js';
import { GATES, thresholdsFor } from '../engine/gates/index.js';
import { manifestFromJson } from '../engine/sidecars/formats/manifest.js';
import type { FlagDraft, GateResult, GateThresholds, MediaInfo, Signals, VideoSignals } from '../engine/types.js';
import { frameSeriesOf } from '../engine/video/frame-series.js';

// ---------------------------------------------------------------- fixtures

const media = (width: number, height: number, durationSeconds: number) => videoOnly(width, height, durationSeconds, 25);

const LONG_FORM = media(1920, 1080, 120);
const SHORT = media(1080, 1920, 45);
const NO_SIGNALS: Signals = { video: null, audio: null, analysisMs: 0 };

function signalsWithRepeats(repeats: VideoSignals['repeats'], durationSeconds = 120): Signals {
  const frameCount = durationSeconds * 25;
  const frames = frameSeriesOf(Array.from({ length: frameCount }, () => ({ mean: 0.5, darkFraction: 0, diff: 0.05, peakChange: 12, changedShare: 1 })));
  const video = videoSignals({ frameCount, frames, repeats });
  return { video, audio: null, analysisMs: 0 };
}

interface RunOptions {
  media?: MediaInfo;
  delivery?: DeliveryProfileId;
  signals?: Signals;
}

const MANIFEST_GATE_IDS = [
  'repeat_fatigue',
  'speaker_visual_binding',
  'static_head_dominance',
  'literal_subject_match',
  'visual_narration_match',
  'first_three_seconds',
  'end_screen_tease',
  'rehook_cadence',
];
const manifestGates = GATES.filter((g) => MANIFEST_GATE_IDS.includes(g.id));

function run(gate: string, manifest: unknown, opts: RunOptions = {}): GateResult {
  const definition = manifestGates.find((g) => g.id === gate);
  if (!definition) throw new Error(`no gate ${gate}`);
  const target = opts.media ?? LONG_FORM;
  const delivery = opts.delivery ?? (target === SHORT ? 'video_site_shorts' : 'video_site_longform');
  return definition.run({
    media: target,
    signals: opts.signals ?? NO_SIGNALS,
    sidecars: manifest === undefined ? {} : { manifest: manifestFromJson(manifest) },
    thresholds: thresholdsFor(gate, delivery),
    profileId: 'test',
    deliveryProfile: DELIVERY_PROFILES[delivery],
    timecodeFps: 25,
  });
}

type SegmentJson = Record<string, unknown>;
const seg = (start: number, end: number, fields: SegmentJson = {}): SegmentJson => ({ start, end, ...fields });
const manifestOf = (segments: SegmentJson[], extra: Record<string, unknown> = {}) => ({ schema: 'preflight-manifest/1', segments, ...extra });

function onlyFlag(result: GateResult): FlagDraft {
  expect(result.flags, JSON.stringify(result.flags.map((f) => f.summary))).toHaveLength(1);
  return result.flags[0];
}

/** Every flag names its segment (path, hh:mm:ss.mmm span) and says where to fix it. */
function expectNamesSegment(flag: FlagDraft, index: number): void {
  expect(flag.summary).toContain(`segments[${index}]`);
  expect(flag.summary).toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}/);
  expect(flag.repair.instruction).toMatch(/segments\[\d+\]/);
  expect(flag.repair.verify).toContain('checks=');
}

// ---------------------------------------------------------------- thresholds

describe('manifest thresholds', () => {
  it('give every delivery profile the structure thresholds, each with a source and a confidence', () => {
    for (const delivery of DELIVERY_PROFILE_IDS) {
      const tables: Record<string, GateThresholds> = Object.fromEntries(manifestGates.map((g) => [g.id, g.thresholds(delivery)]).filter(([, table]) => Object.keys(table).length > 0));
      expect(Object.keys(tables).sort()).toEqual(['end_screen_tease', 'first_three_seconds', 'rehook_cadence', 'repeat_fatigue', 'static_head_dominance']);
      for (const table of Object.values(tables)) {
        for (const [key, entry] of Object.entries(table)) {
          expect(entry.source.length, `${delivery}.${key}`).toBeGreaterThan(10);
          expect(['primary', 'secondary', 'unconfirmed', 'house']).toContain(entry.confidence);
        }
      }
    }
  });

  it('judge shorts on a faster clock than long form', () => {
    expect(thresholdsFor('first_three_seconds', 'video_site_shorts').hookWatchStartSeconds.value).toBe(1.5);
    expect(thresholdsFor('first_three_seconds', 'video_site_longform').hookWatchStartSeconds.value).toBe(3);
    expect(thresholdsFor('end_screen_tease', 'video_site_shorts').requireCta.value).toBe(false);
    expect(thresholdsFor('end_screen_tease', 'video_site_longform').requireCta.value).toBe(true);
  });
});

// ---------------------------------------------------------------- common behaviour

describe('manifest gates: common behaviour', () => {
  it('are structure gates for video that need no signals', () => {
    expect(manifestGates.map((g) => g.id)).toEqual(MANIFEST_GATE_IDS);
    for (const g of manifestGates) {
      expect(g).toMatchObject({ area: 'structure', requires: { kinds: ['video'], signals: [] }, input: 'manifest' });
    }
  });

  it('skip with a reason when the manifest is missing', () => {
    for (const g of manifestGates) {
      const result = run(g.id, undefined);
      expect(result).toEqual({ gate: g.id, status: 'skipped', reason: 'needs manifest', measurements: {}, flags: [] });
    }
  });

  it('skip with a reason when the manifest declares no segments', () => {
    for (const g of manifestGates) {
      const result = run(g.id, manifestOf([]));
      expect(result.status).toBe('skipped');
      expect(result.reason).toContain('declares none');
    }
  });

  it('skip, never pass, when the manifest does not declare the fields a gate reads', () => {
    const bare = manifestOf([seg(0, 60), seg(60, 120)]);
    for (const g of manifestGates.filter((x) => x.id !== 'first_three_seconds')) {
      const result = run(g.id, bare);
      expect(result.status, g.id).toBe('skipped');
      expect(result.reason, g.id).toMatch(/^needs manifest /);
      expect(result.measurements.segments, g.id).toBe(2);
    }
  });

  it('ignore unknown fields at the top level and in segments', () => {
    const plain = richManifest();
    const withExtras = {
      ...plain,
      pipeline: { version: '7.1', render: { seed: 42 } },
      segments: plain.segments.map((s, i) => ({ ...s, shotId: `s${i}`, reviewer: { name: 'x', notes: ['a'] } })),
    };
    for (const g of manifestGates) {
      expect(run(g.id, withExtras, { signals: REPEAT_SIGNALS })).toEqual(run(g.id, plain, { signals: REPEAT_SIGNALS }));
    }
  });

  it('are deterministic: the same inputs give identical results', () => {
    for (const g of manifestGates) {
      const a = JSON.stringify(run(g.id, richManifest(), { signals: REPEAT_SIGNALS }));
      const b = JSON.stringify(run(g.id, richManifest(), { signals: REPEAT_SIGNALS }));
      expect(a, g.id).toBe(b);
    }
  });

  it('flag every problem of a messy manifest with the segment, its time span and a repair', () => {
    let total = 0;
    for (const g of manifestGates) {
      const result = run(g.id, richManifest(), { signals: REPEAT_SIGNALS });
      expect(result.measurements, g.id).not.toEqual({});
      for (const flag of result.flags) {
        total++;
        expect(flag.summary, g.id).toMatch(/segments\[\d+\]/);
        expect(flag.summary, g.id).toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}/);
        expect(flag.repair.instruction, g.id).toMatch(/segments\[\d+\]/);
        expect(flag.evidence.segment, g.id).toBeDefined();
        expect(flag.end, g.id).toBeGreaterThan(flag.start);
      }
    }
    expect(total).toBeGreaterThanOrEqual(8);
  });
});

/** One manifest that trips every gate (used for the cross-gate checks above). */
function richManifest() {
  return manifestOf([
    seg(0, 4, { kind: 'title_card', description: 'Channel ident', markers: [] }),
    seg(4, 10, { kind: 'talking_head', speaker: 'Ann', onScreenCharacter: 'Bob', visualFile: 'cam/a.mp4', markers: ['hook'] }),
    seg(10, 20, { kind: 'b_roll', visualFile: 'broll/city.mp4', description: 'City at night', subjects: ['face'], narration: 'The interface is new.' }),
    seg(20, 30, { kind: 'b_roll', visualFile: 'broll/city.mp4', description: 'City at night', namedEntities: ['Marie Curie'], subjects: ['Albert Einstein'] }),
    seg(30, 40, { kind: 'b_roll', visualFile: 'broll/river.mp4', namedEntities: ['Albert Einstein'], subjects: ['Albert Einstein'] }),
    seg(40, 115, { kind: 'talking_head', speaker: 'Bob', onScreenCharacter: 'Bob', visualFile: 'cam/b.mp4' }),
    seg(115, 120, { kind: 'graphic', visualFile: 'broll/city.mp4', description: 'Outro card' }),
  ]);
}

const REPEAT_SIGNALS = signalsWithRepeats([{ sourceFrame: 300, repeatFrame: 500, frames: 75 }]);

// ---------------------------------------------------------------- repeat_fatigue

describe('repeat_fatigue', () => {
  const between = (start: number, end: number, n: number) => seg(start, end, { kind: 'b_roll', visualFile: `broll/other-${n}.mp4` });

  it('flags the third use of the same visual file as WATCH in long form, quoting the file', () => {
    const result = run(
      'repeat_fatigue',
      manifestOf([
        seg(0, 5, { kind: 'b_roll', visualFile: 'broll/city.mp4', description: 'City at night' }),
        between(5, 40, 1),
        seg(40, 45, { kind: 'b_roll', visualFile: 'broll/city.mp4' }),
        between(45, 80, 2),
        seg(80, 85, { kind: 'b_roll', visualFile: 'broll/city.mp4' }),
        between(85, 120, 3),
      ]),
    );
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'WATCH', start: 80, end: 85 });
    expect(flag.evidence).toMatchObject({ kind: 'manifest_reuse', use: 3, uses: 3, rules: ['uses'], fields: { 'segments[4].visualFile': 'broll/city.mp4' } });
    expect(flag.summary).toContain('segments[4] 00:01:20.000-00:01:25.000');
    expect(flag.repair.instruction).toContain('00:00:00.000-00:00:05.000');
    expectNamesSegment(flag, 4);
    expect(result.status).toBe('watch');
    expect(result.measurements).toMatchObject({ reusedShots: 1, mostUsesOfOneShot: 3, pictureChecked: false });
  });

  it('makes the fifth use BLOCK', () => {
    const segments = [0, 1, 2, 3, 4].flatMap((k) => [seg(k * 24, k * 24 + 4, { kind: 'b_roll', visualFile: 'broll/city.mp4' }), between(k * 24 + 4, k * 24 + 24, k)]);
    const result = run('repeat_fatigue', manifestOf(segments));
    expect(result.flags.map((f) => [f.severity, f.start])).toEqual([
      ['WATCH', 24],
      ['WATCH', 48],
      ['WATCH', 72],
      ['BLOCK', 96],
    ]);
    expect(result.flags[0].evidence.rules).toEqual(['gap']);
    expect(result.status).toBe('block');
  });

  it('caps deliberate reuse (assetTriage.reused) at WATCH', () => {
    const segments = [0, 1, 2, 3, 4].flatMap((k) => [seg(k * 24, k * 24 + 4, { kind: 'b_roll', visualFile: './broll/city.mp4' }), between(k * 24 + 4, k * 24 + 24, k)]);
    const result = run('repeat_fatigue', manifestOf(segments, { assetTriage: { reused: ['broll/city.mp4'] } }));
    expect(result.flags.every((f) => f.severity === 'WATCH')).toBe(true);
    expect(result.flags[0].evidence.declaredReused).toBe(true);
  });

  it('treats the same source family and description as the same shot, whatever the file', () => {
    const result = run(
      'repeat_fatigue',
      manifestOf([
        seg(0, 10, { kind: 'generated_plate', visualFile: 'plates/harbour-a.png', sourceFamily: 'image-generator', description: 'Aerial of the harbour at dawn.' }),
        between(10, 20, 1),
        seg(20, 30, { kind: 'generated_plate', visualFile: 'plates/harbour-b.png', sourceFamily: 'Image Generator', description: 'aerial of the Harbour at dawn' }),
      ]),
    );
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'WATCH', start: 20, end: 30 });
    expect(flag.evidence).toMatchObject({ rules: ['gap'], gapSeconds: 10, fields: { 'segments[2].visualFile': 'plates/harbour-b.png', 'segments[2].description': 'aerial of the Harbour at dawn' } });
  });

  it('does not flag a shot split across touching segments, reuse far apart, or talking-head A-roll', () => {
    const result = run(
      'repeat_fatigue',
      manifestOf([
        seg(0, 5, { kind: 'b_roll', visualFile: 'broll/city.mp4' }),
        seg(5, 10, { kind: 'b_roll', visualFile: 'broll/city.mp4' }),
        seg(10, 30, { kind: 'talking_head', visualFile: 'cam/host.mp4' }),
        between(30, 40, 1),
        seg(40, 60, { kind: 'talking_head', visualFile: 'cam/host.mp4' }),
        seg(60, 70, { kind: 'talking_head', visualFile: 'cam/host.mp4' }),
        seg(70, 75, { kind: 'talking_head', visualFile: 'cam/host.mp4' }),
        seg(75, 80, { kind: 'b_roll', visualFile: 'broll/city.mp4' }),
        between(80, 120, 2),
      ]),
    );
    expect(result.status).toBe('pass');
    expect(result.flags).toEqual([]);
    expect(result.measurements).toMatchObject({ reusedShots: 1, mostUsesOfOneShot: 2 });
  });

  it('with pixels: flags a near-identical picture sequence reused, naming both segments', () => {
    const manifest = manifestOf([
      seg(0, 20, { kind: 'b_roll', visualFile: 'broll/market.mp4', description: 'Market stalls' }),
      seg(20, 60, { kind: 'b_roll', visualFile: 'broll/street.mp4', description: 'Street corner' }),
      seg(60, 90, { kind: 'b_roll', visualFile: 'broll/harbour.mp4', description: 'Harbour' }),
      seg(90, 120, { kind: 'b_roll', visualFile: 'broll/cafe.mp4', description: 'Cafe' }),
    ]);
    // frames at 25 fps: 10 s → 250, 80 s → 2000; 3 s repeat → WATCH (≥ 2 s), 8 s → BLOCK (≥ 6 s).
    const result = run('repeat_fatigue', manifest, { signals: signalsWithRepeats([{ sourceFrame: 250, repeatFrame: 2000, frames: 75 }]) });
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'WATCH', start: 80, end: 83 });
    expect(flag.evidence).toMatchObject({
      kind: 'picture_repeat',
      durationSeconds: 3,
      repeatOfStart: 10,
      manifestDeclaresSameShot: false,
      segment: { index: 2, span: '00:01:00.000-00:01:30.000', description: 'Harbour' },
      sourceSegment: { index: 0 },
      fields: { 'segments[2].visualFile': 'broll/harbour.mp4', 'segments[0].visualFile': 'broll/market.mp4' },
    });
    expect(flag.summary).toContain('the manifest declares different visuals');
    expectNamesSegment(flag, 2);
    expect(result.measurements).toMatchObject({ pictureChecked: true, pictureRepeatsOverThreshold: 1, longestPictureRepeatSeconds: 3 });

    const long = run('repeat_fatigue', manifest, { signals: signalsWithRepeats([{ sourceFrame: 250, repeatFrame: 2000, frames: 200 }]) });
    expect(onlyFlag(long).severity).toBe('BLOCK');
  });

  it('with pixels: a repeat shorter than the threshold is not a reused shot, and the manifest-only checks still run', () => {
    const manifest = manifestOf([seg(0, 60, { kind: 'b_roll', visualFile: 'broll/a.mp4' }), seg(60, 120, { kind: 'b_roll', visualFile: 'broll/b.mp4' })]);
    const result = run('repeat_fatigue', manifest, { signals: signalsWithRepeats([{ sourceFrame: 250, repeatFrame: 2000, frames: 45 }]) });
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ pictureChecked: true, pictureRepeatsOverThreshold: 0, longestPictureRepeatSeconds: 1.8 });
  });

  it('with pixels only (no shot identity in the manifest) still runs', () => {
    const result = run('repeat_fatigue', manifestOf([seg(0, 120, { kind: 'b_roll' })]), { signals: signalsWithRepeats([{ sourceFrame: 0, repeatFrame: 1000, frames: 100 }]) });
    expect(result.status).toBe('watch');
    expect(result.flags[0].evidence.manifestDeclaresSameShot).toBe(false);
  });

  it('uses the shorts thresholds on a 45 s short: the second use within 10 s is WATCH, the third BLOCK', () => {
    const result = run(
      'repeat_fatigue',
      manifestOf([
        seg(0, 5, { kind: 'b_roll', visualFile: 'broll/a.mp4' }),
        between(5, 20, 1),
        seg(20, 25, { kind: 'b_roll', visualFile: 'broll/a.mp4' }),
        between(25, 30, 2),
        seg(30, 35, { kind: 'b_roll', visualFile: 'broll/a.mp4' }),
        between(35, 45, 3),
      ]),
      { media: SHORT },
    );
    expect(result.flags.map((f) => [f.severity, f.start, f.evidence.rules])).toEqual([
      ['WATCH', 20, ['uses']],
      ['BLOCK', 30, ['uses', 'gap']],
    ]);
  });
});

// ---------------------------------------------------------------- speaker_visual_binding

describe('speaker_visual_binding', () => {
  it('BLOCKs a talking head of one character while another speaks, quoting both fields', () => {
    const result = run(
      'speaker_visual_binding',
      manifestOf([
        seg(0, 12, { kind: 'talking_head', speaker: 'Ann', onScreenCharacter: 'Ann' }),
        seg(12, 20.5, { kind: 'talking_head', speaker: 'Ann', onScreenCharacter: 'Bob', description: 'Bob at the bench' }),
      ]),
    );
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'BLOCK', start: 12, end: 20.5 });
    expect(flag.summary).toBe('segments[1] 00:00:12.000-00:00:20.500 ("Bob at the bench") shows "Bob" talking while "Ann" speaks');
    expect(flag.evidence).toMatchObject({
      rule: 'talking_head_other_speaker',
      segment: { index: 1, span: '00:00:12.000-00:00:20.500', description: 'Bob at the bench' },
      fields: { 'segments[1].speaker': 'Ann', 'segments[1].onScreenCharacter': 'Bob', 'segments[1].kind': 'talking_head' },
    });
    expectNamesSegment(flag, 1);
  });

  it('WATCHes a talking head with no speaker, and a speaking character shown while someone else speaks', () => {
    const result = run(
      'speaker_visual_binding',
      manifestOf([
        seg(0, 10, { kind: 'talking_head', onScreenCharacter: 'Ann' }),
        seg(10, 20, { kind: 'b_roll', speaker: 'Ann', onScreenCharacter: 'Bob' }),
        seg(20, 30, { kind: 'talking_head', speaker: 'Bob', onScreenCharacter: 'Bob' }),
      ]),
    );
    expect(result.flags.map((f) => [f.severity, f.start, f.evidence.rule])).toEqual([
      ['WATCH', 0, 'talking_head_speaker_undeclared'],
      ['WATCH', 10, 'speaking_character_shown_while_other_speaks'],
    ]);
    expect(result.flags[1].evidence.speaksIn).toMatchObject({ index: 2 });
    expect(result.status).toBe('watch');
  });

  it('does not flag the same name in another case, voice-over of a non-speaking figure, or a deliberate silent head', () => {
    const result = run(
      'speaker_visual_binding',
      manifestOf([
        seg(0, 10, { kind: 'talking_head', speaker: 'Ann Lee', onScreenCharacter: 'ann lee.' }),
        seg(10, 20, { kind: 'b_roll', speaker: 'Narrator', onScreenCharacter: 'Marie Curie' }),
        seg(20, 22, { kind: 'talking_head', speaker: null, onScreenCharacter: 'Ann Lee', intendedPause: true }),
      ]),
    );
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ segmentsChecked: 3, talkingHeadSegments: 2, mismatches: 0 });
  });
});

// ---------------------------------------------------------------- static_head_dominance

describe('static_head_dominance', () => {
  it('WATCHes a talking-head share over 60 % of long form', () => {
    const result = run(
      'static_head_dominance',
      manifestOf([
        seg(0, 40, { kind: 'talking_head', description: 'Host at the desk' }),
        seg(40, 50, { kind: 'b_roll' }),
        seg(50, 90, { kind: 'talking_head' }),
        seg(90, 120, { kind: 'b_roll' }),
      ]),
    );
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'WATCH', start: 0, end: 90 });
    expect(flag.evidence).toMatchObject({ rule: 'share', sharePct: 66.7, talkingHeadSeconds: 80, fields: { 'segments[0].kind': 'talking_head', 'segments[2].kind': 'talking_head' } });
    expect(flag.repair.instruction).toContain('at least 8 s');
    expectNamesSegment(flag, 0);
  });

  it('BLOCKs a share over 85 % and WATCHes the 110 s run inside it', () => {
    const result = run('static_head_dominance', manifestOf([seg(0, 50, { kind: 'talking_head' }), seg(50, 110, { kind: 'talking_head' }), seg(110, 120, { kind: 'b_roll' })]));
    expect(result.flags.map((f) => [f.severity, f.evidence.rule, f.start, f.end])).toEqual([
      ['BLOCK', 'share', 0, 110],
      ['WATCH', 'run', 0, 110],
    ]);
    expect(result.flags[1].summary).toContain('segments[0]..segments[1] 00:00:00.000-00:01:50.000');
    expect(result.measurements).toMatchObject({ talkingHeadSharePct: 91.7, longestRunSeconds: 110 });
  });

  it('does not count intendedStatic b-roll, and passes a 45 s run at exactly the limit', () => {
    const result = run(
      'static_head_dominance',
      manifestOf([
        seg(0, 45, { kind: 'talking_head' }),
        seg(45, 75, { kind: 'b_roll', intendedStatic: true }),
        seg(75, 100, { kind: 'talking_head' }),
        seg(100, 120, { kind: 'generated_plate', intendedStatic: true }),
      ]),
    );
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ talkingHeadSeconds: 70, talkingHeadSharePct: 58.3, longestRunSeconds: 45 });
  });

  it('WATCHes a 20 s talking-head run in a short', () => {
    const flag = onlyFlag(run('static_head_dominance', manifestOf([seg(0, 20, { kind: 'talking_head' }), seg(20, 45, { kind: 'b_roll' })]), { media: SHORT }));
    expect(flag).toMatchObject({ severity: 'WATCH', start: 0, end: 20, evidence: { rule: 'run' } });
  });
});

// ---------------------------------------------------------------- literal_subject_match

describe('literal_subject_match', () => {
  it('WATCHes subjects that the narration names only inside another word ("interface" is not "face")', () => {
    const flag = onlyFlag(
      run('literal_subject_match', manifestOf([seg(10, 15.25, { kind: 'b_roll', subjects: ['face'], narration: 'The new interface loads in a second.', description: 'Close-up' })])),
    );
    expect(flag).toMatchObject({ severity: 'WATCH', start: 10, end: 15.25 });
    expect(flag.summary).toContain('segments[0] 00:00:10.000-00:00:15.250 ("Close-up") shows "face"');
    expect(flag.evidence).toMatchObject({ rule: 'subjects_unnamed', fields: { 'segments[0].subjects': ['face'], 'segments[0].narration': 'The new interface loads in a second.' } });
    expectNamesSegment(flag, 0);
  });

  it('passes a subject named as a whole word, whatever the case and punctuation', () => {
    const result = run('literal_subject_match', manifestOf([seg(0, 5, { subjects: ['face', 'mustard seeds'], narration: 'Look at her FACE!' })]));
    expect(result.status).toBe('pass');
  });

  it('WATCHes a named entity no segment shows at that time, citing where it is shown', () => {
    const result = run(
      'literal_subject_match',
      manifestOf([
        seg(10, 20, { kind: 'b_roll', narration: 'Then the Eiffel Tower went up.', namedEntities: ['Eiffel Tower'], subjects: ['river', 'tower crane'] }),
        seg(50, 60, { kind: 'b_roll', subjects: ['the Eiffel Tower at night'] }),
      ]),
    );
    const flag = result.flags.find((f) => f.evidence.rule === 'entity_not_shown')!;
    expect(flag).toMatchObject({ severity: 'WATCH', start: 10, end: 20, evidence: { missing: ['Eiffel Tower'], shownElsewhere: [{ index: 1 }] } });
    expect(flag.evidence.fields).toMatchObject({ 'segments[0].namedEntities': ['Eiffel Tower'], 'segments[0].subjects': ['river', 'tower crane'] });
    expect(flag.repair.instruction).toContain('segments[1] shows it at 00:00:50.000-00:01:00.000');
  });

  it('passes a named entity shown by an overlapping segment', () => {
    const result = run(
      'literal_subject_match',
      manifestOf([
        seg(10, 20, { kind: 'talking_head', narration: 'The Eiffel Tower went up in 1889.', namedEntities: ['Eiffel Tower'], subjects: ['Eiffel Tower model'] }),
        seg(12, 18, { kind: 'b_roll', subjects: ['Eiffel Tower'] }),
      ]),
    );
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ segmentsWithSubjects: 2, segmentsWithNamedEntities: 1 });
  });
});

// ---------------------------------------------------------------- visual_narration_match

describe('visual_narration_match', () => {
  it('BLOCKs narration about one named person over a picture of another the programme names', () => {
    const result = run(
      'visual_narration_match',
      manifestOf([
        seg(0, 8, { narration: 'Marie Curie won twice.', namedEntities: ['Marie Curie'], subjects: ['Albert Einstein'], description: 'Archive portrait' }),
        seg(8, 16, { narration: 'Einstein wrote to her.', namedEntities: ['Albert Einstein'], subjects: ['Albert Einstein'] }),
      ]),
    );
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'BLOCK', start: 0, end: 8, evidence: { rule: 'shows_other_named_subject', wrongSubjects: ['Albert Einstein'] } });
    expect(flag.summary).toBe('segments[0] 00:00:00.000-00:00:08.000 ("Archive portrait"): narration about "Marie Curie" over a picture of "Albert Einstein"');
    expect(flag.evidence.fields).toEqual({ 'segments[0].namedEntities': ['Marie Curie'], 'segments[0].subjects': ['Albert Einstein'], 'segments[0].narration': 'Marie Curie won twice.' });
    expectNamesSegment(flag, 0);
  });

  it('WATCHes a picture of none of the named things ("company" does not contain "Pan")', () => {
    const flag = onlyFlag(run('visual_narration_match', manifestOf([seg(30, 40, { namedEntities: ['Pan'], subjects: ['company logo'] })])));
    expect(flag).toMatchObject({ severity: 'WATCH', start: 30, end: 40, evidence: { rule: 'shows_none_of_named' } });
  });

  it('passes when a subject and a named entity match as whole phrases', () => {
    const result = run('visual_narration_match', manifestOf([seg(0, 5, { namedEntities: ['Eiffel Tower', 'Paris'], subjects: ['the eiffel tower, at night'] })]));
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ segmentsChecked: 1, mismatches: 0 });
  });
});

// ---------------------------------------------------------------- first_three_seconds

describe('first_three_seconds', () => {
  const opening = (hookAt: number) => manifestOf([seg(0, hookAt, { kind: 'b_roll', markers: [] }), seg(hookAt, 30, { kind: 'b_roll', markers: ['hook'], description: 'The reveal' }), seg(30, 120, { kind: 'b_roll' })]);

  it('WATCHes a hook starting at 4 s in long form, and BLOCKs one at 12 s', () => {
    const flag = onlyFlag(run('first_three_seconds', opening(4)));
    expect(flag).toMatchObject({ severity: 'WATCH', start: 0, end: 4, evidence: { rule: 'late_hook', hookStartSeconds: 4, fields: { 'segments[1].start': 4, 'segments[1].markers': ['hook'] } } });
    expect(flag.summary).toBe('The hook starts at 00:00:04.000, after the first 3 s: segments[1] 00:00:04.000-00:00:30.000 ("The reveal")');
    expectNamesSegment(flag, 1);
    expect(onlyFlag(run('first_three_seconds', opening(12))).severity).toBe('BLOCK');
  });

  it('passes a hook at 2.9 s in long form, but not in a short (1.5 s)', () => {
    expect(run('first_three_seconds', opening(2.9)).status).toBe('pass');
    const short = manifestOf([seg(0, 3.5, { kind: 'b_roll', markers: [] }), seg(3.5, 45, { kind: 'b_roll', markers: ['hook'] })]);
    expect(onlyFlag(run('first_three_seconds', short, { media: SHORT })).severity).toBe('BLOCK');
    expect(onlyFlag(run('first_three_seconds', opening(2), { media: SHORT })).severity).toBe('WATCH');
  });

  it('flags a missing hook by profile: BLOCK for shorts, WATCH for long form', () => {
    const noHook = manifestOf([seg(0, 10, { kind: 'b_roll', markers: ['cta'] }), seg(10, 45, { kind: 'b_roll' })]);
    const short = onlyFlag(run('first_three_seconds', noHook, { media: SHORT }));
    expect(short).toMatchObject({ severity: 'BLOCK', start: 0, end: 1.5, evidence: { rule: 'no_hook' } });
    expect(onlyFlag(run('first_three_seconds', noHook)).severity).toBe('WATCH');
  });

  it('does not judge the hook when the manifest declares no markers at all', () => {
    const result = run('first_three_seconds', manifestOf([seg(0, 120, { kind: 'b_roll' })]));
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ markersDeclared: false, hookStartSeconds: null });
  });

  it('WATCHes a 2.5 s opening title card and BLOCKs a 4 s one, quoting kind', () => {
    const card = (seconds: number) => manifestOf([seg(0, seconds, { kind: 'title_card', description: 'Series title' }), seg(seconds, 120, { kind: 'b_roll' })]);
    const flag = onlyFlag(run('first_three_seconds', card(2.5)));
    expect(flag).toMatchObject({ severity: 'WATCH', start: 0, end: 2.5, evidence: { rule: 'dead_opening', fields: { 'segments[0].kind': 'title_card' } } });
    expect(flag.summary).toBe('The first 2.5 s hold no content: segments[0] 00:00:00.000-00:00:02.500 ("Series title")');
    expect(flag.repair.instruction).toContain('ffmpeg -ss 2.5 -i <input>');
    expect(onlyFlag(run('first_three_seconds', card(4))).severity).toBe('BLOCK');
  });

  it('counts a lead-in gap and a deliberate pause as opening without content', () => {
    const flag = onlyFlag(run('first_three_seconds', manifestOf([seg(1, 2, { intendedPause: true }), seg(2, 120, { kind: 'b_roll' })])));
    expect(flag).toMatchObject({ severity: 'WATCH', end: 2, evidence: { fields: { 'segments[0].intendedPause': true } } });
  });

  it('passes a short title card, and a title card that is itself the hook', () => {
    expect(run('first_three_seconds', manifestOf([seg(0, 1.2, { kind: 'title_card' }), seg(1.2, 120, { kind: 'b_roll' })])).status).toBe('pass');
    expect(run('first_three_seconds', manifestOf([seg(0, 5, { kind: 'title_card', markers: ['hook'] }), seg(5, 120, { kind: 'b_roll' })])).status).toBe('pass');
  });
});

// ---------------------------------------------------------------- end_screen_tease

describe('end_screen_tease', () => {
  it('WATCHes a long-form programme whose only call to action is mid-programme', () => {
    const result = run(
      'end_screen_tease',
      manifestOf([seg(0, 60, { kind: 'b_roll', markers: ['hook'] }), seg(60, 70, { kind: 'b_roll', markers: ['cta'] }), seg(70, 120, { kind: 'b_roll', description: 'Final thoughts' })]),
    );
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'WATCH', start: 100, end: 120, evidence: { rule: 'cta_too_early', ctaSegments: [{ index: 1 }], fields: { 'segments[1].markers': ['cta'] } } });
    expect(flag.summary).toContain('not in the last 20 s (00:01:40.000-00:02:00.000)');
    expect(flag.repair.instruction).toContain('segments[2]');
    expectNamesSegment(flag, 2);
  });

  it('WATCHes a long-form programme with no call to action at all', () => {
    const flag = onlyFlag(run('end_screen_tease', manifestOf([seg(0, 120, { kind: 'b_roll', markers: ['hook'] })])));
    expect(flag.evidence.rule).toBe('no_cta');
  });

  it('passes a call to action in the last 10 s, and a short without one', () => {
    expect(run('end_screen_tease', manifestOf([seg(0, 110, { markers: ['hook'] }), seg(110, 120, { markers: ['cta'] })])).status).toBe('pass');
    const short = run('end_screen_tease', manifestOf([seg(0, 45, { markers: ['hook'] })]), { media: SHORT });
    expect(short.status).toBe('pass');
    expect(short.measurements).toMatchObject({ ctaRequired: false, ctaSegments: 0 });
  });
});

// ---------------------------------------------------------------- rehook_cadence

describe('rehook_cadence', () => {
  it('WATCHes each gap over 90 s between hooks and rehooks in long form', () => {
    const result = run(
      'rehook_cadence',
      manifestOf([seg(0, 20, { markers: ['hook'] }), seg(20, 60, { markers: ['rehook'], description: 'The twist' }), seg(60, 90), seg(90, 120)]),
      { media: media(1920, 1080, 200) },
    );
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'WATCH', start: 20, end: 200, evidence: { rule: 'gap', gapSeconds: 180, from: { index: 1 }, to: 'programme end' } });
    expect(flag.summary).toBe('180 s without a rehook: from segments[1] 00:00:20.000-00:01:00.000 ("The twist") to the programme end');
    // Each suggestion is the latest segment start that keeps the stretch within 90 s, else the time itself.
    expect(flag.repair.instruction).toContain('e.g. at segments[3] (00:01:30.000), 00:03:00.000, and mark it');
    expectNamesSegment(flag, 1);
  });

  it('BLOCKs a programme over 5 min with no rehook at all', () => {
    const result = run('rehook_cadence', manifestOf([seg(0, 30, { markers: ['hook'] }), seg(30, 200), seg(200, 400)]), { media: media(1920, 1080, 400) });
    const flag = onlyFlag(result);
    expect(flag).toMatchObject({ severity: 'BLOCK', start: 0, end: 400, evidence: { rule: 'no_rehook', fields: { 'segments[0].markers': ['hook'] } } });
  });

  it('passes rehooks at a steady cadence', () => {
    const result = run('rehook_cadence', manifestOf([seg(0, 50, { markers: ['hook'] }), seg(50, 100, { markers: ['rehook'] }), seg(100, 120, { markers: ['rehook', 'cta'] })]));
    expect(result.status).toBe('pass');
    expect(result.measurements).toMatchObject({ hooks: 1, rehooks: 2, longestGapSeconds: 50 });
  });

  it('skips when no segment declares markers', () => {
    const result = run('rehook_cadence', manifestOf([seg(0, 120, { kind: 'b_roll' })]));
    expect(result).toMatchObject({ status: 'skipped', reason: 'needs manifest markers: no segment declares markers' });
  });
});
