import { videoOnly } from './helpers/media-info.js';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudioStats } from '../engine/audio/stats.js';
import { GATES, gateById, thresholdsFor } from '../engine/gates/index.js';
import { DELIVERY_PROFILES, type DeliveryProfileId } from '../engine/profiles/index.js';
import { withSidecarFiles } from '../engine/sidecars/contact-sheets.js';
import { manifestFromJson } from '../engine/sidecars/formats/manifest.js';
import type { AudioSignals, FlagDraft, GateContext, GateResult, MediaInfo } from '../engine/types.js';

const GATE_IDS = [
  'contact_sheet_evidence',
  'opening_footer_text_presence',
  'clean_segment_source_scrub',
  'asset_triage_reuse_manifest',
  'voiceover_music_balance',
  'text_crop_jitter',
  'text_overlap',
  'hallucinated_plate_text',
];

const manifestMediaGates = GATES.filter((g) => GATE_IDS.includes(g.id));

const videoMedia = (width: number, height: number, durationSeconds: number) => videoOnly(width, height, durationSeconds);

const LANDSCAPE = videoMedia(1920, 1080, 60);
const VERTICAL = videoMedia(1080, 1920, 30);

/** Meter series on the engine's 100 ms grid: value k is the window ending at (k + 1) × 0.1 s. */
function series(durationSeconds: number, windowSeconds: number, levelAt: (windowEnd: number) => number | null): (number | null)[] {
  return Array.from({ length: Math.round(durationSeconds * 10) }, (_, k) => {
    const end = (k + 1) / 10;
    return end < windowSeconds - 1e-9 ? null : levelAt(end);
  });
}

function audioSignals(durationSeconds: number, levelAt: (t: number) => number | null): AudioSignals {
  return {
    sampleRate: 48000,
    channels: 2,
    channelNames: ['FL', 'FR'],
    startSeconds: 0,
    durationSeconds,
    loudness: {
      integratedLufs: -16,
      loudnessRangeLu: 5,
      truePeakDbtp: -2,
      samplePeakDbfs: -2.2,
      maxMomentaryLufs: -12,
      maxShortTermLufs: -14,
      maxMomentaryAtSeconds: 1,
      maxShortTermAtSeconds: 1,
      momentary: series(durationSeconds, 0.4, levelAt),
      shortTerm: series(durationSeconds, 3, levelAt),
    },
    stats: {} as AudioStats,
  };
}

interface RunOptions {
  manifest?: unknown;
  manifestDir?: string;
  delivery?: DeliveryProfileId;
  media?: MediaInfo;
  audio?: AudioSignals | null;
}

function contextFor(gate: string, opts: RunOptions): GateContext {
  const delivery = opts.delivery ?? 'video_site_longform';
  return {
    media: opts.media ?? LANDSCAPE,
    signals: { video: null, audio: opts.audio ?? null, analysisMs: 0 },
    sidecars: withSidecarFiles({
      ...(opts.manifest === undefined ? {} : { manifest: manifestFromJson(opts.manifest) }),
      ...(opts.manifestDir === undefined ? {} : { manifestDir: opts.manifestDir }),
    }),
    thresholds: thresholdsFor(gate, delivery),
    profileId: delivery === 'video_site_longform' ? 'generic_creator_video' : 'nto_shorts',
    deliveryProfile: DELIVERY_PROFILES[delivery],
    timecodeFps: 30,
  };
}

function run(gate: string, opts: RunOptions): GateResult {
  const definition = manifestMediaGates.find((g) => g.id === gate);
  if (!definition) throw new Error(`no gate ${gate}`);
  return definition.run(contextFor(gate, opts));
}

const seg = (start: number, end: number, extra: Record<string, unknown> = {}) => ({ start, end, description: `shot at ${start}`, ...extra });
/** `approved: null` leaves the field out. */
const text = (value: string, x: number, y: number, w: number, h: number, approved: boolean | null = true) => ({
  text: value,
  box: { x, y, w, h },
  ...(approved === null ? {} : { approved }),
});
const manifestOf = (segments: unknown[], extra: Record<string, unknown> = {}) => ({ schema: 'preflight-manifest/1', segments, ...extra });

