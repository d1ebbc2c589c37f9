// Boxes as fractions of the frame ({x, y, w, h}, origin top left): text declared in a manifest and text read by OCR.
import { EPSILON } from './bands.js';
import { round } from './stats.js';
import { pct } from './wording.js';

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

/** The frame less `margin` on every side (a safe area). */
export function insetBox(margin: number): FrameBox {
  return { x: margin, y: margin, w: 1 - 2 * margin, h: 1 - 2 * margin };
}

/** The edges of `area` that `box` reaches past, in the order left, top, right, bottom. */
export function outsideEdges(box: FrameBox, area: FrameBox): string[] {
  const edges: [string, boolean][] = [
    ['left', box.x < area.x - EPSILON],
    ['top', box.y < area.y - EPSILON],
    ['right', boxRight(box) > boxRight(area) + EPSILON],
    ['bottom', boxBottom(box) > boxBottom(area) + EPSILON],
  ];
  return edges.filter(([, out]) => out).map(([edge]) => edge);
}

const EDGE_NAMES = ['left', 'top', 'right', 'bottom'] as const;

/** The frame edges a box comes within `margin` of, in the order left, top, right, bottom. */
export function edgesTouched(box: FrameBox, margin: number): string[] {
  const gaps = [box.x, box.y, 1 - boxRight(box), 1 - boxBottom(box)];
  return EDGE_NAMES.filter((_, i) => gaps[i] <= margin + EPSILON);
}

/** How far a box reaches past each frame edge (negative: inside), in the order left, top, right, bottom. */
export function frameOverhangs(box: FrameBox): { edge: string; overhang: number }[] {
  const overhangs = [-box.x, -box.y, boxRight(box) - 1, boxBottom(box) - 1];
  return EDGE_NAMES.map((edge, i) => ({ edge, overhang: overhangs[i] }));
}
