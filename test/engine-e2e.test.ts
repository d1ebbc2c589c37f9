// The whole engine on generated media: known defects must flag with the right gate, severity and time; clean controls must not.
import { describe, expect, it } from 'vitest';
import { checked } from './helpers/checked.js';
import type { Report } from '../engine/report.js';
import * as fx from './helpers/fixtures.js';

const flagsOf = (r: Report, gate: string) => r.flags.filter((f) => f.gate === gate);
const gate = (r: Report, id: string) => r.gates.find((g) => g.gate === id)!;

describe('engine end to end', () => {
  it('passes a clean video with every technical gate measured', async () => {
    const { report } = await checked(await fx.clean(), { profile: 'generic_creator_video' });
    expect(report.schemaVersion).toBe('preflight-report/1');
    for (const id of ['black_frames', 'loop_freeze', 'canvas_fill', 'format_spec', 'loudness', 'clipping', 'dead_air', 'channel_balance', 'av_sync']) {
      const g = gate(report, id);
      expect(g, id).toBeDefined();
      // A test pattern over a tone has no sync events: av_sync says it could not measure lip sync (issue 14).
      expect(g.status, `${id}: ${JSON.stringify(g)}`).toBe(id === 'av_sync' ? 'unmeasured' : 'pass');
      expect(Object.keys(g.measurements).length, id).toBeGreaterThan(0);
    }
    expect(report.flags).toEqual([]);
    expect(report.verdict).toBe('PASS');
    const loud = gate(report, 'loudness').measurements;
    for (const k of ['integratedLufs', 'loudnessRangeLu', 'truePeakDbtp', 'samplePeakDbfs', 'maxMomentaryLufs', 'maxShortTermLufs']) expect(loud).toHaveProperty(k);
    expect(loud.integratedLufs as number).toBeCloseTo(-14, 0);
    // The text gates read the picture (OCR) and find no text in it.
    expect(gate(report, 'text_contrast')).toMatchObject({ status: 'pass', measurements: { textLines: 0 } });
    expect(gate(report, 'text_contrast').measurements.samplesRead as number).toBeGreaterThan(0);
  });

  it('is deterministic: gates and flags are byte-identical across runs', async () => {
    const file = await fx.blackInterior();
    const a = await checked(file, {});
    const b = await checked(file, {});
    expect(JSON.stringify(b.report.gates)).toBe(JSON.stringify(a.report.gates));
    expect(JSON.stringify(b.report.flags)).toBe(JSON.stringify(a.report.flags));
  });

  it('blocks 2.5 s of interior black at 00:00:04', async () => {
    const { report } = await checked(await fx.blackInterior(), { checks: 'black_frames' });
    const [flag] = flagsOf(report, 'black_frames');
    expect(flag).toMatchObject({ severity: 'BLOCK', timestamp: '00:00:04.000', timecode: '00:00:04:00', frame: 120 });
    expect(flag.end).toBeCloseTo(6.5, 1);
    expect(flag.repair).toMatchObject({ action: 're_render_span', reachable: true });
    expect(flag.repair.instruction).toContain('00:00:04.000');
    expect(report.verdict).toBe('BLOCK');
  });

  it('does not flag a short black head and a fade-in', async () => {
    const { report } = await checked(await fx.blackHeadFade(), { checks: 'black_frames,canvas_fill' });
    expect(report.flags).toEqual([]);
    expect(gate(report, 'black_frames').measurements.headBlackSeconds).toBeGreaterThan(0.7);
  });

  it('blocks a 5 s frozen picture', async () => {
    const { report } = await checked(await fx.freeze(), { checks: 'loop_freeze' });
    const flags = flagsOf(report, 'loop_freeze');
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ severity: 'BLOCK' });
    expect(flags[0].start).toBeCloseTo(3.0, 1);
    expect(flags[0].end - flags[0].start).toBeCloseTo(5.0, 0);
    expect(flags[0].evidence.kind).toBe('freeze');
  });

  it('blocks a repeated 3.3 s sequence and names what it repeats', async () => {
    const { report } = await checked(await fx.looped(), { checks: 'loop_freeze' });
    const flags = flagsOf(report, 'loop_freeze');
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ severity: 'BLOCK' });
    expect(flags[0].evidence.kind).toBe('loop');
    expect(Math.abs(flags[0].start - 5.33)).toBeLessThan(0.2);
    expect(flags[0].evidence.repeatOfStart as number).toBeCloseTo(2.0, 1);
  });

  it('passes continuous motion without loop or freeze flags', async () => {
    const { report } = await checked(await fx.clean(), { checks: 'loop_freeze' });
    expect(report.flags).toEqual([]);
  });

  it('flags letterbox bars as WATCH and a blurred pillarbox as BLOCK', async () => {
    const letter = await checked(await fx.letterbox(), { checks: 'canvas_fill', profile: 'generic_creator_video' });
    const [lf] = flagsOf(letter.report, 'canvas_fill');
    expect(lf).toMatchObject({ severity: 'WATCH' });
    expect(lf.evidence.layout).toBe('letterbox');
    const blur = await checked(await fx.blurredPillarbox(), { checks: 'canvas_fill', profile: 'generic_creator_video' });
    const [bf] = flagsOf(blur.report, 'canvas_fill');
    expect(bf).toMatchObject({ severity: 'BLOCK' });
    expect(bf.evidence.layout).toBe('pillarbox');
    expect(bf.evidence.padding).toBe('blurred or flat fill');
  });

  it('is not fooled by a black intro', async () => {
    const { report } = await checked(await fx.blackIntroFullFrame(), { checks: 'canvas_fill' });
    expect(report.flags).toEqual([]);
  });

  it('blocks audio 300 ms late by container offset', async () => {
    const { report } = await checked(await fx.audioLate(), { checks: 'av_sync' });
    const [flag] = flagsOf(report, 'av_sync');
    expect(flag).toMatchObject({ severity: 'BLOCK' });
    // ffprobe's audio start includes the AAC encoder priming (1024 samples ≈ 21 ms at 48 kHz).
    expect(Math.abs((flag.evidence.offsetMs as number) + 300)).toBeLessThan(25);
  });

  it('measures a flash/beep sync pattern 200 ms late and passes the aligned one', async () => {
    const late = await checked(await fx.syncPatternLate(), { checks: 'av_sync' });
    const [flag] = flagsOf(late.report, 'av_sync');
    expect(flag).toMatchObject({ severity: 'BLOCK' });
    expect(flag.evidence.basis).toBe('content');
    expect(flag.evidence.offsetMs as number).toBeGreaterThan(-230);
    expect(flag.evidence.offsetMs as number).toBeLessThan(-170);
    const aligned = await checked(await fx.syncPatternAligned(), { checks: 'av_sync' });
    expect(aligned.report.flags).toEqual([]);
    expect(Math.abs(gate(aligned.report, 'av_sync').measurements.contentOffsetMs as number)).toBeLessThan(40);
  });

  it('flags loudness, clipping, dead air and a dead channel in an audio file', async () => {
    const { report } = await checked(await fx.audioDefects(), { profile: 'audio' });
    expect(report.profile).toBe('npo_podcast_or_audio');
    expect(report.deliveryProfile).toBe('podcast_delivery');
    for (const g of ['loudness', 'clipping', 'dead_air', 'channel_balance']) {
      expect(flagsOf(report, g).length, g).toBeGreaterThan(0);
    }
    const clip = flagsOf(report, 'clipping')[0];
    expect(clip.start).toBeGreaterThanOrEqual(1.9);
    expect(clip.start).toBeLessThan(3.1);
    const silence = flagsOf(report, 'dead_air')[0];
    expect(silence.start).toBeCloseTo(4, 0);
    expect(report.verdict).toBe('BLOCK');
    // Visual gates do not apply to audio: skipped with a reason.
    const { report: all } = await checked(await fx.audioDefects(), { checks: 'black_frames,dead_air' });
    expect(gate(all, 'black_frames')).toMatchObject({ status: 'skipped' });
    expect(gate(all, 'black_frames').reason).toContain('audio');
  });

  it('passes a clean podcast file', async () => {
    const { report } = await checked(await fx.cleanPodcast(), {});
    expect(report.profile).toBe('npo_podcast_or_audio');
    expect(report.flags.filter((f) => f.gate !== 'format_spec')).toEqual([]);
  });

  it('checks an image: canvas runs, audio gates are skipped', async () => {
    const { report } = await checked(await fx.stillImage(), { checks: 'canvas_fill,dead_air,loudness' });
    expect(report.media.kind).toBe('image');
    expect(gate(report, 'canvas_fill').status).toBe('pass');
    expect(gate(report, 'dead_air')).toMatchObject({ status: 'skipped' });
  });

  it('infers shorts for a vertical 10 s video', async () => {
    const { report } = await checked(await fx.verticalShort(), {});
    expect(report.requestedProfile).toBe('auto');
    expect(report.profile).toBe('nto_shorts');
    expect(report.deliveryProfile).toBe('video_site_shorts');
    expect(gate(report, 'shorts_format').status).toBe('pass');
  });

  it('finds R103 legal-level excursions on sparse full-picture samples under broadcast_r128 only', async () => {
    const file = await fx.superWhiteBroadcast();
    const { report } = await checked(file, { profile: 'broadcast_r128', checks: 'format_spec' });
    const legal = flagsOf(report, 'format_spec').filter((f) => f.evidence.check === 'legal_levels');
    expect(legal).toHaveLength(1);
    expect(legal[0].start).toBeGreaterThanOrEqual(1.9);
    expect(legal[0].start).toBeLessThan(4.1);
    // One sample at 2 s speaks for its shot: the super-white stretch runs from the change at 2 s to the one at 4 s.
    expect(Math.abs(legal[0].start - 2)).toBeLessThan(0.5);
    expect(Math.abs(legal[0].end - 4)).toBeLessThan(0.5);
    const web = await checked(file, { profile: 'generic_creator_video', checks: 'format_spec' });
    expect(gate(web.report, 'format_spec').measurements.legalLevels).toBe('not measured for this delivery profile');
  });

  it('rejects unknown check names, listing the valid ones', async () => {
    await expect(checked(await fx.clean(), { checks: 'black_frames,bogus_gate' })).rejects.toThrow(/Unknown check: bogus_gate\. Valid checks: .*black_frames/);
  });
});