function expectSegmentFlag(flag: FlagDraft, gate: string, index: number, start: number, end: number): void {
  expect(flag.start).toBe(start);
  expect(flag.end).toBe(end);
  expect(flag.summary).toContain(`segments[${index}]`);
  expect(flag.evidence).toMatchObject({ segment: { index, start, end } });
  expect(flag.repair.instruction).toContain(`segments[${index}]`);
  expect(flag.repair.verify).toContain(`checks=${gate}`);
}

describe('manifest-media gates: definitions', () => {
  it('defines the eight gates with the catalogue kinds and inputs', () => {
    expect(manifestMediaGates.map((g) => g.id)).toEqual(GATE_IDS);
    for (const g of manifestMediaGates) {
      expect(gateById(g.id)).toBe(g);
      expect(g.algorithm.length).toBeGreaterThan(150);
    }
    const kinds = Object.fromEntries(manifestMediaGates.map((g) => [g.id, g.requires.kinds]));
    expect(kinds.text_overlap).toEqual(['video', 'image']);
    expect(kinds.text_crop_jitter).toEqual(['video', 'image']);
    expect(kinds.hallucinated_plate_text).toEqual(['video', 'image']);
    expect(kinds.voiceover_music_balance).toEqual(['video', 'audio']);
    expect(kinds.contact_sheet_evidence).toEqual(['video']);
    expect(gateById('text_overlap')?.input).toBe('video/image or manifest');
    expect(gateById('voiceover_music_balance')).toMatchObject({ area: 'audio', input: 'manifest mix metadata', requires: { signals: ['audio'] } });
  });

  it('skips every gate when no manifest is given', () => {
    const readsPixels = new Set(['text_crop_jitter', 'text_overlap', 'hallucinated_plate_text']);
    for (const id of GATE_IDS) {
      const reason = readsPixels.has(id) ? 'needs manifest or a picture to read' : 'needs manifest';
      expect(run(id, {})).toEqual({ gate: id, status: 'skipped', reason, measurements: {}, flags: [] });
    }
  });

  it('publishes UI zones only for 9:16 delivery profiles, from REFERENCE 2.3', () => {
    for (const delivery of ['video_site_shorts', 'social_reels_ad', 'short_video_app_post'] as const) {
      const th = thresholdsFor('text_overlap', delivery);
      expect(th.uiZoneTopFraction).toMatchObject({ value: 0.14, confidence: 'secondary' });
      expect(th.uiZoneBottomFraction.value).toBe(0.35);
      expect(th.uiZoneSideFraction.value).toBe(0.06);
    }
    expect(thresholdsFor('text_overlap', 'video_site_longform').uiZoneTopFraction).toBeUndefined();
  });
});

