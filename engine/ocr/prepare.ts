// The ink of the picture OCR reads: each pixel's distance from the local background, dark on white. With one global
// threshold, white text and black text on a mid-grey background cannot both survive; measured
// against the local background, text of either polarity becomes dark strokes on white and flat or smooth areas vanish.
// The background is the median of a neighbourhood of block medians: text is a minority of any neighbourhood, so the
// median stays on the background even next to big bold titles (a local mean would be pulled up by them and leave a halo).
// On video, flat regions nearby (a caption's backing box, a panel) are candidate backgrounds too, and each pixel is
// measured against the closest candidate: text on a half-transparent box reads against the box, not the picture.
import type { OcrBox, OcrPicture } from './engine.js';

/** Block side as a share of the long side (16 px at 960); the background window is 9 × 9 blocks, a near region 3 × 3. */
const BLOCK_FRACTION = 1 / 60;
const NEIGHBOURHOOD = 4;
const NEAR = 1;
/** Flat regions up to this many blocks away are candidate backgrounds of a pixel. */
const REACH = 3;
/** A near region is flat (a backing box, a plain panel) when the middle half of its block medians lies within this. */
const FLAT_SPREAD = 16;
/** Differences up to FLOOR code values are background texture and become pure white (its ink would otherwise be
 * taken for the words'); beyond it GAIN maps them to darker strokes, full black from 110 code values. */
const FLOOR = 24;
const GAIN = 3;
/** Where the strongest ink nearby is fainter than 110 code values (yellow type on a pale sky), the gain rises so that
 * it becomes full black, up to this (full black from 64 code values). */
const MAX_GAIN = 6;

/**
 * The median of the block medians (whole code values) within `radius` blocks, from a histogram rather than a sort: it
 * runs for every block of every picture read. The mean of the two middle values for an even count, as stats.median.
 */
function windowMedian(medians: Float64Array, cols: number, rows: number, bx: number, by: number, radius: number, hist: Uint16Array): number {
  hist.fill(0);
  let n = 0;
  for (let y = Math.max(0, by - radius); y <= Math.min(rows - 1, by + radius); y++) {
    for (let x = Math.max(0, bx - radius); x <= Math.min(cols - 1, bx + radius); x++) {
      hist[medians[y * cols + x]]++;
      n++;
    }
  }
  // The values of rank n >> 1 (and, for an even count, the one below it), counting from 0.
  const upper = n >> 1;
  const lower = n % 2 ? upper : upper - 1;
  let seen = 0;
  let v = 0;
  while (seen + hist[v] <= lower) seen += hist[v++];
  const low = v;
  while (seen + hist[v] <= upper) seen += hist[v++];
  return (low + v) / 2;
}

/** The block medians within NEAR blocks, sorted in place (an insertion sort: at most nine, for every block read). */
const nearMedians = new Float64Array((2 * NEAR + 1) ** 2);

/** The median of a near neighbourhood whose middle half of block medians lies within FLAT_SPREAD, else NaN. */
function flatMedian(medians: Float64Array, cols: number, rows: number, bx: number, by: number): number {
  const near = nearMedians;
  let n = 0;
  for (let y = Math.max(0, by - NEAR); y <= Math.min(rows - 1, by + NEAR); y++) {
    for (let x = Math.max(0, bx - NEAR); x <= Math.min(cols - 1, bx + NEAR); x++) {
      const v = medians[y * cols + x];
      let i = n++;
      for (; i > 0 && near[i - 1] > v; i--) near[i] = near[i - 1];
      near[i] = v;
    }
  }
  const q = n >> 2;
  return near[n - 1 - q] - near[q] <= FLAT_SPREAD ? near[n >> 1] : NaN;
}

/** A pixel is ink of one polarity when it is more than FLOOR code values lighter (or darker) than its background. */
const LIGHT = 1;
const DARK = 2;
/** Both polarities are present in a region (an outline around a fill, a badge around its words) when each covers this share of it. */
const BOTH_SHARE = 0.02;
/** Blocks around a block whose ink decides its polarity (5 × 5), and whose decisions spread to it. */
const POLARITY_REACH = 2;
/** Pixels this close (px, along a row or column) count as touching: the anti-aliased edge between fill and outline is skipped. */
const TOUCH = 2;
/** A polarity is enclosed by the other (a fill in its outline, words in their badge) when at least this share of its
 * edge touches the other; a sure decision needs ENCLOSED_SURE and spreads to the blocks around. */
