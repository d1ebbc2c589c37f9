// Our BS.1770 / EBU R 128 meter against EBU Tech 3341 and Tech 3342 test signals, synthesised with the bundled
// ffmpeg (aevalsrc, float PCM) or, for the 192 kHz true-peak cases, in JS. Every signal is fed in uneven chunks.
import { describe, expect, it } from 'vitest';
import { highPassCoefficients, KWeightingPair, shelfCoefficients, type Biquad } from '../engine/audio/k-weighting.js';
import { channelWeights, LoudnessMeter } from '../engine/audio/loudness.js';
import { interpolationPhases, oversamplingFactor, TruePeakDetector } from '../engine/audio/true-peak.js';
import type { LoudnessMeasurements } from '../engine/types.js';
import { renderPcm } from './helpers/media.js';

const FS = 48_000;
const TONE = 'sin(2*PI*1000*t)';
const CHUNK_SIZES = [1000, 4801];
const DEFAULT_NAMES: Record<number, string[]> = { 1: ['FC'], 2: ['FL', 'FR'], 5: ['FL', 'FR', 'FC', 'BL', 'BR'] };

/** Per-channel peak level in dBFS → amplitude. */
const amplitude = (dbfs: number): number => Math.pow(10, dbfs / 20);

interface Segment {
  seconds: number;
  dbfs: number | null; // null = silence
}

/** A 1 kHz tone whose level changes piecewise, as one aevalsrc expression (commas escaped for the filter graph). */
function piecewiseTone(segments: Segment[]): { expression: string; seconds: number } {
  const ends: number[] = [];
  let end = 0;
  for (const { seconds } of segments) {
    end = Number((end + seconds).toFixed(6));
    ends.push(end);
  }
  const levels = segments.map(({ dbfs }) => (dbfs === null ? '0' : amplitude(dbfs).toPrecision(9)));
  let gain = levels[levels.length - 1];
  for (let i = levels.length - 2; i >= 0; i--) gain = `if(lt(t\\,${ends[i]})\\,${levels[i]}\\,${gain})`;
  return { expression: `${gain}*${TONE}`, seconds: ends[ends.length - 1] };
}

function aevalsrc(expressions: string[], seconds: number, sampleRate = FS, layout?: string): string {
  return `aevalsrc=exprs='${expressions.join('|')}':s=${sampleRate}:d=${seconds}${layout ? `:c=${layout}` : ''}`;
}

async function renderStereo(segments: Segment[], sampleRate = FS): Promise<Float32Array[]> {
  const { expression, seconds } = piecewiseTone(segments);
  return renderPcm(aevalsrc([expression, expression], seconds, sampleRate), 2, sampleRate);
}

function feed(meter: LoudnessMeter, channels: Float32Array[], chunkSizes = CHUNK_SIZES): void {
  for (let position = 0, k = 0; position < channels[0].length; k++) {
    const size = chunkSizes[k % chunkSizes.length];
    meter.push(channels.map((samples) => samples.subarray(position, position + size)));
    position += size;
  }
}

interface MeasureOptions {
  sampleRate?: number;
  channelNames?: string[];
  dualMono?: boolean;
}

function measure(channels: Float32Array[], opts: MeasureOptions = {}): LoudnessMeasurements {
  const meter = new LoudnessMeter({
    sampleRate: opts.sampleRate ?? FS,
    channelNames: opts.channelNames ?? DEFAULT_NAMES[channels.length],
    dualMono: opts.dualMono,
  });
  feed(meter, channels);
  return meter.result();
}

function expectWithin(value: number | null, expected: number, below: number, above = below): void {
  expect(value).not.toBeNull();
  expect(value as number).toBeGreaterThanOrEqual(expected - below - 1e-9);
  expect(value as number).toBeLessThanOrEqual(expected + above + 1e-9);
}

