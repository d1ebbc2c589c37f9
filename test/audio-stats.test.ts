import { describe, expect, it } from 'vitest';
import { AudioStatsAccumulator, DIGITAL_SILENCE_DBFS, type AudioStats } from '../engine/audio/stats.js';
import { renderPcm } from './helpers/media.js';

/** Chunk sizes that straddle 10 ms (480-sample) blocks in every way, cycled. */
const UNEVEN_CHUNKS = [1, 7, 479, 480, 481, 1000, 4799, 3, 2048, 333];

function measure(pcm: Float32Array[], opts: { sampleRate?: number; names?: string[]; chunks?: number[]; maxClipSpans?: number } = {}): AudioStats {
  const names = opts.names ?? (pcm.length === 1 ? ['FC'] : ['FL', 'FR', 'FC', 'LFE', 'SL', 'SR'].slice(0, pcm.length));
  const acc = new AudioStatsAccumulator({ sampleRate: opts.sampleRate ?? 48000, channelNames: names, maxClipSpans: opts.maxClipSpans });
  const chunks = opts.chunks ?? UNEVEN_CHUNKS;
  const frames = pcm[0].length;
  for (let at = 0, i = 0; at < frames; i++) {
    const size = Math.min(chunks[i % chunks.length], frames - at);
    acc.push(pcm.map((c) => c.subarray(at, at + size)));
    at += size;
  }
  return acc.finish();
}

const stereo = (expr: string, seconds: number, rate = 48000) => renderPcm(`aevalsrc=exprs='${expr}|${expr}':s=${rate}:d=${seconds}`, 2, rate);
const SINE_440 = 'sin(2*PI*440*t)';
const CLIPPED_SINE = `min(1\\,max(-1\\,1.6*${SINE_440}))`;

describe('AudioStatsAccumulator: clipping evidence', () => {
  it('finds every Netflix criterion on a hard-clipped sine', async () => {
    const stats = measure(await stereo(CLIPPED_SINE, 3));
    for (const ch of stats.channels) {
      const c = ch.clipping;
      // 440 Hz clipped at 1.6x: two flat tops per period, 1320 per second.
      expect(c.clippedRuns).toBe(2640);
      expect(c.longestClippedRunSamples).toBeGreaterThanOrEqual(30);
      expect(c.fullScaleShare).toBeGreaterThan(0.5);
      expect(c.loudestLevelDbfs).toBe(0);
      expect(c.loudestLevelRuns).toBe(2640);
      expect(c.loudestOverNextPct!).toBeGreaterThan(1000);
      expect(c.loudestLevelRunsFirstAt!).toBeLessThan(0.002);
      expect(c.loudestLevelRunsLastAt!).toBeGreaterThan(2.99);
    }
    expect(stats.clipping.clippedRuns).toBe(5280);
    expect(stats.clipping.spans).toEqual([{ start: 0, end: 3, runs: 5280, channels: ['FL', 'FR'] }]);
    expect(stats.clipping.spanCount).toBe(1);
  });

  it('locates a clipped burst in time', async () => {
    const expr = `if(between(t\\,2\\,2.5)\\,${CLIPPED_SINE}\\,0.5*${SINE_440})`;
    const stats = measure(await stereo(expr, 5));
    expect(stats.clipping.spans).toHaveLength(1);
    const [span] = stats.clipping.spans;
    expect(span.start).toBeCloseTo(2, 1);
    expect(span.end).toBeCloseTo(2.5, 1);
    expect(span.channels).toEqual(['FL', 'FR']);
    expect(stats.channels[0].clipping.clippedRuns).toBe(440);
  });

  it('counts flat tops below −0.45 dBFS only at the loudest level (clipped, then turned down)', async () => {
    const stats = measure(await stereo(`0.5*${CLIPPED_SINE}`, 2));
    const c = stats.channels[0].clipping;
    expect(c.clippedRuns).toBe(0);
    expect(c.fullScaleSamples).toBe(0);
    expect(c.loudestLevelDbfs).toBeCloseTo(-6.02, 2);
    expect(c.loudestLevelRuns).toBe(1760);
  });

  it('shows no clipping on a clean −20 dBFS sine, a hot −0.5 dBFS sine or pink noise', async () => {
    const clean = measure(await stereo('0.1*sin(2*PI*1000*t)', 3));
    const hot = measure(await stereo('0.944*sin(2*PI*997*t)', 3));
    const pink = measure(await renderPcm('anoisesrc=c=pink:a=0.3:d=5:s=42', 2));
    for (const stats of [clean, hot, pink]) {
      expect(stats.clipping.clippedRuns).toBe(0);
      expect(stats.clipping.fullScaleSamples).toBe(0);
      expect(stats.clipping.spans).toEqual([]);
      for (const ch of stats.channels) {
        expect(ch.clipping.loudestLevelRuns).toBe(0);
        expect(ch.clipping.loudestAboveNextDb!).toBeLessThan(1);
        const pileUp = ch.clipping.loudestOverNextPct! >= 25 && ch.clipping.loudestLevelSamples >= 10;
        expect(pileUp).toBe(false);
      }
    }
    expect(clean.channels[0].peakDbfs).toBeCloseTo(-20, 3);
    expect(clean.channels[0].rmsDbfs).toBeCloseTo(-23.01, 2);
  });

  it('counts 16-bit positive full scale (0.99997) as full scale', () => {
    const pcm = new Float32Array(48000).map((_, i) => (i % 100 < 10 ? 32767 / 32768 : 0.1 * Math.sin(i / 10)));
    const stats = measure([pcm], { names: ['FC'] });
    expect(stats.channels[0].clipping.fullScaleSamples).toBe(4800);
    expect(stats.clipping.fullScaleShare).toBeCloseTo(0.1, 6);
  });

  it('keeps counts exact when the span list is capped', async () => {
    // Ten 0.1 s clipped bursts, one per second.
    const expr = `if(lt(mod(t\\,1)\\,0.1)\\,${CLIPPED_SINE}\\,0.3*${SINE_440})`;
    const stats = measure(await stereo(expr, 10), { maxClipSpans: 3 });
    expect(stats.clipping.spanCount).toBe(10);
    expect(stats.clipping.spans).toHaveLength(3);
    expect(stats.clipping.spansTruncated).toBe(true);
    expect(stats.clipping.spans.map((s) => Math.round(s.start))).toEqual([0, 1, 2]);
  });
});

