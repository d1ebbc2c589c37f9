// The ink of the picture OCR reads: each pixel's distance from the local background, dark on white. With one global
// threshold, white text and black text on a mid-grey background cannot both survive; measured
// against the local background, text of either polarity becomes dark strokes on white and flat or smooth areas vanish.
// The background is the median of a neighbourhood of block medians: text is a minority of any neighbourhood, so the
// median stays on the background even next to big bold titles (a local mean would be pulled up by them and leave a halo).
// On video, flat regions nearby (a caption's backing box, a panel) are candidate backgrounds too, and each pixel is
// measured against the closest candidate: text on a half-transparent box reads against the box, not the picture.
import type { OcrPicture } from './engine.js';

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

/** Each block's median, and the lowest and highest code value in it. */
function blockMedians(gray: Uint8Array, w: number, h: number, size: number): { cols: number; rows: number; medians: Float64Array; lowest: Uint8Array; highest: Uint8Array } {
  const cols = Math.ceil(w / size);
  const rows = Math.ceil(h / size);
  const medians = new Float64Array(cols * rows);
  const lowest = new Uint8Array(cols * rows);
  const highest = new Uint8Array(cols * rows);
  const hist = new Uint32Array(256);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      hist.fill(0);
      let n = 0;
      for (let y = by * size; y < Math.min(h, (by + 1) * size); y++) {
        for (let x = bx * size; x < Math.min(w, (bx + 1) * size); x++) {
          hist[gray[y * w + x]]++;
          n++;
        }
      }
      let seen = 0;
      let v = 0;
      while (v < 255 && hist[v] === 0) v++;
      lowest[by * cols + bx] = v;
      while (v < 255 && seen + hist[v] <= n >> 1) seen += hist[v++];
      medians[by * cols + bx] = v;
      let top = 255;
      while (top > 0 && hist[top] === 0) top--;
      highest[by * cols + bx] = top;
    }
  }
  return { cols, rows, medians, lowest, highest };
}

function neighbourhood(medians: Float64Array, cols: number, rows: number, bx: number, by: number, radius: number): number[] {
  const around: number[] = [];
  for (let y = Math.max(0, by - radius); y <= Math.min(rows - 1, by + radius); y++) {
    for (let x = Math.max(0, bx - radius); x <= Math.min(cols - 1, bx + radius); x++) around.push(medians[y * cols + x]);
  }
  return around;
}

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

