// The summary table a batch prints at the end: file, verdict, BLOCK and WATCH counts, the first BLOCK with its timecode.
import { firstBlock, type BatchRow } from '../row.js';

function cell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

export function batchTable(rows: readonly BatchRow[], reportDir: string | null): string {
  const fileWidth = Math.min(60, Math.max(4, ...rows.map((r) => r.file.length)));
  const lines = [`${cell('FILE', fileWidth)}  VERDICT  BLOCK  WATCH  FIRST BLOCK`];
  for (const row of rows) {
    const first = firstBlock(row);
    const verdict = `${row.verdict}${row.outcome === 'reused' ? '*' : ''}`;
    const counts = row.report ? `${String(row.report.summary.block).padStart(5)}  ${String(row.report.summary.watch).padStart(5)}` : `${'-'.padStart(5)}  ${'-'.padStart(5)}`;
    const note = row.error ? `error: ${row.error}` : first ? `${first.timecode} ${first.gate}: ${first.summary}` : '';
    lines.push(`${cell(row.file, fileWidth)}  ${verdict.padEnd(7)}  ${counts}  ${note}`.trimEnd());
  }
  const count = (v: string) => rows.filter((r) => r.verdict === v).length;
  const reused = rows.filter((r) => r.outcome === 'reused').length;
  lines.push('');
  lines.push(
    `${rows.length} file${rows.length === 1 ? '' : 's'}: ${count('PASS')} PASS, ${count('WATCH')} WATCH, ${count('BLOCK')} BLOCK, ${count('ERROR')} not checked` +
      (reused ? `; ${reused} reused from ${reportDir} (marked *; --no-reuse checks again)` : ''),
  );
  if (reportDir) lines.push(`reports: ${reportDir}/index.html`);
  return lines.join('\n');
}
