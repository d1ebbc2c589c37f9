// "Nothing checked twice" for jobs: a completed job of the same workspace whose reuse key (src/reuse-key.ts, the rule
// the CLI batch uses) equals this job's lends its stored report, so the media is probed but never decoded again.
import type { Receipt } from '../../engine/receipt.js';
import { renderReportHtml } from '../../engine/report-html/index.js';
import { renderReceipt } from '../../engine/report-html/receipt-section.js';
import type { Report } from '../../engine/report.js';
import { artifactByKind } from './artifact-table.js';
import type { JobRecord } from './record.js';

/** What an earlier job stored: its report, receipt (null for an incomplete check) and visual report. */
export interface StoredCheck {
  jobId: string;
  report: Report;
  receipt: Receipt | null;
  html: string | null;
}

function parsed<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The newest completed job of the workspace with this reuse key whose stored report describes these bytes. */
export function reusableCheck(
  jobs: readonly JobRecord[],
  wanted: { workspaceId: string; key: string; sha256: string; except: string },
  read: (jobId: string, file: string) => string | null,
): StoredCheck | null {
  for (let i = jobs.length - 1; i >= 0; i--) {
    const job = jobs[i];
    if (job.workspaceId !== wanted.workspaceId || job.status !== 'completed' || job.reuseKey !== wanted.key || job.jobId === wanted.except) continue;
    const report = parsed<Report>(read(job.jobId, artifactByKind('report_json').file));
    if (report?.media?.sha256 !== wanted.sha256) continue;
    return {
      jobId: job.jobId,
      report,
      receipt: parsed<Receipt>(read(job.jobId, artifactByKind('receipt').file)),
      html: read(job.jobId, artifactByKind('report_html').file),
    };
  }
  return null;
}

const occurrences = (text: string, part: string): number => (part ? text.split(part).length - 1 : 0);

/**
 * The visual report of a reused check. Its charts and contact sheet come from the decode's signals, which are not
 * stored, so the earlier page is kept with only what differs swapped: the receipt section (this job's receipt) and
 * the footer's check time. When the earlier page cannot be matched piece for piece, the page is rendered again
 * without the signal charts rather than pieced together wrongly.
 */
export function reusedReportHtml(stored: StoredCheck, report: Report, receipt: Receipt | null): string {
  const page = stored.html;
  const before = { receipt: renderReceipt(stored.receipt)?.value ?? null, checked: `checked ${stored.report.createdAt}` };
  const after = { receipt: renderReceipt(receipt)?.value ?? null, checked: `checked ${report.createdAt}` };
  const swappable =
    page !== null &&
    occurrences(page, before.checked) === 1 &&
    (before.receipt === null) === (after.receipt === null) &&
    (before.receipt === null || occurrences(page, before.receipt) === 1);
  if (!swappable) return renderReportHtml({ report, signals: null, receipt });
  let out = page.replace(before.checked, () => after.checked);
  if (before.receipt !== null && after.receipt !== null) out = out.replace(before.receipt, () => after.receipt!);
  return out;
}
