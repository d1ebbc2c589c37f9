// Per-frame statistics of the downscaled luma picture, computed as frames stream out of the single decode pass.
// Luma arrives as ffmpeg `gray` (range-expanded: 0 = reference black, 255 = reference white).
import type { CanvasSignals, VideoFrameSeries, VideoFrameStats } from '../types.js';
import { GrowableArray } from '../growable-array.js';
import { FrameSeriesBuilder } from './frame-series.js';
import { RepeatFinder, type RepeatedSequence } from './loops.js';
import { median } from '../gates/kit/stats.js';
import { PixelSums } from './pixel-sums.js';

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

/** Extents [top, bottom, left, right] in rows (top, bottom) or columns (left, right) of the analysis picture. */
type Extents = [number, number, number, number];

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
  /**
   * The per-pixel sums, which keep their own copy of the previous frame: the frame handed to push may be reused by the
   * caller once push returns.
   */
  private readonly pixels: PixelSums;
  private hasPrevious = false;
  private readonly frames = new FrameSeriesBuilder();
  private readonly repeats: RepeatFinder;
  private readonly stills: { atSeconds: number; gray: Uint8Array }[] = [];
  private readonly stillEvery: number;
  private readonly canvas: CanvasVotes;
  /** The change cells, the hash grid and the thumbnail grid, all summed in one pass over the frame. */
  private readonly grids: FrameGrids;

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
    this.pixels = new PixelSums(width, height, BLACK_PIXEL_CODE);
    this.grids = new FrameGrids(width, height, this.pixels.colSum, this.pixels.colChange);
    this.canvas = new CanvasVotes(width, height);
  }

  get frameCount(): number {
    return this.frames.length;
  }

  /** One frame of `width`×`height` luma; it is not kept, so the caller may reuse its buffer once this returns. */
  push(frame: Uint8Array): void {
    const { width, height, grids, pixels } = this;
    const n = width * height;
    const hasPrev = this.hasPrevious;
    let dark = 0;
    grids.reset();
    pixels.load(frame);
    // Integer sums throughout (per column over a band of rows, then per block): the means below divide exactly the
    // same totals as a pass per statistic would.
    let bandStart = 0;
    for (const y of grids.foldRows) {
      dark += pixels.band(bandStart, y + 1, hasPrev);
      grids.fold(y, grids.foldAfterRow[y]);
      bandStart = y + 1;
    }
    const { sum, cells } = grids;
    let diff = 0;
    let peak = 0;
    let changed = 0;
    for (let c = 0; c < cells.sums.length; c++) {
      diff += cells.sums[c];
      const m = cells.sums[c] / cells.area[c];
      if (m > peak) peak = m;
      if (m >= CHANGED_CELL_CODES) changed++;
    }
    const stats: VideoFrameStats = {
      mean: sum / n / 255,
      darkFraction: dark / n,
      diff: hasPrev ? diff / n / 255 : 0,
      peakChange: hasPrev ? peak : 0,
      changedShare: hasPrev ? changed / cells.sums.length : 0,
    };
    if (this.frames.length % this.stillEvery === 0) {
      this.stills.push({ atSeconds: this.startSeconds + (this.fps > 0 ? this.frames.length / this.fps : 0), gray: new Uint8Array(frame) });
    }
    this.frames.push(stats);
    const thumb = grids.thumbnail(frame);
    this.repeats.push(grids.hashHi, grids.hashLo, thumb, stats.peakChange > STILL_CHANGE_CODES && stats.darkFraction < 0.98);
    if (stats.mean >= CANVAS_MIN_MEAN && stats.darkFraction <= CANVAS_MAX_DARK) this.voteCanvas(frame);
    this.hasPrevious = true;
  }

  private voteCanvas(frame: Uint8Array): void {
    const { width, height, pixels } = this;
    // Second differences (a Laplacian) measure fine detail and stay low on smooth, blurred areas.
    pixels.detail();
    const bars = barExtents(frame, width, height);
    this.canvas.push(bars, fillExtents(frame, pixels.colDetail, pixels.rowDetail, bars, width, height));
  }

  finish(): { frames: VideoFrameSeries; repeats: RepeatedSequence[]; canvas: CanvasSignals; stills: { atSeconds: number; gray: Uint8Array }[] } {
    return { frames: this.frames.finish(), repeats: this.repeats.finish(), canvas: this.canvas.summarise(), stills: this.stills };
  }
}

/** Side of the square thumbnail grid kept per frame (block means), for verifying repeated pictures. */
const THUMB_SIDE = 24;
/** The difference hash compares neighbours on a grid of this many block means. */
const HASH_COLS = 9;
const HASH_ROWS = 8;

