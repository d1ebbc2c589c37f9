// The PaddleOCR post-processing on its own: line boxes from a detection map, words from recognition columns.
import { describe, expect, it } from 'vitest';
import { boxesOfMap, DETECTION_BOXES, DETECTION_INPUT, detectedBoxes, detectionInput, detectionTensor } from '../engine/ocr/paddle/detect.js';
import { alphabetOf, decodeLine, keptColumns } from '../engine/ocr/paddle/recognise.js';

describe('detectedBoxes', () => {
  it('finds each confident region, grows it by the unclip margin and drops faint regions and specks', () => {
    const [w, h] = [64, 32];
    const prob = new Float32Array(w * h);
    const fill = (x0: number, y0: number, x1: number, y1: number, p: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) prob[y * w + x] = p;
    };
    fill(10, 10, 40, 16, 0.9); // a line: 30 × 6
    fill(50, 20, 60, 26, 0.4); // above the pixel threshold, under the box threshold
    fill(5, 28, 7, 30, 0.95); // a speck
    const boxes = detectedBoxes(prob, w, h, 60, 30);
    // margin = 30 × 6 × 1.5 / (2 × 36) = 3.75
    expect(boxes).toEqual([{ x0: 6, y0: 6, x1: 44, y1: 20, score: expect.closeTo(0.9, 5) }]);
  });

  it('pads the picture to multiples of 32 with its edge pixels, in BGR order', () => {
    const rgb = new Uint8Array(40 * 20 * 3);
    for (let i = 0; i < 40 * 20; i++) rgb.set([255, 0, 0], i * 3);
    const { data, dims } = detectionInput({ rgb, width: 40, height: 20 });
    expect(dims).toEqual([1, 3, 32, 64]);
    const plane = 32 * 64;
    // Red is the third (R) channel: (1 - 0.485) / 0.229; blue and green are at their means' negatives.
    expect(data[2 * plane + 31 * 64 + 63]).toBeCloseTo((1 - 0.485) / 0.229, 4);
    expect(data[31 * 64 + 63]).toBeCloseTo(-0.406 / 0.225, 4);
  });
});

describe('decodeLine', () => {
  const alphabet = alphabetOf(['a', 'b', 'c', '中'].join('\n'));
  const columns = (picks: [string, number, number?][]) => {
    const size = alphabet.chars.length;
    const probs = new Float32Array(picks.length * size);
    picks.forEach(([c, p, space = 0], t) => {
      const i = c === '' ? 0 : alphabet.chars.indexOf(c);
      probs[t * size + i] = p;
      probs[t * size + alphabet.space] = Math.max(probs[t * size + alphabet.space], space);
      if (i === 0) probs[t * size] = p;
    });
    return { probs, n: picks.length };
  };

  it('merges repeats, drops blanks, never picks a Chinese character and splits words at spaces and space-like gaps', () => {
    const { probs, n } = columns([
      ['a', 0.9],
      ['a', 0.8],
      ['', 0.9],
      ['b', 1],
      ['', 0.8, 0.3],
      ['c', 0.7],
      ['', 1],
      [' ', 0.9],
      ['a', 1],
    ]);
    // A column whose best is the Chinese character yields its best Latin rival or a blank instead.
    const size = alphabet.chars.length;
    probs[2 * size + alphabet.chars.indexOf('中')] = 0.99;
    const box = { x0: 100, y0: 10, x1: 172, y1: 30 };
    const read = decodeLine(keptColumns(probs, n, size, alphabet.allowed), n, alphabet, box, 72);
    expect(read.text).toBe('ab c a');
    expect(read.words.map((w) => [w.text, Math.round(w.confidence)])).toEqual([
      ['ab', 95],
      ['c', 70],
      ['a', 100],
    ]);
    // The first word starts at the line's start, the last ends at its end; the others span their columns (8 px each), from half a column before the first to one and a half after the last.
    expect(read.words[0].box.x0).toBe(100);
    expect(read.words[2].box.x1).toBe(172);
    expect(read.words[1].box).toEqual({ x0: 136, y0: 10, x1: 152, y1: 30 });
  });
});

describe('the functions the OCR child runs from their source', () => {
  // The child evaluates each function's text on its own: nothing of its module is in scope there.
  const alone = <F>(fn: F): F => new Function(`return (${String(fn)});`)() as F;

  it('build the same detector input, boxes and kept columns with nothing of their module in scope', () => {
    const [w, h] = [70, 40];
    const rgb = Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 37) % 256);
    const { stride, scale, shift } = DETECTION_INPUT;
    const input = alone(detectionTensor)(rgb, w, h, stride, scale, shift);
    expect(input.dims).toEqual([1, 3, 64, 96]);
    expect(Buffer.from(input.data.buffer).equals(Buffer.from(detectionInput({ rgb, width: w, height: h }).data.buffer))).toBe(true);

    const prob = Float32Array.from({ length: 96 * 64 }, (_, i) => ((i % 96 > 10 && i % 96 < 60 && i > 96 * 12 && i < 96 * 20) ? 0.9 : (i % 7) / 20));
    const boxes = alone(boxesOfMap)(prob, 96, 64, w, h, DETECTION_BOXES);
    expect(boxes.length).toBeGreaterThan(0);
    expect(boxes).toEqual(detectedBoxes(prob, 96, 64, w, h));

    // The child keeps the input's array and the box search's arrays between calls: what an earlier call left in them
    // changes nothing, and a scratch too small for the map is grown.
    const reused = alone(detectionTensor)(rgb, w, h, stride, scale, shift, new Float32Array(input.data.length).fill(7));
    expect(Buffer.from(reused.data.buffer).equals(Buffer.from(input.data.buffer))).toBe(true);
    const scratch = { seen: new Uint8Array(10).fill(1), stack: new Int32Array(10) };
    expect(alone(boxesOfMap)(prob, 96, 64, w, h, DETECTION_BOXES, scratch)).toEqual(boxes);
    expect(scratch.seen.length).toBe(96 * 64);
    scratch.seen.fill(1);
    expect(alone(boxesOfMap)(prob, 96, 64, w, h, DETECTION_BOXES, scratch)).toEqual(boxes);

    const probs = Float32Array.from({ length: 5 * 9 }, (_, i) => i / 45);
    expect(Array.from(alone(keptColumns)(probs, 5, 9, [0, 4, 8]))).toEqual(Array.from(keptColumns(probs, 5, 9, [0, 4, 8])));
    expect(Array.from(keptColumns(probs, 5, 9, [0, 4, 8]).subarray(3, 6))).toEqual([9, 13, 17].map((k) => Math.fround(k / 45)));
  });
});