/** Power gain of a biquad at `hz`. */
function powerGain({ b0, b1, b2, a1, a2 }: Biquad, hz: number, sampleRate: number): number {
  const w = (2 * Math.PI * hz) / sampleRate;
  const magnitude2 = (c0: number, c1: number, c2: number): number =>
    (c0 + c1 * Math.cos(w) + c2 * Math.cos(2 * w)) ** 2 + (c1 * Math.sin(w) + c2 * Math.sin(2 * w)) ** 2;
  return magnitude2(b0, b1, b2) / magnitude2(1, a1, a2);
}

/** Expected BS.1770 loudness of steady sines, from the filter response: −0.691 + 10·log10(Σ G·A²/2·|K(f)|²). */
function expectedSineLoudness(channels: { weight: number; dbfs: number }[], hz = 1000, sampleRate = FS): number {
  const kGain = powerGain(shelfCoefficients(sampleRate), hz, sampleRate) * powerGain(highPassCoefficients(sampleRate), hz, sampleRate);
  const power = channels.reduce((sum, { weight, dbfs }) => sum + (weight * amplitude(dbfs) ** 2 * kGain) / 2, 0);
  return -0.691 + 10 * Math.log10(power);
}

describe('K-weighting', () => {
  it('reproduces the BS.1770 coefficients at 48 kHz', () => {
    const shelf = shelfCoefficients(48_000);
    const highPass = highPassCoefficients(48_000);
    const expected: [number, number][] = [
      [shelf.b0, 1.53512485958697],
      [shelf.b1, -2.69169618940638],
      [shelf.b2, 1.19839281085285],
      [shelf.a1, -1.69065929318241],
      [shelf.a2, 0.73248077421585],
      [highPass.b0, 1],
      [highPass.b1, -2],
      [highPass.b2, 1],
      [highPass.a1, -1.99004745483398],
      [highPass.a2, 0.99007225036621],
    ];
    for (const [actual, reference] of expected) expect(Math.abs(actual - reference)).toBeLessThan(1e-9);
  });

  it('keeps the same response at other sample rates', () => {
    const response = (rate: number, hz: number): number =>
      10 * Math.log10(powerGain(shelfCoefficients(rate), hz, rate) * powerGain(highPassCoefficients(rate), hz, rate));
    for (const hz of [20, 100, 1000, 4000, 10_000]) {
      expect(Math.abs(response(44_100, hz) - response(48_000, hz))).toBeLessThan(0.05);
      expect(Math.abs(response(96_000, hz) - response(48_000, hz))).toBeLessThan(0.05);
    }
  });
});

