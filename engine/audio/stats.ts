// Streaming audio statistics from the single decode pass: clipping evidence (Netflix AudioClippingInspector
// criteria), 10 ms level envelopes (silence, beeps; a high-passed one for sharp transients), per-channel levels,
// DC offset and stereo phase.
// Everything here is threshold-free measurement; the gates apply the profile thresholds.
//
// Conventions:
// - Times are seconds from the first decoded audio sample (gates add the stream's start time).
// - Envelope blocks are 10 ms, with boundaries rounded to whole samples exactly as the loudness meter does
//   (block k starts at floor((k·sampleRate + 50) / 100)), so any sample rate works; 100 ms blocks are 10 of them.
// - Scalar levels use null for −Infinity (digital silence), so they serialise to JSON. Typed-array series are
//   clamped at DIGITAL_SILENCE_DBFS instead; convert them with Array.from before serialising.
// - Memory is O(duration / 10 ms): a few numbers per block, never the PCM.
import { median } from '../gates/kit/stats.js';
import { GrowableArray } from '../growable-array.js';
import { FIELD, SLICE_FRAMES, StatsScanKernel, type Field } from './stats-scan.js';

/** A run of equal consecutive samples counts as a flat top from this length (two equal samples happen naturally). */
export const MIN_CLIP_RUN_SAMPLES = 3;
/** Netflix criterion 1: runs of equal samples at or above this level are clipping. */
export const CLIP_RUN_LEVEL_DBFS = -0.45;
/**
 * Magnitude counted as full scale (Netflix criterion 3). It is 16-bit positive full scale (32767/32768, −0.00027 dBFS)
 * rather than 1.0 − 1e-6, because 16-bit PCM clipped on the positive side decodes to 0.99997, never 1.0.
 */
export const FULL_SCALE_LEVEL = 32767 / 32768;
/** Floor of the dB series (digital silence and anything quieter). */
export const DIGITAL_SILENCE_DBFS = -160;
export const ENVELOPE_BLOCK_SECONDS = 0.01;
export const CHANNEL_BLOCK_SECONDS = 0.1;
export const CORRELATION_WINDOW_SECONDS = 1;
/** Clipped 10 ms blocks closer than this merge into one span. */
export const CLIP_SPAN_MERGE_SECONDS = 0.5;
export const DEFAULT_MAX_CLIP_SPANS = 500;
/** A tonal block with at least this crest factor is a sine (3.01 dB), not a clipped tone. */
const SINE_MIN_CREST_DB = 2.5;
/** A 10 ms block crowds at full scale from this many samples at or above the clip-run level (all channels). */
export const NEAR_FULL_SCALE_BLOCK_SAMPLES = 8;

/** Beep: a burst at most this long ... */
export const BEEP_MAX_SECONDS = 0.3;
/** ... rising at least this far above the loudest 10 ms block of the preceding 200 ms ... */
export const BEEP_RISE_DB = 25;
export const BEEP_PRECEDING_SECONDS = 0.2;
/** ... reaching at least this RMS level ... */
export const BEEP_MIN_LEVEL_DBFS = -50;
/** ... with a tone's crest factor (peak over RMS; a sine is 3.01 dB, speech and Gaussian noise 10 dB or more) ... */
export const BEEP_MAX_CREST_DB = 6;
/** ... and regular zero crossings: the relative spread of the intervals between them (a tone ≈ 0, noise ≈ 1). */
export const BEEP_MAX_INTERVAL_SPREAD = 0.25;
/** A 10 ms block needs this many zero-crossing intervals to judge its tone (tones from about 200 Hz). */
const MIN_TONE_INTERVALS = 3;

const BLOCKS_PER_SECOND = 100;
const BLOCKS_PER_CHANNEL_BLOCK = 10;
const BLOCKS_PER_CORRELATION_WINDOW = 100;
/** A trailing correlation window shorter than this is dropped. */
const MIN_CORRELATION_WINDOW_BLOCKS = 10;
const BEEP_PRECEDING_BLOCKS = 20;
/** The burst lasts while it stays this far above the preceding level (the rise minus 10 dB)... */
const BEEP_SUSTAIN_DB = BEEP_RISE_DB - 10;
/** ...and no more than this below the minimum beep level (so a dithered floor after digital silence ends it). */
const BEEP_SUSTAIN_FLOOR_MARGIN_DB = 10;
/** The onset is the first sample this far above the preceding level (below the rise, so ramps are caught early)... */
const ONSET_SAMPLE_RISE_DB = 20;
/** ...but never quieter than this, so dither over digital silence does not count as the onset. */
const ONSET_SAMPLE_FLOOR_DBFS = -60;
/** Blocks of the burst within this of its loudest block are its steady part (frequency and crest). */
const BEEP_STEADY_DB = 3;
const MAX_MASK_CHANNEL = 31;

