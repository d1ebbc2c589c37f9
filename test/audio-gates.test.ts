import { beforeAll, describe, expect, it } from 'vitest';
import { AudioStatsAccumulator, CLIP_RUN_LEVEL_DBFS, MIN_CLIP_RUN_SAMPLES, type AudioStats } from '../engine/audio/stats.js';
import { DELIVERY_PROFILES, DELIVERY_PROFILE_IDS, type DeliveryProfileId } from '../engine/profiles/index.js';
import { GATES, thresholdsFor } from '../engine/gates/index.js';
import type { AudioSignals, FlagDraft, GateContext, GateResult, LoudnessMeasurements, MediaInfo } from '../engine/types.js';
import { renderPcm } from './helpers/media.js';

const SAMPLE_RATE = 48000;
const SINE = 'sin(2*PI*440*t)';
const CLIPPED_SINE = `min(1\\,max(-1\\,1.6*${SINE}))`;
const TARGETS: Record<DeliveryProfileId, number> = {
  broadcast_r128: -23,
  podcast_delivery: -16,
  video_site_shorts: -14,
  video_site_longform: -14,
  social_reels_ad: -14,
  short_video_app_post: -14,
  ai_render_gate: -14,
};
const LOUDNESS_NAMES = ['integratedLufs', 'loudnessRangeLu', 'truePeakDbtp', 'samplePeakDbfs', 'maxMomentaryLufs', 'maxShortTermLufs'];

function statsOf(pcm: Float32Array[]): AudioStats {
  const acc = new AudioStatsAccumulator({ sampleRate: SAMPLE_RATE, channelNames: pcm.length === 1 ? ['FC'] : ['FL', 'FR'] });
  for (let at = 0; at < pcm[0].length; at += 4000) acc.push(pcm.map((c) => c.subarray(at, at + 4000)));
  return acc.finish();
}

const render = (left: string, right: string | null, seconds: number) =>
  renderPcm(`aevalsrc=exprs='${right === null ? left : `${left}|${right}`}':s=${SAMPLE_RATE}:d=${seconds}`, right === null ? 1 : 2);

function loudness(overrides: Partial<LoudnessMeasurements> = {}): LoudnessMeasurements {
  return {
    integratedLufs: -23,
    loudnessRangeLu: 6,
    truePeakDbtp: -3,
    samplePeakDbfs: -3.2,
    maxMomentaryLufs: -19,
    maxShortTermLufs: -20,
    maxMomentaryAtSeconds: 4,
    maxShortTermAtSeconds: 3,
    momentary: [],
    shortTerm: [],
    ...overrides,
  };
}

function audioSignals(stats: AudioStats, measured: Partial<LoudnessMeasurements> = {}, startSeconds = 0): AudioSignals {
  return {
    sampleRate: stats.sampleRate,
    channels: stats.channels.length,
    channelNames: stats.channelNames,
    startSeconds,
    durationSeconds: stats.durationSeconds,
    loudness: loudness(measured),
    stats,
  };
}

function mediaFor(audio: AudioSignals | null, kind: 'video' | 'audio' = 'audio'): MediaInfo {
  const duration = audio ? audio.startSeconds + audio.durationSeconds : 10;
  return {
    path: '/tmp/programme.wav',
    kind,
    container: 'wav',
    formatLongName: null,
    sizeBytes: 1,
    durationSeconds: duration,
    bitRate: null,
    startSeconds: 0,
    video: null,
    audio: audio && {
      index: 0,
      codec: 'pcm_s16le',
      sampleRate: audio.sampleRate,
      channels: audio.channels,
      channelLayout: audio.channels === 2 ? 'stereo' : 'mono',
      channelNames: audio.channelNames,
      sampleFormat: 's16',
      bitRate: null,
      startSeconds: audio.startSeconds,
      durationSeconds: audio.durationSeconds,
    },
    videoStreamCount: 0,
    audioStreamCount: audio ? 1 : 0,
    subtitleStreamCount: 0,
    otherStreams: [],
  };
}

const audioGates = GATES.filter((g) => ['loudness', 'clipping', 'dead_air', 'channel_balance'].includes(g.id));

function runGate(gate: string, delivery: DeliveryProfileId, audio: AudioSignals | null): GateResult {
  const definition = audioGates.find((g) => g.id === gate)!;
  const ctx: GateContext = {
    media: mediaFor(audio),
    signals: { video: null, audio, analysisMs: 0 },
    sidecars: {},
    thresholds: thresholdsFor(gate, delivery),
    profileId: 'test',
    deliveryProfile: DELIVERY_PROFILES[delivery],
    timecodeFps: 25,
  };
  return definition.run(ctx);
}