/** The median of a near neighbourhood whose middle half of block medians lies within FLAT_SPREAD, else NaN. */
function flatMedian(medians: Float64Array, cols: number, rows: number, bx: number, by: number): number {
  const near = neighbourhood(medians, cols, rows, bx, by, NEAR).sort((a, b) => a - b);
  const q = near.length >> 2;
  return near[near.length - 1 - q] - near[q] <= FLAT_SPREAD ? near[near.length >> 1] : NaN;
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

/**
 * Outlined type is a light fill inside a dark outline (or the reverse), and both differ from the photo behind; drawn
 * as distance from the background they merge into one blob per letter. The fill is the polarity enclosed by the
 * other: nearly all of its edge touches the outline, while the outline's outer edge touches the background. Where
 * a light fill is enclosed, only it stays ink; elsewhere both polarities do (type on a page, on a box, on a photo).
 */
function keptPolarity(classes: Uint8Array, w: number, h: number, size: number, cols: number, rows: number): Uint8Array {
  const colBlock = Int32Array.from({ length: w }, (_, x) => Math.floor(x / size));
  // Per block and polarity (light at b, dark at n + b): ink pixels, edge pixels (another class within TOUCH), and edge
  // pixels touching the other polarity.
  const n = cols * rows;
  const ink = new Float64Array(2 * n);
  const edge = new Float64Array(2 * n);
  const contact = new Float64Array(2 * n);
  for (let y = 0; y < h; y++) {
    const rowBlock = Math.floor(y / size) * cols;
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const c = classes[i];
      if (c === 0) continue;
      const b = (c - 1) * n + rowBlock + colBlock[x];
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
  const lean = new Uint8Array(cols * rows).fill(LIGHT | DARK);
  const sure = new Uint8Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      const sums = [0, 0, 0, 0, 0, 0];
      let pixels = 0;
      for (let y = Math.max(0, by - POLARITY_REACH); y <= Math.min(rows - 1, by + POLARITY_REACH); y++) {
        for (let x = Math.max(0, bx - POLARITY_REACH); x <= Math.min(cols - 1, bx + POLARITY_REACH); x++) {
          const b = y * cols + x;
          for (let c = 0; c < 2; c++) {
            sums[c] += ink[c * n + b];
            sums[2 + c] += edge[c * n + b];
            sums[4 + c] += contact[c * n + b];
          }
          pixels += size * size;
        }
      }
      if (sums[0] < pixels * BOTH_SHARE || sums[1] < pixels * BOTH_SHARE) continue;
      // Only a light fill is kept alone: dark ink enclosed by light is as often the dark box of a caption around its
      // white words (which the box's edge then swallows) as dark type in a light outline, which is rare.
      const enclosed = [sums[4] / Math.max(1, sums[2]), sums[5] / Math.max(1, sums[3])];
      if (enclosed[0] < enclosed[1] || enclosed[0] < ENCLOSED) continue;
      lean[by * cols + bx] = LIGHT;
      sure[by * cols + bx] = enclosed[0] >= ENCLOSED_SURE ? 1 : 0;
    }
  }
  // Letters' edges fall in blocks whose region holds mostly outline or photo: the sure decisions nearby hold there.
  const kept = lean.slice();
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      let near = false;
      for (let y = Math.max(0, by - POLARITY_REACH); y <= Math.min(rows - 1, by + POLARITY_REACH); y++) {
        for (let x = Math.max(0, bx - POLARITY_REACH); x <= Math.min(cols - 1, bx + POLARITY_REACH); x++) near ||= sure[y * cols + x] === 1;
      }
      if (near) kept[by * cols + bx] = LIGHT;
    }
  }
  return kept;
}

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

/** Per-pixel working arrays of {@link localContrastPicture}, every element written before it is read: one set, reused
 * from picture to picture (a video's pictures have one size), instead of 2 MB of garbage a picture. */
let scratch: { signed: Int16Array; bothPolarities: Uint8Array; classes: Uint8Array } | null = null;

function scratchFor(pixels: number): NonNullable<typeof scratch> {
  if (scratch?.classes.length !== pixels) scratch = { signed: new Int16Array(pixels), bothPolarities: new Uint8Array(pixels), classes: new Uint8Array(pixels) };
  return scratch;
}

/**
 * `backingBoxes`: also measure each pixel against the flat regions next to it (the near neighbourhoods of its block
 * and the blocks around it), so a caption on a backing box narrower than the wide neighbourhood is measured against
 * the box. Off for still images, where the inside of very big bold letters can itself read as a flat region.
 */
