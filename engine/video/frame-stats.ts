// Per-frame statistics of the downscaled luma picture, computed as frames stream out of the single decode pass.
// Luma arrives as ffmpeg `gray` (range-expanded: 0 = reference black, 255 = reference white).
import type { CanvasSignals, VideoFrameStats } from '../types.js';
import { RepeatFinder, type RepeatedSequence } from './loops.js';
import { median } from '../gates/kit/stats.js';

/** Pixels at or below this share of the luma range count as black (ffmpeg blackdetect pix_th default). */
export const BLACK_PIXEL_LEVEL = 0.1;
const BLACK_PIXEL_CODE = Math.round(BLACK_PIXEL_LEVEL * 255);
/** A bar row/column is flat and near black: its brightest pixel stays at or below this code value. */
const BAR_MAX_CODE = 32;
/** Frames darker than this (intros, fades, black) do not vote on the canvas. */
const CANVAS_MIN_MEAN = 0.12;
const CANVAS_MAX_DARK = 0.85;
/** Padding must cover at least this share of a dimension per side to count in a frame. */
const MIN_PAD_FRACTION = 0.02;
/** A frame's padding extents must lie this close (fraction of the dimension) to the median extents to count. */
const PAD_COHERENCE = 0.02;
/** Side band detail below this share of the centre's detail reads as blurred or flat fill. */
const FILL_DETAIL_RATIO = 0.5;
/** Left/right (or top/bottom) fill must be this symmetric, as centred content on a padded canvas is. */
const FILL_SYMMETRY = 0.05;

interface PerFrameCanvas {
  bars: [number, number, number, number];
  fill: [number, number, number, number] | null;
}

const MAX_STILLS = 240;
/**
 * Change is also measured per cell of about this many analysis pixels a side (16×9 cells on 16:9), so a caret, a
 * pointer or a waveform that changes a few pixels is seen even when the whole-frame mean hardly moves.
 */
const CELL_SIDE = 12;
/** A cell whose mean absolute change reaches this (code values) changed at all: decoded repeats measure 0. */
export const CHANGED_CELL_CODES = 0.1;
/**
 * A frame whose most-changed cell changed less than this (code values) repeats its predecessor: decoded duplicates
 * measure 0 and an encoder refining a held picture stays under ~0.35, while a caret, a pointer or the slowest zoom
 * measure about 0.7 and more.
 */
export const STILL_CHANGE_CODES = 0.5;

export class VideoFrameAccumulator {
  private readonly fps: number;
  private previous: Uint8Array | null = null;
  private readonly frames: VideoFrameStats[] = [];
  private readonly repeats: RepeatFinder;
  private readonly stills: { atSeconds: number; gray: Uint8Array }[] = [];
  private readonly stillEvery: number;
  private readonly canvas: PerFrameCanvas[] = [];
  private readonly colDetail: Float64Array;
  private readonly rowDetail: Float64Array;
  /** Cell of each analysis pixel, pixels per cell, and the cells' summed change in the current frame. */
  private readonly cellOf: Uint16Array;
  private readonly cellArea: Float64Array;
  private readonly cellChange: Float64Array;

  constructor(
    readonly width: number,
    readonly height: number,
    fps: number,
    durationSeconds = 0,
    private readonly startSeconds = 0,
  ) {
    this.repeats = new RepeatFinder(fps > 0 ? fps : 1);
    // One still a second, or fewer for long programmes: at most MAX_STILLS.
    this.stillEvery = fps > 0 ? Math.max(1, Math.round(fps * Math.max(1, durationSeconds / MAX_STILLS))) : 1;
    this.fps = fps;
    this.colDetail = new Float64Array(width);
    this.rowDetail = new Float64Array(height);
    const cols = Math.max(1, Math.round(width / CELL_SIDE));
    const rows = Math.max(1, Math.round(height / CELL_SIDE));
    this.cellOf = new Uint16Array(width * height);
    this.cellArea = new Float64Array(cols * rows);
    this.cellChange = new Float64Array(cols * rows);
    for (let y = 0; y < height; y++) {
      const row = Math.min(rows - 1, Math.floor((y * rows) / height)) * cols;
      for (let x = 0; x < width; x++) {
        const c = row + Math.min(cols - 1, Math.floor((x * cols) / width));
        this.cellOf[y * width + x] = c;
        this.cellArea[c]++;
      }
    }
  }

  get frameCount(): number {
    return this.frames.length;
  }

