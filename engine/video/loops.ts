// Repeated (looped) picture sequences: runs of frames that match an earlier run frame by frame.
// Runs incrementally as frames stream out of the decode pass, so its cost overlaps ffmpeg's instead of adding to it.

import { GrowableArray } from '../growable-array.js';
import { ThumbnailStore, type ThumbnailStoreLimits } from './thumbnail-store.js';

/** Hashes within this many differing bits (of 64) are candidates for the same picture. */
const SAME_PICTURE_BITS = 6;
/** Earlier frames examined per frame, to bound the cost on slowly changing content (whose hashes all collide). */
const MAX_CANDIDATES = 400;
/** Two thumbnails at most this far apart (mean absolute difference, code values) show the same picture. */
const SAME_THUMB_MAD = 1.0;
/**
 * ... and no cell of them further apart than this: the whole picture repeats, not just most of it (a counter or a
 * moving part that differs is a new picture, as on ffmpeg's testsrc2). Re-encoding noise keeps cells within ~2 codes.
 */
const SAME_THUMB_MAX = 6;
/** The picture must have moved at least this much (and 4× the match distance) within the gap, or it is a still, not a loop. */
const MOVED_THUMB_MAD = 1.5;
/** Thumbnail cells of the newest frame checked first when confirming a candidate: those that changed most since the frame before. */
const PROBE_CELLS = 8;
/** Detection floor, the same for every profile: repeats closer than this are motion, shorter ones are noise. */
export const LOOP_MIN_GAP_SECONDS = 0.5;
export const LOOP_MIN_RUN_SECONDS = 0.5;

export interface RepeatedSequence {
  /** First frame of the earlier occurrence and of the repeat. */
  sourceFrame: number;
  repeatFrame: number;
  frames: number;
}

interface Run {
  start: number;
  length: number;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Hash bands indexed, and the values a band can take. */
const BANDS = 4;
const BAND_VALUES = 1 << 16;

/**
 * The frames filed under each value of each 16-bit hash band, newest first: the newest frame per value, and per frame
 * the next older one with the same value (a Map of arrays costs about 200 bytes a frame).
 */
class BandIndex {
  private readonly newest = Array.from({ length: BANDS }, () => new Int32Array(BAND_VALUES).fill(-1));
  private readonly older = new GrowableArray((n) => new Int32Array(n));

  add(frame: number, band: number, value: number): void {
    this.older.set(BANDS * frame + band, this.newest[band][value]);
    this.newest[band][value] = frame;
  }

  /** The newest frame filed under `value` in `band`, or −1. */
  first(band: number, value: number): number {
    return this.newest[band][value];
  }

  /** The next older frame filed under the same value of `band` as `frame`, or −1. */
  next(frame: number, band: number): number {
    return this.older.get(BANDS * frame + band);
  }
}

/**
 * Feed every frame in order; a repeat is frame j matching frame i (j − i ≥ the minimum gap) and the match continuing
 * along the diagonal. Candidates come from four 16-bit bands of a 64-bit hash (a match within 6 bits shares at least
 * one band exactly) and are confirmed on 24×24 thumbnails.
 */
export class RepeatFinder {
  /** Every frame's 64-bit hash as two 32-bit words. */
  private readonly hashes = new GrowableArray((n) => new Uint32Array(n));
  private readonly thumbs: ThumbnailStore;
  private readonly bands = new BandIndex();
  private active = new Map<number, Run>();
  private readonly found: RepeatedSequence[] = [];
  private readonly minGap: number;
  private readonly minRun: number;
  private lastClosedEnd = -1;
  /** Frame i was already examined as a candidate for frame seenBy[i] − 1; 0 when never (instead of a Set per frame). */
  private readonly seenBy = new GrowableArray((n) => new Int32Array(n));
  /** The newest frame's most changed thumbnail cells: a candidate that differs too much usually does so there. */
  private readonly probeCells = new Int32Array(PROBE_CELLS);
  private readonly probeChange = new Int32Array(PROBE_CELLS);
  private probeFrame = -1;

  constructor(fps: number, limits?: ThumbnailStoreLimits) {
    this.thumbs = new ThumbnailStore(limits);
    this.minGap = Math.max(2, Math.round(LOOP_MIN_GAP_SECONDS * fps));
    this.minRun = Math.max(2, Math.round(LOOP_MIN_RUN_SECONDS * fps));
  }

  /** `moving`: the frame differs from its predecessor (a still or black frame is loop_freeze's freeze territory). */
  push(hashHi: number, hashLo: number, thumb: Uint8Array, moving: boolean): void {
    const j = this.thumbs.length;
    this.hashes.set(2 * j, hashHi);
    this.hashes.set(2 * j + 1, hashLo);
    this.thumbs.push(thumb);
    const next = new Map<number, Run>();
    if (moving) {
      this.pickProbeCells(j);
      this.matchCandidates(j, next);
      for (const [offset, run] of this.active) {
        if (!next.has(offset) && this.same(j - offset, j)) next.set(offset, { start: run.start, length: run.length + 1 });
      }
      this.index(j);
    }
    for (const [offset, run] of this.active) if (!next.has(offset)) this.close(offset, run);
    this.active = next;
  }

  finish(): RepeatedSequence[] {
    for (const [offset, run] of this.active) this.close(offset, run);
    this.active = new Map();
    this.thumbs.close();
    return mergeOverlapping(this.found);
  }

