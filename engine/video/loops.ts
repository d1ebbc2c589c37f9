// Repeated (looped) picture sequences: runs of frames whose perceptual hashes match an earlier run frame by frame.
import type { VideoFrameStats } from '../types.js';
import { THUMB_CELLS } from './frame-stats.js';

/** Hashes within this many differing bits (of 64) count as the same picture. */
const SAME_PICTURE_BITS = 6;
/** Frames examined per candidate bucket, to bound the cost on repetitive content. */
const MAX_CANDIDATES = 24;
/** Two thumbnails at most this far apart (mean absolute difference, code values) show the same picture. */
const SAME_THUMB_MAD = 2.5;
/** The picture must have moved at least this much (and 3× the match distance) within the gap, or it is a still, not a loop. */
const MOVED_THUMB_MAD = 4;

export interface RepeatedSequence {
  /** First frame of the earlier occurrence and of the repeat. */
  sourceFrame: number;
  repeatFrame: number;
  frames: number;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function distance(h: Uint32Array, a: number, b: number): number {
  return popcount(h[2 * a] ^ h[2 * b]) + popcount(h[2 * a + 1] ^ h[2 * b + 1]);
}

function thumbDistance(t: Uint8Array, a: number, b: number): number {
  let s = 0;
  const oa = a * THUMB_CELLS;
  const ob = b * THUMB_CELLS;
  for (let k = 0; k < THUMB_CELLS; k++) s += Math.abs(t[oa + k] - t[ob + k]);
  return s / THUMB_CELLS;
}

/**
 * Finds non-static repeats: frame j matches frame i (j − i ≥ minGap) and the match continues along the diagonal.
 * Candidates come from four 16-bit bands of the hash (a match within 6 bits shares at least one band exactly).
 */
export function findRepeatedSequences(
  hashes: Uint32Array,
  thumbnails: Uint8Array,
  frames: VideoFrameStats[],
  opts: { minGapFrames: number; minRunFrames: number; staticDiff: number },
): RepeatedSequence[] {
  const n = frames.length;
  const same = (i: number, j: number) => distance(hashes, i, j) <= SAME_PICTURE_BITS && thumbDistance(thumbnails, i, j) <= SAME_THUMB_MAD;
  // A real repeat: the picture went somewhere else between the two occurrences.
  const movedAway = (i: number, j: number) => {
    const probe = Math.min(j - 1, i + opts.minGapFrames);
    return thumbDistance(thumbnails, i, probe) >= Math.max(MOVED_THUMB_MAD, 3 * thumbDistance(thumbnails, i, j));
  };
  const moving = (i: number) => frames[i].diff > opts.staticDiff && frames[i].darkFraction < 0.98;
  const bands: Map<number, number[]>[] = [new Map(), new Map(), new Map(), new Map()];
  const bandKeys = (i: number) => [hashes[2 * i] & 0xffff, hashes[2 * i] >>> 16, hashes[2 * i + 1] & 0xffff, hashes[2 * i + 1] >>> 16];
  let active = new Map<number, { start: number; length: number }>();
  const found: RepeatedSequence[] = [];
  const close = (offset: number, run: { start: number; length: number }) => {
    if (run.length >= opts.minRunFrames) found.push({ sourceFrame: run.start - offset, repeatFrame: run.start, frames: run.length });
  };
  for (let j = 0; j < n; j++) {
    const next = new Map<number, { start: number; length: number }>();
    if (moving(j)) {
      const keys = bandKeys(j);
      const seen = new Set<number>();
      for (let b = 0; b < 4; b++) {
        const list = bands[b].get(keys[b]);
        if (!list) continue;
        for (let k = list.length - 1, taken = 0; k >= 0 && taken < MAX_CANDIDATES; k--, taken++) {
          const i = list[k];
          const offset = j - i;
          if (offset < opts.minGapFrames || seen.has(offset) || !same(i, j)) continue;
          seen.add(offset);
          const run = active.get(offset);
          if (run) next.set(offset, { start: run.start, length: run.length + 1 });
          else if (movedAway(i, j)) next.set(offset, { start: j, length: 1 });
        }
      }
      // Continue runs along their diagonal even when the bucket cap hid the candidate.
      for (const [offset, run] of active) {
        if (!next.has(offset) && j - offset >= 0 && same(j - offset, j)) {
          next.set(offset, { start: run.start, length: run.length + 1 });
        }
      }
      keys.forEach((key, b) => {
        const list = bands[b].get(key);
        if (list) list.push(j);
        else bands[b].set(key, [j]);
      });
    }
    for (const [offset, run] of active) if (!next.has(offset)) close(offset, run);
    active = next;
  }
  for (const [offset, run] of active) close(offset, run);
  return mergeOverlapping(found);
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
