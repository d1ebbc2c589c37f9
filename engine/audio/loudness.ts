// Streaming loudness meter: ITU-R BS.1770-5 integrated loudness, EBU Tech 3341 momentary and short-term
// loudness (maxima on a 10 ms hop), EBU Tech 3342 loudness range, BS.1770 Annex 2 true peak and sample peak.
//
// The meter keeps no PCM: each 10 ms sub-block of K-weighted audio is reduced to one channel-weighted energy sum,
// and every window (400 ms, 3 s) is rebuilt from those sums when the result is read. Memory is O(duration / 10 ms).

import type { LoudnessMeasurements } from '../types.js';
import { KWeightingPair } from './k-weighting.js';
import { TruePeakDetector } from './true-peak.js';
import { percentile } from '../gates/kit/stats.js';
import { GrowableArray } from '../growable-array.js';

export interface LoudnessMeterOptions {
  sampleRate: number;
  /** ffmpeg channel names in stream order (FL, FR, FC, LFE, BL, BR, SL, SR, ...). */
  channelNames: string[];
  /** measure a 1-channel file as dual mono (+3.01 dB), as for stereo playback; ignored for 2+ channels */
  dualMono?: boolean;
}

const SUB_BLOCKS_PER_SECOND = 100;
/** Sub-blocks per 100 ms: the hop of the gating blocks, of the LRA and of the reported series. */
const STEP = 10;
const MOMENTARY_WINDOW = 40;
const SHORT_TERM_WINDOW = 300;
/**
 * LRA takes a short-term value every second (3 s windows overlapping by 2 s, as libebur128 does) over full windows
 * only, with no silence appended. Tech 3342 #1-#6 pass either way; a 100 ms hop plus a 1.5 s silent tail read
 * speech and short programmes 0.4-2.3 LU above libebur128 and ffmpeg (issue 14), where this reads within 0.01 LU
 * of libebur128 on the accuracy corpus.
 */
const LRA_HOP = 100;

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const LRA_RELATIVE_GATE_LU = -20;
const LRA_LOW_PERCENTILE = 10;
const LRA_HIGH_PERCENTILE = 95;

const SIDE_SURROUND_WEIGHT = 1.41;

/**
 * BS.1770-5 channel weights (Table 5) by ffmpeg channel name: side surrounds (±90°..±110°) 1.41; back surrounds
 * (±135°, 180°), everything in front, top and bottom layers 1.0; LFE excluded. In 5.0/5.1 layouts whose two
 * surrounds are called BL/BR those are the ±110° pair; once SL/SR exist (7.1) BL/BR are the ±135° backs.
 * ffmpeg's ebur128 weights BL/BR at 1.41 in every layout, which reads 7.1 back-surround content 1.5 LU hot.
 */
export function channelWeights(channelNames: string[]): number[] {
  const names = channelNames.map((name) => name.toUpperCase());
  const hasSideSurrounds = names.includes('SL') || names.includes('SR');
  return names.map((name) => {
    if (name === 'LFE' || name === 'LFE2') return 0;
    if (name === 'SL' || name === 'SR' || name === 'SDL' || name === 'SDR') return SIDE_SURROUND_WEIGHT;
    if ((name === 'BL' || name === 'BR') && !hasSideSurrounds) return SIDE_SURROUND_WEIGHT;
    return 1;
  });
}

/** Power ratio of a level difference in LU (dB). */
function powerRatio(lu: number): number {
  return Math.pow(10, lu / 10);
}

function lufsFromMeanSquare(meanSquare: number): number {
  return -0.691 + 10 * Math.log10(meanSquare);
}

function meanSquareFromLufs(lufs: number): number {
  return powerRatio(lufs + 0.691);
}

function decibels(linear: number): number | null {
  return linear > 0 ? 20 * Math.log10(linear) : null;
}

/** The absolute gate as a mean square, worked out once rather than for every block and value it gates. */
const ABSOLUTE_GATE = meanSquareFromLufs(ABSOLUTE_GATE_LUFS);

function gatedLufs(meanSquare: number): number | null {
  return meanSquare > ABSOLUTE_GATE ? lufsFromMeanSquare(meanSquare) : null;
}

/** A sliding window's running sum is re-added from scratch this often, so rounding cannot drift. */
const RESUM_INTERVAL = 1000;

interface Maximum {
  lufs: number | null;
  atSubBlock: number | null;
}

/** A window length's mean squares where they are read, and its loudest window of all. */
interface Windows {
  /** The mean square of each window that starts on a 100 ms step: the k-th starts at sub-block k × STEP. */
  stepped: Float64Array;
  loudest: Maximum;
}