const CLIP_RUN_LEVEL = 10 ** (CLIP_RUN_LEVEL_DBFS / 20);

export interface ChannelClipping {
  /** Criterion 1: runs of ≥ MIN_CLIP_RUN_SAMPLES equal samples at ≥ CLIP_RUN_LEVEL_DBFS. */
  clippedRuns: number;
  clippedRunSamples: number;
  longestClippedRunSamples: number;
  /** Criterion 3: samples with |x| ≥ FULL_SCALE_LEVEL (including overs above 1.0 in float sources). */
  fullScaleSamples: number;
  /** fullScaleSamples / samples, 0..1. */
  fullScaleShare: number;
  /** Samples at or above CLIP_RUN_LEVEL_DBFS (flat or not: a lossy decode rings around a clipped top) and their share. */
  nearFullScaleSamples: number;
  nearFullScaleShare: number;
  /** Samples above 1.0: only a float or lossy decode holds them, and only when the audio was driven past full scale. */
  oversSamples: number;
  /** Loudest |sample| of the channel (null for digital silence) and how many samples sit exactly at it. */
  loudestLevelDbfs: number | null;
  loudestLevelSamples: number;
  /** First sample at the loudest level, s. */
  loudestAtSeconds: number | null;
  /** Criterion 2: runs of ≥ MIN_CLIP_RUN_SAMPLES equal samples exactly at the loudest level, at any level. */
  loudestLevelRuns: number;
  loudestLevelRunsFirstAt: number | null;
  loudestLevelRunsLastAt: number | null;
  /** The next quieter distinct |sample| value and its count. */
  nextLevelDbfs: number | null;
  nextLevelSamples: number;
  /** Criterion 4: how far the loudest level sits above the next quieter level, dB. */
  loudestAboveNextDb: number | null;
  /** Criterion 5: 100 · (loudest count − next count) / next count; null without a next level. */
  loudestOverNextPct: number | null;
}

export interface ChannelStats {
  name: string;
  /** Programme RMS and peak, dBFS; null for digital silence. */
  rmsDbfs: number | null;
  peakDbfs: number | null;
  /** Mean sample value (DC offset), full scale = 1. */
  dcOffset: number;
  /** NaN or infinite samples, counted as 0. */
  nonFiniteSamples: number;
  /** RMS per 100 ms block, dBFS, floored at DIGITAL_SILENCE_DBFS. */
  rms100ms: Float32Array;
  clipping: ChannelClipping;
}

export interface ClipSpan {
  start: number;
  end: number;
  /** Clipped runs (criterion 1) ending inside the span, all channels. */
  runs: number;
  channels: string[];
}

export interface ClippingStats {
  minRunSamples: number;
  runLevelDbfs: number;
  fullScaleLevel: number;
  /** Criterion 1 runs and criterion 3 samples, all channels. */
  clippedRuns: number;
  fullScaleSamples: number;
  /** Share of all samples (every channel) at full scale, 0..1. */
  fullScaleShare: number;
  /** Where criterion-1 runs occur: 10 ms blocks merged across channels when closer than spanMergeSeconds. */
  spans: ClipSpan[];
  /** Exact number of spans; `spans` keeps the first maxClipSpans. */
  spanCount: number;
  spansTruncated: boolean;
  spanMergeSeconds: number;
  /**
   * Where samples crowd at full scale: blocks with at least NEAR_FULL_SCALE_BLOCK_SAMPLES samples at or above the
   * clip-run level, merged like `spans`. A lossy decode (AAC, MP3) of clipped audio rings around the flat tops, so it
   * has few equal-sample runs but many such blocks. Blocks of a sine (tonal, 3 dB crest) are left out. Capped like `spans`.
   */
  nearFullScaleSpans: { start: number; end: number; samples: number }[];
  nearFullScaleSpanCount: number;
  /** Samples at or above the clip-run level in those spans (every span, not only the listed ones). */
  nearFullScaleSpanSamples: number;
}

export interface LevelEnvelope {
  blockSeconds: number;
  floorDbfs: number;
  /** RMS of the loudest channel per 10 ms block, dBFS (silence and dead air). */
  rmsDbfs: Float32Array;
  /** Loudest |sample| of any channel per 10 ms block, dBFS. */
  peakDbfs: Float32Array;
  /**
   * RMS of the sample-to-sample difference per 10 ms block, loudest channel, dBFS: a first-order high-pass (+6 dB
   * per octave), so broadband transients (a clap, a shutter click, a hi-hat, a consonant) stand far above tones of
   * the same level. Onsets in it are the sharp sync events of av_sync's content estimate.
   */
  highPassDbfs: Float32Array;
}

