// Text forms of report values: flattened measurements, clock labels. Locale-free, so the page is deterministic.
import { formatTimestamp } from '../timecode.js';

export interface FlattenLimits {
  /** Items of one array shown before "… N more". */
  arrayItems: number;
  /** Entries returned before the rest is summarised in one line. */
  entries: number;
}

export const ALL_ENTRIES: FlattenLimits = { arrayItems: 20, entries: Infinity };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A leaf value as text: numbers as given, null as a dash. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? String(value);
}

function isLeaf(value: unknown): boolean {
  return !isPlainObject(value) && !Array.isArray(value);
}

function collect(value: unknown, key: string, limits: FlattenLimits, out: [string, string][]): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && key) out.push([key, '—']);
    for (const [k, v] of entries) collect(v, key ? `${key}.${k}` : k, limits, out);
    return;
  }
  if (Array.isArray(value)) {
    const shown = value.slice(0, limits.arrayItems);
    const more = value.length > shown.length ? ` … ${value.length - shown.length} more` : '';
    if (value.length === 0) out.push([key, '—']);
    else if (value.every(isLeaf)) out.push([key, shown.map(valueText).join(', ') + more]);
    else {
      shown.forEach((item, i) => collect(item, `${key}[${i}]`, limits, out));
      if (more) out.push([key, more.trim()]);
    }
    return;
  }
  out.push([key, valueText(value)]);
}

/** Nested objects as `a.b.c: value` pairs, in the object's own key order. */
export function flattenEntries(value: Record<string, unknown>, limits: FlattenLimits = ALL_ENTRIES): [string, string][] {
  const out: [string, string][] = [];
  collect(value, '', limits, out);
  if (out.length <= limits.entries) return out;
  const kept = out.slice(0, limits.entries);
  kept.push(['…', `${out.length - limits.entries} more values in the JSON report`]);
  return kept;
}

/** Axis label: m:ss under an hour, h:mm:ss beyond, with tenths when the step needs them. */
export function clockLabel(seconds: number, withTenths = false): string {
  const total = Math.max(0, seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const sec = withTenths ? s.toFixed(1).padStart(4, '0') : String(Math.floor(s + 1e-9)).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function durationText(seconds: number): string {
  return Number.isFinite(seconds) ? formatTimestamp(seconds) : '—';
}

/** Fixed-point number for chart coordinates (short, locale-free). */
export function coord(n: number): string {
  return String(Math.round(n * 10) / 10);
}
