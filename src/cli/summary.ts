import { uploadReadiness, type Report } from '../../engine/report.js';

const STATUS_MARK: Record<string, string> = { pass: 'pass ', watch: 'WATCH', block: 'BLOCK', skipped: 'skip ', error: 'ERROR', unmeasured: 'n/m  ' };

function keyMeasurements(m: Record<string, unknown>): string {
  const parts = Object.entries(m)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string')
    .slice(0, 4)
    .map(([k, v]) => `${k}=${v}`);
  return parts.join(' ');
}

/** The human summary `preflight check` prints on a terminal. */
export function renderSummary(report: Report): string {
  const lines: string[] = [];
  const m = report.media;
  lines.push(`${report.verdict}  ${m.fileName}`);
  lines.push(
    `  ${m.kind}, ${m.durationSeconds} s, ${m.container}${m.video ? `, ${m.video.displayWidth}×${m.video.displayHeight} ${m.video.codec} ${m.video.fps} fps` : ''}${m.audio ? `, ${m.audio.codec} ${m.audio.sampleRate} Hz ${m.audio.channels} ch` : ''}`,
  );
  lines.push(`  profile ${report.profile} (requested ${report.requestedProfile}), delivery ${report.deliveryProfile}`);
  lines.push('');
  lines.push('Gates');
  for (const g of report.gates) {
    const detail = g.status === 'skipped' || g.status === 'error' || g.status === 'unmeasured' ? (g.reason ?? '') : keyMeasurements(g.measurements);
    lines.push(`  ${STATUS_MARK[g.status] ?? g.status}  ${g.gate.padEnd(28)} ${detail}`);
  }
  if (report.flags.length) {
    lines.push('');
    lines.push(`Flags (${report.summary.block} BLOCK, ${report.summary.watch} WATCH)`);
    for (const f of report.flags) {
      lines.push(`  ${f.severity.padEnd(5)} ${f.timestamp}  ${f.gate}: ${f.summary}`);
      lines.push(`        fix: ${f.repair.instruction}`);
      lines.push(`        verify: ${f.repair.verify}`);
    }
  }
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  lines.push('');
  lines.push(uploadReadiness(report).sentence);
  return lines.join('\n');
}