export interface CorrelationWindow {
  start: number;
  end: number;
  /** Pearson correlation of the first two channels; null when either is constant (e.g. digital silence). */
  correlation: number | null;
  /** RMS of the louder of the two channels in the window, dBFS; null for digital silence. */
  levelDbfs: number | null;
}

export interface StereoStats {
  /** The pair measured: the first two channels. */
  channels: [string, string];
  /** Pearson correlation over the programme; null when either channel is constant. */
  correlation: number | null;
  /** Level of the mid (L+R)/2 and side (L−R)/2 signals, dBFS; null for digital silence. */
  midDbfs: number | null;
  sideDbfs: number | null;
  windowSeconds: number;
  windows: CorrelationWindow[];
}

export interface Beep {
  /** Onset, s: the first sample clearly above the preceding level. */
  onset: number;
  durationSeconds: number;
  /** RMS of the loudest 10 ms block of the burst, dBFS. */
  levelDbfs: number;
  /** Rise above the loudest block of the preceding 200 ms, dB. */
  riseDb: number;
  /** Tone frequency from the median zero-crossing interval of the steady part, Hz. */
  frequencyHz: number;
}

export interface AudioStats {
  sampleRate: number;
  channelNames: string[];
  /** Sample frames per channel. */
  frames: number;
  durationSeconds: number;
  channels: ChannelStats[];
  clipping: ClippingStats;
  envelope: LevelEnvelope;
  /** First two channels; null for mono. */
  stereo: StereoStats | null;
  /** Onsets of short tone bursts, s from audio start (for flash/beep A/V sync). */
  beepOnsets: number[];
  beeps: Beep[];
}

export interface AudioStatsOptions {
  sampleRate: number;
  channelNames: string[];
  /** Cap on stored clip spans (counts stay exact). */
  maxClipSpans?: number;
}

// ---------------------------------------------------------------- helpers

const float32Series = () => new GrowableArray((n) => new Float32Array(n));

function powerDb(meanSquare: number): number | null {
  return meanSquare > 0 ? 10 * Math.log10(meanSquare) : null;
}

function amplitudeDb(amplitude: number): number | null {
  return amplitude > 0 ? 20 * Math.log10(amplitude) : null;
}

function flooredPowerDb(meanSquare: number): number {
  return Math.max(DIGITAL_SILENCE_DBFS, powerDb(meanSquare) ?? DIGITAL_SILENCE_DBFS);
}

function flooredAmplitudeDb(amplitude: number): number {
  return Math.max(DIGITAL_SILENCE_DBFS, amplitudeDb(amplitude) ?? DIGITAL_SILENCE_DBFS);
}

function pearson(n: number, sumX: number, sumY: number, sumXX: number, sumYY: number, sumXY: number): number | null {
  if (n === 0) return null;
  const varX = sumXX - (sumX * sumX) / n;
  const varY = sumYY - (sumY * sumY) / n;
  if (!(varX > 0 && varY > 0)) return null;
  const r = (sumXY - (sumX * sumY) / n) / Math.sqrt(varX * varY);
  return Math.max(-1, Math.min(1, r));
}

/** Sums of the first two channels over some stretch of samples. */
class PairSums {
  n = 0;
  sumL = 0;
  sumR = 0;
  sumLL = 0;
  sumRR = 0;
  sumLR = 0;

  add(other: PairSums): void {
    this.n += other.n;
    this.sumL += other.sumL;
    this.sumR += other.sumR;
    this.sumLL += other.sumLL;
    this.sumRR += other.sumRR;
    this.sumLR += other.sumLR;
  }

  reset(): void {
    this.n = this.sumL = this.sumR = this.sumLL = this.sumRR = this.sumLR = 0;
  }

  correlation(): number | null {
    return pearson(this.n, this.sumL, this.sumR, this.sumLL, this.sumRR, this.sumLR);
  }
}

// ---------------------------------------------------------------- per-channel scanner

/**
 * One channel's measurements. The sample-by-sample scan runs in the WebAssembly kernel (stats-scan.ts), which holds
 * the current 10 ms block's sums and the programme's counts; the programme totals are added here block by block, so
 * the result does not depend on chunk sizes.
 */
class ChannelScanner {
  private readonly fields: Float64Array;
  /** Where this channel's first field is in `fields`; its field f is at at + 2f (a pair's fields are 16 bytes). */
  private readonly at: number;
  sum = 0;
  sumSquares = 0;
  peak = 0;
  hotSamples = 0;
  // current 100 ms block
  channelBlockSumSquares = 0;