const severities = (r: GateResult) => r.flags.map((f) => f.severity);

function expectConcreteRepair(flag: FlagDraft, gate: string): void {
  expect(flag.summary.length).toBeGreaterThan(10);
  expect(flag.repair.instruction.length).toBeGreaterThan(40);
  expect(flag.repair.verify).toContain(`--checks ${gate}`);
  expect(flag.evidence).toHaveProperty('threshold');
  expect(flag.end).toBeGreaterThanOrEqual(flag.start);
}

let clean: AudioStats;
beforeAll(async () => {
  clean = statsOf(await render(`0.3*${SINE}`, `0.3*${SINE}`, 10));
});

describe('audio gates: definitions and skipping', () => {
  it('defines the four audio gates', () => {
    expect(audioGates.map((g) => g.id)).toEqual(['loudness', 'clipping', 'dead_air', 'channel_balance']);
    for (const g of audioGates) {
      expect(g).toMatchObject({ area: 'audio', input: 'audio/video', requires: { kinds: ['video', 'audio'], signals: ['audio'] } });
      expect(g.algorithm.length).toBeGreaterThan(100);
    }
  });

  it('skips with a reason when the file has no audio', () => {
    for (const g of audioGates) {
      const r = runGate(g.id, 'video_site_longform', null);
      expect(r).toEqual({ gate: g.id, status: 'skipped', reason: 'needs audio: the file has no audio stream', measurements: {}, flags: [] });
    }
  });

  it('passes a clean programme on every delivery profile, with measurements', () => {
    for (const delivery of DELIVERY_PROFILE_IDS) {
      const audio = audioSignals(clean, { integratedLufs: TARGETS[delivery], truePeakDbtp: -2 });
      for (const g of audioGates) {
        const r = runGate(g.id, delivery, audio);
        expect({ delivery, gate: g.id, status: r.status, flags: r.flags }).toEqual({ delivery, gate: g.id, status: 'pass', flags: [] });
        expect(Object.keys(r.measurements).length).toBeGreaterThan(3);
      }
    }
  });

  it('is deterministic', () => {
    const audio = audioSignals(clean, { integratedLufs: -16.04 });
    const once = audioGates.map((g) => runGate(g.id, 'broadcast_r128', audio));
    const twice = audioGates.map((g) => runGate(g.id, 'broadcast_r128', audio));
    expect(JSON.stringify(once)).toBe(JSON.stringify(twice));
  });
});

