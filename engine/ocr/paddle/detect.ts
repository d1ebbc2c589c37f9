// Text detection with PaddleOCR's DB model: the picture in as a normalised tensor, a per-pixel text probability out;
// the probability map becomes line boxes by thresholding, connected components and DB's "unclip" (the model shrinks
// each text region when it learns it, so the found region is grown back by a margin proportional to its area/perimeter).
import type { OcrBox } from '../engine.js';
import type { RgbPicture } from '../contrast.js';
import type { FloatTensor } from './tensor.js';

/** Pixels of the probability map above this are text. */
const PIXEL_THRESHOLD = 0.3;
/** A region is a text box when its mean probability is at least this. */
const BOX_THRESHOLD = 0.6;
/** DB's unclip ratio: the margin is area × ratio / perimeter. */
const UNCLIP_RATIO = 1.5;
/** Regions whose short side is below this (px of the map) are specks. */
const MIN_SIDE = 3;
/** The detector's input sides are multiples of this. */
const STRIDE = 32;
/** ImageNet normalisation the detector was trained with, in its BGR channel order. */
const MEAN = [0.406, 0.456, 0.485];
const STD = [0.225, 0.224, 0.229];

/**
 * The picture as a 1 × 3 × H × W BGR tensor whose sides are the picture's rounded up to multiples of 32, the margin
 * repeating the edge pixels: the detector is convolutional, so padding rather than resizing keeps its map in the
 * picture's own pixels (and costs nothing).
 */
export function detectionInput(p: RgbPicture): FloatTensor {
  const w = Math.max(STRIDE, Math.ceil(p.width / STRIDE) * STRIDE);
  const h = Math.max(STRIDE, Math.ceil(p.height / STRIDE) * STRIDE);
  const plane = w * h;
  const data = new Float32Array(3 * plane);
  const scale = MEAN.map((_, c) => 1 / (255 * STD[c]));
  const shift = MEAN.map((m, c) => m / STD[c]);
  for (let y = 0; y < h; y++) {
    const row = Math.min(p.height - 1, y) * p.width;
    for (let x = 0; x < w; x++) {
      const k = (row + Math.min(p.width - 1, x)) * 3;
      const i = y * w + x;
      // Channel c of the tensor is BGR: the picture's channel 2 - c.
      data[i] = p.rgb[k + 2] * scale[0] - shift[0];
      data[plane + i] = p.rgb[k + 1] * scale[1] - shift[1];
      data[2 * plane + i] = p.rgb[k] * scale[2] - shift[2];
    }
  }
  return { data, dims: [1, 3, h, w] };
}

export interface DetectedBox extends OcrBox {
  /** Mean text probability of the region, 0..1. */
  score: number;
}

/**
 * Line boxes of a probability map (`mapWidth` × `mapHeight`, the picture `width` × `height` and its padding):
 * 4-connected regions of pixels above PIXEL_THRESHOLD, kept when their mean probability reaches BOX_THRESHOLD, their
 * bounding rectangles grown by DB's unclip margin. Captions and titles are level, so the boxes are axis-aligned.
 */
export function detectedBoxes(prob: Float32Array, mapWidth: number, mapHeight: number, width: number, height: number): DetectedBox[] {
  const seen = new Uint8Array(mapWidth * mapHeight);
  const stack: number[] = [];
  const boxes: DetectedBox[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || prob[start] <= PIXEL_THRESHOLD) continue;
    let [x0, y0, x1, y1] = [mapWidth, mapHeight, -1, -1];
    let sum = 0;
    let n = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % mapWidth;
      const y = (i - x) / mapWidth;
      sum += prob[i];
      n++;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      const visit = (j: number) => {
        if (seen[j] || prob[j] <= PIXEL_THRESHOLD) return;
        seen[j] = 1;
        stack.push(j);
      };
      if (x > 0) visit(i - 1);
      if (x < mapWidth - 1) visit(i + 1);
      if (y > 0) visit(i - mapWidth);
      if (y < mapHeight - 1) visit(i + mapWidth);
    }
    const [w, h] = [x1 - x0 + 1, y1 - y0 + 1];
    if (Math.min(w, h) < MIN_SIDE || sum / n < BOX_THRESHOLD) continue;
    const margin = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    boxes.push({
      x0: Math.max(0, Math.round(x0 - margin)),
      y0: Math.max(0, Math.round(y0 - margin)),
      x1: Math.min(width, Math.round(x1 + 1 + margin)),
      y1: Math.min(height, Math.round(y1 + 1 + margin)),
      score: sum / n,
    });
  }
  return boxes.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}