const ENCLOSED = 0.6;
const ENCLOSED_SURE = 0.75;

/** A block's candidate backgrounds, distinct, in the order they were found (the earlier wins a tie). */
class Backgrounds {
  count = 0;
  private readonly values: Float64Array;
  private readonly sorted: Float64Array;
  private readonly ranks: Int32Array;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
    this.sorted = new Float64Array(capacity);
    this.ranks = new Int32Array(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  /** Adds `value` unless it is already listed. */
  add(value: number): void {
    for (let i = 0; i < this.count; i++) if (this.values[i] === value) return;
    this.values[this.count++] = value;
  }

  /**
   * `out[v]`, for every code value v from `from` to `to`: v minus the closest candidate, the earlier listed on a tie,
   * or 255 where none is closer than 255. The same as scanning the list for each v, from a sweep over the sorted
   * candidates.
   */
  differences(out: Float64Array, from: number, to: number): void {
    const n = this.count;
    for (let i = 0; i < n; i++) {
      let j = i;
      while (j > 0 && this.sorted[j - 1] > this.values[i]) {
        this.sorted[j] = this.sorted[j - 1];
        this.ranks[j] = this.ranks[j - 1];
        j--;
      }
      this.sorted[j] = this.values[i];
      this.ranks[j] = i;
    }
    // below: the last sorted candidate at or under v.
    let below = -1;
    for (let v = from; v <= to; v++) {
      while (below + 1 < n && this.sorted[below + 1] <= v) below++;
      let best = 255;
      if (below >= 0) best = v - this.sorted[below];
      if (below + 1 < n) {
        const above = v - this.sorted[below + 1];
        if (below < 0 || -above < best || (-above === best && this.ranks[below + 1] < this.ranks[below])) best = above;
      }
      out[v] = Math.abs(best) < 255 ? best : 255;
    }
  }
}

/** An ink picture worked out only where it is read: `gray` is final inside every box given to `cover` (and anywhere
 * once the whole picture is covered), white elsewhere until then. */
export interface InkPicture extends OcrPicture {
  /** Works the picture out over `box` (px, end exclusive, clipped to the picture). */
  cover(box: OcrBox): void;
}

/** Per-pixel working arrays of a picture's blocks, every element written before it is read: a few sets per picture
 * size, lent from picture to picture (a video's pictures have one size), instead of 2 MB of garbage a picture. A
 * picture whose set is lent on works its blocks' pixels out again when it needs them: they follow from the picture. */
interface Scratch {
  signed: Int16Array;
  bothPolarities: Uint8Array;
  classes: Uint8Array;
  /** The picture it is lent to, held weakly: a picture read no more is not kept for its arrays' sake. */
  owner: WeakRef<LazyInk> | null;
  lent: number;
}

/** Sets per picture size: a sample's frame and the frame it is compared with hold one each. */
const SCRATCH_SETS = 2;
const scratches: Scratch[] = [];
let lendings = 0;

function borrowScratch(picture: LazyInk, pixels: number): Scratch {
  const sameSize = scratches.filter((s) => s.classes.length === pixels);
  let set = sameSize.find((s) => s.owner?.deref() === undefined);
  if (!set && sameSize.length < SCRATCH_SETS) {
    set = { signed: new Int16Array(pixels), bothPolarities: new Uint8Array(pixels), classes: new Uint8Array(pixels), owner: null, lent: 0 };
    scratches.push(set);
    // Sets of a size no longer read go first.
    if (scratches.length > 2 * SCRATCH_SETS) scratches.splice(scratches.findIndex((s) => s.classes.length !== pixels), 1);
  }
  set ??= sameSize.reduce((a, b) => (b.lent < a.lent ? b : a));
  set.owner?.deref()?.loseScratch();
  set.owner = new WeakRef(picture);
  set.lent = ++lendings;
  return set;
}

// Shared by every picture (one block is worked on at a time): each is filled before it is read.
const hist = new Uint16Array(256);
const tables = {
  difference: new Int16Array(256),
  bothInk: new Uint8Array(256),
  classOf: new Uint8Array(256),
  closest: new Float64Array(256),
  closestOnFlat: new Float64Array(256),
  all: new Backgrounds(1 + (2 * REACH + 1) ** 2),
  onFlat: new Backgrounds(1 + (2 * REACH + 1) ** 2),
};

/** What of a block has been worked out (bits of `LazyInk.done`). */
const MEDIANS = 1;
const FLAT = 2;
const PIXELS = 4;
const COUNTS = 8;
const LEAN = 16;
const KEPT = 32;
const STRONGEST = 64;
const GAIN_OF = 128;
const OUT = 256;

/** A block range, ends inclusive. */
interface Blocks {
  bx0: number;
  by0: number;
  bx1: number;
  by1: number;
}

/**
 * {@link localContrastPicture}'s stages, each block's worked out when a covered box needs it: a pixel's ink depends
 * only on blocks within a few blocks of its own (the background window, the flat regions, the polarity decisions and
 * the gain spread over their reaches), so a box's pixels come out as the whole picture's do, bit for bit.
 */
class LazyInk implements InkPicture {
  readonly gray: Uint8Array;
  readonly width: number;
  readonly height: number;
  private readonly size: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly done: Uint16Array;
  private readonly medians: Float64Array;
  private readonly lowest: Uint8Array;
  private readonly highest: Uint8Array;
  private readonly flat: Float64Array;
  /** Per polarity (light at b, dark at n + b): ink pixels, edge pixels (another class within TOUCH), and edge pixels touching the other polarity. */
  private readonly ink: Int32Array;
  private readonly edge: Int32Array;
  private readonly contact: Int32Array;
  private readonly lean: Uint8Array;
  private readonly sure: Uint8Array;
  private readonly kept: Uint8Array;
  private readonly strongest: Float64Array;
  private readonly gains: Float64Array;
  /** Busy tiles tested, per BUSY_TILE tile. */
  private readonly tilesDone: Uint8Array;
  private readonly tileCols: number;
  private scratch: Scratch | null = null;