describe('contact_sheet_evidence', () => {
  let root: string;
  let dir: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'preflight-sheets-'));
    dir = join(root, 'job');
    mkdirSync(join(dir, 'sheets'), { recursive: true });
    writeFileSync(join(dir, 'sheets', 'seg-00.jpg'), 'jpeg');
    writeFileSync(join(root, 'outside.jpg'), 'jpeg');
    symlinkSync(join(root, 'outside.jpg'), join(dir, 'sheets', 'link-out.jpg'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('blocks each segment whose sheet is missing, escapes the folder or links out; URLs are WATCH; no server path is shown', () => {
    const manifest = manifestOf([
      seg(0, 5, { contactSheet: 'sheets/seg-00.jpg' }),
      seg(5, 10, { contactSheet: 'sheets/seg-01.jpg' }),
      seg(10, 15, { contactSheet: '../outside.jpg' }),
      seg(15, 20, { contactSheet: 'sheets/link-out.jpg' }),
      seg(20, 25, { contactSheet: 'https://cdn.example.com/sheets/seg-04.jpg?token=secret' }),
    ]);
    const r = run('contact_sheet_evidence', { manifest, manifestDir: dir });
    expect(r.status).toBe('block');
    expect(r.measurements).toMatchObject({ segments: 5, declared: 5, found: 1, missing: 3, outsideManifestFolder: 2, notVerifiable: 1, undeclared: 0 });
    expect(r.flags.map((f) => f.severity)).toEqual(['BLOCK', 'BLOCK', 'BLOCK', 'WATCH']);
    const [missing, escape, link, url] = r.flags;
    expectSegmentFlag(missing, 'contact_sheet_evidence', 1, 5, 10);
    expect(missing.summary).toContain('"sheets/seg-01.jpg"');
    expect(missing.evidence).toMatchObject({ field: 'segments[1].contactSheet', reference: 'sheets/seg-01.jpg', problem: 'does not exist' });
    expect(missing.repair.instruction).toContain('ffmpeg -ss 5 -t 5 -i <input>');
    expectSegmentFlag(escape, 'contact_sheet_evidence', 2, 10, 15);
    expect(escape.evidence).toMatchObject({ reference: '../outside.jpg', problem: "points outside the manifest's folder" });
    expectSegmentFlag(link, 'contact_sheet_evidence', 3, 15, 20);
    expectSegmentFlag(url, 'contact_sheet_evidence', 4, 20, 25);
    expect(url.summary).toContain('not verifiable');
    expect(url.evidence).toMatchObject({ reference: 'https://cdn.example.com/sheets/seg-04.jpg' });
    const everything = JSON.stringify(r);
    expect(everything).not.toContain(root);
    expect(everything).not.toContain('secret');
  });

  it('counts a ../ escape as missing even though the file exists', () => {
    const r = run('contact_sheet_evidence', { manifest: manifestOf([seg(0, 4, { contactSheet: 'sheets/../../outside.jpg' })]), manifestDir: dir });
    expect(r.measurements).toMatchObject({ found: 0, missing: 1 });
    expect(r.flags).toHaveLength(1);
    expect(r.flags[0].severity).toBe('BLOCK');
  });

  it('near miss: every sheet present (normalised relative paths inside the folder) passes', () => {
    const manifest = manifestOf([
      seg(0, 5, { contactSheet: 'sheets/seg-00.jpg' }),
      seg(5, 10, { contactSheet: './sheets/../sheets/seg-00.jpg' }),
      seg(10, 15, { contactSheet: 'sheets\\seg-00.jpg' }),
    ]);
    const r = run('contact_sheet_evidence', { manifest, manifestDir: dir });
    expect(r).toMatchObject({ status: 'pass', flags: [] });
    expect(r.measurements).toMatchObject({ found: 3, missing: 0 });
  });

  it('watches a manifest with no contact sheets at all, and one given inline (nothing to resolve against)', () => {
    const none = run('contact_sheet_evidence', { manifest: manifestOf([seg(0, 5), seg(5, 9)]), manifestDir: dir });
    expect(none.flags).toHaveLength(1);
    expect(none.flags[0]).toMatchObject({ severity: 'WATCH', start: 0, end: 9 });
    expect(none.flags[0].summary).toContain('No segment of the manifest declares a contact sheet');
    const inline = run('contact_sheet_evidence', { manifest: manifestOf([seg(0, 5, { contactSheet: 'sheets/seg-00.jpg' })]) });
    expect(inline.flags).toHaveLength(1);
    expect(inline.flags[0]).toMatchObject({ severity: 'WATCH', start: 0, end: 5 });
    expect(inline.flags[0].summary).toContain('not verifiable');
    expect(inline.flags[0].evidence).toMatchObject({ segments: [{ index: 0, start: 0, end: 5, description: 'shot at 0' }] });
  });
});

