import type { Report } from '../../../engine/report.js';
import type { Flag, Verdict } from '../../../engine/types.js';

/** One file's line in a batch: its report (fresh or reused) or the reason it could not be checked. */
export interface BatchRow {
  /** The path as shown to the user. */
  file: string;
  path: string;
  outcome: 'checked' | 'reused' | 'error';
  verdict: Verdict | 'ERROR';
  report: Report | null;
  error: string | null;
  /** Files written for it under --report-dir, relative to that directory. */
  outputs: Partial<Record<'report' | 'html' | 'receipt' | string, string>>;
  /** Why a receipt was not written for a check that did not run its whole profile. */
  receiptWithheld: string | null;
  seconds: number;
}

export function firstBlock(row: BatchRow): Flag | null {
  return row.report?.flags.find((f) => f.severity === 'BLOCK') ?? null;
}

/** 1 when any file is BLOCK, could not be checked, or (under --fail-on watch) is WATCH; else 0. */
export function batchExitCode(rows: readonly BatchRow[], failOn: 'watch' | 'block'): 0 | 1 {
  const fails = rows.some((r) => r.verdict === 'ERROR' || r.verdict === 'BLOCK' || (failOn === 'watch' && r.verdict === 'WATCH'));
  return fails ? 1 : 0;
}
