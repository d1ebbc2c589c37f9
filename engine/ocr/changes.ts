// Where the OCR picture changed since it was last read (issue 16: OCR work scales with the text on screen, not with
// the clock). The same pixels read the same words, so a sample reads only the regions whose pixels moved since they
// were read, and keeps the earlier reading everywhere else. Change is judged per 16 × 16 cell on 8-bit luma against
// the luma each cell had when it was read, so a slow fade adds up until it is read rather than slipping by a little at
// a time.
import type { RgbPicture } from './contrast.js';
import { rgbLuma } from './rgb-luma.js';
import type { OcrBox, OcrRectangle } from './engine.js';
import { boxesOverlap, rowsOverlap, unionBox } from './words.js';

/** Cell side, px of the OCR picture. */
export const CELL = 16;
/** A cell changed when its mean absolute luma difference exceeds this (a glyph swapped in a cell moves it by 10+;
 * a static picture's coding noise stays under 1). */
const CELL_MEAN_LEVELS = 2;
/** Changed regions are grown by this many cells: the detector sees far around a line (a crop edge or a pointer close
 * to the words changes what it finds), and a changed word's line runs on sideways past a word gap. */
const REGION_MARGIN_CELLS = { x: 4, y: 3 };
/** Past this share of the picture a whole reading costs about what the regions would. */
const MAX_REGION_SHARE = 0.5;
/** More regions than this are read as the one rectangle around them all. */
const MAX_REGIONS = 4;

/** The picture's 8-bit luma (contrast.ts luma8 of each pixel), computed once per frame. */
export function lumaOf(p: RgbPicture): Uint8Array {
  return rgbLuma(p.rgb, p.width * p.height);
}

export const rectangleBox = (r: OcrRectangle): OcrBox => ({ x0: r.left, y0: r.top, x1: r.left + r.width, y1: r.top + r.height });

/** What a sample reads: the whole picture, or only these rectangles (none: nothing changed) around the changed cells. */
export type ReadPlan = { whole: true } | { whole: false; regions: OcrRectangle[]; changes: OcrBox[] };

/** A span of picture rows, end exclusive. */
interface Rows {
  y0: number;
  y1: number;
}

/** A full-width rectangle read where a change came near known lines; its reading stands for the lines on `changes`. */
export interface BandRead {
  rectangle: OcrRectangle;
  /** The changed cells it was read for (px boxes). */
  changes: OcrBox[];
}

/** What a sample reads once the known lines are considered: crops (`regions`) where no line was, bands where one was. */
export type LinePlan = { whole: true } | { whole: false; regions: OcrRectangle[]; bands: BandRead[] };

const rowsOf = (b: OcrBox): Rows => ({ y0: b.y0, y1: b.y1 });
const rowsUnion = (rows: Rows[]): Rows => ({ y0: Math.min(...rows.map((r) => r.y0)), y1: Math.max(...rows.map((r) => r.y1)) });

/** Row spans merged where they overlap, in order from the top. */
function mergedRows(rows: Rows[]): Rows[] {
  const out: Rows[] = [];
  for (const r of [...rows].sort((a, b) => a.y0 - b.y0)) {
    const last = out.at(-1);
    if (last && rowsOverlap(last, r)) out[out.length - 1] = rowsUnion([last, r]);
    else out.push({ ...r });
  }
  return out;
}

interface Band {
  rows: Rows;
  changes: OcrBox[];
}

/** Bands merged where their rows overlap (one reading instead of two of the same rows), with the changes of both. */
function mergedBands(bands: Band[]): Band[] {
  const out: Band[] = [];
  for (const b of [...bands].sort((a, c) => a.rows.y0 - c.rows.y0)) {
    const last = out.at(-1);
    if (last && rowsOverlap(last.rows, b.rows)) out[out.length - 1] = { rows: rowsUnion([last.rows, b.rows]), changes: [...last.changes, ...b.changes] };
    else out.push(b);
  }
  return out;
}

