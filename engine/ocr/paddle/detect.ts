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

/** Per tensor channel (BGR): the code value times `scale` minus `shift` is the normalised value. */
const SCALE = MEAN.map((_, c) => 1 / (255 * STD[c]));
const SHIFT = MEAN.map((m, c) => m / STD[c]);

/** What the OCR child needs to build the detector's input from a picture it is sent. */
export const DETECTION_INPUT = { stride: STRIDE, scale: SCALE, shift: SHIFT };

/**
 * The picture as a 1 × 3 × H × W BGR tensor whose sides are the picture's rounded up to multiples of 32, the margin
 * repeating the edge pixels: the detector is convolutional, so padding rather than resizing keeps its map in the
 * picture's own pixels (and costs nothing).
 */
export function detectionInput(p: RgbPicture): FloatTensor {
  return detectionTensor(p.rgb, p.width, p.height, STRIDE, SCALE, SHIFT);
}

/**
 * {@link detectionInput} from its parts. It uses nothing from outside its body: the OCR child runs its source on the
 * pictures it is sent (a quarter of the tensor's bytes), so both sides build the same tensor with the same code. Every
 * value is written, so `reuse`, an earlier tensor's data, is filled in place when it is the right size.
 */
export function detectionTensor(
  rgb: Uint8Array,
  width: number,
  height: number,
  stride: number,
  scale: readonly number[],
  shift: readonly number[],
  reuse?: Float32Array,
): FloatTensor {
  const w = Math.max(stride, Math.ceil(width / stride) * stride);
  const h = Math.max(stride, Math.ceil(height / stride) * stride);
  const plane = w * h;
  const data = reuse?.length === 3 * plane ? reuse : new Float32Array(3 * plane);
  for (let y = 0; y < h; y++) {
    const row = Math.min(height - 1, y) * width;
    for (let x = 0; x < w; x++) {
      const k = (row + Math.min(width - 1, x)) * 3;
      const i = y * w + x;
      // Channel c of the tensor is BGR: the picture's channel 2 - c.
      data[i] = rgb[k + 2] * scale[0] - shift[0];
      data[plane + i] = rgb[k + 1] * scale[1] - shift[1];
      data[2 * plane + i] = rgb[k] * scale[2] - shift[2];
    }
  }
  return { data, dims: [1, 3, h, w] };
}

export interface DetectedBox extends OcrBox {
  /** Mean text probability of the region, 0..1. */
  score: number;
}

/** What the OCR child needs to find the line boxes in the map it made. */
export const DETECTION_BOXES = { pixelThreshold: PIXEL_THRESHOLD, boxThreshold: BOX_THRESHOLD, unclipRatio: UNCLIP_RATIO, minSide: MIN_SIDE };

/**
 * Line boxes of a probability map (`mapWidth` × `mapHeight`, the picture `width` × `height` and its padding):
 * 4-connected regions of pixels above PIXEL_THRESHOLD, kept when their mean probability reaches BOX_THRESHOLD, their
 * bounding rectangles grown by DB's unclip margin. Captions and titles are level, so the boxes are axis-aligned.
 */
export function detectedBoxes(prob: Float32Array, mapWidth: number, mapHeight: number, width: number, height: number): DetectedBox[] {
  return boxesOfMap(prob, mapWidth, mapHeight, width, height, DETECTION_BOXES);
}

/** Working arrays for {@link boxesOfMap}, kept between calls; it grows them to the map's size when they are smaller. */
export interface BoxScratch {
  seen: Uint8Array;
  stack: Int32Array;
}

/**
 * {@link detectedBoxes} from its parts. It uses nothing from outside its body: the OCR child runs its source on the
 * map it made and sends back the boxes instead of the map.
 */
export function boxesOfMap(
  prob: Float32Array,
  mapWidth: number,
  mapHeight: number,
  width: number,
  height: number,
  { pixelThreshold, boxThreshold, unclipRatio, minSide }: typeof DETECTION_BOXES,
  scratch: BoxScratch = { seen: new Uint8Array(0), stack: new Int32Array(0) },
): DetectedBox[] {
  const size = mapWidth * mapHeight;
  if (scratch.seen.length < size) [scratch.seen, scratch.stack] = [new Uint8Array(size), new Int32Array(size)];
  else scratch.seen.fill(0, 0, size);
  // Each pixel is pushed once: the stack never holds more than the map.
  const { seen, stack } = scratch;
  const boxes: DetectedBox[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || prob[start] <= pixelThreshold) continue;
    let [x0, y0, x1, y1] = [mapWidth, mapHeight, -1, -1];
    let sum = 0;
    let n = 0;
    seen[start] = 1;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top];
      const x = i % mapWidth;
      const y = (i - x) / mapWidth;
      sum += prob[i];
      n++;
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x > x1) x1 = x;
      if (y > y1) y1 = y;
      // The neighbours left, right, up and down, in that order (the sum's order, so its rounding, stays the same).
      let j = i - 1;
      if (x > 0 && !seen[j] && !(prob[j] <= pixelThreshold)) {
        seen[j] = 1;
        stack[top++] = j;
      }
      j = i + 1;
      if (x < mapWidth - 1 && !seen[j] && !(prob[j] <= pixelThreshold)) {
        seen[j] = 1;
        stack[top++] = j;
      }
      j = i - mapWidth;
      if (y > 0 && !seen[j] && !(prob[j] <= pixelThreshold)) {
        seen[j] = 1;
        stack[top++] = j;
      }
      j = i + mapWidth;
      if (y < mapHeight - 1 && !seen[j] && !(prob[j] <= pixelThreshold)) {
        seen[j] = 1;
        stack[top++] = j;
      }
    }
    const [w, h] = [x1 - x0 + 1, y1 - y0 + 1];
    if (Math.min(w, h) < minSide || sum / n < boxThreshold) continue;
    const margin = (w * h * unclipRatio) / (2 * (w + h));
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