  constructor(kernel: StatsScanKernel, channel: number) {
    this.fields = kernel.fields;
    this.at = kernel.fieldIndex(channel, 0);
  }

  /** One of the kernel's fields for this channel (the current block's sums, the programme's counts). */
  field(field: Field): number {
    return this.fields[this.at + 2 * field];
  }

  private setField(field: Field, value: number): void {
    this.fields[this.at + 2 * field] = value;
  }

  /** Mean zero-crossing interval of the block and its relative spread; null with too few crossings. */
  blockTone(): { interval: number; spread: number } | null {
    const intervals = this.field(FIELD.blockIntervals);
    if (intervals < MIN_TONE_INTERVALS) return null;
    const interval = this.field(FIELD.blockIntervalSum) / intervals;
    const variance = Math.max(0, this.field(FIELD.blockIntervalSquares) / intervals - interval * interval);
    return { interval, spread: Math.sqrt(variance) / interval };
  }

  /** Moves the block sums into the programme totals and clears the block. */
  closeBlock(): void {
    const blockSumSquares = this.field(FIELD.blockSumSquares);
    this.sum += this.field(FIELD.blockSum);
    this.sumSquares += blockSumSquares;
    this.channelBlockSumSquares += blockSumSquares;
    this.peak = Math.max(this.peak, this.field(FIELD.blockPeak));
    this.hotSamples += this.field(FIELD.blockHot);
    for (const field of BLOCK_FIELDS) this.setField(field, 0);
    this.setField(FIELD.blockFirstLoud, -1);
  }

  clipping(frames: number, sampleRate: number): ChannelClipping {
    const loudest = this.field(FIELD.loudest);
    const next = this.field(FIELD.next);
    const loudestCount = this.field(FIELD.loudestCount);
    const nextCount = this.field(FIELD.nextCount);
    const fullScaleSamples = this.field(FIELD.fullScaleSamples);
    const loud = loudest > 0;
    const hasNext = loud && next > 0;
    const seconds = (sample: number) => (sample < 0 ? null : sample / sampleRate);
    return {
      clippedRuns: this.field(FIELD.clippedRuns),
      clippedRunSamples: this.field(FIELD.clippedRunSamples),
      longestClippedRunSamples: this.field(FIELD.longestClippedRun),
      fullScaleSamples,
      fullScaleShare: frames > 0 ? fullScaleSamples / frames : 0,
      nearFullScaleSamples: this.hotSamples,
      nearFullScaleShare: frames > 0 ? this.hotSamples / frames : 0,
      oversSamples: this.field(FIELD.overs),
      loudestLevelDbfs: loud ? amplitudeDb(loudest) : null,
      loudestLevelSamples: loud ? loudestCount : 0,
      loudestAtSeconds: loud ? seconds(this.field(FIELD.loudestAt)) : null,
      loudestLevelRuns: this.field(FIELD.loudestRuns),
      loudestLevelRunsFirstAt: seconds(this.field(FIELD.loudestRunsFirst)),
      loudestLevelRunsLastAt: seconds(this.field(FIELD.loudestRunsLast)),
      nextLevelDbfs: hasNext ? amplitudeDb(next) : null,
      nextLevelSamples: hasNext ? nextCount : 0,
      loudestAboveNextDb: hasNext ? 20 * Math.log10(loudest / next) : null,
      loudestOverNextPct: hasNext ? (100 * (loudestCount - nextCount)) / nextCount : null,
    };
  }
}

/** The kernel's per-block fields, cleared when a block closes (blockFirstLoud is set to -1). */
const BLOCK_FIELDS: Field[] = [
  FIELD.blockSum, FIELD.blockSumSquares, FIELD.blockPeak, FIELD.blockHot, FIELD.blockDiffSquares,
  FIELD.blockIntervalSum, FIELD.blockIntervalSquares, FIELD.blockIntervals, FIELD.blockHasCrossing,
];

// ---------------------------------------------------------------- accumulator