describe('AudioStatsAccumulator: envelope, channels and phase', () => {
  it('puts a silent gap in the 10 ms envelope', async () => {
    const stats = measure(await stereo(`if(between(t\\,4\\,7)\\,0\\,0.3*${SINE_440})`, 10));
    const env = stats.envelope.rmsDbfs;
    expect(env).toBeInstanceOf(Float32Array);
    expect(env.length).toBe(1000);
    expect(env[200]).toBeCloseTo(-13.47, 0);
    expect(env[401]).toBe(DIGITAL_SILENCE_DBFS);
    expect(env[698]).toBe(DIGITAL_SILENCE_DBFS);
    expect(env[701]).toBeGreaterThan(-20);
    const silent = Array.from(env).filter((v) => v === DIGITAL_SILENCE_DBFS).length;
    expect(silent).toBeGreaterThanOrEqual(298);
    expect(silent).toBeLessThanOrEqual(300);
    expect(stats.channels[0].rms100ms.length).toBe(100);
    expect(stats.channels[0].rms100ms[50]).toBe(DIGITAL_SILENCE_DBFS);
  });

  it('measures an inverted right channel as correlation −1 with the side louder than the mid', async () => {
    const pcm = await renderPcm(`aevalsrc=exprs='0.3*${SINE_440}|-0.3*${SINE_440}':s=48000:d=4`, 2);
    const stats = measure(pcm);
    expect(stats.stereo!.correlation).toBeCloseTo(-1, 6);
    expect(stats.stereo!.midDbfs).toBeNull();
    expect(stats.stereo!.sideDbfs).toBeCloseTo(-13.47, 1);
    expect(stats.stereo!.windows).toHaveLength(4);
    for (const w of stats.stereo!.windows) expect(w.correlation).toBeCloseTo(-1, 6);
  });

  it('measures phase per 1 s window', async () => {
    const right = `if(between(t\\,3\\,5)\\,-1\\,1)*0.3*${SINE_440}`;
    const stats = measure(await renderPcm(`aevalsrc=exprs='0.3*${SINE_440}|${right}':s=48000:d=8`, 2));
    const correlations = stats.stereo!.windows.map((w) => Math.round(w.correlation!));
    expect(correlations).toEqual([1, 1, 1, -1, -1, 1, 1, 1]);
    expect(stats.stereo!.correlation).toBeCloseTo(0.5, 2);
  });

  it('reports a dead channel, per-channel levels and a DC offset', async () => {
    const pcm = await renderPcm(`aevalsrc=exprs='0.05+0.3*${SINE_440}|0':s=48000:d=3`, 2);
    const stats = measure(pcm);
    const [left, right] = stats.channels;
    expect(left.dcOffset).toBeCloseTo(0.05, 3);
    expect(left.peakDbfs).toBeCloseTo(20 * Math.log10(0.35), 2);
    expect(right.rmsDbfs).toBeNull();
    expect(right.peakDbfs).toBeNull();
    expect(right.dcOffset).toBe(0);
    expect(Array.from(right.rms100ms).every((v) => v === DIGITAL_SILENCE_DBFS)).toBe(true);
    expect(stats.stereo!.correlation).toBeNull();
  });

  it('has no stereo section for mono', async () => {
    const stats = measure(await renderPcm(`aevalsrc=exprs='0.3*${SINE_440}':s=48000:d=1`, 1));
    expect(stats.stereo).toBeNull();
    expect(stats.channelNames).toEqual(['FC']);
  });

  it('treats NaN and infinite samples as zero and counts them', () => {
    const pcm = new Float32Array(4800).fill(0.1);
    pcm[10] = Number.NaN;
    pcm[20] = Number.POSITIVE_INFINITY;
    const stats = measure([pcm], { names: ['FC'] });
    expect(stats.channels[0].nonFiniteSamples).toBe(2);
    expect(Number.isFinite(stats.channels[0].rmsDbfs)).toBe(true);
  });
});

