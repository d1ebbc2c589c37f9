// Flags as an RFC 4180 marker CSV (CRLF line ends, UTF-8, header row), one row per flag in report order.
//
// Spreadsheet formula injection: a summary or instruction cell that starts with = + - @ (or a tab or carriage
// return) gets a leading single quote, so Excel, LibreOffice and Sheets show it as text instead of evaluating
// it. Only these free-text columns are guarded: the other columns are numbers, timecodes or engine ids.

import type { Flag } from '../types.js';
import { formatTimecode } from '../timecode.js';

export const MARKERS_CSV_HEADER = [
  'timecode',
  'start_seconds',
  'end_seconds',
  'severity',
  'gate',
  'summary',
  'instruction',
  'action',
  'reachable',
  'id',
] as const;

const CRLF = '\r\n';
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Prefixes a single quote to text a spreadsheet would read as a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_TRIGGER.test(text) ? `'${text}` : text;
}

/** One RFC 4180 field: quoted when it holds a comma, quote or line break, with embedded quotes doubled. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Report order: start time, then gate, then id (code-unit comparison, independent of locale). */
export function sortFlagsForExport(flags: readonly Flag[]): Flag[] {
  return [...flags].sort((a, b) => a.start - b.start || compareText(a.gate, b.gate) || compareText(a.id, b.id));
}

function markerRow(flag: Flag, fps: number): string[] {
  return [
    formatTimecode(flag.start, fps),
    flag.start.toFixed(3),
    flag.end.toFixed(3),
    flag.severity,
    flag.gate,
    neutraliseFormula(flag.summary),
    neutraliseFormula(flag.repair.instruction),
    flag.repair.action,
    String(flag.repair.reachable),
    flag.id,
  ];
}

export function markersCsv(flags: readonly Flag[], fps: number): string {
  const rows = [[...MARKERS_CSV_HEADER], ...sortFlagsForExport(flags).map((flag) => markerRow(flag, fps))];
  return rows.map((row) => row.map(csvField).join(',') + CRLF).join('');
}