describe('meter kernels', () => {
  const noise = (length: number, seed: number): Float32Array => {
    let state = seed;
    return Float32Array.from({ length }, () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 1_073_741_824 - 1;
    });
  };

  /** The K-weighting of one channel as a plain loop, direct form I for both stages: what the kernel must equal. */
  class ReferenceKWeighting {
    private x1 = 0;
    private x2 = 0;
    private s1 = 0;
    private s2 = 0;
    private y1 = 0;
    private y2 = 0;
    private readonly shelf: Biquad;
    private readonly highPass: Biquad;

    constructor(sampleRate: number) {
      this.shelf = shelfCoefficients(sampleRate);
      this.highPass = highPassCoefficients(sampleRate);
    }

    sumOfSquares(input: Float32Array, start: number, end: number): number {
      const { b0, b1, b2, a1, a2 } = this.shelf;
      const { b0: c0, b1: c1, b2: c2, a1: d1, a2: d2 } = this.highPass;
      let sum = 0;
      for (let i = start; i < end; i++) {
        const x = input[i];
        const shelved = b0 * x + b1 * this.x1 + b2 * this.x2 - a2 * this.s2 - a1 * this.s1;
        const y = c0 * shelved + c1 * this.s1 + c2 * this.s2 - d2 * this.y2 - d1 * this.y1;
        [this.x2, this.x1, this.s2, this.s1, this.y2, this.y1] = [this.x1, x, this.s1, shelved, this.y1, y];
        sum += y * y;
      }
      return sum;
    }
  }

  it.each([44_100, 48_000, 192_000])('K-weights two channels at %i Hz to the bits of the plain loop, across chunks, slices and non-finite samples', (rate) => {
    const left = noise(70_000, 1);
    const right = noise(70_000, 2).map((value) => value * 0.01);
    left[30_000] = Number.POSITIVE_INFINITY;
    right[50_000] = Number.NaN;
    const reference = [new ReferenceKWeighting(rate), new ReferenceKWeighting(rate)];
    const pair = new KWeightingPair(rate);
    // Chunks as the meter gets them; within each, segments of every length up to beyond the kernel's slice.
    for (const [from, to] of [[0, 25_000], [25_000, 25_001], [25_001, 29_000], [29_000, 70_000]]) {
      const first = left.subarray(from, to);
      const second = right.subarray(from, to);
      pair.planes(first, second);
      let start = 0;
      for (const length of [1, 479, 480, 7, 16_384, 16_385, 3]) {
        if (start >= first.length) break;
        const end = Math.min(first.length, start + length);
        const sums = pair.sumsOfSquares(start, end);
        expect(sums[0]).toBe(reference[0].sumOfSquares(first, start, end));
        expect(sums[1]).toBe(reference[1].sumOfSquares(second, start, end));
        start = end;
      }
      if (start < first.length) {
        const sums = pair.sumsOfSquares(start, first.length);
        expect([sums[0], sums[1]]).toEqual([reference[0].sumOfSquares(first, start, first.length), reference[1].sumOfSquares(second, start, first.length)]);
      }
    }
  });

  it('K-weights a single channel to the bits of the plain loop', () => {
    const mono = noise(40_000, 4);
    const reference = new ReferenceKWeighting(48_000);
    const single = new KWeightingPair(48_000, true);
    single.planes(mono, null);
    for (const [start, end] of [[0, 480], [480, 20_000], [20_000, 40_000]]) {
      const sums = single.sumsOfSquares(start, end);
      const expected = reference.sumOfSquares(mono, start, end);
      expect(sums[0]).toBe(expected);
      expect(sums[1]).toBe(expected);
    }
    expect(() => single.planes(mono, mono)).toThrow(RangeError);
    expect(() => new KWeightingPair(48_000).planes(mono, mono.subarray(1))).toThrow(RangeError);
  });

  it('reads the true peak beside a NaN sample, which it ignores', () => {
    const samples = noise(5_000, 3).map((value) => value * 0.25);
    samples[4_000] = 0.9;
    samples[4_001] = Number.NaN;
    const detector = new TruePeakDetector(48_000);
    expect(detector.push(samples)).toBe(Math.fround(0.9));
    expect(detector.linearPeak).toBeGreaterThanOrEqual(Math.fround(0.9));
  });

  /** The true peak the plain way: every phase of the unfolded interpolator at every point, NaNs skipped. */
  const plainTruePeak = (samples: Float32Array, sampleRate: number): number => {
    const phases = interpolationPhases(oversamplingFactor(sampleRate));
    const padded = new Float64Array(samples.length + 23);
    padded.set(samples, 15);
    let peak = 0;
    for (let c = 7; c < padded.length - 8; c++) {
      if (Math.abs(padded[c]) > peak) peak = Math.abs(padded[c]);
      for (const taps of phases) {
        let y = 0;
        for (let k = 0; k < taps.length; k++) y += taps[k] * padded[c + k - 7];
        if (Math.abs(y) > peak) peak = Math.abs(y);
      }
    }
    return peak;
  };

  it('reads the true peak of the plain interpolation at every rate, whatever the chunking (WebAssembly scan)', () => {
    // A rising ramp of noise is the scan's worst case (every block may hold a new peak), with two spikes. NaN samples
    // are skipped; an infinite one is a sample like any other, so it is the peak.
    const length = 150_000;
    const samples = noise(length, 4).map((value, i) => value * (0.1 + (0.9 * i) / length));
    samples[70_001] = 0.97;
    samples[70_002] = -0.97;
    for (const [at, value] of [[1_000, Number.NaN], [65_550, Number.POSITIVE_INFINITY], [100_000, Number.NaN]] as const) samples[at] = value;
    const finite = samples.map((value) => (Number.isFinite(value) ? value : 0));
    for (const rate of [44_100, 48_000, 96_000, 192_000]) {
      const reference = plainTruePeak(finite, rate);
      const peaks = [1, 15, 16, 64, 4_801, 65_536, 65_537, length].map((chunk) => {
        const detector = new TruePeakDetector(rate);
        let samplePeak = 0;
        for (let at = 0; at < length; at += chunk) samplePeak = Math.max(samplePeak, detector.push(samples.subarray(at, at + chunk)));
        expect(samplePeak, `${rate} Hz, chunks of ${chunk}: sample peak`).toBe(Number.POSITIVE_INFINITY);
        return detector.linearPeak;
      });
      expect(new Set(peaks).size, `${rate} Hz: one peak for every chunking`).toBe(1);
      expect(peaks[0]).toBe(Number.POSITIVE_INFINITY);
      // With the non-finite samples at zero, the folded interpolation reads what the plain one reads.
      const withoutInfinity = new TruePeakDetector(rate);
      withoutInfinity.push(finite);
      expect(Math.abs(withoutInfinity.linearPeak - reference) / reference, `${rate} Hz`).toBeLessThan(1e-12);
    }
  });

  it('reads the points after the last samples against the silence that follows, without disturbing the scan', () => {
    const head = Float32Array.from([0, 0, 0, 0.5, -0.9, 0.99, 0.2]);
    const tail = noise(200, 5).map((value) => value * 0.3);
    const read = new TruePeakDetector(48_000);
    const unread = new TruePeakDetector(48_000);
    read.push(head);
    unread.push(head);
    expect(Math.abs(read.linearPeak - plainTruePeak(head, 48_000))).toBeLessThan(1e-12);
    read.push(tail);
    unread.push(tail);
    const both = new Float32Array([...head, ...tail]);
    expect(read.linearPeak).toBe(unread.linearPeak);
    expect(Math.abs(read.linearPeak - plainTruePeak(both, 48_000))).toBeLessThan(1e-12);
  });
});