  push(frame: Uint8Array): void {
    const { width, height, cellOf, cellChange } = this;
    const n = width * height;
    let sum = 0;
    let dark = 0;
    let diff = 0;
    const prev = this.previous;
    cellChange.fill(0);
    for (let i = 0; i < n; i++) {
      const v = frame[i];
      sum += v;
      if (v <= BLACK_PIXEL_CODE) dark++;
      if (prev) {
        const d = Math.abs(v - prev[i]);
        diff += d;
        cellChange[cellOf[i]] += d;
      }
    }
    let peak = 0;
    let changed = 0;
    for (let c = 0; c < cellChange.length; c++) {
      const m = cellChange[c] / this.cellArea[c];
      if (m > peak) peak = m;
      if (m >= CHANGED_CELL_CODES) changed++;
    }
    const stats: VideoFrameStats = {
      mean: sum / n / 255,
      darkFraction: dark / n,
      diff: prev ? diff / n / 255 : 0,
      peakChange: prev ? peak : 0,
      changedShare: prev ? changed / cellChange.length : 0,
    };
    if (this.frames.length % this.stillEvery === 0) {
      this.stills.push({ atSeconds: this.startSeconds + (this.fps > 0 ? this.frames.length / this.fps : 0), gray: frame });
    }
    this.frames.push(stats);
    const [hi, lo, thumb] = differenceHash(frame, width, height);
    this.repeats.push(hi, lo, thumb, stats.peakChange > STILL_CHANGE_CODES && stats.darkFraction < 0.98);
    if (stats.mean >= CANVAS_MIN_MEAN && stats.darkFraction <= CANVAS_MAX_DARK) this.canvas.push(this.canvasOf(frame));
    // Reuse the buffer: the reader hands us a fresh copy per frame.
    this.previous = frame;
  }

  private canvasOf(frame: Uint8Array): PerFrameCanvas {
    const { width, height, colDetail, rowDetail } = this;
    colDetail.fill(0);
    rowDetail.fill(0);
    // Second differences (a Laplacian) measure fine detail and stay low on smooth, blurred areas.
    for (let y = 1; y < height - 1; y++) {
      const row = y * width;
      for (let x = 1; x < width - 1; x++) {
        const v2 = 2 * frame[row + x];
        const d = Math.abs(v2 - frame[row + x - 1] - frame[row + x + 1]) + Math.abs(v2 - frame[row - width + x] - frame[row + width + x]);
        colDetail[x] += d;
        rowDetail[y] += d;
      }
    }
    const bars = barExtents(frame, width, height);
    return { bars, fill: fillExtents(frame, colDetail, rowDetail, bars, width, height) };
  }

  finish(): { frames: VideoFrameStats[]; repeats: RepeatedSequence[]; canvas: CanvasSignals; stills: { atSeconds: number; gray: Uint8Array }[] } {
    return { frames: this.frames, repeats: this.repeats.finish(), canvas: summariseCanvas(this.canvas), stills: this.stills };
  }
}

/** Side of the square thumbnail grid kept per frame (block means), for verifying repeated pictures. */
const THUMB_SIDE = 24;

function blockMeans(frame: Uint8Array, width: number, height: number, cols: number, rows: number): Float64Array {
  const cells = new Float64Array(cols * rows);
  for (let gy = 0; gy < rows; gy++) {
    const y0 = Math.floor((gy * height) / rows);
    const y1 = Math.max(y0 + 1, Math.floor(((gy + 1) * height) / rows));
    for (let gx = 0; gx < cols; gx++) {
      const x0 = Math.floor((gx * width) / cols);
      const x1 = Math.max(x0 + 1, Math.floor(((gx + 1) * width) / cols));
      let s = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) s += frame[y * width + x];
      cells[gy * cols + gx] = s / ((y1 - y0) * (x1 - x0));
    }
  }
  return cells;
}

/**
 * 64-bit difference hash on a 9×8 grid of block means (robust to encoding noise, used to find candidates),
 * plus a 24×24 thumbnail used to confirm that two pictures really are the same.
 */