describe('loudness gate', () => {
  it('gives different verdicts for broadcast and video sites on the same −16 LUFS programme', () => {
    const audio = audioSignals(clean, { integratedLufs: -16.03, truePeakDbtp: -3.04, loudnessRangeLu: 5.97 }, 0.5);
    const broadcast = runGate('loudness', 'broadcast_r128', audio);
    const site = runGate('loudness', 'video_site_longform', audio);
    const podcast = runGate('loudness', 'podcast_delivery', audio);
    expect(broadcast.status).toBe('block');
    expect(site.status).toBe('watch');
    expect(podcast.status).toBe('pass');

    const [flag] = broadcast.flags;
    expect(flag).toMatchObject({ severity: 'BLOCK', start: 0, end: 10.5 });
    expect(flag.summary).toContain('−16.0 LUFS'.replace('−', '-'));
    expect(flag.repair.reachable).toBe(true);
    const instruction = flag.repair.instruction;
    expect(instruction).toContain('volume=-7.0dB');
    expect(instruction).toContain('loudnorm=I=-23:TP=-1.0:LRA=7:print_format=json -f null -');
    expect(instruction).toContain('measured_I=-16.0:measured_TP=-3.0:measured_LRA=6.0:measured_thresh=<input_thresh from pass 1>:linear=true');
    expect(instruction).toContain('-c:a pcm_s16le -ar 48000 <output>');
    expect(flag.repair.verify).toContain('preflight check <output> --checks loudness');
    expectConcreteRepair(flag, 'loudness');

    expect(site.flags[0].severity).toBe('WATCH');
    expect(site.flags[0].repair.instruction).toContain('loudnorm=I=-14');
  });

  it('reports the six meter values under their names, rounded to 0.1, plus target and tolerance', () => {
    const r = runGate('loudness', 'broadcast_r128', audioSignals(clean, { integratedLufs: -23.04, truePeakDbtp: -1.26, maxShortTermLufs: -19.96 }));
    expect(r.status).toBe('pass');
    for (const name of LOUDNESS_NAMES) expect(r.measurements).toHaveProperty(name);
    expect(r.measurements).toMatchObject({ integratedLufs: -23, truePeakDbtp: -1.3, maxShortTermLufs: -20, targetLufs: -23, toleranceLu: 0.2 });
  });

  it('bands R 128: ±0.2 LU passes, up to ±1.0 LU is WATCH (live tolerance), beyond is BLOCK', () => {
    const status = (integratedLufs: number) => runGate('loudness', 'broadcast_r128', audioSignals(clean, { integratedLufs })).status;
    expect([-23.2, -22.8, -23.5, -22.1, -24.2, -21.5].map(status)).toEqual(['pass', 'pass', 'watch', 'watch', 'block', 'block']);
  });

  it('bands platforms: ±1 LU passes, quieter than −20 or louder than −9 is BLOCK', () => {
    const status = (integratedLufs: number) => runGate('loudness', 'video_site_shorts', audioSignals(clean, { integratedLufs })).status;
    expect([-14.9, -15.5, -19.9, -20.5, -10, -8.5].map(status)).toEqual(['pass', 'watch', 'watch', 'block', 'watch', 'block']);
  });

  it('blocks true peak over −1 dBTP for broadcast, watches it for platforms until 0 dBTP', () => {
    const peak = (delivery: DeliveryProfileId, truePeakDbtp: number) =>
      runGate('loudness', delivery, audioSignals(clean, { integratedLufs: TARGETS[delivery], truePeakDbtp })).flags;
    expect(peak('broadcast_r128', -0.5).map((f) => f.severity)).toEqual(['BLOCK']);
    expect(peak('podcast_delivery', -0.5)).toHaveLength(1);
    expect(peak('video_site_longform', -0.5).map((f) => f.severity)).toEqual(['WATCH']);
    expect(peak('video_site_longform', 0.4).map((f) => f.severity)).toEqual(['BLOCK']);
    const [flag] = peak('video_site_longform', -0.5);
    expect(flag.summary).toContain('True peak -0.5 dBTP');
    // Lowering the gain by 0.6 dB keeps −14.6 LUFS within ±1 LU.
    expect(flag.repair.instruction).toContain('volume=-0.6dB');
    expectConcreteRepair(flag, 'loudness');
  });

  it('says when the loudness correction also cures the true peak', () => {
    const r = runGate('loudness', 'broadcast_r128', audioSignals(clean, { integratedLufs: -16, truePeakDbtp: -0.4 }));
    expect(severities(r)).toEqual(['BLOCK', 'BLOCK']);
    expect(r.flags[1].repair.instruction).toContain('The loudness correction fixes this too: a gain of -7.0 dB brings the true peak to -7.4 dBTP');
  });

  it('uses the limiter route when a plain gain cannot meet loudness and peak together', () => {
    const r = runGate('loudness', 'broadcast_r128', audioSignals(clean, { integratedLufs: -26, truePeakDbtp: -2.5 }));
    const [integrated] = r.flags;
    expect(integrated.repair.instruction).toContain('would push the true peak to 0.5 dBTP');
    expect(integrated.repair.instruction).toContain('loudnorm=I=-23:TP=-1.5:');
    expect(integrated.repair.instruction).not.toContain('volume=');
  });

  it('points short-form max short-term excess at the loudest 3 s (broadcast only)', () => {
    const short = { ...clean, durationSeconds: 30 };
    const measured = { maxShortTermLufs: -15.04, maxShortTermAtSeconds: 12.3 };
    const r = runGate('loudness', 'broadcast_r128', audioSignals(short, measured, 1));
    expect(r.flags).toHaveLength(1);
    expect(r.flags[0]).toMatchObject({ severity: 'WATCH', start: 13.3, end: 16.3 });
    expect(r.flags[0].summary).toContain('by 3.0 LU');
    expectConcreteRepair(r.flags[0], 'loudness');
    expect(runGate('loudness', 'broadcast_r128', audioSignals({ ...clean, durationSeconds: 600 }, measured)).flags).toEqual([]);
    expect(runGate('loudness', 'video_site_shorts', audioSignals(short, { ...measured, integratedLufs: -14 })).flags).toEqual([]);
  });

  it('watches a wide loudness range on podcasts', () => {
    const r = runGate('loudness', 'podcast_delivery', audioSignals(clean, { integratedLufs: -16, loudnessRangeLu: 18.4 }));
    expect(severities(r)).toEqual(['WATCH']);
    expect(r.flags[0].repair.instruction).toContain('loudnorm=I=-16:TP=-1.5:LRA=11');
  });

  it('watches a programme it cannot measure', () => {
    const r = runGate('loudness', 'broadcast_r128', audioSignals(clean, { integratedLufs: null, loudnessRangeLu: null }));
    expect(severities(r)).toEqual(['WATCH']);
    expect(r.measurements.integratedLufs).toBeNull();
  });
});

