// Text boxes as fractions of the frame ({x, y, w, h}, origin top left), shared by declared (manifest) and read (OCR) text.
import { pct } from '../gates/wording.js';
import { round } from '../gates/common.js';

export interface FrameBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const boxRight = (b: FrameBox) => b.x + b.w;
export const boxBottom = (b: FrameBox) => b.y + b.h;
export const boxArea = (b: FrameBox) => Math.max(0, b.w) * Math.max(0, b.h);
export const roundedBox = (b: FrameBox) => ({ x: round(b.x, 4), y: round(b.y, 4), w: round(b.w, 4), h: round(b.h, 4) });
export const boxText = (b: FrameBox) => `x ${pct(b.x)}-${pct(boxRight(b))}, y ${pct(b.y)}-${pct(boxBottom(b))}`;

export function intersectionArea(a: FrameBox, b: FrameBox): number {
  const w = Math.min(boxRight(a), boxRight(b)) - Math.max(a.x, b.x);
  const h = Math.min(boxBottom(a), boxBottom(b)) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Largest move of any edge of the box, as a fraction of the frame. */
export function boxShift(a: FrameBox, b: FrameBox): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(boxRight(a) - boxRight(b)), Math.abs(boxBottom(a) - boxBottom(b)));
}

export function unionFrameBox(boxes: FrameBox[]): FrameBox {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, w: Math.max(...boxes.map(boxRight)) - x, h: Math.max(...boxes.map(boxBottom)) - y };
}