describe('channel weights', () => {
  it('follows BS.1770-5 Table 5, not ffmpeg', () => {
    expect(channelWeights(['FL', 'FR', 'FC', 'LFE', 'BL', 'BR'])).toEqual([1, 1, 1, 0, 1.41, 1.41]);
    expect(channelWeights(['FL', 'FR', 'FC', 'LFE', 'SL', 'SR'])).toEqual([1, 1, 1, 0, 1.41, 1.41]);
    expect(channelWeights(['FL', 'FR', 'FC', 'LFE', 'BL', 'BR', 'SL', 'SR'])).toEqual([1, 1, 1, 0, 1, 1, 1.41, 1.41]);
    expect(channelWeights(['FL', 'FR', 'FC', 'LFE', 'BC', 'SL', 'SR'])).toEqual([1, 1, 1, 0, 1, 1.41, 1.41]);
    expect(channelWeights(['TFL', 'TFR', 'TBL', 'TBR', 'LFE2', 'C7'])).toEqual([1, 1, 1, 1, 0, 1]);
  });
});

describe('EBU Tech 3341 loudness', () => {
  it('#1 stereo −23 dBFS: M, S, I = −23.0', async () => {
    const r = measure(await renderStereo([{ seconds: 20, dbfs: -23 }]));
    expectWithin(r.integratedLufs, -23, 0.1);
    for (const value of [...r.momentary, ...r.shortTerm]) if (value !== null) expectWithin(value, -23, 0.1);
    expect(r.momentary.filter((value) => value !== null)).toHaveLength(197);
    expect(r.shortTerm.filter((value) => value !== null)).toHaveLength(171);
    expectWithin(r.maxMomentaryLufs, -23, 0.1);
    expectWithin(r.maxShortTermLufs, -23, 0.1);
    expectWithin(r.samplePeakDbfs, -23, 0.01);
    expectWithin(r.truePeakDbtp, -23, 0.05);
  });

  it('#2 stereo −33 dBFS: M, S, I = −33.0', async () => {
    const r = measure(await renderStereo([{ seconds: 20, dbfs: -33 }]));
    expectWithin(r.integratedLufs, -33, 0.1);
    expectWithin(r.maxMomentaryLufs, -33, 0.1);
    expectWithin(r.maxShortTermLufs, -33, 0.1);
  });

  it('#3 −36 / −23 / −36: I = −23.0 (relative gate)', async () => {
    const r = measure(
      await renderStereo([
        { seconds: 10, dbfs: -36 },
        { seconds: 60, dbfs: -23 },
        { seconds: 10, dbfs: -36 },
      ]),
    );
    expectWithin(r.integratedLufs, -23, 0.1);
  });

  it('#4 −72 / −36 / −23 / −36 / −72: I = −23.0 (absolute and relative gates)', async () => {
    const r = measure(
      await renderStereo([
        { seconds: 10, dbfs: -72 },
        { seconds: 10, dbfs: -36 },
        { seconds: 60, dbfs: -23 },
        { seconds: 10, dbfs: -36 },
        { seconds: 10, dbfs: -72 },
      ]),
    );
    expectWithin(r.integratedLufs, -23, 0.1);
  });

  it('#5 −26 / −20 (20.1 s) / −26: I = −23.0', async () => {
    const r = measure(
      await renderStereo([
        { seconds: 20, dbfs: -26 },
        { seconds: 20.1, dbfs: -20 },
        { seconds: 20, dbfs: -26 },
      ]),
    );
    expectWithin(r.integratedLufs, -23, 0.1);
  });

  it('#6 5.0 (FL FR FC BL BR): I = −23.0 with the surrounds at 1.41', async () => {
    const levels = [-28, -28, -24, -30, -30];
    const expressions = levels.map((dbfs) => `${amplitude(dbfs).toPrecision(9)}*${TONE}`);
    const r = measure(await renderPcm(aevalsrc(expressions, 20, FS, '5.0'), 5, FS));
    expectWithin(r.integratedLufs, -23, 0.1);
  });

  it('#9 S = −23.0 and constant after 3 s', async () => {
    const expression = `if(lt(mod(t\\,3)\\,1.34)\\,0.1\\,0.0316228)*${TONE}`;
    const r = measure(await renderPcm(aevalsrc([expression, expression], 15), 2, FS));
    const afterThreeSeconds = r.shortTerm.slice(29);
    expect(afterThreeSeconds).toHaveLength(121);
    for (const value of afterThreeSeconds) expectWithin(value, -23, 0.1);
  });

  it.each([0, 3, 7, 13, 19])('#10 file %i: i·0.15 s silence, 3 s @ −23, 1 s silence → max S = −23.0', async (i) => {
    const r = measure(
      await renderStereo([
        { seconds: i * 0.15, dbfs: null },
        { seconds: 3, dbfs: -23 },
        { seconds: 1, dbfs: null },
      ]),
    );
    expectWithin(r.maxShortTermLufs, -23, 0.1);
    expectWithin(r.maxShortTermAtSeconds, i * 0.15, 0.01);
  });

  it('#12 M = −23.0 and constant after 1 s', async () => {
    const expression = `if(lt(mod(t\\,0.4)\\,0.18)\\,0.1\\,0.0316228)*${TONE}`;
    const r = measure(await renderPcm(aevalsrc([expression, expression], 10), 2, FS));
    const afterOneSecond = r.momentary.slice(9);
    expect(afterOneSecond).toHaveLength(91);
    for (const value of afterOneSecond) expectWithin(value, -23, 0.1);
  });

  it.each([0, 1, 5, 7, 11, 19])('#13 file %i: i·20 ms silence, 400 ms @ −23, 1 s silence → max M = −23.0', async (i) => {
    const r = measure(
      await renderStereo([
        { seconds: i * 0.02, dbfs: null },
        { seconds: 0.4, dbfs: -23 },
        { seconds: 1, dbfs: null },
      ]),
    );
    expectWithin(r.maxMomentaryLufs, -23, 0.1);
    expectWithin(r.maxMomentaryAtSeconds, i * 0.02, 0.001);
  });
});