  constructor(
    private readonly luma: Uint8Array,
    width: number,
    height: number,
    private readonly backingBoxes: boolean,
  ) {
    this.width = width;
    this.height = height;
    this.size = Math.max(4, Math.round(Math.max(width, height) * BLOCK_FRACTION));
    this.cols = Math.ceil(width / this.size);
    this.rows = Math.ceil(height / this.size);
    const n = this.cols * this.rows;
    this.gray = new Uint8Array(width * height).fill(255);
    this.done = new Uint16Array(n);
    this.medians = new Float64Array(n);
    this.lowest = new Uint8Array(n);
    this.highest = new Uint8Array(n);
    this.flat = new Float64Array(n).fill(NaN);
    this.ink = new Int32Array(2 * n);
    this.edge = new Int32Array(2 * n);
    this.contact = new Int32Array(2 * n);
    this.lean = new Uint8Array(n);
    this.sure = new Uint8Array(n);
    this.kept = new Uint8Array(n);
    this.strongest = new Float64Array(n);
    this.gains = new Float64Array(n);
    this.tileCols = Math.ceil(width / BUSY_TILE);
    this.tilesDone = new Uint8Array(this.tileCols * Math.ceil(height / BUSY_TILE));
  }

  cover(box: OcrBox): void {
    const [x0, y0] = [Math.max(0, Math.floor(box.x0)), Math.max(0, Math.floor(box.y0))];
    const [x1, y1] = [Math.min(this.width, Math.ceil(box.x1)), Math.min(this.height, Math.ceil(box.y1))];
    if (x1 <= x0 || y1 <= y0) return;
    for (let ty = Math.floor(y0 / BUSY_TILE); ty <= Math.floor((y1 - 1) / BUSY_TILE); ty++) {
      for (let tx = Math.floor(x0 / BUSY_TILE); tx <= Math.floor((x1 - 1) / BUSY_TILE); tx++) {
        if (this.tilesDone[ty * this.tileCols + tx]) continue;
        this.tilesDone[ty * this.tileCols + tx] = 1;
        this.tile(tx * BUSY_TILE, ty * BUSY_TILE);
      }
    }
  }