export class AudioStatsAccumulator {
  private readonly sampleRate: number;
  private readonly channelNames: string[];
  private readonly maxClipSpans: number;
  /** Null until the accumulator knows its channels (none were named and nothing was pushed). */
  private kernel: StatsScanKernel | null = null;
  private scanners: ChannelScanner[] = [];
  private frames = 0;
  private block = 0;
  private blockStart = 0;
  private blockEnd: number;
  /** |sample| above which the current block records its first loud sample (beep onsets). */
  private onsetAmplitude = 0;
  // 10 ms series
  private readonly envelope = float32Series();
  private readonly envelopePeak = float32Series();
  private readonly envelopeHighPass = float32Series();
  /** Mean zero-crossing interval (samples; 0 when not judged) and its relative spread, loudest channel, per block. */
  private readonly toneInterval = float32Series();
  private readonly toneSpread = float32Series();
  private readonly firstLoudSample = new GrowableArray((n) => new Int32Array(n));
  private readonly clipRunsEnding = new GrowableArray((n) => new Uint32Array(n));
  private readonly clipChannelMask = new GrowableArray((n) => new Uint32Array(n));
  /** Samples at or above the clip-run level per block, all channels. */
  private readonly hotSamples = new GrowableArray((n) => new Uint32Array(n));
  // 100 ms series per channel
  private channelSeries: GrowableArray<Float32Array>[] = [];
  private channelBlockSamples = 0;
  // stereo pair
  private readonly windowPair = new PairSums();
  private readonly programmePair = new PairSums();
  private windowStartBlock = 0;
  private readonly windows: CorrelationWindow[] = [];

  constructor(opts: AudioStatsOptions) {
    if (!(opts.sampleRate > 0)) throw new RangeError(`sampleRate must be positive, got ${opts.sampleRate}`);
    this.sampleRate = opts.sampleRate;
    this.channelNames = [...opts.channelNames];
    this.maxClipSpans = opts.maxClipSpans ?? DEFAULT_MAX_CLIP_SPANS;
    this.blockEnd = this.blockBoundary(1);
    this.ensureChannels(opts.channelNames.length);
  }

  push(channels: Float32Array[]): void {
    if (channels.length === 0) return;
    this.ensureChannels(channels.length);
    if (channels.length !== this.scanners.length) throw new RangeError(`expected ${this.scanners.length} channels, got ${channels.length}`);
    const length = channels[0].length;
    if (channels.some((c) => c.length !== length)) throw new RangeError('channel chunks differ in length');
    const kernel = this.kernel;
    if (!kernel) return;
    for (let slice = 0; slice < length; slice += SLICE_FRAMES) {
      const sliceEnd = Math.min(length, slice + SLICE_FRAMES);
      kernel.load(channels, slice, sliceEnd - slice);
      let position = slice;
      while (position < sliceEnd) {
        const end = Math.min(sliceEnd, position + this.blockEnd - this.frames);
        kernel.scan(position - slice, end - slice, this.frames, this.frames - this.blockStart, this.onsetAmplitude);
        this.frames += end - position;
        position = end;
        if (this.frames === this.blockEnd) this.closeBlock();
      }
    }
  }

  finish(): AudioStats {
    if (this.frames > this.blockStart) this.closeBlock();
    this.flushChannelBlock();
    this.flushWindow();
    this.kernel?.finishRuns();
    const envelope: LevelEnvelope = {
      blockSeconds: ENVELOPE_BLOCK_SECONDS,
      floorDbfs: DIGITAL_SILENCE_DBFS,
      rmsDbfs: this.envelope.toArray(),
      peakDbfs: this.envelopePeak.toArray(),
      highPassDbfs: this.envelopeHighPass.toArray(),
    };
    const beeps = this.detectBeeps();
    return {
      sampleRate: this.sampleRate,
      channelNames: this.names(),
      frames: this.frames,
      durationSeconds: this.frames / this.sampleRate,
      channels: this.scanners.map((s, c) => this.channelStats(s, c)),
      clipping: this.clippingStats(),
      envelope,
      stereo: this.stereoStats(),
      beepOnsets: beeps.map((b) => b.onset),
      beeps,
    };
  }

  clipRun(channel: number, firstSample: number, length: number): void {
    const first = this.blockOf(firstSample);
    const last = this.blockOf(firstSample + length - 1);
    const bit = 2 ** Math.min(channel, MAX_MASK_CHANNEL);
    for (let b = first; b <= last; b++) this.clipChannelMask.set(b, (this.clipChannelMask.get(b) | bit) >>> 0);
    this.clipRunsEnding.ensureLength(last + 1);
    this.clipRunsEnding.set(last, this.clipRunsEnding.get(last) + 1);
  }

  // ---------------------------------------------------------------- streaming internals

  private ensureChannels(count: number): void {
    if (this.frames > 0 || this.scanners.length === count) return;
    const levels = { minRunSamples: MIN_CLIP_RUN_SAMPLES, clipRunLevel: CLIP_RUN_LEVEL, fullScaleLevel: FULL_SCALE_LEVEL };
    const kernel = new StatsScanKernel(count, levels, (channel, firstSample, length) => this.clipRun(channel, firstSample, length));
    this.kernel = kernel;
    this.scanners = Array.from({ length: count }, (_, c) => new ChannelScanner(kernel, c));
    this.channelSeries = Array.from({ length: count }, float32Series);
  }