function differenceHash(frame: Uint8Array, width: number, height: number): [number, number, Uint8Array] {
  const cells = blockMeans(frame, width, height, 9, 8);
  const thumb = Uint8Array.from(blockMeans(frame, width, height, THUMB_SIDE, THUMB_SIDE), (v) => Math.round(v));
  let hi = 0;
  let lo = 0;
  for (let gy = 0; gy < 8; gy++) {
    for (let gx = 0; gx < 8; gx++) {
      const bit = cells[gy * 9 + gx] > cells[gy * 9 + gx + 1] + 1 ? 1 : 0;
      const k = gy * 8 + gx;
      if (k < 32) hi = (hi | (bit << k)) >>> 0;
      else lo = (lo | (bit << (k - 32))) >>> 0;
    }
  }
  return [hi, lo, thumb];
}

/** Flat near-black rows from the top and bottom, columns from the left and right, as fractions. */
function barExtents(frame: Uint8Array, width: number, height: number): [number, number, number, number] {
  const rowIsBar = (y: number) => {
    for (let x = 0; x < width; x++) if (frame[y * width + x] > BAR_MAX_CODE) return false;
    return true;
  };
  const colIsBar = (x: number) => {
    for (let y = 0; y < height; y++) if (frame[y * width + x] > BAR_MAX_CODE) return false;
    return true;
  };
  let top = 0;
  while (top < height / 2 && rowIsBar(top)) top++;
  let bottom = 0;
  while (bottom < height / 2 && rowIsBar(height - 1 - bottom)) bottom++;
  let left = 0;
  while (left < width / 2 && colIsBar(left)) left++;
  let right = 0;
  while (right < width / 2 && colIsBar(width - 1 - right)) right++;
  return [top / height, bottom / height, left / width, right / width];
}

const SMOOTH_RADIUS = 2;

/** Length of the low-detail run from one end of a profile (smoothed over 5 lines), given the detail level of the centre. */
function lowDetailRun(profile: Float64Array, from: number, step: 1 | -1, skip: number, limit: number, centre: number): number {
  let run = 0;
  for (let i = from + step * skip; run < limit; i += step) {
    let sum = 0;
    let n = 0;
    for (let k = -SMOOTH_RADIUS; k <= SMOOTH_RADIUS; k++) {
      const v = profile[i + k];
      if (v !== undefined && i + k > 0 && i + k < profile.length - 1) {
        sum += v;
        n++;
      }
    }
    if (n > 0 && sum / n >= centre * FILL_DETAIL_RATIO) break;
    run++;
  }
  return run;
}

/** Median detail of the central fifth: robust to a few very sharp lines. */
function centreDetail(profile: Float64Array, len: number): number {
  const a = Math.floor(len * 0.4);
  const b = Math.max(a + 1, Math.ceil(len * 0.6));
  return median(profile.subarray(a, b));
}

/**
 * Low-detail bands on both sides of one axis that are not bars: blurred or flat fill around centred content.
 * Returns [top, bottom, left, right] fractions (including any bars inside them), or null when the centre is too flat to judge.
 */
function fillExtents(
  frame: Uint8Array,
  colDetail: Float64Array,
  rowDetail: Float64Array,
  bars: [number, number, number, number],
  width: number,
  height: number,
): [number, number, number, number] | null {
  const colCentre = centreDetail(colDetail, width - 1);
  const rowCentre = centreDetail(rowDetail, height - 1);
  if (colCentre < height || rowCentre < width) return null;
  const side = (profile: Float64Array, len: number, centre: number, barA: number, barB: number, line: Line): [number, number] => {
    const skipA = Math.round(barA * (len + 1));
    const skipB = Math.round(barB * (len + 1));
    const limit = Math.floor(len * 0.45);
    const runA = lowDetailRun(profile, 1, 1, skipA, limit - skipA, centre);
    const runB = lowDetailRun(profile, len - 2, -1, skipB, limit - skipB, centre);
    const a = (skipA + runA) / (len + 1);
    const b = (skipB + runB) / (len + 1);
    const symmetric = Math.abs(a - b) <= FILL_SYMMETRY && Math.min(a - barA, b - barB) >= MIN_PAD_FRACTION;
    const seams = symmetric && hasSeam(line, len + 1, 1 + skipA + runA, 1) && hasSeam(line, len + 1, len - 2 - skipB - runB, -1);
    return seams ? [a, b] : [barA, barB];
  };
  const [left, right] = side(colDetail, width - 1, colCentre, bars[2], bars[3], { across: height, at: (u, v) => frame[v * width + u] });
  const [top, bottom] = side(rowDetail, height - 1, rowCentre, bars[0], bars[1], { across: width, at: (u, v) => frame[u * width + v] });
  return [top, bottom, left, right];
}

