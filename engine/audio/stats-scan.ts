// The statistics' per-sample scan as a WebAssembly kernel (stats-scan.wat): the channels in pairs, one per f64x2
// lane, with each channel's state in the kernel's memory. stats.ts copies each chunk's channels in, asks for a scan
// of each 10 ms block (or the part of one the chunk holds) and reads and resets the block's fields when it closes.
import { STATS_SCAN_WASM } from './stats-scan-kernel.js';
import { copyInAligned, instantiateKernel } from '../wasm-kernel.js';

/**
 * The fields of a channel's state that this side reads or resets, by their place in the kernel's order (stats-scan.wat;
 * 16 bytes each: one f64 per lane). The others belong to the scan alone.
 */
export const FIELD = {
  blockSum: 0,
  blockSumSquares: 1,
  blockPeak: 2,
  blockDiffSquares: 3,
  blockFirstLoud: 5,
  blockHasCrossing: 10,
  blockIntervalSum: 12,
  blockIntervalSquares: 13,
  blockIntervals: 14,
  nonFinite: 15,
  loudest: 16,
  loudestCount: 17,
  next: 18,
  nextCount: 19,
  loudestAt: 20,
  loudestRuns: 21,
  loudestRunsFirst: 22,
  loudestRunsLast: 23,
  blockHot: 24,
  fullScaleSamples: 25,
  overs: 26,
  clippedRuns: 27,
  clippedRunSamples: 28,
  longestClippedRun: 29,
  /** Σ first·second over the block, for the first pair (channels 0 and 1). */
  blockPairProduct: 30,
} as const;
export type Field = (typeof FIELD)[keyof typeof FIELD];

const PAIR_BYTES = 512;
/** Frames copied in and scanned per call: 32 KB per channel. */
export const SLICE_FRAMES = 8192;
/** A plane's region: the slice, 4 bytes to copy a slice in at its own alignment, 4 to keep the next region 8-byte aligned. */
const PLANE_BYTES = SLICE_FRAMES * 4 + 8;
/** The scan's scratch area, after the planes: a pair of f64 samples per frame. */
const SCRATCH_BYTES = SLICE_FRAMES * 16;

interface KernelExports {
  memory: WebAssembly.Memory;
  init(minRun: number, clipLevel: number, fullScale: number, scratch: number): void;
  reset(pair: number): void;
  scan(pair: number, first: number, second: number, from: number, to: number, sampleOffset: number, blockOffset: number, onset: number, channel: number): void;
  finishRuns(pair: number, channel: number): void;
}

export interface StatsScanLevels {
  minRunSamples: number;
  clipRunLevel: number;
  fullScaleLevel: number;
}

export class StatsScanKernel {
  private readonly kernel: KernelExports;
  private readonly pairs: number;
  /** The kernel's memory as floats. */
  private readonly floats: Float32Array;
  /** Where each channel's region starts (8-byte aligned), and where its loaded frames start: there or 4 bytes on. */
  private readonly regions: number[];
  private readonly planeBytes: number[];
  /** Every pair's state: channel c's field f is at {@link fieldIndex}(c, f). */
  readonly fields: Float64Array;

  /** `onClipRun` hears of each run of clipped samples as it ends: (channel, first sample, length). */
  constructor(readonly channels: number, levels: StatsScanLevels, onClipRun: (channel: number, firstSample: number, length: number) => void) {
    this.pairs = Math.ceil(channels / 2);
    // The states, then one plane per channel (an odd last channel is paired with a plane of zeros, whose lane is
    // ignored), then the scratch area the pairs share.
    const planesByte = this.pairs * PAIR_BYTES;
    const scratchByte = planesByte + 2 * this.pairs * PLANE_BYTES;
    this.kernel = instantiateKernel<KernelExports>(STATS_SCAN_WASM, scratchByte + SCRATCH_BYTES, { stats: { clipRun: onClipRun } });
    const { memory } = this.kernel;
    this.fields = new Float64Array(memory.buffer, 0, (this.pairs * PAIR_BYTES) / 8);
    this.floats = new Float32Array(memory.buffer);
    this.regions = Array.from({ length: 2 * this.pairs }, (_, c) => planesByte + c * PLANE_BYTES);
    this.planeBytes = [...this.regions];
    this.kernel.init(levels.minRunSamples, levels.clipRunLevel, levels.fullScaleLevel, scratchByte);
    for (let pair = 0; pair < this.pairs; pair++) this.kernel.reset(pair * PAIR_BYTES);
    if (channels % 2 === 1) {
      // The lane beside an odd last channel reads zeros: with a loudest and next level no sample reaches, it never
      // takes the scan's rare branch (a silent lane would count every sample as one more at the loudest level).
      this.fields[this.fieldIndex(channels, FIELD.loudest)] = Number.POSITIVE_INFINITY;
      this.fields[this.fieldIndex(channels, FIELD.next)] = Number.POSITIVE_INFINITY;
    }
  }

  /** Copies frames [at, at + length) of each channel in (length ≤ SLICE_FRAMES); scans then read them from 0. */
  load(channels: Float32Array[], at: number, length: number): void {
    for (let c = 0; c < this.channels; c++) this.planeBytes[c] = copyInAligned(this.floats, this.regions[c], channels[c].subarray(at, at + length));
  }

  /**
   * Scans loaded frames [from, to) of every channel: frame `from` is sample `firstSample` of the programme and lies
   * `blockOffset` into its 10 ms block; `onset` is the block's onset amplitude.
   */
  scan(from: number, to: number, firstSample: number, blockOffset: number, onset: number): void {
    const sampleOffset = firstSample - from;
    for (let pair = 0; pair < this.pairs; pair++) {
      this.kernel.scan(pair * PAIR_BYTES, this.planeBytes[2 * pair], this.planeBytes[2 * pair + 1], from, to, sampleOffset, blockOffset, onset, 2 * pair);
    }
  }

  /** Ends the runs still open at the end of the stream. */
  finishRuns(): void {
    for (let pair = 0; pair < this.pairs; pair++) this.kernel.finishRuns(pair * PAIR_BYTES, 2 * pair);
  }

  /** Where `channel`'s `field` is in {@link fields}. */
  fieldIndex(channel: number, field: Field): number {
    return (channel >> 1) * (PAIR_BYTES / 8) + 2 * field + (channel & 1);
  }
}