  private names(): string[] {
    return this.scanners.map((_, c) => this.channelNames[c] ?? `C${c}`);
  }

  /** First sample of 10 ms block `index` (the loudness meter's rounding). */
  private blockBoundary(index: number): number {
    return Math.floor((index * this.sampleRate + BLOCKS_PER_SECOND / 2) / BLOCKS_PER_SECOND);
  }

  private blockOf(sample: number): number {
    return Math.ceil(((sample + 1) * BLOCKS_PER_SECOND - BLOCKS_PER_SECOND / 2) / this.sampleRate) - 1;
  }

  private blockSeconds(index: number): number {
    return this.blockBoundary(index) / this.sampleRate;
  }

  private closeBlock(): void {
    const samples = this.frames - this.blockStart;
    let loudestMeanSquare = -1;
    let loudestChannel = 0;
    let peak = 0;
    let firstLoud = -1;
    let highPass = 0;
    this.scanners.forEach((s, c) => {
      const meanSquare = s.field(FIELD.blockSumSquares) / samples;
      highPass = Math.max(highPass, s.field(FIELD.blockDiffSquares) / samples);
      if (meanSquare > loudestMeanSquare) {
        loudestMeanSquare = meanSquare;
        loudestChannel = c;
      }
      peak = Math.max(peak, s.field(FIELD.blockPeak));
      const blockFirstLoud = s.field(FIELD.blockFirstLoud);
      if (blockFirstLoud >= 0 && (firstLoud < 0 || blockFirstLoud < firstLoud)) firstLoud = blockFirstLoud;
    });
    this.envelope.push(flooredPowerDb(loudestMeanSquare));
    this.envelopePeak.push(flooredAmplitudeDb(peak));
    this.envelopeHighPass.push(flooredPowerDb(highPass));
    const tone = this.scanners[loudestChannel]?.blockTone() ?? null;
    this.toneInterval.push(tone?.interval ?? 0);
    this.toneSpread.push(tone?.spread ?? 0);
    this.firstLoudSample.push(firstLoud);
    // A sine touching full scale crowds there by its shape, not by clipping: a tone with a sine's crest factor is left
    // out (a clipped tone flattens towards a square wave, crest under 1 dB, and still counts).
    const sineLike = tone !== null && tone.spread <= BEEP_MAX_INTERVAL_SPREAD && 20 * Math.log10(peak) - 10 * Math.log10(loudestMeanSquare) >= SINE_MIN_CREST_DB;
    this.hotSamples.push(sineLike ? 0 : this.scanners.reduce((n, s) => n + s.field(FIELD.blockHot), 0));
    this.clipRunsEnding.ensureLength(this.block + 1);
    this.clipChannelMask.ensureLength(this.block + 1);
    if (this.scanners.length >= 2) this.addBlockPair(samples);
    for (const s of this.scanners) s.closeBlock();
    this.channelBlockSamples += samples;

    this.block++;
    this.blockStart = this.frames;
    this.blockEnd = this.blockBoundary(this.block + 1);
    this.onsetAmplitude = this.nextOnsetAmplitude();
    if (this.block % BLOCKS_PER_CHANNEL_BLOCK === 0) this.flushChannelBlock();
    if (this.block % BLOCKS_PER_CORRELATION_WINDOW === 0) this.flushWindow();
  }

  /** The block's sums of the first two channels into the correlation window (the kernel adds Σ first·second). */
  private addBlockPair(samples: number): void {
    const [left, right] = this.scanners;
    const w = this.windowPair;
    w.n += samples;
    w.sumL += left.field(FIELD.blockSum);
    w.sumR += right.field(FIELD.blockSum);
    w.sumLL += left.field(FIELD.blockSumSquares);
    w.sumRR += right.field(FIELD.blockSumSquares);
    const kernel = this.kernel as StatsScanKernel;
    const { fields } = kernel;
    const product = kernel.fieldIndex(0, FIELD.blockPairProduct);
    w.sumLR += fields[product];
    fields[product] = fields[product + 1] = 0;
  }

  /** The onset amplitude of the next block: 20 dB over the loudest block of the last 200 ms, at least −60 dBFS. */
  private nextOnsetAmplitude(): number {
    let preceding = DIGITAL_SILENCE_DBFS;
    for (let b = Math.max(0, this.block - BEEP_PRECEDING_BLOCKS); b < this.block; b++) preceding = Math.max(preceding, this.envelope.get(b));
    return 10 ** (Math.max(preceding + ONSET_SAMPLE_RISE_DB, ONSET_SAMPLE_FLOOR_DBFS) / 20);
  }