export function localContrastPicture(p: OcrPicture, backingBoxes = false): OcrPicture {
  const { gray, width: w, height: h } = p;
  const size = Math.max(4, Math.round(Math.max(w, h) * BLOCK_FRACTION));
  const { cols, rows, medians, lowest, highest } = blockMedians(gray, w, h, size);
  const flat = new Float64Array(cols * rows).fill(NaN);
  if (backingBoxes) for (let by = 0; by < rows; by++) for (let bx = 0; bx < cols; bx++) flat[by * cols + bx] = flatMedian(medians, cols, rows, bx, by);
  // Each pixel's signed difference from the closest candidate background, through one lookup table per block.
  const { signed, bothPolarities, classes } = scratchFor(w * h);
  const difference = new Int16Array(256);
  const bothInk = new Uint8Array(256);
  const classOf = new Uint8Array(256);
  const hist = new Uint16Array(256);
  // The window's median and the flat regions within REACH blocks.
  const capacity = 1 + (2 * REACH + 1) ** 2;
  const all = new Backgrounds(capacity);
  const onFlat = new Backgrounds(capacity);
  const closest = new Float64Array(256);
  const closestOnFlat = new Float64Array(256);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      // A pixel near any candidate is background. Otherwise, in a block lying on a flat region (its own median is the
      // region's), it is measured against that region: white type on a dark box over a pale photo reads against the
      // box, though the photo is closer to white.
      const own = medians[by * cols + bx];
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
      const [from, to] = [lowest[by * cols + bx], highest[by * cols + bx]];
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
  }
  const kept = keptPolarity(classes, w, h, size, cols, rows);
  // Ink of a polarity its block does not keep becomes background; the strongest kept ink of each block sets the gain nearby.
  const strongest = new Float64Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      const b = by * cols + bx;
      const keep = kept[b];
      let peak = 0;
      const [x0, x1] = [bx * size, Math.min(w, (bx + 1) * size)];
      for (let y = by * size, y1 = Math.min(h, (by + 1) * size); y < y1; y++) {
        for (let i = y * w + x0, end = y * w + x1; i < end; i++) {
          const c = classes[i];
          if (c === 0) continue;
          if ((keep & c) === 0) classes[i] = 0;
          else peak = Math.max(peak, Math.abs(signed[i]));
        }
      }
      strongest[b] = peak;
    }
  }
  const out = new Uint8Array(w * h).fill(255);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      let peak = 0;
      for (let y = Math.max(0, by - POLARITY_REACH); y <= Math.min(rows - 1, by + POLARITY_REACH); y++) {
        for (let x = Math.max(0, bx - POLARITY_REACH); x <= Math.min(cols - 1, bx + POLARITY_REACH); x++) peak = Math.max(peak, strongest[y * cols + x]);
      }
      const gain = Math.min(MAX_GAIN, Math.max(GAIN, 255 / Math.max(1, peak - FLOOR)));
      const [x0, x1] = [bx * size, Math.min(w, (bx + 1) * size)];
      for (let y = by * size, y1 = Math.min(h, (by + 1) * size); y < y1; y++) {
        for (let i = y * w + x0, end = y * w + x1; i < end; i++) {
          if (classes[i] !== 0) out[i] = 255 - Math.min(255, Math.round(gain * (Math.abs(signed[i]) - FLOOR)));
        }
      }
    }
  }
  return { gray: blankBusyTiles(out, w, h, bothPolarities), width: w, height: h };
}

/** Tile side, px, and the share of pixels where dark and white alternate above which a tile is texture, not type. */
export const BUSY_TILE = 48;
export const BUSY_TRANSITIONS = 0.14;
/** The same, counted on ink of both polarities, where an outlined letter alternates fill, outline and picture. */
const BOTH_BUSY_TRANSITIONS = 0.3;

/**
 * Whitens tiles whose prepared picture alternates between ink and paper more often than type does (noise, foliage,
 * cellular patterns): ink there is not type; a caption keeps its tiles.
 * `bothPolarities` is the picture with ink of both polarities: keeping one polarity of noise halves its alternation
 * without making it type, so a tile is also texture when that picture alternates more than outlined type does.
 */
export function blankBusyTiles(picture: Uint8Array, w: number, h: number, bothPolarities: Uint8Array = picture): Uint8Array {
  const measured = bothPolarities;
  for (let ty = 0; ty < h; ty += BUSY_TILE) {
    for (let tx = 0; tx < w; tx += BUSY_TILE) {
      const [x1, y1] = [Math.min(w, tx + BUSY_TILE), Math.min(h, ty + BUSY_TILE)];
      let transitions = 0;
      let bothTransitions = 0;
      // Two code values lie on either side of 128 when they differ in the top bit.
      for (let y = ty; y < y1; y++) {
        for (let i = y * w + tx + 1, end = y * w + x1; i < end; i++) transitions += ((picture[i] ^ picture[i - 1]) >> 7) & 1;
      }
      if (measured !== picture) {
        for (let y = ty; y < y1; y++) {
          for (let i = y * w + tx + 1, end = y * w + x1; i < end; i++) bothTransitions += ((measured[i] ^ measured[i - 1]) >> 7) & 1;
        }
      }
      const area = (x1 - tx) * (y1 - ty);
      if (transitions / area <= BUSY_TRANSITIONS && bothTransitions / area <= BOTH_BUSY_TRANSITIONS) continue;
      for (let y = ty; y < y1; y++) picture.fill(255, y * w + tx, y * w + x1);
    }
  }
  return picture;
}