/** Pixels along one axis of the picture: `at(u, v)` is the pixel at position u of the axis and v across it. */
interface Line {
  across: number;
  at: (u: number, v: number) => number;
}

/** Search this many lines either side of where the low-detail band ends for the edge of the content. */
const SEAM_SEARCH = 3;
/** A seam step counts on a line position when the picture changes by at least this (code values) across it. */
const SEAM_STEP_CODES = 6;
/** ... on at least this share of the line, */
const SEAM_LINE_SHARE = 0.5;
/** ... and its mean step is this many times the step inside the fill. */
const SEAM_CONTRAST = 3;

/** Mean absolute change across the line between positions u−2 and u (an area-scaled edge spreads over two pixels), and the share of the line over SEAM_STEP_CODES. */
function stepAcross(line: Line, u: number): { mean: number; share: number } {
  let sum = 0;
  let over = 0;
  for (let v = 0; v < line.across; v++) {
    const d = Math.abs(line.at(u, v) - line.at(u - 2, v));
    sum += d;
    if (d >= SEAM_STEP_CODES) over++;
  }
  return { mean: sum / line.across, share: over / line.across };
}

/**
 * Padding meets the content along a straight line: a step across the whole height (or width) where the smooth fill
 * ends. A soft-focus photo, a caption box or a vignette grows detail gradually or only in part of the line, and has
 * none. `end` is the first position past the low-detail band; `inward` points from the fill into the content.
 */
function hasSeam(line: Line, len: number, end: number, inward: 1 | -1): boolean {
  // The step between u−2 and u sits on the fill side when looking from the left/top, on the content side from the right/bottom.
  const stepAt = (k: number) => (inward === 1 ? stepAcross(line, k) : stepAcross(line, k + 2));
  const inside = (k: number) => k - 2 >= 0 && k < len;
  let best = { mean: 0, share: 0 };
  for (let k = end - SEAM_SEARCH; k <= end + SEAM_SEARCH; k++) {
    if (!inside(inward === 1 ? k : k + 2)) continue;
    const st = stepAt(k);
    if (st.mean > best.mean) best = st;
  }
  let fill = 0;
  let n = 0;
  for (let k = end - inward * (SEAM_SEARCH + 3); n < 4; k -= inward, n++) {
    if (!inside(inward === 1 ? k : k + 2)) break;
    fill += stepAt(k).mean;
  }
  const fillStep = n ? fill / n : 0;
  return best.share >= SEAM_LINE_SHARE && best.mean >= SEAM_CONTRAST * fillStep;
}

const medianOrZero = (values: number[]): number => (values.length ? median(values) : 0);

function summariseCanvas(frames: PerFrameCanvas[]): CanvasSignals {
  const bar = (i: number) => medianOrZero(frames.map((f) => f.bars[i]));
  const judged = frames.filter((f) => f.fill !== null);
  const fillOnly = (i: number) => medianOrZero(judged.map((f) => Math.max(0, (f.fill as number[])[i] - f.bars[i])));
  const padded = (f: PerFrameCanvas, v: number[]) => (v[0] >= MIN_PAD_FRACTION && v[1] >= MIN_PAD_FRACTION) || (v[2] >= MIN_PAD_FRACTION && v[3] >= MIN_PAD_FRACTION);
  // Padding is coherent over time: a frame votes for it only with extents near the programme's median ones.
  const share = (list: PerFrameCanvas[], pick: (f: PerFrameCanvas) => number[]) => {
    if (!list.length) return 0;
    const med = [0, 1, 2, 3].map((i) => median(list.map((f) => pick(f)[i])));
    const coherent = (v: number[]) => v.every((x, i) => Math.abs(x - med[i]) <= PAD_COHERENCE);
    return list.filter((f) => padded(f, pick(f)) && coherent(pick(f))).length / list.length;
  };
  return {
    framesConsidered: frames.length,
    barTopFraction: bar(0),
    barBottomFraction: bar(1),
    barLeftFraction: bar(2),
    barRightFraction: bar(3),
    blurTopFraction: fillOnly(0),
    blurBottomFraction: fillOnly(1),
    blurLeftFraction: fillOnly(2),
    blurRightFraction: fillOnly(3),
    barFramesShare: share(frames, (f) => f.bars),
    blurFramesShare: share(judged, (f) => (f.fill as number[]).map((v, i) => v - f.bars[i])),
  };
}