  private flushChannelBlock(): void {
    if (this.channelBlockSamples === 0) return;
    this.scanners.forEach((s, c) => {
      this.channelSeries[c].push(flooredPowerDb(s.channelBlockSumSquares / this.channelBlockSamples));
      s.channelBlockSumSquares = 0;
    });
    this.channelBlockSamples = 0;
  }

  private flushWindow(): void {
    const w = this.windowPair;
    const blocks = this.block - this.windowStartBlock;
    if (this.scanners.length >= 2 && w.n > 0 && blocks >= MIN_CORRELATION_WINDOW_BLOCKS) {
      this.windows.push({
        start: this.blockSeconds(this.windowStartBlock),
        end: Math.min(this.blockSeconds(this.block), this.frames / this.sampleRate),
        correlation: w.correlation(),
        levelDbfs: powerDb(Math.max(w.sumLL, w.sumRR) / w.n),
      });
    }
    this.programmePair.add(w);
    w.reset();
    this.windowStartBlock = this.block;
  }

  // ---------------------------------------------------------------- results

  private channelStats(s: ChannelScanner, c: number): ChannelStats {
    const n = this.frames;
    return {
      name: this.names()[c],
      rmsDbfs: n > 0 ? powerDb(s.sumSquares / n) : null,
      peakDbfs: amplitudeDb(s.peak),
      dcOffset: n > 0 ? s.sum / n : 0,
      nonFiniteSamples: s.field(FIELD.nonFinite),
      rms100ms: this.channelSeries[c].toArray(),
      clipping: s.clipping(n, this.sampleRate),
    };
  }

  private clippingStats(): ClippingStats {
    const fullScaleSamples = this.scanners.reduce((a, s) => a + s.field(FIELD.fullScaleSamples), 0);
    const allSamples = this.frames * this.scanners.length;
    const spans = this.clipSpans();
    const hotSpans = this.nearFullScaleSpans();
    return {
      minRunSamples: MIN_CLIP_RUN_SAMPLES,
      runLevelDbfs: CLIP_RUN_LEVEL_DBFS,
      fullScaleLevel: FULL_SCALE_LEVEL,
      clippedRuns: this.scanners.reduce((a, s) => a + s.field(FIELD.clippedRuns), 0),
      fullScaleSamples,
      fullScaleShare: allSamples > 0 ? fullScaleSamples / allSamples : 0,
      spans: spans.slice(0, this.maxClipSpans),
      spanCount: spans.length,
      spansTruncated: spans.length > this.maxClipSpans,
      spanMergeSeconds: CLIP_SPAN_MERGE_SECONDS,
      nearFullScaleSpans: hotSpans.slice(0, this.maxClipSpans),
      nearFullScaleSpanCount: hotSpans.length,
      nearFullScaleSpanSamples: hotSpans.reduce((n, span) => n + span.samples, 0),
    };
  }

  /** Clipped blocks merged into spans. Built in full (a few numbers per span) and capped by the caller. */
  private clipSpans(): ClipSpan[] {
    const names = this.names();
    const spans: { startBlock: number; endBlock: number; runs: number; mask: number }[] = [];
    const mergeBlocks = Math.round(CLIP_SPAN_MERGE_SECONDS / ENVELOPE_BLOCK_SECONDS);
    for (let b = 0; b < this.clipChannelMask.length; b++) {
      const mask = this.clipChannelMask.get(b);
      if (mask === 0) continue;
      const last = spans[spans.length - 1];
      if (last && b - last.endBlock <= mergeBlocks) {
        last.endBlock = b + 1;
        last.runs += this.clipRunsEnding.get(b);
        last.mask = (last.mask | mask) >>> 0;
      } else spans.push({ startBlock: b, endBlock: b + 1, runs: this.clipRunsEnding.get(b), mask });
    }
    const channelsOf = (mask: number) => names.filter((_, c) => (mask & (2 ** Math.min(c, MAX_MASK_CHANNEL))) !== 0);
    return spans.map((s) => ({
      start: this.blockSeconds(s.startBlock),
      end: Math.min(this.blockSeconds(s.endBlock), this.frames / this.sampleRate),
      runs: s.runs,
      channels: channelsOf(s.mask),
    }));
  }