/** Bounds of block `g` of `count` along a side of `length` pixels (at least one pixel). */
function blockBounds(g: number, count: number, length: number): [number, number] {
  const a = Math.floor((g * length) / count);
  return [a, Math.max(a + 1, Math.floor(((g + 1) * length) / count))];
}

function blockMeans(frame: Uint8Array, width: number, height: number, cols: number, rows: number): Float64Array {
  const cells = new Float64Array(cols * rows);
  for (let gy = 0; gy < rows; gy++) {
    const [y0, y1] = blockBounds(gy, rows, height);
    for (let gx = 0; gx < cols; gx++) {
      const [x0, x1] = blockBounds(gx, cols, width);
      let s = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) s += frame[y * width + x];
      cells[gy * cols + gx] = s / ((y1 - y0) * (x1 - x0));
    }
  }
  return cells;
}

/** A grid of blocks that tiles the picture (each pixel in exactly one block), with its per-frame integer sums. */
class Grid {
  readonly area: Float64Array;
  readonly sums: Int32Array;
  readonly means: Float64Array;

  constructor(
    readonly cols: number,
    rows: number,
    readonly rowOf: Int32Array,
    readonly colOf: Int32Array,
  ) {
    this.area = new Float64Array(cols * rows);
    for (const r of rowOf) for (const c of colOf) this.area[r * cols + c]++;
    this.sums = new Int32Array(cols * rows);
    this.means = new Float64Array(cols * rows);
  }

  /** Adds sums over a band of rows within block row `rowOf[y]`, given per column group (`colOfGroup`: the block column of each group). */
  addBand(y: number, groupSums: Int32Array, colOfGroup: Int32Array): void {
    const base = this.rowOf[y] * this.cols;
    const sums = this.sums;
    for (let k = 0; k < groupSums.length; k++) sums[base + colOfGroup[k]] += groupSums[k];
  }

  /** True when block rows change after row `y` (or the picture ends). */
  rowEndsAt(y: number): boolean {
    return y === this.rowOf.length - 1 || this.rowOf[y + 1] !== this.rowOf[y];
  }

  meanValues(): Float64Array {
    const { means, sums, area } = this;
    for (let k = 0; k < means.length; k++) means[k] = sums[k] / area[k];
    return means;
  }
}

/** The blocks of the hash or thumbnail grid (`count` a side, as blockMeans cuts them) along a side of `length`. */
function blockIndex(length: number, count: number): Int32Array {
  const of = new Int32Array(length);
  for (let g = 0; g < count; g++) {
    const [a, b] = blockBounds(g, count, length);
    of.fill(g, a, b);
  }
  return of;
}

/** The change cells along a side of `length` pixels cut into `count`. */
function cellIndex(length: number, count: number): Int32Array {
  return Int32Array.from({ length }, (_, k) => Math.min(count - 1, Math.floor((k * count) / length)));
}

/** Groups of consecutive columns in one block column of every grid: each column's group, and each group's block column per grid. */
function columnGroups(width: number, grids: Grid[]): { groupOf: Int32Array; colOfGroup: Int32Array[] } {
  const groupOf = new Int32Array(width);
  for (let x = 1; x < width; x++) groupOf[x] = groupOf[x - 1] + (grids.some((g) => g.colOf[x] !== g.colOf[x - 1]) ? 1 : 0);
  const count = width > 0 ? groupOf[width - 1] + 1 : 0;
  const colOfGroup = grids.map((g) => {
    const of = new Int32Array(count);
    for (let x = 0; x < width; x++) of[groupOf[x]] = g.colOf[x];
    return of;
  });
  return { groupOf, colOfGroup };
}

/**
 * The change cells, the 9×8 hash grid and the 24×24 thumbnail grid of a frame, summed while the frame is read once:
 * per-column sums build up over a band of rows that lies within one block row of a grid and are then folded into it
 * (the pixel sums through groups of columns shared by the hash and thumbnail grids). The hash and thumbnail blocks
 * overlap where the picture is smaller than their grid; they are then summed block by block instead.
 */
class FrameGrids {
  /** Per-column sums of the pixel values and of their change since the previous frame, over the current band. */
  readonly colSum: Int32Array;
  readonly colChange: Int32Array;
  /** Bit 1: a band of pixel sums ends on this row (at least the last row); bit 2: a band of change sums ends on it. */
  readonly foldAfterRow: Uint8Array;
  /** The rows on which some band ends, in order. */
  readonly foldRows: number[];
  readonly cells: Grid;
  /** The frame's pixel total, complete after the last row. */
  sum = 0;
  hashHi = 0;
  hashLo = 0;
  private readonly hash: Grid;
  private readonly thumb: Grid;
  private readonly tiled: boolean;
  private readonly groupOf: Int32Array;
  private readonly groupSum: Int32Array;
  private readonly hashColOfGroup: Int32Array;
  private readonly thumbColOfGroup: Int32Array;
  private readonly cellColOfColumn: Int32Array;