export class LoudnessMeter {
  private readonly sampleRate: number;
  private readonly weights: number[];
  /** The channels with a weight (LFE has none), filtered two at a time: the pairs' channels in order, the last maybe alone. */
  private readonly filters: { pair: KWeightingPair; first: number; second: number | null }[];
  private readonly truePeaks: TruePeakDetector[];
  /** Per-sub-block energies. */
  private readonly energies = new GrowableArray((n) => new Float64Array(n));
  private samplePeak = 0;
  private samplesSeen = 0;
  private subBlockEnergy = 0;
  private subBlockEnd: number;

  constructor(opts: LoudnessMeterOptions) {
    const { sampleRate, channelNames } = opts;
    if (!Number.isFinite(sampleRate) || sampleRate < SUB_BLOCKS_PER_SECOND) throw new RangeError(`invalid sample rate ${sampleRate}`);
    if (channelNames.length === 0) throw new RangeError('at least one channel is required');
    this.sampleRate = sampleRate;
    // Dual mono: the one channel is heard from two loudspeakers, i.e. counted twice.
    this.weights = channelNames.length === 1 && opts.dualMono ? [2 * channelWeights(channelNames)[0]] : channelWeights(channelNames);
    const weighted = this.weights.flatMap((weight, c) => (weight > 0 ? [c] : []));
    this.filters = [];
    for (let k = 0; k < weighted.length; k += 2) {
      const second = k + 1 < weighted.length ? weighted[k + 1] : null;
      this.filters.push({ pair: new KWeightingPair(sampleRate, second === null), first: weighted[k], second });
    }
    this.truePeaks = channelNames.map(() => new TruePeakDetector(sampleRate));
    this.subBlockEnd = this.subBlockBoundary(1);
  }

  push(channels: Float32Array[]): void {
    const length = this.checkChunk(channels);
    channels.forEach((samples, c) => {
      this.samplePeak = Math.max(this.samplePeak, this.truePeaks[c].push(samples));
    });
    for (const { pair, first, second } of this.filters) pair.planes(channels[first], second === null ? null : channels[second]);
    let position = 0;
    while (position < length) {
      const end = Math.min(length, position + this.subBlockEnd - this.samplesSeen);
      this.addEnergy(position, end);
      this.samplesSeen += end - position;
      position = end;
      if (this.samplesSeen === this.subBlockEnd) this.closeSubBlock();
    }
  }

  /** Adds the weighted K-weighted energy of every channel's samples [start, end), in channel order. */
  private addEnergy(start: number, end: number): void {
    for (const { pair, first, second } of this.filters) {
      const sums = pair.sumsOfSquares(start, end);
      this.subBlockEnergy += this.weights[first] * sums[0];
      if (second !== null) this.subBlockEnergy += this.weights[second] * sums[1];
    }
  }

  result(): LoudnessMeasurements {
    // Read in place: nothing is pushed once the result is asked for, and a copy of an hour costs 3 MB.
    const energies = this.energies.view();
    const subBlocks = this.energies.length;
    const momentary = this.windows(energies, MOMENTARY_WINDOW);
    const shortTerm = this.windows(energies, SHORT_TERM_WINDOW);
    const maxMomentary = momentary.loudest;
    const maxShortTerm = shortTerm.loudest;
    return {
      integratedLufs: integratedLoudness(momentary.stepped),
      loudnessRangeLu: subBlocks < SHORT_TERM_WINDOW ? null : loudnessRange(everyStep(shortTerm.stepped, LRA_HOP / STEP)),
      truePeakDbtp: decibels(Math.max(...this.truePeaks.map((detector) => detector.linearPeak))),
      samplePeakDbfs: decibels(this.samplePeak),
      maxMomentaryLufs: maxMomentary.lufs,
      maxShortTermLufs: maxShortTerm.lufs,
      maxMomentaryAtSeconds: this.secondsOf(maxMomentary.atSubBlock),
      maxShortTermAtSeconds: this.secondsOf(maxShortTerm.atSubBlock),
      momentary: series(momentary.stepped, MOMENTARY_WINDOW, subBlocks),
      shortTerm: series(shortTerm.stepped, SHORT_TERM_WINDOW, subBlocks),
    };
  }

  private checkChunk(channels: Float32Array[]): number {
    if (channels.length !== this.weights.length) {
      throw new RangeError(`expected ${this.weights.length} channels, got ${channels.length}`);
    }
    const length = channels[0].length;
    if (channels.some((samples) => samples.length !== length)) throw new RangeError('channel chunks differ in length');
    return length;
  }

