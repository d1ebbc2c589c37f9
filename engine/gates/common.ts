import type { FlagDraft, GateResult, GateStatus, GateThresholds } from '../types.js';

export function statusFromFlags(flags: FlagDraft[]): GateStatus {
  if (flags.some((f) => f.severity === 'BLOCK')) return 'block';
  if (flags.some((f) => f.severity === 'WATCH')) return 'watch';
  return 'pass';
}

export function gateResult(gate: string, measurements: Record<string, unknown>, flags: FlagDraft[]): GateResult {
  return { gate, status: statusFromFlags(flags), measurements, flags };
}

export function skippedGate(gate: string, reason: string): GateResult {
  return { gate, status: 'skipped', reason, measurements: {}, flags: [] };
}

/** A numeric threshold by key; a missing key is a programming error in the profile tables. */
export function threshold(thresholds: GateThresholds, key: string): number {
  const entry = thresholds[key];
  if (!entry || typeof entry.value !== 'number') throw new Error(`threshold ${key} missing or not numeric`);
  return entry.value;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Thresholds as plain values for a flag's evidence. */
export function thresholdValues(thresholds: GateThresholds, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in thresholds).map((k) => [k, thresholds[k].value]));
}

export interface IndexSpan {
  first: number;
  last: number;
}

/** Maximal runs of consecutive indices (frames, audio blocks) for which `test` holds. */
export function runsOf(count: number, test: (i: number) => boolean): IndexSpan[] {
  const out: IndexSpan[] = [];
  let first = -1;
  for (let i = 0; i <= count; i++) {
    const on = i < count && test(i);
    if (on && first < 0) first = i;
    if (!on && first >= 0) {
      out.push({ first, last: i - 1 });
      first = -1;
    }
  }
  return out;
}