  /** `colSum` and `colChange` are where the pixel sums add up (PixelSums). */
  constructor(
    private readonly width: number,
    private readonly height: number,
    colSum: Int32Array,
    colChange: Int32Array,
  ) {
    this.colSum = colSum;
    this.colChange = colChange;
    const cols = Math.max(1, Math.round(width / CELL_SIDE));
    const rows = Math.max(1, Math.round(height / CELL_SIDE));
    this.cells = new Grid(cols, rows, cellIndex(height, rows), cellIndex(width, cols));
    this.cellColOfColumn = this.cells.colOf;
    this.hash = new Grid(HASH_COLS, HASH_ROWS, blockIndex(height, HASH_ROWS), blockIndex(width, HASH_COLS));
    this.thumb = new Grid(THUMB_SIDE, THUMB_SIDE, blockIndex(height, THUMB_SIDE), blockIndex(width, THUMB_SIDE));
    this.tiled = width >= THUMB_SIDE && height >= THUMB_SIDE;
    const { groupOf, colOfGroup } = columnGroups(width, [this.hash, this.thumb]);
    this.groupOf = groupOf;
    this.groupSum = new Int32Array(colOfGroup[0].length);
    [this.hashColOfGroup, this.thumbColOfGroup] = colOfGroup;
    this.foldAfterRow = Uint8Array.from(
      { length: height },
      (_, y) => (y === height - 1 || (this.tiled && (this.hash.rowEndsAt(y) || this.thumb.rowEndsAt(y))) ? 1 : 0) | (this.cells.rowEndsAt(y) ? 2 : 0),
    );
    this.foldRows = [...this.foldAfterRow.keys()].filter((y) => this.foldAfterRow[y] !== 0);
  }

  reset(): void {
    this.sum = 0;
    this.colSum.fill(0);
    this.colChange.fill(0);
    this.cells.sums.fill(0);
    this.hash.sums.fill(0);
    this.thumb.sums.fill(0);
  }

  /** Adds the column sums of the band ending at row `y` to the grids it completes (`what`: the foldAfterRow bits). */
  fold(y: number, what: number): void {
    if (what & 1) {
      const { colSum, groupOf, groupSum } = this;
      groupSum.fill(0);
      for (let x = 0; x < colSum.length; x++) groupSum[groupOf[x]] += colSum[x];
      for (let k = 0; k < groupSum.length; k++) this.sum += groupSum[k];
      if (this.tiled) {
        this.hash.addBand(y, groupSum, this.hashColOfGroup);
        this.thumb.addBand(y, groupSum, this.thumbColOfGroup);
      }
      colSum.fill(0);
    }
    if (what & 2) {
      this.cells.addBand(y, this.colChange, this.cellColOfColumn);
      this.colChange.fill(0);
    }
  }

  /**
   * After the pass over `frame`: sets the 64-bit difference hash on the 9×8 grid (robust to encoding noise, used to
   * find candidates) and returns the 24×24 thumbnail used to confirm that two pictures really are the same.
   */
  thumbnail(frame: Uint8Array): Uint8Array {
    const { width, height } = this;
    const cells = this.tiled ? this.hash.meanValues() : blockMeans(frame, width, height, HASH_COLS, HASH_ROWS);
    const thumbMeans = this.tiled ? this.thumb.meanValues() : blockMeans(frame, width, height, THUMB_SIDE, THUMB_SIDE);
    const thumb = new Uint8Array(thumbMeans.length);
    for (let k = 0; k < thumb.length; k++) thumb[k] = Math.round(thumbMeans[k]);
    let hi = 0;
    let lo = 0;
    for (let gy = 0; gy < HASH_ROWS; gy++) {
      for (let gx = 0; gx < HASH_ROWS; gx++) {
        const bit = cells[gy * HASH_COLS + gx] > cells[gy * HASH_COLS + gx + 1] + 1 ? 1 : 0;
        const k = gy * HASH_ROWS + gx;
        if (k < 32) hi = (hi | (bit << k)) >>> 0;
        else lo = (lo | (bit << (k - 32))) >>> 0;
      }
    }
    this.hashHi = hi;
    this.hashLo = lo;
    return thumb;
  }
}

