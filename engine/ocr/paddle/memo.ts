// What the models answered for inputs they have already read in this check. The models are deterministic, so an
// identical input (a line of a screen recording or a held slide that did not change between samples) gets the stored
// answer instead of a second inference: the same results, at the cost of hashing the input.
import { createHash } from 'node:crypto';
import type { RgbPicture } from '../contrast.js';
import type { DetectedBox } from './detect.js';
import type { FloatTensor } from './tensor.js';

/** Detections (a picture's line boxes) and recognised lines (a few words each) are small. */
const PICTURES = 64;
const LINES = 1024;

export class ModelMemo {
  private readonly pictures = new Map<string, readonly DetectedBox[]>();
  private readonly lines = new Map<string, unknown>();
  /** Answers given from the memo: detections and line readings. */
  readonly hits = { pictures: 0, lines: 0 };

  /** The key of a picture's detection: its pixels and size decide the detector's input, and hash four times faster. */
  static pictureKey(p: RgbPicture): string {
    return `picture ${p.width}x${p.height}:${digest(p.rgb)}`;
  }

  static keyOf(input: FloatTensor, ...context: number[]): string {
    return `${[...input.dims, ...context].join(',')}:${digest(input.data)}`;
  }

  /** The line boxes stored for a picture, or null. Boxes are only read, never changed: they are shared, not copied. */
  boxes(key: string): readonly DetectedBox[] | null {
    const found = this.pictures.get(key);
    if (!found) return null;
    this.hits.pictures++;
    return found;
  }

  keepBoxes(key: string, boxes: readonly DetectedBox[]): void {
    keep(this.pictures, key, boxes, PICTURES);
  }

  /** A copy of a stored line reading, or null. */
  line<T>(key: string): T | null {
    if (!this.lines.has(key)) return null;
    this.hits.lines++;
    return structuredClone(this.lines.get(key)) as T;
  }

  keepLine(key: string, reading: unknown): void {
    keep(this.lines, key, structuredClone(reading), LINES);
  }
}

const digest = (data: Uint8Array | Float32Array): string =>
  createHash('sha256').update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)).digest('base64');

function keep<T>(map: Map<string, T>, key: string, value: T, limit: number): void {
  map.delete(key);
  map.set(key, value);
  // Oldest first: a Map keeps insertion order.
  while (map.size > limit) map.delete(map.keys().next().value!);
}