describe('opening_footer_text_presence', () => {
  it('watches opening text that sits above the footer band, quoting it', () => {
    const manifest = manifestOf([seg(0, 4, { onScreenText: [text('Why seeds matter', 0.1, 0.4, 0.8, 0.1)] }), seg(4, 60)]);
    const r = run('opening_footer_text_presence', { manifest });
    expect(r.status).toBe('watch');
    expect(r.flags).toHaveLength(1);
    const flag = r.flags[0];
    expect(flag).toMatchObject({ severity: 'WATCH', start: 0, end: 3 });
    expect(flag.summary).toContain('"Why seeds matter" in segments[0] (00:00:00.000-00:00:04.000, "shot at 0") sits above the footer band');
    expect(flag.evidence).toMatchObject({ segment: { index: 0, start: 0, end: 4 }, openingSegments: [{ index: 0, start: 0, end: 4 }], texts: [{ field: 'segments[0].onScreenText[0]', text: 'Why seeds matter', state: 'above_band' }] });
    expect(flag.repair.instruction).toContain('segments[0]');
  });

  it('watches footer text that is not approved, and an opening without text', () => {
    const unapproved = run('opening_footer_text_presence', { manifest: manifestOf([seg(0, 5, { onScreenText: [text('TINY SEED', 0.1, 0.78, 0.5, 0.08, null)] })]) });
    expect(unapproved.flags[0].summary).toContain('"TINY SEED" in segments[0] (00:00:00.000-00:00:05.000, "shot at 0") is not approved');
    expect(unapproved.flags[0].repair.instruction).toContain('set approved: true on segments[0].onScreenText[0]');
    const bare = run('opening_footer_text_presence', { manifest: manifestOf([seg(0, 5)]) });
    expect(bare.flags[0].summary).toContain('No on-screen text is declared in the first 3 s');
    expect(bare.flags[0].summary).toContain('segments[0]');
    const late = run('opening_footer_text_presence', { manifest: manifestOf([seg(3, 8, { onScreenText: [text('TINY SEED', 0.1, 0.78, 0.5, 0.08)] })]) });
    expect(late.flags[0]).toMatchObject({ severity: 'WATCH', start: 0, end: 3 });
    expect(late.flags[0].summary).toContain('the manifest declares no segment there');
  });

  it('near miss: approved text whose bottom edge is exactly on the band, in a segment starting at 2.9 s, passes', () => {
    const manifest = manifestOf([seg(0, 2.9), seg(2.9, 8, { onScreenText: [text('TINY SEED', 0.1, 0.72, 0.5, 0.08)] })]);
    const r = run('opening_footer_text_presence', { manifest });
    expect(r).toMatchObject({ status: 'pass', flags: [] });
    expect(r.measurements).toMatchObject({ openingSegments: 2, approvedFooterTexts: 1, footerText: 'TINY SEED' });
  });

  it('uses the lower half above the UI zone as the footer band for 9:16 delivery', () => {
    const manifest = manifestOf([seg(0, 5, { onScreenText: [text('TINY SEED', 0.1, 0.5, 0.8, 0.08)] })]);
    expect(run('opening_footer_text_presence', { manifest, delivery: 'video_site_shorts', media: VERTICAL }).status).toBe('pass');
    expect(run('opening_footer_text_presence', { manifest, delivery: 'video_site_longform' }).status).toBe('watch');
  });
});

describe('clean_segment_source_scrub', () => {
  it('blocks a defect status, watches pending, "not clean" and undeclared generated footage', () => {
    const manifest = manifestOf([
      seg(0, 5, { kind: 'b_roll', sourceScrub: { status: 'Watermark detected' } }),
      seg(5, 10, { kind: 'generated_plate', sourceScrub: { status: 'pending' } }),
      seg(10, 15, { kind: 'b_roll', sourceScrub: { status: 'not clean' } }),
      seg(15, 20, { kind: 'generated_plate' }),
    ]);
    const r = run('clean_segment_source_scrub', { manifest });
    expect(r.status).toBe('block');
    expect(r.flags.map((f) => f.severity)).toEqual(['BLOCK', 'WATCH', 'WATCH', 'WATCH']);
    expectSegmentFlag(r.flags[0], 'clean_segment_source_scrub', 0, 0, 5);
    expect(r.flags[0].summary).toContain('status "Watermark detected"');
    expect(r.flags[0].evidence).toMatchObject({ field: 'segments[0].sourceScrub.status', status: 'Watermark detected', finding: 'defect' });
    expect(r.flags[1].summary).toContain('"pending"');
    expect(r.flags[2].evidence).toMatchObject({ status: 'not clean', finding: 'not_clean' });
    expectSegmentFlag(r.flags[3], 'clean_segment_source_scrub', 3, 15, 20);
    expect(r.flags[3].evidence).toMatchObject({ status: null, kind: 'generated_plate', finding: 'undeclared' });
    expect(r.measurements).toMatchObject({ segments: 4, declared: 3, failed: 1, notClean: 2, undeclaredRequired: 1 });
  });

  it('near miss: clean statuses in any case pass, own footage may omit the status, and "watermarkless" is no watermark', () => {
    const manifest = manifestOf([
      seg(0, 5, { kind: 'b_roll', sourceScrub: { status: 'Clean' } }),
      seg(5, 10, { kind: 'generated_plate', sourceScrub: { status: 'SCRUBBED' } }),
      seg(10, 15, { kind: 'b_roll', sourceScrub: { status: 'ok' } }),
      seg(15, 20, { kind: 'talking_head' }),
    ]);
    expect(run('clean_segment_source_scrub', { manifest })).toMatchObject({ status: 'pass', flags: [] });
    const wordy = run('clean_segment_source_scrub', { manifest: manifestOf([seg(0, 5, { sourceScrub: { status: 'watermarkless' } })]) });
    expect(wordy.flags.map((f) => f.severity)).toEqual(['WATCH']);
  });
});