describe('AudioStatsAccumulator: beeps', () => {
  const beepExpr = (background: string) => `if(lt(mod(t\\,1)\\,0.05)\\,0.5*sin(2*PI*1000*t)\\,0)+${background}`;

  it('finds 50 ms beeps once a second, to the sample', async () => {
    const stats = measure(await stereo(beepExpr('0'), 5));
    // The beep at 0 s has no preceding 200 ms to rise from.
    expect(stats.beepOnsets).toHaveLength(4);
    stats.beepOnsets.forEach((onset, i) => expect(Math.abs(onset - (i + 1))).toBeLessThan(0.001));
    for (const beep of stats.beeps) {
      expect(beep.durationSeconds).toBeCloseTo(0.05, 2);
      expect(beep.frequencyHz).toBeCloseTo(1000, 0);
      expect(beep.levelDbfs).toBeCloseTo(-9.03, 1);
    }
  });

  it('finds beeps over −50 dBFS background noise and at 44.1 kHz', async () => {
    const pcm = await renderPcm(`aevalsrc=exprs='${beepExpr('0.003*sin(2*PI*97*t)')}':s=44100:d=4`, 1, 44100);
    const stats = measure(pcm, { sampleRate: 44100, names: ['FC'] });
    expect(stats.envelope.rmsDbfs.length).toBe(400);
    expect(stats.beepOnsets).toHaveLength(3);
    stats.beepOnsets.forEach((onset, i) => expect(Math.abs(onset - (i + 1))).toBeLessThan(0.002));
  });

  it('finds beeps that start inside a 10 ms block', async () => {
    const offsetBeeps = `if(lt(mod(t-0.0063\\,1)\\,0.04)*gt(t\\,0.5)\\,0.5*sin(2*PI*2000*t)\\,0)`;
    const stats = measure(await stereo(offsetBeeps, 4));
    expect(stats.beepOnsets).toHaveLength(3);
    stats.beepOnsets.forEach((onset, i) => expect(Math.abs(onset - (i + 1.0063))).toBeLessThan(0.0005));
    for (const beep of stats.beeps) expect(beep.frequencyHz).toBeCloseTo(2000, -1);
  });

  it('high-passes the second envelope: a tone sits 2·sin(πf/fs) below its level, a click stands above it', async () => {
    // The first difference of a sine of angular step ω has amplitude 2·sin(ω/2): −17.7 dB at 1 kHz, −44.3 dB at 50 Hz.
    const stats = measure(await stereo(`if(lt(t\\,1)\\,0.3*sin(2*PI*1000*t)\\,0.3*sin(2*PI*50*t))+if(between(t\\,1.5\\,1.51)\\,0.05*(2*random(0)-1)\\,0)`, 2));
    const { rmsDbfs, highPassDbfs } = stats.envelope;
    expect(highPassDbfs).toBeInstanceOf(Float32Array);
    expect(highPassDbfs.length).toBe(rmsDbfs.length);
    expect(highPassDbfs[50] - rmsDbfs[50]).toBeCloseTo(20 * Math.log10(2 * Math.sin(Math.PI / 48)), 1);
    expect(highPassDbfs[120] - rmsDbfs[120]).toBeCloseTo(20 * Math.log10(2 * Math.sin(Math.PI / 960)), 0);
    // A noise click 17 dB under the 50 Hz tone hardly moves the block's level but lifts its high-passed level by over 20 dB.
    expect(rmsDbfs[150] - rmsDbfs[149]).toBeLessThan(1);
    expect(highPassDbfs[150] - highPassDbfs[149]).toBeGreaterThan(20);
  });

  it('ignores long tones, noise bursts and the rising edge of sustained sound', async () => {
    const longTones = measure(await stereo('if(lt(mod(t\\,1)\\,0.5)\\,0.5*sin(2*PI*1000*t)\\,0)', 4));
    const noiseBursts = measure(await renderPcm("aevalsrc=exprs='if(lt(mod(t\\,1)\\,0.05)\\,0.5*(random(0)-0.5)\\,0)':s=48000:d=4", 1));
    const speechLike = measure(await stereo(`if(gt(t\\,1)\\,0.3*${SINE_440}\\,0)`, 3));
    expect(longTones.beepOnsets).toEqual([]);
    expect(noiseBursts.beepOnsets).toEqual([]);
    expect(speechLike.beepOnsets).toEqual([]);
  });
});

