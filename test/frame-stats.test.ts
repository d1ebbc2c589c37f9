import { describe, expect, it } from 'vitest';
import { VideoFrameAccumulator } from '../engine/video/frame-stats.js';
import { PixelSums } from '../engine/video/pixel-sums.js';
import { RepeatFinder } from '../engine/video/loops.js';
import { ThumbnailStore } from '../engine/video/thumbnail-store.js';

const WIDTH = 192;
const HEIGHT = 108;
const FPS = 30;

/** A bright gradient with a square that moves along a path; frames 90–149 replay frames 0–59 (a loop). */
function drawFrame(index: number, into: Uint8Array): void {
  const t = index >= 90 && index < 150 ? index - 90 : index;
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) into[y * WIDTH + x] = 60 + ((x + 2 * y) % 120);
  const sx = (t * 3) % (WIDTH - 20);
  const sy = 20 + Math.round(20 * Math.sin(t / 7));
  for (let y = sy; y < sy + 16; y++) for (let x = sx; x < sx + 16; x++) into[y * WIDTH + x] = 250;
}

function analyse(reuseBuffer: boolean) {
  const acc = new VideoFrameAccumulator(WIDTH, HEIGHT, FPS, 6);
  const shared = new Uint8Array(WIDTH * HEIGHT);
  for (let i = 0; i < 180; i++) {
    const frame = reuseBuffer ? shared : new Uint8Array(WIDTH * HEIGHT);
    drawFrame(i, frame);
    acc.push(frame);
    // The reader may overwrite its buffer as soon as push returns.
    if (reuseBuffer) shared.fill(0);
  }
  return acc.finish();
}

describe('VideoFrameAccumulator', () => {
  it('keeps nothing of the buffer it is handed: a reused buffer gives the same statistics, stills and repeats as fresh copies', () => {
    const fresh = analyse(false);
    const reused = analyse(true);
    expect(reused.frames).toEqual(fresh.frames);
    expect(reused.repeats).toEqual(fresh.repeats);
    expect(reused.canvas).toEqual(fresh.canvas);
    expect(reused.stills.map((s) => s.atSeconds)).toEqual(fresh.stills.map((s) => s.atSeconds));
    for (let k = 0; k < fresh.stills.length; k++) expect(Buffer.from(reused.stills[k].gray).equals(Buffer.from(fresh.stills[k].gray))).toBe(true);
    expect(reused.stills[1].gray.some((v) => v !== 0)).toBe(true);
  });

  it('measures change against the previous frame and finds the replayed second as a repeat', () => {
    const { frames, repeats } = analyse(true);
    expect(frames.diff[0]).toBe(0);
    expect(frames.peakChange[1]).toBeGreaterThan(10);
    expect(frames.changedShare[1]).toBeGreaterThan(0);
    expect(frames.changedShare[1]).toBeLessThan(0.2);
    expect(repeats).toContainEqual(expect.objectContaining({ sourceFrame: 0, repeatFrame: 90 }));
  });
});