describe('asset_triage_reuse_manifest', () => {
  it('blocks a rejected asset in use and watches a reuse the triage does not list', () => {
    const manifest = manifestOf(
      [
        seg(0, 5, { visualFile: 'shots/host-01.mp4' }),
        seg(5, 10, { visualFile: 'plates/tree-v1.png' }),
        seg(10, 15, { visualFile: './shots/host-01.mp4' }),
      ],
      { assetTriage: { reused: [], rejected: ['plates/tree-v1.png'] } },
    );
    const r = run('asset_triage_reuse_manifest', { manifest });
    expect(r.status).toBe('block');
    expect(r.flags.map((f) => f.severity)).toEqual(['BLOCK', 'WATCH']);
    expectSegmentFlag(r.flags[0], 'asset_triage_reuse_manifest', 1, 5, 10);
    expect(r.flags[0].summary).toContain('"plates/tree-v1.png", which asset triage rejected');
    expect(r.flags[0].evidence).toMatchObject({ field: 'segments[1].visualFile', triageField: 'assetTriage.rejected[0]' });
    expectSegmentFlag(r.flags[1], 'asset_triage_reuse_manifest', 2, 10, 15);
    expect(r.flags[1].summary).toContain('"shots/host-01.mp4" is used 2 times (segments[0], segments[2])');
    expect(r.measurements).toMatchObject({ distinctAssets: 2, reusedAssets: 1, undeclaredReuse: 1, rejectedInUse: 1, triageDeclared: true });
  });

  it('watches reuse when the manifest has no triage section', () => {
    const manifest = manifestOf([seg(0, 5, { visualFile: 'a.mp4' }), seg(5, 10, { visualFile: 'b.mp4' }), seg(10, 15, { visualFile: 'a.mp4' })]);
    const r = run('asset_triage_reuse_manifest', { manifest });
    expect(r.flags).toHaveLength(1);
    expect(r.flags[0]).toMatchObject({ severity: 'WATCH', start: 10, end: 15 });
    expect(r.flags[0].summary).toContain('no assetTriage section');
    expect(r.flags[0].summary).toContain('segments[2]');
  });

  it('near miss: declared reuse (by file name), a shot split across back-to-back segments and an unused rejected asset pass', () => {
    const manifest = manifestOf(
      [
        seg(0, 5, { visualFile: 'shots/host-01.mp4' }),
        seg(5, 8, { visualFile: 'shots/host-01.mp4' }),
        seg(8, 12, { visualFile: 'shots/b.mp4' }),
        seg(12, 15, { visualFile: 'shots/host-01.mp4' }),
        seg(15, 20, { visualFile: 'shots/c.mp4' }),
        seg(20, 25, { visualFile: 'shots/c.mp4' }),
      ],
      { assetTriage: { reused: ['host-01.mp4'], rejected: ['plates/tree-v1.png'] } },
    );
    const r = run('asset_triage_reuse_manifest', { manifest });
    expect(r).toMatchObject({ status: 'pass', flags: [] });
    expect(r.measurements).toMatchObject({ reusedAssets: 1, undeclaredReuse: 0 });
  });
});

