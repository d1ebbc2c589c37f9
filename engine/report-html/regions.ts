// Where on the picture a flag points, from its evidence: boxes ({x, y, w, h} as fractions of the frame, in `box`,
// `boxBefore`, `boxAfter` or each of `texts[].box`) or canvas padding (barsPct / fillPct: top, bottom, left, right as percentages). Evidence can come from sidecars, so every
// number is checked and clamped; anything unusable falls back to the whole frame.

/** A rectangle in percent of the frame (0..100). */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
  kind: 'box' | 'padding' | 'frame';
}

const WHOLE_FRAME: Region = { x: 0, y: 0, w: 100, h: 100, kind: 'frame' };
const BOX_KEYS = ['box', 'boxBefore', 'boxAfter'] as const;
const PADDING_KEYS = ['barsPct', 'fillPct'] as const;

const clampPct = (n: number) => Math.min(100, Math.max(0, n));

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function boxRegion(value: unknown): Region | null {
  const box = record(value);
  if (!box) return null;
  const [x, y, w, h] = [box.x, box.y, box.w, box.h].map(finite);
  if (x === null || y === null || w === null || h === null || w <= 0 || h <= 0) return null;
  const left = clampPct(100 * x);
  const top = clampPct(100 * y);
  const right = clampPct(100 * (x + w));
  const bottom = clampPct(100 * (y + h));
  return right > left && bottom > top ? { x: left, y: top, w: right - left, h: bottom - top, kind: 'box' } : null;
}

function paddingRegions(value: unknown): Region[] {
  const sides = record(value);
  if (!sides) return [];
  const side = (key: string) => clampPct(finite(sides[key]) ?? 0);
  const [top, bottom, left, right] = ['top', 'bottom', 'left', 'right'].map(side);
  const regions: Region[] = [];
  if (top > 0) regions.push({ x: 0, y: 0, w: 100, h: top, kind: 'padding' });
  if (bottom > 0) regions.push({ x: 0, y: 100 - bottom, w: 100, h: bottom, kind: 'padding' });
  if (left > 0) regions.push({ x: 0, y: 0, w: left, h: 100, kind: 'padding' });
  if (right > 0) regions.push({ x: 100 - right, y: 0, w: right, h: 100, kind: 'padding' });
  return regions;
}

/** The regions to outline on a flag's still; the whole frame when the evidence names none. */
export function flagRegions(evidence: Record<string, unknown>): Region[] {
  const listed = Array.isArray(evidence.texts) ? evidence.texts.map((t) => record(t)?.box) : [];
  const boxes = [...BOX_KEYS.map((k) => evidence[k]), ...listed].map(boxRegion).filter((r): r is Region => r !== null);
  const padding = PADDING_KEYS.flatMap((k) => paddingRegions(evidence[k]));
  const regions = [...boxes, ...padding];
  return regions.length ? regions : [WHOLE_FRAME];
}
