// Comparing a measure with its thresholds. Every comparison allows EPSILON of floating-point slack, so a value that
// displays as the threshold counts as the threshold; whether the threshold itself is in or out follows the gate's
// documented rule ("at least", "more than", "below").
import type { Severity } from '../../types.js';

export const EPSILON = 1e-9;

/** value ≥ limit ("at least", "from"). */
export const reaches = (value: number, limit: number): boolean => value - limit >= -EPSILON;
/** value > limit ("more than", "over", "above"). */
export const exceeds = (value: number, limit: number): boolean => value - limit > EPSILON;
/** value < limit ("below", "under", "less than"). */
export const fallsBelow = (value: number, limit: number): boolean => limit - value > EPSILON;

export type Passes = (value: number, limit: number) => boolean;

/** BLOCK when `value` passes the BLOCK limit, else WATCH when it passes the WATCH limit, else null. */
export function severityBand(value: number, watch: number, block: number, passes: Passes = reaches, passesBlock: Passes = passes): Severity | null {
  if (passesBlock(value, block)) return 'BLOCK';
  if (passes(value, watch)) return 'WATCH';
  return null;
}