describe('voiceover_music_balance', () => {
  it('watches and blocks voice too close to the music, quoting the declared levels', () => {
    const manifest = manifestOf([
      seg(0, 10, { mix: { voiceDb: -16, musicDb: -22 } }),
      seg(10, 20, { mix: { voiceDb: -16, musicDb: -18 } }),
      seg(20, 30, { mix: { voiceDb: -16, musicDb: -26 } }),
      seg(30, 40, { mix: { voiceDb: -20, musicDb: -16 } }),
    ]);
    const r = run('voiceover_music_balance', { manifest });
    expect(r.flags.map((f) => f.severity)).toEqual(['WATCH', 'BLOCK', 'BLOCK']);
    expect(r.flags[2].summary).toContain('Music is 4.0 dB louder than the voice in segments[3]');
    expectSegmentFlag(r.flags[0], 'voiceover_music_balance', 0, 0, 10);
    expect(r.flags[0].summary).toContain('only 6.0 dB above the music');
    expect(r.flags[0].summary).toContain('mix.voiceDb -16, mix.musicDb -22');
    expect(r.flags[0].evidence).toMatchObject({ field: 'segments[0].mix', voiceDb: -16, musicDb: -22, marginDb: 6, threshold: { watchBelowDb: 10, blockBelowDb: 4 } });
    expectSegmentFlag(r.flags[1], 'voiceover_music_balance', 1, 10, 20);
    expect(r.measurements).toMatchObject({ segmentsWithMix: 4, segmentsWithBalance: 4, lowestVoiceOverMusicDb: -4, segmentsComparedWithRender: 0 });
    expect(r.measurements.renderComparison).toContain('no audio');
  });

  it('watches a segment whose measured loudness does not match the declared mix', () => {
    const manifest = manifestOf([
      seg(0, 10, { mix: { voiceDb: -16, musicDb: -30 } }),
      seg(10, 20, { mix: { voiceDb: -16, musicDb: -30 } }),
      seg(20, 22, { mix: { voiceDb: -16 } }),
    ]);
    const audio = audioSignals(30, (t) => (t <= 10 ? -16.5 : t <= 20 ? -28 : -15));
    const r = run('voiceover_music_balance', { manifest, audio, media: { ...LANDSCAPE, durationSeconds: 30 } });
    expect(r.flags).toHaveLength(1);
    const flag = r.flags[0];
    expectSegmentFlag(flag, 'voiceover_music_balance', 1, 10, 20);
    expect(flag.severity).toBe('WATCH');
    expect(flag.summary).toContain('Mix metadata does not match the render');
    expect(flag.summary).toContain('measured -28.0 LUFS (median short-term loudness)');
    expect(flag.evidence).toMatchObject({ measuredLufs: -28, measure: 'short-term', declaredMixDb: -15.8, differenceDb: -12.2 });
    expect(r.measurements).toMatchObject({ segmentsComparedWithRender: 3, largestRenderDifferenceDb: -12.2 });
  });

  it('near miss: exactly 10 dB of separation and a render within tolerance pass; no mix levels is skipped', () => {
    const manifest = manifestOf([seg(0, 10, { mix: { voiceDb: -16, musicDb: -26 } }), seg(10, 12, { mix: { voiceDb: -16, musicDb: -26 } })]);
    const audio = audioSignals(12, (t) => (t <= 10 ? -20 : -11));
    const r = run('voiceover_music_balance', { manifest, audio });
    expect(r).toMatchObject({ status: 'pass', flags: [] });
    expect(r.measurements).toMatchObject({ segmentsComparedWithRender: 2 });
    const none = run('voiceover_music_balance', { manifest: manifestOf([seg(0, 10)]) });
    expect(none).toMatchObject({ status: 'skipped', flags: [], measurements: { segments: 1, segmentsWithMix: 0 } });
  });
});