describe('EBU Tech 3341 true peak', () => {
  const truePeakCases: [string, number, string][] = [
    ['#15 fs/4, 0.50 FFS, 0°', -6, '0.5*sin(2*PI*12000*t)'],
    ['#16 fs/4, 0.50 FFS, 45°', -6, '0.5*sin(2*PI*12000*t+PI/4)'],
    ['#17 fs/6, 0.50 FFS, 60°', -6, '0.5*sin(2*PI*8000*t+PI/3)'],
    ['#18 fs/8, 0.50 FFS, 67.5°', -6, '0.5*sin(2*PI*6000*t+3*PI/8)'],
    ['#19 fs/4, 1.41 FFS, 45°', 3, '1.41*sin(2*PI*12000*t+PI/4)'],
  ];

  it.each(truePeakCases)('%s → %d dBTP', async (_name, expected, expression) => {
    const graph = `${aevalsrc([expression, expression], 3)},afade=t=in:d=0.01,afade=t=out:st=2.99:d=0.01`;
    const r = measure(await renderPcm(graph, 2, FS));
    expectWithin(r.truePeakDbtp, expected, 0.4, 0.2);
  });

  it.each([
    [20, 0],
    [21, 1],
    [22, 2],
    [23, 3],
  ])('#%i fs/6 with one fs/4 period at full scale, decimated at offset %i → 0.0 dBTP', (_case, offset) => {
    const oversampled = interSamplePeakSignal();
    const decimated = decimate(oversampled, offset);
    const r = measure([decimated, decimated]);
    // The EBU files read −0.1 dBTP; our 20 kHz low-pass leaves the burst at −0.2 dBFS even at 192 kHz.
    expectWithin(r.truePeakDbtp, 0, 0.4, 0.2);
    // Against the band-limited signal's real peak our interpolator is within 0.05 dB at every offset.
    expectWithin(r.truePeakDbtp, 20 * Math.log10(peakOf(oversampled)), 0.05);
  });

  /** A 2 s stereo sine synthesised in JS with 10 ms linear fades, as in the EBU true-peak files. */
  const sine = (sampleRate: number, hz: number, phase: number, peak: number): Float32Array[] => {
    const length = 2 * sampleRate;
    const fade = sampleRate / 100;
    const samples = Float32Array.from({ length }, (_, n) => {
      const gain = Math.min(1, n / fade, (length - 1 - n) / fade);
      return gain * peak * Math.sin((2 * Math.PI * hz * n) / sampleRate + phase);
    });
    return [samples, samples];
  };

  it('oversamples ×2 at 96 kHz: fs/4 at 45° reads −6.0 dBTP where the samples peak at −9.0', () => {
    const r = measure(sine(96_000, 24_000, Math.PI / 4, 0.5), { sampleRate: 96_000 });
    expectWithin(r.samplePeakDbfs, -9.03, 0.01);
    expectWithin(r.truePeakDbtp, -6, 0.4, 0.2);
  });

  it('takes the samples as they are at 192 kHz', () => {
    const r = measure(sine(192_000, 997, 0, 0.5), { sampleRate: 192_000 });
    expect(r.truePeakDbtp).toBe(r.samplePeakDbfs);
    expectWithin(r.truePeakDbtp, -6.02, 0.01);
  });
});