describe('PixelSums (the WebAssembly per-pixel kernel)', () => {
  /** Pseudo-random bytes with runs of black and white, so saturated differences and the dark threshold are exercised. */
  const picture = (length: number, seed: number): Uint8Array => {
    let state = seed;
    return Uint8Array.from({ length }, (_, i) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return i % 97 < 9 ? 0 : i % 89 < 7 ? 255 : state >>> 23;
    });
  };

  it('sums exactly what a pixel-by-pixel loop sums, at any width (vector lanes and the tail)', () => {
    for (const [width, height] of [[192, 108], [108, 192], [37, 23], [16, 16], [17, 5], [3, 3], [2, 2]]) {
      const sums = new PixelSums(width, height, 25);
      const previous = picture(width * height, width);
      const frame = picture(width * height, height + 7);
      sums.load(previous);
      sums.load(frame);
      sums.colSum.fill(0);
      sums.colChange.fill(0);
      const cut = Math.floor(height / 3);
      const dark = sums.band(0, cut, true) + sums.band(cut, height, true);
      const colSum = new Int32Array(width);
      const colChange = new Int32Array(width);
      let expectedDark = 0;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const v = frame[y * width + x];
          colSum[x] += v;
          colChange[x] += Math.abs(v - previous[y * width + x]);
          if (v <= 25) expectedDark++;
        }
      }
      expect(dark, `${width}×${height}`).toBe(expectedDark);
      expect(Array.from(sums.colSum), `${width}×${height}`).toEqual(Array.from(colSum));
      expect(Array.from(sums.colChange), `${width}×${height}`).toEqual(Array.from(colChange));

      sums.detail();
      const colDetail = new Int32Array(width);
      const rowDetail = new Int32Array(height);
      for (let y = 1; y < height - 1; y++) {
        for (let x = 1; x < width - 1; x++) {
          const at = y * width + x;
          const d = Math.abs(2 * frame[at] - frame[at - 1] - frame[at + 1]) + Math.abs(2 * frame[at] - frame[at - width] - frame[at + width]);
          colDetail[x] += d;
          rowDetail[y] += d;
        }
      }
      expect(Array.from(sums.colDetail), `${width}×${height}`).toEqual(Array.from(colDetail));
      expect(Array.from(sums.rowDetail), `${width}×${height}`).toEqual(Array.from(rowDetail));
    }
  });
});