describe('clipping gate', () => {
  it('blocks a hard-clipped programme and lists where', async () => {
    const expr = `if(between(t\\,2\\,2.5)\\,${CLIPPED_SINE}\\,0.5*${SINE})`;
    const stats = statsOf(await render(expr, expr, 5));
    const r = runGate('clipping', 'video_site_longform', audioSignals(stats, {}, 0.25));
    expect(r.status).toBe('block');
    const [flag] = r.flags;
    expect(flag.start).toBeCloseTo(2.25, 1);
    expect(flag.end).toBeCloseTo(2.75, 1);
    expect(flag.repair.instruction).toContain('00:00:02.');
    expect(flag.repair.instruction).toContain('true-peak limiter at -1 dBTP');
    expect(flag.repair.reachable).toBe(false);
    expect(flag.evidence).toMatchObject({ clippedRuns: 880, spanCount: 1 });
    expect(r.measurements).toMatchObject({ clippedRuns: 880, clippedSpans: 1, netflixCriteriaMet: [1, 2, 3, 5] });
    expectConcreteRepair(flag, 'clipping');
  });

  it('watches a few isolated flat tops', () => {
    const pcm = new Float32Array(SAMPLE_RATE * 2).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE));
    for (const at of [10000, 50000, 90000]) pcm.fill(0.97, at, at + 5);
    const r = runGate('clipping', 'broadcast_r128', audioSignals(statsOf([pcm])));
    expect(severities(r)).toEqual(['WATCH']);
    expect(r.flags[0].summary).toContain('3 clipped runs');
    expect(r.flags[0].start).toBeCloseTo(0.2, 1);
    expect(r.flags[0].end).toBeCloseTo(1.88, 1);
  });

  it('watches audio clipped and then turned down (criterion 2 below −0.45 dBFS)', async () => {
    const stats = statsOf(await render(`0.5*${CLIPPED_SINE}`, null, 2));
    const r = runGate('clipping', 'video_site_longform', audioSignals(stats));
    expect(severities(r)).toEqual(['WATCH']);
    expect(r.flags[0].evidence).toMatchObject({ channels: [{ channel: 'FC', netflixCriteria: [2, 5] }] });
    expect(r.flags[0].repair.instruction).toContain('clipped or hard-limited, then turned down');
  });

  it('passes a clean −20 dBFS sine and pink noise', async () => {
    const sine = statsOf(await render('0.1*sin(2*PI*1000*t)', '0.1*sin(2*PI*1000*t)', 3));
    const pink = statsOf(await renderPcm('anoisesrc=c=pink:a=0.3:d=5:s=7', 2));
    for (const stats of [sine, pink]) {
      const r = runGate('clipping', 'broadcast_r128', audioSignals(stats));
      expect(r.status).toBe('pass');
      expect(r.measurements).toMatchObject({ clippedRuns: 0, netflixCriteriaMet: [] });
    }
  });

  it('uses the run definition the statistics were measured with', () => {
    const th = thresholdsFor('clipping', 'broadcast_r128');
    expect(th.runLevelDbfs.value).toBe(CLIP_RUN_LEVEL_DBFS);
    expect(th.minRunSamples.value).toBe(MIN_CLIP_RUN_SAMPLES);
  });
});