  /** Its blocks' per-pixel arrays went to another picture: they are worked out again when needed. */
  loseScratch(): void {
    this.scratch = null;
    for (let b = 0; b < this.done.length; b++) this.done[b] &= ~PIXELS;
  }

  /** The blocks within `reach` blocks of `r`, clipped to the picture. */
  private around(r: Blocks, reach: number): Blocks {
    return { bx0: Math.max(0, r.bx0 - reach), by0: Math.max(0, r.by0 - reach), bx1: Math.min(this.cols - 1, r.bx1 + reach), by1: Math.min(this.rows - 1, r.by1 + reach) };
  }

  /** Whether a block of `r` has not yet done `stage`. */
  private pending(stage: number, r: Blocks): boolean {
    for (let by = r.by0; by <= r.by1; by++) for (let bx = r.bx0; bx <= r.bx1; bx++) if ((this.done[by * this.cols + bx] & stage) === 0) return true;
    return false;
  }

  /** Runs `work` on each block of `r` that has not yet done `stage` (its needs are met by the caller). */
  private each(stage: number, r: Blocks, work: (this: LazyInk, bx: number, by: number, b: number) => void): void {
    for (let by = r.by0; by <= r.by1; by++) {
      for (let bx = r.bx0; bx <= r.bx1; bx++) {
        const b = by * this.cols + bx;
        if (this.done[b] & stage) continue;
        work.call(this, bx, by, b);
        this.done[b] |= stage;
      }
    }
  }

  private blockMedians(r: Blocks): void {
    if (this.pending(MEDIANS, r)) this.each(MEDIANS, r, this.medianOf);
  }

  private flatMedians(r: Blocks): void {
    if (!this.pending(FLAT, r)) return;
    this.blockMedians(this.around(r, NEAR));
    if (this.backingBoxes) this.each(FLAT, r, this.flatOf);
    else for (let by = r.by0; by <= r.by1; by++) for (let bx = r.bx0; bx <= r.bx1; bx++) this.done[by * this.cols + bx] |= FLAT;
  }

  private pixels(r: Blocks): void {
    // A picture without its set has no block's pixels worked out: one is borrowed only when some are to be.
    if (!this.pending(PIXELS, r)) return;
    this.blockMedians(this.around(r, NEIGHBOURHOOD));
    this.flatMedians(this.around(r, REACH));
    this.scratch ??= borrowScratch(this, this.width * this.height);
    this.each(PIXELS, r, this.pixelsOf);
  }

  private counts(r: Blocks): void {
    if (!this.pending(COUNTS, r)) return;
    this.pixels(this.around(r, 1));
    this.each(COUNTS, r, this.countsOf);
  }

  private leanings(r: Blocks): void {
    if (!this.pending(LEAN, r)) return;
    this.counts(this.around(r, POLARITY_REACH));
    this.each(LEAN, r, this.leanOf);
  }

  private keptPolarities(r: Blocks): void {
    if (!this.pending(KEPT, r)) return;
    this.leanings(this.around(r, POLARITY_REACH));
    this.each(KEPT, r, this.keptOf);
  }

  private strongestInk(r: Blocks): void {
    if (!this.pending(STRONGEST, r)) return;
    this.keptPolarities(r);
    this.pixels(r);
    this.each(STRONGEST, r, this.strongestOf);
  }

  private gain(r: Blocks): void {
    if (!this.pending(GAIN_OF, r)) return;
    this.strongestInk(this.around(r, POLARITY_REACH));
    this.each(GAIN_OF, r, this.gainOf);
  }

  private out(r: Blocks): void {
    if (!this.pending(OUT, r)) return;
    this.gain(r);
    this.keptPolarities(r);
    this.pixels(r);
    this.each(OUT, r, this.outOf);
  }