describe('text_crop_jitter', () => {
  it('blocks text cut by the frame edge and watches a tiny overhang', () => {
    const manifest = manifestOf([
      seg(0, 5, { onScreenText: [text('LIMITED OFFER', 0.7, 0.1, 0.35, 0.1)] }),
      seg(5, 10, { onScreenText: [text('Caption', 0.2, 0.9, 0.5, 0.103)] }),
    ]);
    const r = run('text_crop_jitter', { manifest });
    expect(r.flags.map((f) => f.severity)).toEqual(['BLOCK', 'WATCH']);
    expectSegmentFlag(r.flags[0], 'text_crop_jitter', 0, 0, 5);
    expect(r.flags[0].summary).toContain('"LIMITED OFFER" in segments[0]');
    expect(r.flags[0].summary).toContain('cut by the right edge');
    expect(r.flags[0].evidence).toMatchObject({ field: 'segments[0].onScreenText[0]', text: 'LIMITED OFFER', edges: [{ edge: 'right', overhangFraction: 0.05 }] });
    expect(r.flags[1].summary).toContain('bottom edge');
    expect(r.measurements).toMatchObject({ cutBoxes: 2 });
  });

  it('watches the same text jumping a little between back-to-back segments', () => {
    const manifest = manifestOf([
      seg(0, 5, { onScreenText: [text('SUBSCRIBE', 0.1, 0.8, 0.3, 0.08)] }),
      seg(5, 10, { onScreenText: [text('Subscribe!', 0.1, 0.815, 0.3, 0.08)] }),
    ]);
    const r = run('text_crop_jitter', { manifest });
    expect(r.flags).toHaveLength(1);
    expectSegmentFlag(r.flags[0], 'text_crop_jitter', 1, 5, 10);
    expect(r.flags[0]).toMatchObject({ severity: 'WATCH' });
    expect(r.flags[0].summary).toContain('"Subscribe!" jumps by 1.5 % of the frame at 00:00:05.000');
    expect(r.flags[0].evidence).toMatchObject({ fields: ['segments[0].onScreenText[0]', 'segments[1].onScreenText[0]'], shiftFraction: 0.015 });
  });

  it('near miss: a box ending exactly at the edge, a sub-threshold shift, a deliberate move and a gap pass', () => {
    const manifest = manifestOf([
      seg(0, 5, { onScreenText: [text('LIMITED OFFER', 0.65, 0.1, 0.35, 0.1), text('SUBSCRIBE', 0.1, 0.8, 0.3, 0.08)] }),
      seg(5, 10, { onScreenText: [text('SUBSCRIBE', 0.1, 0.803, 0.3, 0.08)] }),
      seg(10, 15, { onScreenText: [text('SUBSCRIBE', 0.1, 0.5, 0.3, 0.08)] }),
      seg(16, 20, { onScreenText: [text('SUBSCRIBE', 0.1, 0.52, 0.3, 0.08)] }),
    ]);
    const r = run('text_crop_jitter', { manifest });
    expect(r).toMatchObject({ status: 'pass', flags: [] });
    expect(r.measurements).toMatchObject({ boxesChecked: 5, cutBoxes: 0, pairsCompared: 2, jitterShifts: 0 });
  });
});

describe('text_overlap', () => {
  it('flags overlapping boxes of one segment by the share of the smaller box', () => {
    const manifest = manifestOf([
      seg(0, 5, { onScreenText: [text('HEADLINE', 0.1, 0.1, 0.4, 0.1), text('Subhead', 0.3, 0.1, 0.4, 0.1)] }),
      seg(5, 10, { onScreenText: [text('Name', 0.1, 0.7, 0.4, 0.1), text('Role', 0.1, 0.78, 0.4, 0.1)] }),
    ]);
    const r = run('text_overlap', { manifest });
    expect(r.flags.map((f) => f.severity)).toEqual(['BLOCK', 'WATCH']);
    expectSegmentFlag(r.flags[0], 'text_overlap', 0, 0, 5);
    expect(r.flags[0].summary).toContain('"HEADLINE" and "Subhead" overlap in segments[0]');
    expect(r.flags[0].evidence).toMatchObject({ overlapRatio: 0.5, texts: [{ field: 'segments[0].onScreenText[0]' }, { field: 'segments[0].onScreenText[1]' }] });
    expect(r.flags[1].evidence).toMatchObject({ overlapRatio: 0.2 });
    expect(r.measurements).toMatchObject({ overlappingPairs: 2, uiZones: 'not applied: not a 9:16 delivery profile' });
  });

  it('flags text under the 9:16 platform UI zones on vertical delivery only', () => {
    const manifest = manifestOf([
      seg(0, 5, { onScreenText: [text('Follow for more', 0.1, 0.85, 0.8, 0.1)] }),
      seg(5, 10, { onScreenText: [text('Step 2', 0.1, 0.55, 0.8, 0.12)] }),
    ]);
    const vertical = run('text_overlap', { manifest, delivery: 'short_video_app_post', media: VERTICAL });
    expect(vertical.flags.map((f) => f.severity)).toEqual(['BLOCK', 'WATCH']);
    expectSegmentFlag(vertical.flags[0], 'text_overlap', 0, 0, 5);
    expect(vertical.flags[0].summary).toContain('"Follow for more" in segments[0]');
    expect(vertical.flags[0].evidence).toMatchObject({ shareUnderUi: 1, zones: ['bottom'], field: 'segments[0].onScreenText[0]' });
    expect(vertical.flags[1].evidence).toMatchObject({ zones: ['bottom'] });
    expect(run('text_overlap', { manifest }).flags).toEqual([]);
  });

  it('near miss: touching boxes and text inside the UI-safe area pass', () => {
    const manifest = manifestOf([seg(0, 5, { onScreenText: [text('Top', 0.1, 0.3, 0.8, 0.1), text('Bottom', 0.1, 0.4, 0.8, 0.1)] })]);
    const r = run('text_overlap', { manifest, delivery: 'video_site_shorts', media: VERTICAL });
    expect(r).toMatchObject({ status: 'pass', flags: [] });
    expect(r.measurements).toMatchObject({ pairsChecked: 1, overlappingPairs: 0, boxesUnderUi: 0 });
  });
});

