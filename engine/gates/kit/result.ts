// A gate's result: its status follows from its flags; a gate without its input is skipped with the reason.
import type { FlagDraft, GateResult, GateStatus } from '../../types.js';
import { round } from './stats.js';

export function statusFromFlags(flags: FlagDraft[]): GateStatus {
  if (flags.some((f) => f.severity === 'BLOCK')) return 'block';
  if (flags.some((f) => f.severity === 'WATCH')) return 'watch';
  return 'pass';
}

export function gateResult(gate: string, measurements: Record<string, unknown>, flags: FlagDraft[]): GateResult {
  return { gate, status: statusFromFlags(flags), measurements, flags };
}

/** gateResult with flag times rounded to the millisecond (times added up from word timings carry float noise). */
export function gateResultAtMs(gate: string, measurements: Record<string, unknown>, flags: FlagDraft[]): GateResult {
  return gateResult(
    gate,
    measurements,
    flags.map((f) => ({ ...f, start: round(f.start, 3), end: round(f.end, 3) })),
  );
}

export function skippedGate(gate: string, reason: string, measurements: Record<string, unknown> = {}): GateResult {
  return { gate, status: 'skipped', reason, measurements, flags: [] };
}

/** A gate that ran but found nothing in the content to measure: not a pass, unless a flag says more. */
export function unmeasuredGate(gate: string, reason: string, measurements: Record<string, unknown>, flags: FlagDraft[]): GateResult {
  return flags.length > 0 ? { ...gateResult(gate, measurements, flags), reason } : { gate, status: 'unmeasured', reason, measurements, flags };
}