  /** A block's median, and the lowest and highest code value in it. */
  private medianOf(bx: number, by: number, b: number): void {
    const { luma: gray, width: w, height: h, size } = this;
    const counts = hist;
    counts.fill(0);
    let n = 0;
    for (let y = by * size, y1 = Math.min(h, (by + 1) * size); y < y1; y++) {
      for (let i = y * w + bx * size, end = y * w + Math.min(w, (bx + 1) * size); i < end; i++) {
        counts[gray[i]]++;
        n++;
      }
    }
    let seen = 0;
    let v = 0;
    while (v < 255 && counts[v] === 0) v++;
    this.lowest[b] = v;
    while (v < 255 && seen + counts[v] <= n >> 1) seen += counts[v++];
    this.medians[b] = v;
    let top = 255;
    while (top > 0 && counts[top] === 0) top--;
    this.highest[b] = top;
  }

  private flatOf(bx: number, by: number, b: number): void {
    this.flat[b] = flatMedian(this.medians, this.cols, this.rows, bx, by);
  }

  /** Each pixel's signed difference from the closest candidate background, through one lookup table per block. */
  private pixelsOf(bx: number, by: number, b: number): void {
    const { luma: gray, width: w, height: h, size, cols, rows, medians, flat } = this;
    const { signed, bothPolarities, classes } = this.scratch!;
    const { difference, bothInk, classOf, closest, closestOnFlat } = tables;
    // A pixel near any candidate is background. Otherwise, in a block lying on a flat region (its own median is the
    // region's), it is measured against that region: white type on a dark box over a pale photo reads against the
    // box, though the photo is closer to white.
    const own = medians[b];
    const { all, onFlat } = tables;
    all.clear();
    onFlat.clear();
    all.add(windowMedian(medians, cols, rows, bx, by, NEIGHBOURHOOD, hist));
    for (let y = Math.max(0, by - REACH); y <= Math.min(rows - 1, by + REACH); y++) {
      for (let x = Math.max(0, bx - REACH); x <= Math.min(cols - 1, bx + REACH); x++) {
        const f = flat[y * cols + x];
        if (Number.isNaN(f)) continue;
        all.add(f);
        if (Math.abs(f - own) <= FLAT_SPREAD) onFlat.add(f);
      }
    }
    // The tables are needed only for the code values the block holds.
    const [from, to] = [this.lowest[b], this.highest[b]];
    all.differences(closest, from, to);
    if (onFlat.count) onFlat.differences(closestOnFlat, from, to);
    // Per code value: its difference (whole, as an Int16Array holds it), its ink of both polarities, its class.
    for (let v = from; v <= to; v++) {
      difference[v] = Math.abs(closest[v]) > FLOOR && onFlat.count ? closestOnFlat[v] : closest[v];
      const d = difference[v];
      bothInk[v] = 255 - Math.min(255, Math.max(0, GAIN * (Math.abs(d) - FLOOR)));
      classOf[v] = d > FLOOR ? LIGHT : d < -FLOOR ? DARK : 0;
    }
    const [x0, x1] = [bx * size, Math.min(w, (bx + 1) * size)];
    for (let y = by * size, y1 = Math.min(h, (by + 1) * size); y < y1; y++) {
      for (let i = y * w + x0, end = y * w + x1; i < end; i++) {
        const v = gray[i];
        signed[i] = difference[v];
        bothPolarities[i] = bothInk[v];
        classes[i] = classOf[v];
      }
    }
  }

  /** A block's ink, edge and contact pixels per polarity (their pixels within TOUCH may lie in the blocks around). */
  private countsOf(bx: number, by: number): void {
    const { width: w, height: h, size, cols, ink, edge, contact } = this;
    const { classes } = this.scratch!;
    const n = cols * this.rows;
    for (let y = by * size, y1 = Math.min(h, (by + 1) * size); y < y1; y++) {
      for (let x = bx * size, x1 = Math.min(w, (bx + 1) * size), i = y * w + x; x < x1; x++, i++) {
        const c = classes[i];
        if (c === 0) continue;
        const b = (c - 1) * n + by * cols + bx;
        ink[b]++;
        // The pixels within TOUCH along the row and the column: any of another class makes this an edge pixel, and one
        // of the other polarity a contact.
        let differs = false;
        let other = false;
        for (let d = 1; d <= TOUCH; d++) {
          let k: number;
          if (x >= d && (k = classes[i - d]) !== c) {
            differs = true;
            if (k !== 0) other = true;
          }
          if (x + d < w && (k = classes[i + d]) !== c) {
            differs = true;
            if (k !== 0) other = true;
          }
          if (y >= d && (k = classes[i - d * w]) !== c) {
            differs = true;
            if (k !== 0) other = true;
          }
          if (y + d < h && (k = classes[i + d * w]) !== c) {
            differs = true;
            if (k !== 0) other = true;
          }
        }
        if (differs) edge[b]++;
        if (other) contact[b]++;
      }
    }
  }