export class CellGrid {
  readonly columns: number;
  readonly rows: number;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.columns = Math.ceil(width / CELL);
    this.rows = Math.ceil(height / CELL);
  }

  /** Cells (row-major flags) where `a` and `b` differ, only within `box` when given. */
  changedCells(a: Uint8Array, b: Uint8Array, box?: OcrBox): Uint8Array {
    const flags = new Uint8Array(this.columns * this.rows);
    const [c0, r0, c1, r1] = box ? this.cellSpan(box) : [0, 0, this.columns, this.rows];
    for (let r = r0; r < r1; r++) {
      const y0 = r * CELL;
      const y1 = Math.min(this.height, y0 + CELL);
      for (let c = c0; c < c1; c++) {
        const x0 = c * CELL;
        const x1 = Math.min(this.width, x0 + CELL);
        let sum = 0;
        for (let y = y0; y < y1; y++) {
          const row = y * this.width;
          for (let i = row + x0; i < row + x1; i++) sum += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
        }
        if (sum > CELL_MEAN_LEVELS * (y1 - y0) * (x1 - x0)) flags[r * this.columns + c] = 1;
      }
    }
    return flags;
  }

  /** Whether `a` and `b` are the same picture within `box` (every cell it touches unchanged). */
  sameWithin(a: Uint8Array, b: Uint8Array, box: OcrBox): boolean {
    return !this.changedCells(a, b, box).includes(1);
  }

  /** The regions of `changed` cells: each group of touching changed cells grown by a cell; the whole picture when they would cover much of it. */
  plan(changed: Uint8Array): ReadPlan {
    const groups = this.groups(changed);
    const changes = groups.map((g) => this.clipped({ x0: g.x0 * CELL, y0: g.y0 * CELL, x1: g.x1 * CELL, y1: g.y1 * CELL }));
    return this.planOf(mergedOverlapping(groups.map((g) => this.grown(g, REGION_MARGIN_CELLS))), changes);
  }

  /**
   * `plan` checked against the known lines (`lines`, read before). A region that comes near a known line is read as a
   * band across the whole picture instead of as a crop: the detector sees far around a line, so a crop reads a line it
   * cuts through, or one with a pointer passing close, differently from the whole picture (split at a word gap, a glyph
   * lost or gained). The band spans the picture's width and holds its changed cells and every known line they touch,
   * whole, with the region margin above and below, so a line is only ever read with the context a whole reading gives
   * it. Its reading stands for the place of its changed cells: the lines it reads there replace the known lines there,
   * and every other known line stays as it was read (its pixels did not change). Bands and crops past half the picture
   * make a whole reading.
   */
  withLines(plan: ReadPlan, lines: OcrBox[]): LinePlan {
    if (plan.whole) return plan;
    const near = lines.map((l) => this.padded(l));
    const touches = (r: OcrRectangle) => near.some((l) => boxesOverlap(l, rectangleBox(r)));
    const changesIn = (regions: OcrRectangle[]) => plan.changes.filter((c) => regions.some((r) => boxesOverlap(rectangleBox(r), c)));
    let changes = changesIn(plan.regions.filter(touches));
    let crops = plan.regions.filter((r) => !touches(r));
    if (changes.length === 0) return { whole: false, regions: crops, bands: [] };
    const margin = REGION_MARGIN_CELLS.y * CELL;
    let bands: Band[] = [];
    for (;;) {
      const reread = lines.filter((l) => changes.some((c) => boxesOverlap(c, l)));
      const cores = mergedRows([...changes, ...reread].map(rowsOf));
      bands = mergedBands(cores.map((core) => ({ rows: this.rowsClipped({ y0: core.y0 - margin, y1: core.y1 + margin }), changes: changes.filter((c) => rowsOverlap(core, c)) })));
      // A crop on a band's rows is read by the band.
      const covered = crops.filter((r) => bands.some((b) => rowsOverlap(b.rows, rowsOf(rectangleBox(r)))));
      if (covered.length === 0) break;
      changes = [...changes, ...changesIn(covered)];
      crops = crops.filter((r) => !covered.includes(r));
    }
    const regions = bands.map((b): OcrRectangle => ({ left: 0, top: b.rows.y0, width: this.width, height: b.rows.y1 - b.rows.y0 }));
    const area = [...regions, ...crops].reduce((sum, r) => sum + r.width * r.height, 0);
    if (area > MAX_REGION_SHARE * this.width * this.height) return { whole: true };
    return { whole: false, regions: crops, bands: bands.map((b, i) => ({ rectangle: regions[i], changes: b.changes })) };
  }

  private rowsClipped(r: Rows): Rows {
    return { y0: Math.max(0, Math.floor(r.y0)), y1: Math.min(this.height, Math.ceil(r.y1)) };
  }

  private planOf(boxes: OcrBox[], changes: OcrBox[]): ReadPlan {
    const regions = boxes.length > MAX_REGIONS ? [unionBox(boxes)] : boxes;
    const area = regions.reduce((sum, r) => sum + (r.x1 - r.x0) * (r.y1 - r.y0), 0);
    if (area > MAX_REGION_SHARE * this.width * this.height) return { whole: true };
    return { whole: false, regions: regions.map((r) => ({ left: r.x0, top: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0 })), changes };
  }

  private cellSpan(box: OcrBox): [number, number, number, number] {
    const clamp = (v: number, hi: number) => Math.max(0, Math.min(hi, v));
    return [
      clamp(Math.floor(box.x0 / CELL), this.columns),
      clamp(Math.floor(box.y0 / CELL), this.rows),
      clamp(Math.ceil(box.x1 / CELL), this.columns),
      clamp(Math.ceil(box.y1 / CELL), this.rows),
    ];
  }

  /** A line box grown by the region margin, within the picture. */
  private padded(b: OcrBox): OcrBox {
    const [x, y] = [REGION_MARGIN_CELLS.x * CELL, REGION_MARGIN_CELLS.y * CELL];
    return this.clipped({ x0: b.x0 - x, y0: b.y0 - y, x1: b.x1 + x, y1: b.y1 + y });
  }

  private clipped(b: OcrBox): OcrBox {
    return { x0: Math.max(0, Math.floor(b.x0)), y0: Math.max(0, Math.floor(b.y0)), x1: Math.min(this.width, Math.ceil(b.x1)), y1: Math.min(this.height, Math.ceil(b.y1)) };
  }

  private grown(cells: OcrBox, margin: { x: number; y: number }): OcrBox {
    return this.clipped({ x0: (cells.x0 - margin.x) * CELL, y0: (cells.y0 - margin.y) * CELL, x1: (cells.x1 + margin.x) * CELL, y1: (cells.y1 + margin.y) * CELL });
  }

  /** Bounding boxes (in cells, end exclusive) of the 8-connected groups of changed cells. */
  private groups(changed: Uint8Array): OcrBox[] {
    const seen = new Uint8Array(changed.length);
    const out: OcrBox[] = [];
    const stack: number[] = [];
    for (let start = 0; start < changed.length; start++) {
      if (!changed[start] || seen[start]) continue;
      const box = { x0: this.columns, y0: this.rows, x1: 0, y1: 0 };
      seen[start] = 1;
      stack.push(start);
      while (stack.length) {
        const i = stack.pop()!;
        const c = i % this.columns;
        const r = (i - c) / this.columns;
        box.x0 = Math.min(box.x0, c);
        box.y0 = Math.min(box.y0, r);
        box.x1 = Math.max(box.x1, c + 1);
        box.y1 = Math.max(box.y1, r + 1);
        for (let dr = -1; dr <= 1; dr++) {
          for (let dc = -1; dc <= 1; dc++) {
            const nr = r + dr;
            const nc = c + dc;
            if (nr < 0 || nc < 0 || nr >= this.rows || nc >= this.columns) continue;
            const j = nr * this.columns + nc;
            if (changed[j] && !seen[j]) {
              seen[j] = 1;
              stack.push(j);
            }
          }
        }
      }
      out.push(box);
    }
    return out;
  }
}