describe('dead_air gate', () => {
  let gap3: AudioStats;
  beforeAll(async () => {
    gap3 = statsOf(await render(`if(between(t\\,4\\,7)\\,0\\,0.3*${SINE})`, `if(between(t\\,4\\,7)\\,0\\,0.3*${SINE})`, 10));
  });

  it('flags 3 s of interior silence per profile: WATCH broadcast and podcast, BLOCK shorts', () => {
    const broadcast = runGate('dead_air', 'broadcast_r128', audioSignals(gap3, {}, 0.5));
    expect(severities(broadcast)).toEqual(['WATCH']);
    const [flag] = broadcast.flags;
    expect(flag.start).toBeCloseTo(4.5, 1);
    expect(flag.end).toBeCloseTo(7.5, 1);
    expect(flag.summary).toMatch(/^3(\.0\d*)? s of silence mid-programme/);
    expect(flag.repair.instruction).toContain("aselect='not(between(t,");
    expectConcreteRepair(flag, 'dead_air');
    expect(broadcast.measurements).toMatchObject({ silenceThresholdDbfs: -60, interiorSilencesOverWatch: 1, wholeFileSilent: false });
    expect(severities(runGate('dead_air', 'podcast_delivery', audioSignals(gap3)))).toEqual(['WATCH']);
    expect(severities(runGate('dead_air', 'video_site_shorts', audioSignals(gap3)))).toEqual(['BLOCK']);
  });

  it('blocks 6 s of dead air and the whole-file silence', async () => {
    const gap6 = statsOf(await render(`if(between(t\\,2\\,8)\\,0\\,0.3*${SINE})`, null, 10));
    expect(severities(runGate('dead_air', 'broadcast_r128', audioSignals(gap6)))).toEqual(['BLOCK']);
    const silent = statsOf(await renderPcm('anullsrc=r=48000:cl=stereo,atrim=duration=4', 2));
    const r = runGate('dead_air', 'video_site_longform', audioSignals(silent));
    expect(severities(r)).toEqual(['BLOCK']);
    expect(r.flags[0].summary).toContain('whole file');
    expect(r.measurements.wholeFileSilent).toBe(true);
  });

  it('blocks an audio stream that decoded to nothing', () => {
    const empty = new AudioStatsAccumulator({ sampleRate: SAMPLE_RATE, channelNames: ['FL', 'FR'] }).finish();
    const r = runGate('dead_air', 'podcast_delivery', audioSignals(empty));
    expect(severities(r)).toEqual(['BLOCK']);
    expect(runGate('loudness', 'podcast_delivery', audioSignals(empty, { integratedLufs: null })).status).toBe('watch');
    expect(runGate('clipping', 'podcast_delivery', audioSignals(empty)).status).toBe('pass');
    expect(runGate('channel_balance', 'podcast_delivery', audioSignals(empty)).status).toBe('pass');
  });

  it('allows head and tail silence up to the allowance and flags the excess', async () => {
    const head = statsOf(await render(`if(lt(t\\,3)\\,0\\,0.3*${SINE})`, null, 10));
    const broadcast = runGate('dead_air', 'broadcast_r128', audioSignals(head));
    expect(severities(broadcast)).toEqual(['WATCH']);
    expect(broadcast.flags[0].repair.action).toBe('trim_head');
    expect(broadcast.flags[0].repair.instruction).toContain('ffmpeg -ss 2 -i <input>');
    const short = statsOf(await render(`if(lt(t\\,0.8)\\,0\\,0.3*${SINE})`, null, 5));
    expect(runGate('dead_air', 'broadcast_r128', audioSignals(short)).flags).toEqual([]);
  });
});