  private nearFullScaleSpans(): { start: number; end: number; samples: number }[] {
    const spans: { startBlock: number; endBlock: number; samples: number }[] = [];
    const mergeBlocks = Math.round(CLIP_SPAN_MERGE_SECONDS / ENVELOPE_BLOCK_SECONDS);
    for (let b = 0; b < this.hotSamples.length; b++) {
      const samples = this.hotSamples.get(b);
      if (samples < NEAR_FULL_SCALE_BLOCK_SAMPLES) continue;
      const last = spans[spans.length - 1];
      if (last && b - last.endBlock <= mergeBlocks) {
        last.endBlock = b + 1;
        last.samples += samples;
      } else spans.push({ startBlock: b, endBlock: b + 1, samples });
    }
    return spans.map((s) => ({
      start: this.blockSeconds(s.startBlock),
      end: Math.min(this.blockSeconds(s.endBlock), this.frames / this.sampleRate),
      samples: s.samples,
    }));
  }

  private stereoStats(): StereoStats | null {
    if (this.scanners.length < 2) return null;
    const p = this.programmePair;
    const names = this.names();
    const quarter = p.n > 0 ? 1 / (4 * p.n) : 0;
    return {
      channels: [names[0], names[1]],
      correlation: p.correlation(),
      midDbfs: powerDb(Math.max(0, (p.sumLL + 2 * p.sumLR + p.sumRR) * quarter)),
      sideDbfs: powerDb(Math.max(0, (p.sumLL - 2 * p.sumLR + p.sumRR) * quarter)),
      windowSeconds: CORRELATION_WINDOW_SECONDS,
      windows: this.windows,
    };
  }

  // ---------------------------------------------------------------- beeps

  private detectBeeps(): Beep[] {
    const beeps: Beep[] = [];
    const blocks = this.envelope.length;
    const maxBurstBlocks = Math.round(BEEP_MAX_SECONDS / ENVELOPE_BLOCK_SECONDS) + 1;
    // The block just before the onset block may hold the start of the burst, so the preceding window skips it.
    let b = BEEP_PRECEDING_BLOCKS + 1;
    while (b < blocks) {
      const preceding = this.loudestBlockDb(b - 1 - BEEP_PRECEDING_BLOCKS, b - 1);
      const level = this.envelope.get(b);
      if (level < BEEP_MIN_LEVEL_DBFS || level - preceding < BEEP_RISE_DB) {
        b++;
        continue;
      }
      const sustainDb = Math.max(preceding + BEEP_SUSTAIN_DB, BEEP_MIN_LEVEL_DBFS - BEEP_SUSTAIN_FLOOR_MARGIN_DB);
      let end = b + 1;
      while (end < blocks && this.envelope.get(end) >= sustainDb) end++;
      const beep = end - b <= maxBurstBlocks ? this.describeBurst(b, end, preceding) : null;
      if (beep) beeps.push(beep);
      b = end;
    }
    return beeps;
  }

  private loudestBlockDb(from: number, to: number): number {
    let loudest = DIGITAL_SILENCE_DBFS;
    for (let b = Math.max(0, from); b < to; b++) loudest = Math.max(loudest, this.envelope.get(b));
    return loudest;
  }

  /**
   * A burst over blocks [first, end) is a beep when its steady part (blocks within 3 dB of its loudest) has a tone's
   * crest factor and most of those blocks have regular zero crossings; edge blocks mixing tone and background are outvoted.
   */
  private describeBurst(first: number, end: number, preceding: number): Beep | null {
    const loudestDb = this.loudestBlockDb(first, end);
    let peakDb = DIGITAL_SILENCE_DBFS;
    let steady = 0;
    const tonalIntervals: number[] = [];
    for (let b = first; b < end; b++) {
      if (this.envelope.get(b) < loudestDb - BEEP_STEADY_DB) continue;
      steady++;
      peakDb = Math.max(peakDb, this.envelopePeak.get(b));
      const interval = this.toneInterval.get(b);
      if (interval > 0 && this.toneSpread.get(b) <= BEEP_MAX_INTERVAL_SPREAD) tonalIntervals.push(interval);
    }
    if (peakDb - loudestDb > BEEP_MAX_CREST_DB || tonalIntervals.length === 0 || 2 * tonalIntervals.length < steady) return null;
    const onset = this.onsetSeconds(first);
    return {
      onset,
      durationSeconds: Math.max(0, Math.min(this.blockSeconds(end), this.frames / this.sampleRate) - onset),
      levelDbfs: loudestDb,
      riseDb: loudestDb - preceding,
      frequencyHz: this.sampleRate / (2 * median(tonalIntervals)),
    };
  }

  /** The first loud sample in the block before the onset block or in the onset block, else the block start. */
  private onsetSeconds(block: number): number {
    for (const b of [block - 1, block]) {
      const offset = this.firstLoudSample.get(b);
      if (offset >= 0) return (this.blockBoundary(b) + offset) / this.sampleRate;
    }
    return this.blockSeconds(block);
  }
}