function mergedOverlapping(boxes: OcrBox[]): OcrBox[] {
  const out: OcrBox[] = [];
  for (const box of boxes) {
    let merged = box;
    for (let i = out.length - 1; i >= 0; i--) {
      if (boxesOverlap(out[i], merged)) {
        merged = unionBox([out[i], merged]);
        out.splice(i, 1);
      }
    }
    out.push(merged);
  }
  // A merge can make a box reach one it did not touch before.
  return out.length < boxes.length ? mergedOverlapping(out) : out;
}

/** The reference: each cell's luma as it was when it was last read. */
export class ReadReference {
  private luma: Uint8Array | null = null;

  constructor(private readonly grid: CellGrid) {}

  /** Cells of `luma` that differ from what was read there (all of them before the first reading). */
  changedSinceRead(luma: Uint8Array): Uint8Array {
    if (!this.luma) return new Uint8Array(this.grid.columns * this.grid.rows).fill(1);
    return this.grid.changedCells(luma, this.luma);
  }

  /** A reading that timed out read nothing: the next sample reads the whole picture again. */
  forget(): void {
    this.luma = null;
  }

  /** Records that `luma` was read in `plan`'s regions (all of it for a whole reading). */
  markRead(luma: Uint8Array, plan: ReadPlan): void {
    if (plan.whole || !this.luma) {
      this.luma = luma.slice();
      return;
    }
    const { width } = this.grid;
    for (const r of plan.regions) {
      for (let y = r.top; y < r.top + r.height; y++) this.luma.set(luma.subarray(y * width + r.left, y * width + r.left + r.width), y * width + r.left);
    }
  }
}
