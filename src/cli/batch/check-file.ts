// One file of a batch: its sidecars, its reuse key, then either the stored report or one fresh check (one decode),
// and its outputs under --report-dir. Any failure becomes the file's error row; it never ends the batch.
import { randomUUID } from 'node:crypto';
import type { CheckStage } from '../../../engine/check.js';
import { EngineError } from '../../../engine/errors.js';
import { sha256File, type Receipt } from '../../../engine/receipt.js';
import { renderReportHtml } from '../../../engine/report-html/index.js';
import { checkFile as checkOne } from '../../check-file.js';
import { ServiceError } from '../../errors.js';
import { issueReceipt } from '../../receipts.js';
import { reuseKey } from '../../reuse-key.js';
import { EXPORT_KINDS, type ExportKind } from './exports.js';
import type { BatchInput } from './inputs.js';
import { fileId, type ReportDir } from './report-dir.js';
import type { BatchRow } from './row.js';
import { sidecarsFor, type SharedSidecarFlags } from './sidecars.js';

export interface FileCheckOptions {
  sidecars: SharedSidecarFlags;
  profile?: string;
  checks?: string;
  exports: ExportKind[];
  reportDir: ReportDir | null;
  reuse: boolean;
  keyPlace: { home: string; env: NodeJS.ProcessEnv };
  signal: AbortSignal;
  onProgress: (pct: number, stage: CheckStage) => void;
}

export interface FileCheckResult {
  row: BatchRow;
  key: string | null;
}

function reasonOf(err: unknown): string {
  if (err instanceof EngineError || err instanceof ServiceError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return (err as Error).message ?? String(err);
}

export async function checkFile(input: BatchInput, opts: FileCheckOptions): Promise<FileCheckResult> {
  const t0 = performance.now();
  const row: BatchRow = { file: input.shown, path: input.path, outcome: 'checked', verdict: 'ERROR', report: null, error: null, outputs: {}, receiptWithheld: null, seconds: 0 };
  let key: string | null = null;
  try {
    if (opts.signal.aborted) throw new EngineError('cancelled', 'The batch was interrupted before this file was checked.');
    const { sidecars } = await sidecarsFor(input.path, opts.sidecars);
    const id = fileId(input.shown);
    if (opts.reportDir) {
      // Hashing reads the file once; far cheaper than the decode it can save.
      const sha256 = await sha256File(input.path);
      key = reuseKey({ sha256, sidecars, profile: opts.profile, checks: opts.checks, extra: { exports: opts.exports } });
      const stored = opts.reuse ? opts.reportDir.reusable(id, key, sha256) : null;
      if (stored) {
        Object.assign(row, { outcome: 'reused', verdict: stored.report.verdict, report: stored.report, outputs: stored.entry.outputs });
        return { row, key };
      }
    }
    // The same service-level check as `preflight check` and a job: the same report, usage shape included.
    const result = await checkOne(input.path, { sidecars, profile: opts.profile, checks: opts.checks, signal: opts.signal, onProgress: opts.onProgress });
    const { report, media, signals } = result;
    Object.assign(row, { verdict: report.verdict, report });
    if (!opts.reportDir) return { row, key };
    const dir = opts.reportDir;
    let receipt: Receipt | null = null;
    try {
      receipt = issueReceipt(report, `local_${randomUUID().replaceAll('-', '').slice(0, 20)}`, opts.keyPlace);
    } catch (err) {
      if (!(err instanceof ServiceError && err.code === 'receipt_incomplete_check')) throw err;
      row.receiptWithheld = err.message;
    }
    row.outputs.report = dir.write(`${id}.report.json`, `${JSON.stringify(report, null, 2)}\n`);
    row.outputs.html = dir.write(`${id}.report.html`, renderReportHtml({ report, signals, receipt }));
    for (const kind of opts.exports) row.outputs[kind] = dir.write(`${id}.${EXPORT_KINDS[kind].suffix}`, EXPORT_KINDS[kind].render(report, media));
    if (receipt) row.outputs.receipt = dir.write(`${id}.receipt.json`, `${JSON.stringify(receipt, null, 2)}\n`);
    return { row, key };
  } catch (err) {
    Object.assign(row, { outcome: 'error', verdict: 'ERROR', report: null, error: reasonOf(err).replaceAll(input.path, input.shown), outputs: {} });
    return { row, key: null };
  } finally {
    row.seconds = (performance.now() - t0) / 1000;
  }
}
