// `--format github`: workflow-command annotations, so failures show on the run's summary and the pull request.
// Escaping follows GitHub's workflow-command rules: in the message %, CR and LF are percent-encoded; in property
// values (file, title) also ':' and ','.
import type { Flag } from '../../../../engine/types.js';
import type { BatchRow } from '../row.js';

export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function command(level: 'error' | 'warning', file: string, title: string, message: string): string {
  return `::${level} file=${escapeProperty(file)},title=${escapeProperty(title)}::${escapeData(message)}`;
}

function flagAnnotation(row: BatchRow, flag: Flag, level: 'error' | 'warning'): string {
  const title = `Preflight ${flag.severity} ${flag.gate} at ${flag.timecode}`;
  const message = `${row.file} at ${flag.timecode} (${flag.timestamp}): ${flag.summary}\nfix: ${flag.repair.instruction}\nverify: ${flag.repair.verify}`;
  return command(level, row.file, title, message);
}

export function githubAnnotations(rows: readonly BatchRow[], failOn: 'watch' | 'block'): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    if (row.error !== null) {
      lines.push(command('error', row.file, 'Preflight could not check this file', `${row.file}: ${row.error}`));
      continue;
    }
    for (const flag of row.report?.flags ?? []) {
      if (flag.severity === 'BLOCK') lines.push(flagAnnotation(row, flag, 'error'));
      else if (flag.severity === 'WATCH') lines.push(flagAnnotation(row, flag, failOn === 'watch' ? 'error' : 'warning'));
    }
  }
  return lines;
}