  private closeSubBlock(): void {
    this.energies.push(this.subBlockEnergy);
    this.subBlockEnergy = 0;
    this.subBlockEnd = this.subBlockBoundary(this.energies.length + 1);
  }

  /** First sample of sub-block `index`: 10 ms boundaries rounded to whole samples, so any sample rate works. */
  private subBlockBoundary(index: number): number {
    return Math.floor((index * this.sampleRate + SUB_BLOCKS_PER_SECOND / 2) / SUB_BLOCKS_PER_SECOND);
  }

  /**
   * Every window of `width` sub-blocks, by a running energy sum (re-added from scratch every RESUM_INTERVAL windows, so
   * rounding cannot drift) over the window's sample count. Only the windows on a 100 ms step are kept: the gating
   * blocks, the series and the LRA read no others, and an hour's every window would be 3 MB a length.
   */
  private windows(energies: Float64Array, width: number): Windows {
    const count = Math.max(0, energies.length - width + 1);
    const stepped = new Float64Array(Math.ceil(count / STEP));
    let best = -1;
    let bestMeanSquare = 0;
    for (let first = 0; first < count; first += RESUM_INTERVAL) {
      let sum = 0;
      for (let i = first; i < first + width; i++) sum += energies[i];
      for (let start = first, end = Math.min(count, first + RESUM_INTERVAL); start < end; start++) {
        if (start > first) sum += energies[start + width - 1] - energies[start - 1];
        const meanSquare = sum / (this.subBlockBoundary(start + width) - this.subBlockBoundary(start));
        if (start % STEP === 0) stepped[start / STEP] = meanSquare;
        // The first of equally loud windows.
        if (best < 0 || meanSquare > bestMeanSquare) {
          best = start;
          bestMeanSquare = meanSquare;
        }
      }
    }
    const lufs = best < 0 ? null : gatedLufs(bestMeanSquare);
    return { stepped, loudest: lufs === null ? { lufs: null, atSubBlock: null } : { lufs, atSubBlock: best } };
  }

  private secondsOf(subBlock: number | null): number | null {
    return subBlock === null ? null : this.subBlockBoundary(subBlock) / this.sampleRate;
  }
}

/** Every `step`-th value. */
function everyStep(values: Float64Array, step: number): Float64Array {
  const out = new Float64Array(Math.ceil(values.length / step));
  for (let i = 0; i < out.length; i++) out[i] = values[i * step];
  return out;
}

/** One value per 100 ms, for the window ending at (i + 1) × 100 ms; null before a full window or below the gate. */
function series(stepped: Float64Array, width: number, subBlocks: number): (number | null)[] {
  const values: (number | null)[] = [];
  for (let end = STEP; end <= subBlocks; end += STEP) {
    values.push(end < width ? null : gatedLufs(stepped[(end - width) / STEP]));
  }
  return values;
}

function powerMean(values: Float64Array): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * The values above `gate`, in their order. A loop into a typed array: TypedArray filter gathers an hour's values one
 * boxed number at a time, several times slower.
 */
function above(values: Float64Array, gate: number): Float64Array {
  const out = new Float64Array(values.length);
  let n = 0;
  for (const value of values) if (value > gate) out[n++] = value;
  return out.subarray(0, n);
}

/** BS.1770 gated loudness of the 400 ms blocks: absolute gate, then relative gate at −10 LU. */
function integratedLoudness(blocks: Float64Array): number | null {
  const aboveAbsolute = above(blocks, ABSOLUTE_GATE);
  if (aboveAbsolute.length === 0) return null;
  const relativeGate = powerMean(aboveAbsolute) * powerRatio(RELATIVE_GATE_LU);
  return lufsFromMeanSquare(powerMean(above(aboveAbsolute, relativeGate)));
}

/** EBU Tech 3342 loudness range of the short-term values: gates at −70 LUFS and −20 LU, then P95 − P10. */
function loudnessRange(shortTerm: Float64Array): number | null {
  const aboveAbsolute = above(shortTerm, ABSOLUTE_GATE);
  if (aboveAbsolute.length === 0) return null;
  const relativeGate = powerMean(aboveAbsolute) * powerRatio(LRA_RELATIVE_GATE_LU);
  const gated = Array.from(above(aboveAbsolute, relativeGate), lufsFromMeanSquare);
  gated.sort((a, b) => a - b);
  return percentile(gated, LRA_HIGH_PERCENTILE) - percentile(gated, LRA_LOW_PERCENTILE);
}
