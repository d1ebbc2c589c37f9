// The picture Tesseract reads: each pixel's distance from the local background, dark on white. Tesseract binarises
// with one global threshold, so white text and black text on a mid-grey background cannot both survive it; measured
// against the local background, text of either polarity becomes dark strokes on white and flat or smooth areas vanish.
// The background is the median of a neighbourhood of block medians: text is a minority of any neighbourhood, so the
// median stays on the background even next to big bold titles (a local mean would be pulled up by them and leave a halo).
// On video, flat regions nearby (a caption's backing box, a panel) are candidate backgrounds too, and each pixel is
// measured against the closest candidate: text on a half-transparent box reads against the box, not the picture.
import type { OcrPicture } from './tesseract.js';
import { median } from '../gates/kit/stats.js';

/** Block side as a share of the long side (16 px at 960); the background window is 9 × 9 blocks, a near region 3 × 3. */
const BLOCK_FRACTION = 1 / 60;
const NEIGHBOURHOOD = 4;
const NEAR = 1;
/** Flat regions up to this many blocks away are candidate backgrounds of a pixel. */
const REACH = 3;
/** A near region is flat (a backing box, a plain panel) when the middle half of its block medians lies within this. */
const FLAT_SPREAD = 16;
/** Differences up to FLOOR code values are background texture and become pure white (Tesseract would otherwise
 * binarise the texture itself); beyond it GAIN maps them to darker strokes, full black from 110 code values. */
const FLOOR = 24;
const GAIN = 3;

function blockMedians(gray: Uint8Array, w: number, h: number, size: number): { cols: number; rows: number; medians: Float64Array } {
  const cols = Math.ceil(w / size);
  const rows = Math.ceil(h / size);
  const medians = new Float64Array(cols * rows);
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
      while (v < 255 && seen + hist[v] <= n >> 1) seen += hist[v++];
      medians[by * cols + bx] = v;
    }
  }
  return { cols, rows, medians };
}

function neighbourhood(medians: Float64Array, cols: number, rows: number, bx: number, by: number, radius: number): number[] {
  const around: number[] = [];
  for (let y = Math.max(0, by - radius); y <= Math.min(rows - 1, by + radius); y++) {
    for (let x = Math.max(0, bx - radius); x <= Math.min(cols - 1, bx + radius); x++) around.push(medians[y * cols + x]);
  }
  return around;
}

/** The median of a near neighbourhood whose middle half of block medians lies within FLAT_SPREAD, else NaN. */
function flatMedian(medians: Float64Array, cols: number, rows: number, bx: number, by: number): number {
  const near = neighbourhood(medians, cols, rows, bx, by, NEAR).sort((a, b) => a - b);
  const q = near.length >> 2;
  return near[near.length - 1 - q] - near[q] <= FLAT_SPREAD ? near[near.length >> 1] : NaN;
}

/**
 * `backingBoxes`: also measure each pixel against the flat regions next to it (the near neighbourhoods of its block
 * and the blocks around it), so a caption on a backing box narrower than the wide neighbourhood is measured against
 * the box. Off for still images, where the inside of very big bold letters can itself read as a flat region.
 */
export function localContrastPicture(p: OcrPicture, backingBoxes = false): OcrPicture {
  const { gray, width: w, height: h } = p;
  const size = Math.max(4, Math.round(Math.max(w, h) * BLOCK_FRACTION));
  const { cols, rows, medians } = blockMedians(gray, w, h, size);
  const flat = new Float64Array(cols * rows).fill(NaN);
  if (backingBoxes) for (let by = 0; by < rows; by++) for (let bx = 0; bx < cols; bx++) flat[by * cols + bx] = flatMedian(medians, cols, rows, bx, by);
  const out = new Uint8Array(w * h);
  // Per block, the ink of each grey level (its distance to the closest candidate background), so a pixel is one lookup.
  const ink = new Uint8Array(256);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      const candidates = new Set([median(neighbourhood(medians, cols, rows, bx, by, NEIGHBOURHOOD))]);
      for (let y = Math.max(0, by - REACH); y <= Math.min(rows - 1, by + REACH); y++) {
        for (let x = Math.max(0, bx - REACH); x <= Math.min(cols - 1, bx + REACH); x++) if (!Number.isNaN(flat[y * cols + x])) candidates.add(flat[y * cols + x]);
      }
      for (let v = 0; v < 256; v++) {
        let distance = 255;
        for (const c of candidates) distance = Math.min(distance, Math.abs(v - c));
        ink[v] = 255 - Math.min(255, Math.max(0, GAIN * (distance - FLOOR)));
      }
      for (let y = by * size; y < Math.min(h, (by + 1) * size); y++) {
        for (let x = bx * size; x < Math.min(w, (bx + 1) * size); x++) out[y * w + x] = ink[gray[y * w + x]];
      }
    }
  }
  return { gray: blankBusyTiles(out, w, h), width: w, height: h };
}

/** Tile side, px, and the share of pixels where dark and white alternate above which a tile is texture, not type. */
export const BUSY_TILE = 48;
export const BUSY_TRANSITIONS = 0.14;

/**
 * Whitens tiles whose prepared picture alternates between ink and paper more often than type does (noise, foliage,
 * cellular patterns). Tesseract spends seconds on such tiles and reads nothing true in them; a caption keeps its tiles.
 */
export function blankBusyTiles(picture: Uint8Array, w: number, h: number): Uint8Array {
  for (let ty = 0; ty < h; ty += BUSY_TILE) {
    for (let tx = 0; tx < w; tx += BUSY_TILE) {
      const [x1, y1] = [Math.min(w, tx + BUSY_TILE), Math.min(h, ty + BUSY_TILE)];
      let transitions = 0;
      for (let y = ty; y < y1; y++) {
        for (let x = tx + 1; x < x1; x++) if (picture[y * w + x] < 128 !== picture[y * w + x - 1] < 128) transitions++;
      }
      if (transitions / ((x1 - tx) * (y1 - ty)) <= BUSY_TRANSITIONS) continue;
      for (let y = ty; y < y1; y++) picture.fill(255, y * w + tx, y * w + x1);
    }
  }
  return picture;
}