describe('AudioStatsAccumulator: streaming', () => {
  it('gives identical results whatever the chunk sizes', async () => {
    const expr = `if(between(t\\,1\\,1.05)\\,0.5*sin(2*PI*1000*t)\\,if(between(t\\,2\\,2.4)\\,0\\,${CLIPPED_SINE}*0.7))`;
    const pcm = await stereo(expr, 3);
    const whole = measure(pcm, { chunks: [pcm[0].length] });
    expect(measure(pcm)).toEqual(whole);
    expect(measure(pcm, { chunks: [4096] })).toEqual(whole);
    expect(JSON.parse(JSON.stringify({ ...whole, envelope: null, channels: null }))).toMatchObject({ frames: 144000, beepOnsets: whole.beepOnsets });
  });

  it('measures each channel as it would alone, in whichever lane of the scan it falls (pairs, an odd last channel)', async () => {
    // Three different channels: beeps over a quiet tone with non-finite samples, a clipped sine with a silent gap, a ramp
    // with flat tops at its loudest level. The scan takes channels in pairs, side by side, and the third beside zeros.
    const clipped = (await renderPcm(`aevalsrc=exprs='if(between(t\\,1\\,1.3)\\,0\\,${CLIPPED_SINE})':s=48000:d=2`, 1))[0];
    const beeps = (await renderPcm(`aevalsrc=exprs='if(lt(mod(t\\,0.5)\\,0.05)\\,0.5*sin(2*PI*1000*t)\\,0.01*sin(2*PI*97*t))':s=48000:d=2`, 1))[0];
    for (const at of [100, 48_000, 70_001]) beeps[at] = at % 2 ? Number.NaN : Number.NEGATIVE_INFINITY;
    const ramp = Float32Array.from({ length: clipped.length }, (_, i) => Math.min(0.8, Math.round((i / clipped.length) * 64) / 64));
    const together = measure([beeps, clipped, ramp], { names: ['FL', 'FR', 'FC'] });
    [beeps, clipped, ramp].forEach((pcm, c) => {
      const alone = measure([pcm], { names: [together.channelNames[c]] });
      expect(together.channels[c], together.channelNames[c]).toEqual(alone.channels[0]);
    });
    expect(together.channels[0].nonFiniteSamples).toBe(3);
    expect(together.channels[1].clipping.clippedRuns).toBeGreaterThan(0);
    expect(together.channels[2].clipping.loudestLevelRuns).toBe(1);
  });

  it('processes 10 minutes of 48 kHz stereo in a streaming pass (time logged; speed is measured by npm run bench)', () => {
    const sampleRate = 48000;
    const frames = sampleRate * 600;
    const chunk = 4096;
    // 10 s of programme, cycled: only the accumulator is timed.
    const period = sampleRate * 10;
    const left = new Float32Array(period).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / sampleRate) + 0.01 * Math.sin(i * 1.7));
    const right = new Float32Array(period).map((_, i) => 0.4 * Math.sin((2 * Math.PI * 660 * i) / sampleRate));
    const acc = new AudioStatsAccumulator({ sampleRate, channelNames: ['FL', 'FR'] });
    const started = performance.now();
    for (let at = 0; at < frames; at += chunk) {
      const offset = at % (period - chunk);
      acc.push([left.subarray(offset, offset + chunk), right.subarray(offset, offset + chunk)]);
    }
    const stats = acc.finish();
    const elapsed = performance.now() - started;
    expect(stats.frames).toBe(Math.ceil(frames / chunk) * chunk);
    expect(stats.envelope.rmsDbfs.length).toBe(Math.ceil(stats.frames / 480));
    console.warn(`audio stats: 10 min of 48 kHz stereo in ${Math.round(elapsed)} ms`);
  });
});