describe('EBU Tech 3342 loudness range', () => {
  const lraCases: [string, number, number[]][] = [
    ['#1 −20, −30', 10, [-20, -30]],
    ['#2 −20, −15', 5, [-20, -15]],
    ['#3 −40, −20', 20, [-40, -20]],
    ['#4 −50, −35, −20, −35, −50', 15, [-50, -35, -20, -35, -50]],
  ];

  it.each(lraCases)('%s → LRA %d LU', async (_name, expected, levels) => {
    const r = measure(await renderStereo(levels.map((dbfs) => ({ seconds: 20, dbfs }))));
    expectWithin(r.loudnessRangeLu, expected, 1);
  });
});

describe('calibration, layouts and edge cases', () => {
  it('a 0 dBFS 997 Hz sine on one front channel reads −3.01 LUFS', async () => {
    const r = measure(await renderPcm(aevalsrc(['sin(2*PI*997*t)', '0'], 5), 2, FS));
    expectWithin(r.integratedLufs, -3.01, 0.05);
  });

  it('a mono −23 dBFS sine reads −23.0 as dual mono and −26.0 as one channel', async () => {
    const { expression, seconds } = piecewiseTone([{ seconds: 10, dbfs: -23 }]);
    const mono = await renderPcm(aevalsrc([expression], seconds), 1, FS);
    expectWithin(measure(mono, { dualMono: true }).integratedLufs, -23, 0.1);
    expectWithin(measure(mono).integratedLufs, -26, 0.1);
  });

  it('a 7.1 signal on the back surrounds (BL, BR) weighs 1.0, not ffmpeg’s 1.41', async () => {
    const names = ['FL', 'FR', 'FC', 'LFE', 'BL', 'BR', 'SL', 'SR'];
    const tone = `${amplitude(-23).toPrecision(9)}*${TONE}`;
    const expressions = names.map((name) => (name === 'BL' || name === 'BR' ? tone : '0'));
    const r = measure(await renderPcm(aevalsrc(expressions, 10, FS, '7.1'), 8, FS), { channelNames: names });
    const expected = expectedSineLoudness([{ weight: 1, dbfs: -23 }, { weight: 1, dbfs: -23 }]);
    const ffmpegWeighting = expectedSineLoudness([{ weight: 1.41, dbfs: -23 }, { weight: 1.41, dbfs: -23 }]);
    expect(expected).toBeCloseTo(-23, 1);
    expect(ffmpegWeighting).toBeCloseTo(-21.5, 1);
    expectWithin(r.integratedLufs, expected, 0.02);
  });

  it('measures at 44.1 kHz (Tech 3341 #1 rendered at 44 100 Hz)', async () => {
    const r = measure(await renderStereo([{ seconds: 20, dbfs: -23 }], 44_100), { sampleRate: 44_100 });
    expectWithin(r.integratedLufs, -23, 0.1);
    expectWithin(r.maxMomentaryLufs, -23, 0.1);
    expectWithin(r.maxShortTermLufs, -23, 0.1);
    expectWithin(r.truePeakDbtp, -23, 0.05);
  });

  it('digital silence has no loudness, peaks or range', () => {
    const silence = new Float32Array(5 * FS);
    const r = measure([silence, silence]);
    expect(r).toMatchObject({
      integratedLufs: null,
      loudnessRangeLu: null,
      truePeakDbtp: null,
      samplePeakDbfs: null,
      maxMomentaryLufs: null,
      maxShortTermLufs: null,
      maxMomentaryAtSeconds: null,
      maxShortTermAtSeconds: null,
    });
    expect(r.momentary).toHaveLength(50);
    expect(r.momentary.every((value) => value === null)).toBe(true);
  });

  it('300 ms of audio has no integrated loudness (shorter than one 400 ms block)', async () => {
    const r = measure(await renderStereo([{ seconds: 0.3, dbfs: -23 }]));
    expect(r.integratedLufs).toBeNull();
    expect(r.maxMomentaryLufs).toBeNull();
    expect(r.momentary).toEqual([null, null, null]);
    expectWithin(r.samplePeakDbfs, -23, 0.01);
  });

  it('gives the same result whatever the chunking', async () => {
    const pcm = await renderStereo([
      { seconds: 2, dbfs: -30 },
      { seconds: 3.3, dbfs: -18 },
      { seconds: 1.7, dbfs: -40 },
    ]);
    const whole = new LoudnessMeter({ sampleRate: FS, channelNames: ['FL', 'FR'] });
    whole.push(pcm);
    const tiny = new LoudnessMeter({ sampleRate: FS, channelNames: ['FL', 'FR'] });
    feed(tiny, pcm, [1, 7, 479, 481, 100_000]);
    const a = whole.result();
    const b = tiny.result();
    for (const key of ['integratedLufs', 'loudnessRangeLu', 'truePeakDbtp', 'maxMomentaryLufs', 'maxShortTermLufs'] as const) {
      expect(b[key]).toBeCloseTo(a[key] as number, 9);
    }
    expect(b.maxMomentaryAtSeconds).toBe(a.maxMomentaryAtSeconds);
    expect(b.momentary).toHaveLength(a.momentary.length);
  });

  it('processes 10 minutes of 48 kHz stereo quickly (timing logged, not asserted)', () => {
    const chunk = 4800;
    // 1 kHz has a whole number of periods per chunk, so one chunk repeats seamlessly; a steady full-level tone is the
    // true-peak scan's worst case (no block can be skipped).
    const tone = Float32Array.from({ length: chunk }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 1000 * i) / FS));
    const meter = new LoudnessMeter({ sampleRate: FS, channelNames: ['FL', 'FR'] });
    const started = performance.now();
    for (let position = 0; position < 600 * FS; position += chunk) meter.push([tone, tone]);
    const r = meter.result();
    const elapsed = performance.now() - started;
    console.warn(`LoudnessMeter: 10 min of 48 kHz stereo in ${elapsed.toFixed(0)} ms`);
    expect(r.momentary).toHaveLength(6000);
    expectWithin(r.integratedLufs, expectedSineLoudness([{ weight: 1, dbfs: -6.0206 }, { weight: 1, dbfs: -6.0206 }]), 0.01);
  });
});