  private bandKey(i: number, b: number): number {
    const word = this.hashes.get(2 * i + (b >> 1));
    return b & 1 ? word >>> 16 : word & 0xffff;
  }

  private index(j: number): void {
    for (let b = 0; b < BANDS; b++) this.bands.add(j, b, this.bandKey(j, b));
  }

  private matchCandidates(j: number, next: Map<number, Run>): void {
    this.seenBy.ensureLength(j + 1);
    const seenBy = this.seenBy.storage();
    let seen = 0;
    for (let b = 0; b < BANDS && seen < MAX_CANDIDATES; b++) {
      // Newest first, from the newest at least minGap before j.
      let i = this.bands.first(b, this.bandKey(j, b));
      while (i > j - this.minGap) i = this.bands.next(i, b);
      for (; i >= 0 && seen < MAX_CANDIDATES; i = this.bands.next(i, b)) {
        if (seenBy[i] === j + 1) continue;
        seenBy[i] = j + 1;
        seen++;
        if (!this.same(i, j)) continue;
        const offset = j - i;
        const run = this.active.get(offset);
        if (run) next.set(offset, { start: run.start, length: run.length + 1 });
        else if (this.movedAway(i, j)) next.set(offset, { start: j, length: 1 });
      }
    }
  }

  private hashDistance(a: number, b: number): number {
    const h = this.hashes;
    return popcount(h.get(2 * a) ^ h.get(2 * b)) + popcount(h.get(2 * a + 1) ^ h.get(2 * b + 1));
  }

  /** Mean absolute difference of two thumbnails, or Infinity when over `giveUpAbove` or a cell is over `cellMax`. */
  private thumbDistance(a: number, b: number, giveUpAbove = Infinity, cellMax = Infinity): number {
    const { bytes, size } = this.thumbs;
    // The answer does not depend on the order the cells are read in, so the likeliest misfits are read first.
    if (cellMax !== Infinity && b === this.probeFrame) {
      const [oa, ob] = [this.thumbs.offset(a, 0), this.thumbs.offset(b, 1)];
      const probe = this.probeCells;
      for (let k = 0; k < probe.length; k++) if (Math.abs(bytes[oa + probe[k]] - bytes[ob + probe[k]]) > cellMax) return Infinity;
    }
    // The sum is whole, so passing the limit is passing its whole part.
    const s = this.thumbs.distance(a, b, cellMax, Math.floor(giveUpAbove * size));
    return s < 0 ? Infinity : s / size;
  }

  /** The PROBE_CELLS cells of frame j's thumbnail that changed most from frame j − 1. */
  private pickProbeCells(j: number): void {
    this.probeFrame = -1;
    if (j === 0) return;
    const { bytes } = this.thumbs;
    const nowAt = this.thumbs.offset(j);
    const beforeAt = this.thumbs.offset(j - 1);
    const probe = this.probeCells;
    const change = this.probeChange.fill(-1);
    for (let k = 0; k < this.thumbs.size; k++) {
      const d = Math.abs(bytes[nowAt + k] - bytes[beforeAt + k]);
      if (d <= change[PROBE_CELLS - 1]) continue;
      let at = PROBE_CELLS - 1;
      while (at > 0 && change[at - 1] < d) {
        change[at] = change[at - 1];
        probe[at] = probe[at - 1];
        at--;
      }
      change[at] = d;
      probe[at] = k;
    }
    if (change[PROBE_CELLS - 1] >= 0) this.probeFrame = j;
  }

  private same(i: number, j: number): boolean {
    return this.hashDistance(i, j) <= SAME_PICTURE_BITS && this.thumbDistance(i, j, SAME_THUMB_MAD, SAME_THUMB_MAX) <= SAME_THUMB_MAD;
  }

  /** A real repeat: the picture went somewhere else between the two occurrences (probed at three points of the gap). */
  private movedAway(i: number, j: number): boolean {
    const needed = Math.max(MOVED_THUMB_MAD, 4 * this.thumbDistance(i, j));
    const probes = [i + this.minGap, (i + j) >> 1, j - this.minGap].map((k) => Math.min(j - 1, Math.max(i + 1, k)));
    return probes.some((k) => this.thumbDistance(i, k) >= needed);
  }

  /**
   * A repeat of slowly moving picture is only recognised once the gap shows movement; its first frames still match
   * frame for frame, so the run is extended backwards along its diagonal before it is kept.
   */
  private close(offset: number, run: Run): void {
    let start = run.start;
    let length = run.length;
    while (start - offset > 0 && start - 1 > this.lastClosedEnd && this.same(start - 1 - offset, start - 1)) {
      start--;
      length++;
    }
    if (length >= this.minRun) {
      this.found.push({ sourceFrame: start - offset, repeatFrame: start, frames: length });
      this.lastClosedEnd = Math.max(this.lastClosedEnd, start + length - 1);
    }
  }
}

/** Keeps the longest repeat where several diagonals cover the same span. */
function mergeOverlapping(runs: RepeatedSequence[]): RepeatedSequence[] {
  const sorted = [...runs].sort((a, b) => b.frames - a.frames || a.repeatFrame - b.repeatFrame);
  const kept: RepeatedSequence[] = [];
  for (const r of sorted) {
    const overlaps = kept.some((k) => r.repeatFrame < k.repeatFrame + k.frames && k.repeatFrame < r.repeatFrame + r.frames);
    if (!overlaps) kept.push(r);
  }
  return kept.sort((a, b) => a.repeatFrame - b.repeatFrame);
}