  /**
   * Outlined type is a light fill inside a dark outline (or the reverse), and both differ from the photo behind; drawn
   * as distance from the background they merge into one blob per letter. The fill is the polarity enclosed by the
   * other: nearly all of its edge touches the outline, while the outline's outer edge touches the background. Where
   * a light fill is enclosed, only it stays ink; elsewhere both polarities do (type on a page, on a box, on a photo).
   */
  private leanOf(bx: number, by: number, b: number): void {
    const { size, cols, rows, ink, edge, contact } = this;
    const n = cols * rows;
    this.lean[b] = LIGHT | DARK;
    const sums = [0, 0, 0, 0, 0, 0];
    let pixels = 0;
    for (let y = Math.max(0, by - POLARITY_REACH); y <= Math.min(rows - 1, by + POLARITY_REACH); y++) {
      for (let x = Math.max(0, bx - POLARITY_REACH); x <= Math.min(cols - 1, bx + POLARITY_REACH); x++) {
        const k = y * cols + x;
        for (let c = 0; c < 2; c++) {
          sums[c] += ink[c * n + k];
          sums[2 + c] += edge[c * n + k];
          sums[4 + c] += contact[c * n + k];
        }
        pixels += size * size;
      }
    }
    if (sums[0] < pixels * BOTH_SHARE || sums[1] < pixels * BOTH_SHARE) return;
    // Only a light fill is kept alone: dark ink enclosed by light is as often the dark box of a caption around its
    // white words (which the box's edge then swallows) as dark type in a light outline, which is rare.
    const enclosed = [sums[4] / Math.max(1, sums[2]), sums[5] / Math.max(1, sums[3])];
    if (enclosed[0] < enclosed[1] || enclosed[0] < ENCLOSED) return;
    this.lean[b] = LIGHT;
    this.sure[b] = enclosed[0] >= ENCLOSED_SURE ? 1 : 0;
  }

  /** Letters' edges fall in blocks whose region holds mostly outline or photo: the sure decisions nearby hold there. */
  private keptOf(bx: number, by: number, b: number): void {
    const { cols, rows, sure } = this;
    let near = false;
    for (let y = Math.max(0, by - POLARITY_REACH); y <= Math.min(rows - 1, by + POLARITY_REACH); y++) {
      for (let x = Math.max(0, bx - POLARITY_REACH); x <= Math.min(cols - 1, bx + POLARITY_REACH); x++) near ||= sure[y * cols + x] === 1;
    }
    this.kept[b] = near ? LIGHT : this.lean[b];
  }

  /** Ink of a polarity its block does not keep is background; the strongest kept ink of each block sets the gain nearby. */
  private strongestOf(bx: number, by: number, b: number): void {
    const { width: w, height: h, size } = this;
    const { signed, classes } = this.scratch!;
    const keep = this.kept[b];
    let peak = 0;
    const [x0, x1] = [bx * size, Math.min(w, (bx + 1) * size)];
    for (let y = by * size, y1 = Math.min(h, (by + 1) * size); y < y1; y++) {
      for (let i = y * w + x0, end = y * w + x1; i < end; i++) if ((keep & classes[i]) !== 0) peak = Math.max(peak, Math.abs(signed[i]));
    }
    this.strongest[b] = peak;
  }

  private gainOf(bx: number, by: number, b: number): void {
    const { cols, rows, strongest } = this;
    let peak = 0;
    for (let y = Math.max(0, by - POLARITY_REACH); y <= Math.min(rows - 1, by + POLARITY_REACH); y++) {
      for (let x = Math.max(0, bx - POLARITY_REACH); x <= Math.min(cols - 1, bx + POLARITY_REACH); x++) peak = Math.max(peak, strongest[y * cols + x]);
    }
    this.gains[b] = Math.min(MAX_GAIN, Math.max(GAIN, 255 / Math.max(1, peak - FLOOR)));
  }