describe('hallucinated_plate_text', () => {
  it('blocks unapproved text in a generated plate, quoting it', () => {
    const manifest = manifestOf([
      seg(0, 5, { kind: 'generated_plate', onScreenText: [text('OPEN 24 HOURS', 0.2, 0.3, 0.3, 0.1, false), text('Mustard', 0.2, 0.5, 0.3, 0.1, null)] }),
      seg(5, 8, { kind: 'generated_plate', onScreenText: [{ text: '~~' }] }),
    ]);
    const r = run('hallucinated_plate_text', { manifest });
    expect(r.flags.map((f) => f.severity)).toEqual(['BLOCK', 'BLOCK', 'WATCH']);
    expectSegmentFlag(r.flags[0], 'hallucinated_plate_text', 0, 0, 5);
    expect(r.flags[0].summary).toContain('unapproved text "OPEN 24 HOURS"');
    expect(r.flags[0].evidence).toMatchObject({ field: 'segments[0].onScreenText[0]', text: 'OPEN 24 HOURS', approved: false });
    expect(r.flags[1].evidence).toMatchObject({ text: 'Mustard', approved: null });
    expect(r.flags[0].repair.instruction).toContain('set approved: true on segments[0].onScreenText[0]');
  });

  it('near miss: approved plate text, plates without text and unapproved text outside plates pass', () => {
    const manifest = manifestOf([
      seg(0, 5, { kind: 'generated_plate', onScreenText: [text('TINY SEED', 0.2, 0.3, 0.3, 0.1, true)] }),
      seg(5, 10, { kind: 'generated_plate' }),
      seg(10, 15, { kind: 'title_card', onScreenText: [text('Chapter 1', 0.2, 0.3, 0.3, 0.1, false)] }),
    ]);
    const r = run('hallucinated_plate_text', { manifest });
    expect(r).toMatchObject({ status: 'pass', flags: [] });
    expect(r.measurements).toMatchObject({ plates: 2, platesWithDeclaredText: 1, platesWithoutDeclaredText: 1, approvedTexts: 1, unapprovedTexts: 0 });
    expect(r.measurements.pixelText).toBe('not read: this check has no picture');
  });
});

describe('manifest-media gates: determinism and shape', () => {
  const manifest = manifestOf(
    [
      seg(0, 4, { kind: 'generated_plate', visualFile: 'a.png', contactSheet: 'missing.jpg', sourceScrub: { status: 'pending' }, mix: { voiceDb: -16, musicDb: -20 }, onScreenText: [text('X Y', 0.9, 0.9, 0.2, 0.2, false)] }),
      seg(4, 9, { kind: 'b_roll', visualFile: 'b.png', onScreenText: [text('X Y', 0.9, 0.905, 0.2, 0.2), text('Z', 0.85, 0.9, 0.1, 0.1)] }),
      seg(9, 14, { kind: 'b_roll', visualFile: 'a.png' }),
    ],
    { assetTriage: { reused: [], rejected: ['b.png'] } },
  );

  it('gives identical results on repeated runs, always with measurements and well-formed flags', () => {
    const audio = audioSignals(14, () => -18);
    for (const id of GATE_IDS) {
      for (const delivery of ['video_site_longform', 'video_site_shorts'] as const) {
        const first = run(id, { manifest, delivery, audio, manifestDir: tmpdir() });
        const second = run(id, { manifest, delivery, audio, manifestDir: tmpdir() });
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
        expect(Object.keys(first.measurements).length).toBeGreaterThan(0);
        expect(first.flags.length).toBeGreaterThan(0);
        for (const f of first.flags) {
          expect(f.end).toBeGreaterThanOrEqual(f.start);
          expect(f.summary).toMatch(/segments\[\d+\]/);
          expect(f.repair.instruction).toMatch(/segments\[\d+\]/);
          expect(JSON.stringify(f)).not.toContain(tmpdir());
        }
      }
    }
  });
});
