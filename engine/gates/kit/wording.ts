// How every gate writes times, spans, shares, levels and quoted text in its summaries and repairs.
import { formatTimestamp } from '../../timecode.js';
import { round } from './stats.js';

const QUOTE_CHARS = 80;

/** Media time as HH:MM:SS.mmm (negative times, from rounding, read as 0). */
export const hms = (seconds: number): string => formatTimestamp(Math.max(0, seconds));

export const spanText = (start: number, end: number): string => `${hms(start)}-${hms(end)}`;

/** A fraction as a percentage with one decimal: 0.125 → "12.5 %". */
export const pct = (fraction: number): string => `${round(100 * fraction, 1)} %`;

/** A level or difference with one decimal, never "-0.0": −0.04 → "0.0", −3.25 → "-3.3". */
export const fixed1 = (value: number): string => (Math.abs(value) < 0.05 ? 0 : value).toFixed(1);

/** A gain with its sign: 2 → "+2.0", −1.5 → "-1.5". */
export const signed1 = (value: number): string => `${value > 0 ? '+' : ''}${fixed1(value)}`;

/** Text in double quotes on one line, cut with an ellipsis past `max` characters. */
export function quote(text: string, max = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

/** The `verify` of a repair: re-run the one gate and expect `what`. */
export const reRun = (gate: string, what: string): string => `Re-run the check with checks=${gate}; expect ${what}.`;

/** The `verify` of a repair that edits the manifest. */
export const reRunWithManifest = (gate: string, what: string): string => `Re-run the check with the updated manifest and checks=${gate}; expect ${what}.`;