describe('channel_balance gate', () => {
  const balance = async (left: string, right: string, delivery: DeliveryProfileId = 'video_site_longform', seconds = 6) =>
    runGate('channel_balance', delivery, audioSignals(statsOf(await render(left, right, seconds))));

  it('blocks a dead right channel', async () => {
    const r = await balance(`0.3*${SINE}`, '0');
    expect(severities(r)).toEqual(['BLOCK']);
    expect(r.flags[0].summary).toBe('Channel FR is dead (digital silence)');
    expect(r.flags[0].repair.instruction).toContain('pan=stereo|c0=c0|c1=c0');
    expect(r.measurements.deadChannels).toEqual(['FR']);
    expectConcreteRepair(r.flags[0], 'channel_balance');
  });

  it('watches 4 dB and blocks 7 dB of imbalance, naming the channel and the dB', async () => {
    const watch = await balance(`0.3*${SINE}`, `0.19*${SINE}`);
    expect(severities(watch)).toEqual(['WATCH']);
    expect(watch.flags[0].summary).toBe('FR is 4.0 dB quieter than FL over the programme');
    expect(watch.flags[0].repair.instruction).toContain('lower FL by 4.0 dB');
    expect(watch.flags[0].repair.instruction).toContain('pan=stereo|c0=0.631*c0|c1=c1');
    const block = await balance(`0.3*${SINE}`, `0.134*${SINE}`);
    expect(severities(block)).toEqual(['BLOCK']);
  });

  it('blocks an inverted channel (mono fold-down cancels)', async () => {
    const r = await balance(`0.3*${SINE}`, `-0.3*${SINE}`);
    expect(severities(r)).toEqual(['BLOCK']);
    expect(r.flags[0].summary).toContain('correlation -1');
    expect(r.flags[0].repair.instruction).toContain('pan=stereo|c0=c0|c1=-1*c1');
    expect(r.measurements).toMatchObject({ correlation: -1, midDbfs: null });
  });

  it('watches a sustained out-of-phase span', async () => {
    const r = await balance(`0.3*${SINE}`, `if(between(t\\,3\\,5)\\,-1\\,1)*0.3*${SINE}`, 'broadcast_r128', 8);
    expect(severities(r)).toEqual(['WATCH']);
    expect(r.flags[0]).toMatchObject({ start: 3, end: 5 });
    expect(r.measurements.lowestWindowCorrelation).toBe(-1);
  });

  it('watches a channel dropout', async () => {
    const r = await balance(`0.3*${SINE}`, `if(between(t\\,2\\,5)\\,0\\,0.3*${SINE})`, 'podcast_delivery', 8);
    expect(severities(r)).toEqual(['WATCH']);
    expect(r.flags[0].start).toBeCloseTo(2, 1);
    expect(r.flags[0].end).toBeCloseTo(5, 1);
    expect(r.flags[0].summary).toContain('FR drops out');
  });

  it('watches a DC offset', async () => {
    const r = await balance(`0.05+0.3*${SINE}`, `0.05+0.3*${SINE}`);
    expect(severities(r)).toEqual(['WATCH']);
    expect(r.flags[0].repair.instruction).toContain('highpass=f=10');
  });

  it('ignores a silent LFE and watches a silent surround in 5.1', () => {
    const frames = SAMPLE_RATE * 3;
    const tone = new Float32Array(frames).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE));
    const silent = new Float32Array(frames);
    const acc = new AudioStatsAccumulator({ sampleRate: SAMPLE_RATE, channelNames: ['FL', 'FR', 'FC', 'LFE', 'SL', 'SR'] });
    acc.push([tone, tone, tone, silent, silent, tone]);
    const r = runGate('channel_balance', 'video_site_longform', audioSignals(acc.finish()));
    expect(r.flags.map((f) => [f.severity, f.summary])).toEqual([['WATCH', 'Channel SL is dead (digital silence)']]);
    expect(r.measurements.deadChannels).toEqual(['SL']);
  });

  it('passes mono', async () => {
    const r = runGate('channel_balance', 'podcast_delivery', audioSignals(statsOf(await render(`0.3*${SINE}`, null, 2))));
    expect(r.status).toBe('pass');
    expect(r.measurements).toMatchObject({ correlation: null, pairDifferenceDb: null });
  });
});

describe('audio thresholds', () => {
  it('gives every audio threshold a source and a confidence on every delivery profile', () => {
    for (const delivery of DELIVERY_PROFILE_IDS) {
      for (const gate of ['loudness', 'clipping', 'dead_air', 'channel_balance']) {
        const th = thresholdsFor(gate, delivery);
        expect(Object.keys(th).length).toBeGreaterThan(3);
        for (const value of Object.values(th)) {
          expect(value.source.length).toBeGreaterThan(20);
          expect(['primary', 'secondary', 'unconfirmed', 'house']).toContain(value.confidence);
        }
      }
    }
  });

  it('marks platform loudness as unconfirmed and R 128 as primary', () => {
    expect(thresholdsFor('loudness', 'video_site_shorts').targetLufs).toMatchObject({ value: -14, confidence: 'unconfirmed' });
    expect(thresholdsFor('loudness', 'ai_render_gate').targetLufs.value).toBe(-14);
    expect(thresholdsFor('loudness', 'broadcast_r128').targetLufs).toMatchObject({ value: -23, confidence: 'primary' });
    expect(thresholdsFor('loudness', 'podcast_delivery').targetLufs).toMatchObject({ value: -16, confidence: 'secondary' });
  });
});
