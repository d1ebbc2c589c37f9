import { describe, expect, it } from 'vitest';
import { CELL, CellGrid, ReadReference, lumaOf } from '../engine/ocr/changes.js';
import { luma8 } from '../engine/ocr/contrast.js';

const W = 320;
const H = 192;

function picture(fill = 100): Uint8Array {
  return new Uint8Array(W * H).fill(fill);
}

function paint(p: Uint8Array, x0: number, y0: number, x1: number, y1: number, value: number): Uint8Array {
  const out = p.slice();
  for (let y = y0; y < y1; y++) out.fill(value, y * W + x0, y * W + x1);
  return out;
}

describe('OCR change regions (engine/ocr/changes.ts)', () => {
  const grid = new CellGrid(W, H);

  it('reads the whole picture first, then nothing while the pixels stay put', () => {
    const reference = new ReadReference(grid);
    const first = picture();
    const plan = grid.plan(reference.changedSinceRead(first));
    expect(plan.whole).toBe(true);
    reference.markRead(first, plan);
    // Coding noise: every pixel off by one level.
    const noisy = first.map((v, i) => v + (i % 2));
    expect(grid.plan(reference.changedSinceRead(noisy))).toEqual({ whole: false, regions: [], changes: [] });
  });

  it('reads a changed word as a region grown sideways more than up and down, and the whole picture when most of it changed', () => {
    const reference = new ReadReference(grid);
    const base = picture();
    reference.markRead(base, { whole: true });
    const word = paint(base, 100, 64, 140, 80, 250);
    const plan = grid.plan(reference.changedSinceRead(word));
    expect(plan.whole).toBe(false);
    if (plan.whole) return;
    expect(plan.regions).toHaveLength(1);
    const [r] = plan.regions;
    expect(r.left).toBeLessThanOrEqual(100 - 3 * CELL + CELL);
    expect(r.left + r.width).toBeGreaterThanOrEqual(140 + 2 * CELL);
    expect(r.top).toBeLessThanOrEqual(64 - CELL);
    expect(r.top + r.height).toBeLessThanOrEqual(80 + 4 * CELL);
    expect(grid.plan(reference.changedSinceRead(paint(base, 0, 0, W, 150, 20))).whole).toBe(true);
  });

  it('reads the whole picture when a band around a changed known line would cover over half of a small picture, a region elsewhere', () => {
    const base = picture();
    const changed = grid.changedCells(paint(base, 200, 100, 216, 116, 250), base);
    expect(grid.withLines(grid.plan(changed), [{ x0: 40, y0: 96, x1: 230, y1: 120 }])).toEqual({ whole: true });
    const far = grid.withLines(grid.plan(changed), [{ x0: 10, y0: 10, x1: 60, y1: 30 }]);
    expect(far.whole).toBe(false);
    if (!far.whole) expect(far.regions).toHaveLength(1);
  });

  it('reads a change near known lines as a full-width band holding every line it touches with a margin, and keeps the lines beside it', () => {
    const [w, h] = [960, 720];
    const big = new CellGrid(w, h);
    const base = new Uint8Array(w * h).fill(30);
    const painted = base.slice();
    const fill = (x0: number, y0: number, x1: number, y1: number) => {
      for (let y = y0; y < y1; y++) painted.fill(230, y * w + x0, y * w + x1);
    };
    fill(300, 100, 316, 116); // a glyph typed on the first line
    fill(800, 600, 816, 616); // something far from every line
    fill(200, 330, 216, 340); // a pointer just below the third line
    const lines = [
      { x0: 40, y0: 100, x1: 400, y1: 116 },
      { x0: 40, y0: 124, x1: 400, y1: 140 },
      { x0: 40, y0: 300, x1: 400, y1: 316 },
    ];
    const plan = big.withLines(big.plan(big.changedCells(painted, base)), lines);
    expect(plan.whole).toBe(false);
    if (plan.whole) return;
    expect(plan.regions).toHaveLength(1);
    expect(plan.regions[0].left).toBeGreaterThan(600);
    expect(plan.bands).toHaveLength(2);
    const [top, bottom] = plan.bands;
    expect(top.rectangle).toMatchObject({ left: 0, width: w });
    // The changed cells touch the first line and reach the second: the band holds both, whole, and stands for its cells.
    expect(top.changes).toEqual([{ x0: 288, y0: 96, x1: 320, y1: 128 }]);
    expect(top.rectangle.top).toBeLessThanOrEqual(96 - 3 * CELL);
    expect(top.rectangle.top + top.rectangle.height).toBeGreaterThanOrEqual(140 + 3 * CELL);
    // The pointer comes near the third line without crossing it: the band reads around it, the line stays as read.
    expect(bottom.rectangle).toMatchObject({ left: 0, width: w });
    expect(bottom.changes).toEqual([{ x0: 192, y0: 320, x1: 224, y1: 352 }]);
    expect(bottom.rectangle.top).toBeLessThanOrEqual(300);
    // A change on the band's rows far from every line is read by the band, not again as a crop of its own.
    fill(860, 150, 876, 166);
    const joined = big.withLines(big.plan(big.changedCells(painted, base)), lines);
    expect(joined.whole).toBe(false);
    if (joined.whole) return;
    expect(joined.regions).toHaveLength(1);
    expect(joined.bands[0].changes).toEqual([
      { x0: 288, y0: 96, x1: 320, y1: 128 },
      { x0: 848, y0: 144, x1: 880, y1: 176 },
    ]);
    expect(joined.bands[0].rectangle.top + joined.bands[0].rectangle.height).toBeGreaterThanOrEqual(176 + 3 * CELL);
  });

  it('accumulates a slow fade against what was read, rather than against the last frame', () => {
    const reference = new ReadReference(grid);
    const base = picture(100);
    reference.markRead(base, { whole: true });
    let regionFound = false;
    for (let step = 1; step <= 5 && !regionFound; step++) {
      const faded = paint(base, 0, 0, 48, 48, 100 + step);
      const plan = grid.plan(reference.changedSinceRead(faded));
      regionFound = !plan.whole && plan.regions.length > 0;
    }
    expect(regionFound).toBe(true);
  });

  it('tells the same pixels within a box from changed ones', () => {
    const base = picture();
    const other = paint(base, 150, 150, 170, 170, 0);
    expect(grid.sameWithin(base, other, { x0: 0, y0: 0, x1: 100, y1: 100 })).toBe(true);
    expect(grid.sameWithin(base, other, { x0: 140, y0: 140, x1: 200, y1: 180 })).toBe(false);
  });

  it('takes the luma of every pixel as luma8 does, sixteen at a time and in the tail, for any length', () => {
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    // Every length up to three vectors and a tail, then every red and green with the blue that varies, then the extremes.
    const cases = Array.from({ length: 50 }, (_, n) => Uint8Array.from({ length: 3 * n }, next));
    cases.push(Uint8Array.from({ length: 3 * 65536 }, (_, k) => (k % 3 === 0 ? (k / 3) & 255 : k % 3 === 1 ? (k / 3) >> 8 : ((k / 3) * 7) & 255)));
    cases.push(new Uint8Array(3 * 37).fill(255), new Uint8Array(3 * 37));
    for (const rgb of cases) {
      const pixels = rgb.length / 3;
      const expected = Uint8Array.from({ length: pixels }, (_, i) => luma8(rgb, 3 * i));
      expect(lumaOf({ rgb, width: pixels, height: 1 })).toEqual(expected);
    }
  });
});