/** Flat near-black rows from the top and bottom, columns from the left and right. */
function barExtents(frame: Uint8Array, width: number, height: number): Extents {
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
  return [top, bottom, left, right];
}

const SMOOTH_RADIUS = 2;

/** Length of the low-detail run from one end of a profile (smoothed over 5 lines), given the detail level of the centre. */
function lowDetailRun(profile: Int32Array, from: number, step: 1 | -1, skip: number, limit: number, centre: number): number {
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
function centreDetail(profile: Int32Array, len: number): number {
  const a = Math.floor(len * 0.4);
  const b = Math.max(a + 1, Math.ceil(len * 0.6));
  return median(profile.subarray(a, b));
}

/**
 * Low-detail bands on both sides of one axis that are not bars: blurred or flat fill around centred content.
 * Returns their extents (including any bars inside them), or null when the centre is too flat to judge.
 */
function fillExtents(
  frame: Uint8Array,
  colDetail: Int32Array,
  rowDetail: Int32Array,
  bars: Extents,
  width: number,
  height: number,
): Extents | null {
  const colCentre = centreDetail(colDetail, width - 1);
  const rowCentre = centreDetail(rowDetail, height - 1);
  if (colCentre < height || rowCentre < width) return null;
  const side = (profile: Int32Array, len: number, centre: number, barA: number, barB: number, line: Line): [number, number] => {
    const limit = Math.floor(len * 0.45);
    const endA = barA + lowDetailRun(profile, 1, 1, barA, limit - barA, centre);
    const endB = barB + lowDetailRun(profile, len - 2, -1, barB, limit - barB, centre);
    const [a, b] = [endA / (len + 1), endB / (len + 1)];
    const symmetric = Math.abs(a - b) <= FILL_SYMMETRY && Math.min(a - barA / (len + 1), b - barB / (len + 1)) >= MIN_PAD_FRACTION;
    const seams = symmetric && hasSeam(line, len + 1, 1 + endA, 1) && hasSeam(line, len + 1, len - 2 - endB, -1);
    return seams ? [endA, endB] : [barA, barB];
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

/** Values kept per content frame: its bar extents, then its fill extents. */
const VOTE = 8;
/** The fill extents of a frame whose fill could not be judged. */
const UNJUDGED = 0xffff;

/**
 * Each content frame's bar and fill extents in rows and columns (two bytes each, not a double), summarised over the
 * programme at the end as shares of the picture's height or width.
 */
class CanvasVotes {
  private readonly lines = new GrowableArray((n) => new Uint16Array(n));
  /** The dimension each extent is a share of: height for top and bottom, width for left and right. */
  private readonly across: Extents;

  constructor(width: number, height: number) {
    this.across = [height, height, width, width];
  }

  push(bars: Extents, fill: Extents | null): void {
    for (const v of bars) this.lines.push(v);
    for (let i = 0; i < 4; i++) this.lines.push(fill ? fill[i] : UNJUDGED);
  }

  summarise(): CanvasSignals {
    const lines = this.lines.view();
    const across = this.across;
    const frames = Array.from({ length: lines.length / VOTE }, (_, k) => k);
    const bars = (k: number, i: number) => lines[VOTE * k + i] / across[i];
    const fill = (k: number, i: number) => lines[VOTE * k + 4 + i] / across[i];
    const judged = frames.filter((k) => lines[VOTE * k + 4] !== UNJUDGED);
    const bar = (i: number) => medianOrZero(frames.map((k) => bars(k, i)));
    const fillOnly = (i: number) => medianOrZero(judged.map((k) => Math.max(0, fill(k, i) - bars(k, i))));
    // Padding is coherent over time: a frame votes for it only with extents near the programme's median ones.
    const share = (list: number[], pick: (k: number, i: number) => number) => {
      if (!list.length) return 0;
      const sides = [0, 1, 2, 3];
      const med = sides.map((i) => median(list.map((k) => pick(k, i))));
      const padded = (k: number) => (pick(k, 0) >= MIN_PAD_FRACTION && pick(k, 1) >= MIN_PAD_FRACTION) || (pick(k, 2) >= MIN_PAD_FRACTION && pick(k, 3) >= MIN_PAD_FRACTION);
      const coherent = (k: number) => sides.every((i) => Math.abs(pick(k, i) - med[i]) <= PAD_COHERENCE);
      return list.filter((k) => padded(k) && coherent(k)).length / list.length;
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
      barFramesShare: share(frames, bars),
      blurFramesShare: share(judged, (k, i) => fill(k, i) - bars(k, i)),
    };
  }
}