describe('ThumbnailStore (the WebAssembly thumbnail distance)', () => {
  /** Thumbnails `size` bytes long whose cells mostly differ by a few codes from frame to frame, with now and then a far one. */
  const thumbnails = (count: number, size: number): Uint8Array[] => {
    let state = size * 31 + count;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) >>> 16;
    const base = Uint8Array.from({ length: size }, () => next() & 255);
    return Array.from({ length: count }, (_, f) =>
      base.map((v) => {
        const r = next();
        const step = r % 23 === 0 ? (r >> 5) % 256 : (r >> 5) % (1 + (f % 5));
        return Math.min(255, Math.max(0, r & 1 ? v + step : v - step));
      }),
    );
  };

  /** The cell-by-cell loop the kernel replaces: the sum, or -1 once a cell or the sum is past its limit. */
  const reference = (a: Uint8Array, b: Uint8Array, cellMax: number, limit: number): number => {
    let s = 0;
    for (let k = 0; k < a.length; k++) {
      const d = Math.abs(a[k] - b[k]);
      if (d > cellMax) return -1;
      s += d;
      if (s > limit) return -1;
    }
    return s;
  };

  it('answers what the cell-by-cell loop answers, at any size (vector lanes and the tail) and limit', () => {
    for (const size of [576, 1, 15, 16, 17, 63, 64, 65, 100, 1000]) {
      const thumbs = thumbnails(40, size);
      const store = new ThumbnailStore();
      for (const t of thumbs) store.push(t);
      for (const cellMax of [0, 2, 6, 40, Infinity]) {
        for (const limit of [0, size, 3 * size, Infinity]) {
          for (let a = 0; a < thumbs.length; a += 3) {
            for (let b = 0; b < thumbs.length; b += 7) {
              expect(store.distance(a, b, cellMax, limit), `size ${size}, cellMax ${cellMax}, limit ${limit}, ${a}–${b}`).toBe(reference(thumbs[a], thumbs[b], cellMax, limit));
            }
          }
        }
      }
    }
  });

  it('keeps every thumbnail as its memory grows', () => {
    const thumbs = thumbnails(5000, 576);
    const store = new ThumbnailStore();
    for (const t of thumbs) store.push(t);
    for (const i of [0, 1, 113, 114, 4095, 4096, 4999]) {
      expect(Buffer.from(store.bytes.subarray(store.offset(i), store.offset(i) + 576)).equals(Buffer.from(thumbs[i]))).toBe(true);
    }
    expect(store.distance(0, 4999, Infinity, Infinity)).toBe(reference(thumbs[0], thumbs[4999], Infinity, Infinity));
  });

  it('gives back spilled thumbnails as they were, on either side of a comparison', () => {
    const thumbs = thumbnails(700, 576);
    const store = new ThumbnailStore({ residentFrames: 64, spillFrames: 16 });
    for (const t of thumbs) store.push(t);
    for (const i of [0, 15, 16, 300, 619, 620, 635, 636, 699]) {
      for (const side of [0, 1] as const) {
        const at = store.offset(i, side);
        expect(Buffer.from(store.bytes.subarray(at, at + 576)).equals(Buffer.from(thumbs[i])), `frame ${i}, side ${side}`).toBe(true);
      }
    }
    for (const [a, b] of [[0, 1], [5, 5], [3, 650], [650, 3], [699, 640], [200, 201]]) {
      expect(store.distance(a, b, Infinity, Infinity), `${a}–${b}`).toBe(reference(thumbs[a], thumbs[b], Infinity, Infinity));
    }
    store.close();
  });

  it('keeps every thumbnail in memory when the temporary folder takes no file', () => {
    const thumbs = thumbnails(300, 576);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/preflight-test';
    try {
      const store = new ThumbnailStore({ residentFrames: 64, spillFrames: 16 });
      for (const t of thumbs) store.push(t);
      for (const i of [0, 63, 64, 200, 299]) {
        const at = store.offset(i, 1);
        expect(Buffer.from(store.bytes.subarray(at, at + 576)).equals(Buffer.from(thumbs[i])), `frame ${i}`).toBe(true);
      }
      expect(store.distance(0, 299, Infinity, Infinity)).toBe(reference(thumbs[0], thumbs[299], Infinity, Infinity));
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});

describe('RepeatFinder', () => {
  const SIDE = 24;
  /** A square moving over a gradient; frames 2500–2599 replay 100–199 and frames 700–759 replay 640–699. */
  const thumbAt = (frame: number): Uint8Array => {
    const t = frame >= 2500 && frame < 2600 ? frame - 2400 : frame >= 700 && frame < 760 ? frame - 60 : frame;
    // Every frame differs: the square's place repeats every 324 frames, the background's level then moves on.
    const level = 40 + 4 * Math.floor(t / 324);
    const thumb = Uint8Array.from({ length: SIDE * SIDE }, (_, k) => level + (k % SIDE) + 3 * Math.floor(k / SIDE));
    const [sx, sy] = [t % 18, Math.floor(t / 18) % 18];
    for (let y = sy; y < sy + 6; y++) for (let x = sx; x < sx + 6; x++) thumb[y * SIDE + x] = 250;
    return thumb;
  };
  /** 64 bits: whether each of 64 cells is brighter than the cell after it. */
  const hashOf = (thumb: Uint8Array): [number, number] => {
    const words = [0, 0];
    for (let bit = 0; bit < 64; bit++) if (thumb[bit * 9] > thumb[bit * 9 + 1]) words[bit >> 5] |= 1 << (bit & 31);
    return [words[0] >>> 0, words[1] >>> 0];
  };
  const repeats = (finder: RepeatFinder) => {
    for (let f = 0; f < 3000; f++) {
      const thumb = thumbAt(f);
      finder.push(...hashOf(thumb), thumb, true);
    }
    return finder.finish();
  };

  it('finds the same repeats when older thumbnails are spilled to a file as when all are in memory', () => {
    const inMemory = repeats(new RepeatFinder(30));
    expect(inMemory).toContainEqual(expect.objectContaining({ sourceFrame: 100, repeatFrame: 2500 }));
    expect(inMemory).toContainEqual(expect.objectContaining({ sourceFrame: 640, repeatFrame: 700 }));
    expect(repeats(new RepeatFinder(30, { residentFrames: 64, spillFrames: 16 }))).toEqual(inMemory);
  });
});