let interSamplePeakCache: Float64Array | null = null;

/**
 * Tech 3341 #20-#23 before decimation: an fs/6 sine at 0.5 FFS with one phase-continuous period of fs/4 at full
 * scale, synthesised at 4·fs and low-passed at 20 kHz (511-tap Blackman-windowed sinc).
 */
function interSamplePeakSignal(): Float64Array {
  if (interSamplePeakCache) return interSamplePeakCache;
  const rate = 4 * FS;
  const length = rate / 2;
  const burstStart = 24 * 2000; // an upward zero crossing of the 8 kHz tone (24 samples per period)
  const burstLength = 16; // one period of 12 kHz
  const raw = new Float64Array(length);
  for (let n = 0; n < length; n++) {
    const inBurst = n >= burstStart && n < burstStart + burstLength;
    raw[n] = inBurst ? Math.sin((2 * Math.PI * 12_000 * (n - burstStart)) / rate) : 0.5 * Math.sin((2 * Math.PI * 8000 * n) / rate);
  }
  interSamplePeakCache = lowPass(raw, 20_000 / rate, 511);
  return interSamplePeakCache;
}

/** Every 4th sample from `offset`: 192 kHz → 48 kHz. */
function decimate(oversampled: Float64Array, offset: number): Float32Array {
  const decimated = new Float32Array(Math.floor((oversampled.length - offset) / 4));
  for (let i = 0; i < decimated.length; i++) decimated[i] = oversampled[offset + 4 * i];
  return decimated;
}

/** Linear-phase FIR low-pass (cutoff as a fraction of the sample rate), output aligned with the input. */
function lowPass(input: Float64Array, cutoff: number, taps: number): Float64Array {
  const half = (taps - 1) / 2;
  const kernel = Float64Array.from({ length: taps }, (_, k) => {
    const t = k - half;
    const sinc = t === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
    const blackman = 0.42 - 0.5 * Math.cos((2 * Math.PI * k) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * k) / (taps - 1));
    return sinc * blackman;
  });
  const gain = kernel.reduce((sum, tap) => sum + tap, 0);
  const output = new Float64Array(input.length);
  for (let n = 0; n < input.length; n++) {
    let sum = 0;
    for (let k = Math.max(0, n + half - input.length + 1); k < taps && n + half - k >= 0; k++) sum += kernel[k] * input[n + half - k];
    output[n] = sum / gain;
  }
  return output;
}

function peakOf(samples: Float64Array): number {
  return samples.reduce((peak, value) => Math.max(peak, Math.abs(value)), 0);
}