  private outOf(bx: number, by: number, b: number): void {
    const { width: w, height: h, size, gray: out } = this;
    const { signed, classes } = this.scratch!;
    const keep = this.kept[b];
    const gain = this.gains[b];
    const [x0, x1] = [bx * size, Math.min(w, (bx + 1) * size)];
    for (let y = by * size, y1 = Math.min(h, (by + 1) * size); y < y1; y++) {
      for (let i = y * w + x0, end = y * w + x1; i < end; i++) {
        if ((keep & classes[i]) !== 0) out[i] = 255 - Math.min(255, Math.round(gain * (Math.abs(signed[i]) - FLOOR)));
      }
    }
  }

  /** The tile at (tx, ty) px: its blocks' ink, whitened when the tile is texture (see blankBusyTiles). */
  private tile(tx: number, ty: number): void {
    const { size } = this;
    const [x1, y1] = [Math.min(this.width, tx + BUSY_TILE), Math.min(this.height, ty + BUSY_TILE)];
    const blocks = { bx0: Math.floor(tx / size), by0: Math.floor(ty / size), bx1: Math.floor((x1 - 1) / size), by1: Math.floor((y1 - 1) / size) };
    this.out(blocks);
    this.pixels(blocks);
    blankIfBusy(this.gray, this.width, tx, ty, x1, y1, this.scratch!.bothPolarities);
  }
}

/**
 * `backingBoxes`: also measure each pixel against the flat regions next to it (the near neighbourhoods of its block
 * and the blocks around it), so a caption on a backing box narrower than the wide neighbourhood is measured against
 * the box. Off for still images, where the inside of very big bold letters can itself read as a flat region.
 * Worked out where `cover` asks (see InkPicture).
 */
export function inkPicture(p: OcrPicture, backingBoxes = false): InkPicture {
  return new LazyInk(p.gray, p.width, p.height, backingBoxes);
}

/** The whole ink picture at once (see inkPicture). */
export function localContrastPicture(p: OcrPicture, backingBoxes = false): InkPicture {
  const ink = inkPicture(p, backingBoxes);
  ink.cover({ x0: 0, y0: 0, x1: p.width, y1: p.height });
  return ink;
}

/** Tile side, px, and the share of pixels where dark and white alternate above which a tile is texture, not type. */
const BUSY_TILE = 48;
const BUSY_TRANSITIONS = 0.14;
/** The same, counted on ink of both polarities, where an outlined letter alternates fill, outline and picture. */
const BOTH_BUSY_TRANSITIONS = 0.3;

/**
 * Whitens the tile [tx, x1) × [ty, y1) when its prepared picture alternates between ink and paper more often than type
 * does (noise, foliage, cellular patterns): ink there is not type; a caption keeps its tiles.
 * `bothPolarities` is the picture with ink of both polarities: keeping one polarity of noise halves its alternation
 * without making it type, so a tile is also texture when that picture alternates more than outlined type does.
 */
function blankIfBusy(picture: Uint8Array, w: number, tx: number, ty: number, x1: number, y1: number, bothPolarities: Uint8Array): void {
  let transitions = 0;
  let bothTransitions = 0;
  // Two code values lie on either side of 128 when they differ in the top bit.
  for (let y = ty; y < y1; y++) {
    for (let i = y * w + tx + 1, end = y * w + x1; i < end; i++) transitions += ((picture[i] ^ picture[i - 1]) >> 7) & 1;
  }
  for (let y = ty; y < y1; y++) {
    for (let i = y * w + tx + 1, end = y * w + x1; i < end; i++) bothTransitions += ((bothPolarities[i] ^ bothPolarities[i - 1]) >> 7) & 1;
  }
  const area = (x1 - tx) * (y1 - ty);
  if (transitions / area <= BUSY_TRANSITIONS && bothTransitions / area <= BOTH_BUSY_TRANSITIONS) return;
  for (let y = ty; y < y1; y++) picture.fill(255, y * w + tx, y * w + x1);
}
