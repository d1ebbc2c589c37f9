import type { BatchRow } from '../row.js';

/** `--format json`: one array, a row per file with its full report (null when it could not be checked). */
export function batchJson(rows: readonly BatchRow[]): string {
  return JSON.stringify(
    rows.map((r) => ({ file: r.file, verdict: r.verdict, reused: r.outcome === 'reused', error: r.error, outputs: r.outputs, receiptWithheld: r.receiptWithheld, report: r.report })),
    null,
    2,
  );
}
