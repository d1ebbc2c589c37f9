// How every gate writes times, spans, shares and quoted text in its summaries and repairs.
import { formatTimestamp } from '../timecode.js';
import { round } from './common.js';

const QUOTE_CHARS = 80;

/** Media time as HH:MM:SS.mmm (negative times, from rounding, read as 0). */
export const hms = (seconds: number): string => formatTimestamp(Math.max(0, seconds));

export const spanText = (start: number, end: number): string => `${hms(start)}-${hms(end)}`;

/** A fraction as a percentage with one decimal: 0.125 → "12.5 %". */
export const pct = (fraction: number): string => `${round(100 * fraction, 1)} %`;

/** Text in double quotes on one line, cut with an ellipsis past `max` characters. */
export function quote(text: string, max = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}
