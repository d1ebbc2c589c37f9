// `--format junit`: JUnit XML as CI test views read it (Jenkins, GitLab, GitHub test reporters, Azure). A testsuite per
// file, a testcase per gate: BLOCK is a failure whose message gives the flags' timecodes and summaries; WATCH passes
// with its flags in system-out (a failure under --fail-on watch); a skipped gate is skipped; a gate that errored or a
// file that could not be checked is an error.
import type { GateSummary, Report } from '../../../../engine/report.js';
import type { Flag } from '../../../../engine/types.js';
import type { BatchRow } from '../row.js';

// XML 1.0 forbids most control characters even escaped; they are dropped rather than breaking the reader.
// eslint-disable-next-line no-control-regex -- matching those characters is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlText(text: string): string {
  return text.replace(INVALID_XML, '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function xmlAttr(text: string): string {
  return xmlText(text).replaceAll('"', '&quot;').replaceAll('\n', '&#10;').replaceAll('\r', '&#13;').replaceAll('\t', '&#9;');
}

const MESSAGE_FLAGS = 5;

function flagLine(f: Flag): string {
  return `${f.timecode} ${f.severity} ${f.summary}`;
}

function flagDetail(f: Flag): string {
  return `${f.timecode} (${f.timestamp}) ${f.severity} ${f.gate}: ${f.summary}\n  fix: ${f.repair.instruction}\n  verify: ${f.repair.verify}`;
}

function message(flags: Flag[]): string {
  const shown = flags.slice(0, MESSAGE_FLAGS).map(flagLine);
  if (flags.length > MESSAGE_FLAGS) shown.push(`and ${flags.length - MESSAGE_FLAGS} more`);
  return shown.join('; ');
}

interface CaseCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function gateCase(file: string, gate: GateSummary, report: Report, failOn: 'watch' | 'block', counts: CaseCounts): string {
  counts.tests++;
  const open = `    <testcase name="${xmlAttr(gate.gate)}" classname="${xmlAttr(file)}">`;
  const flags = report.flags.filter((f) => f.gate === gate.gate);
  const blocks = flags.filter((f) => f.severity === 'BLOCK');
  const watches = flags.filter((f) => f.severity === 'WATCH');
  const details = flags.map(flagDetail).join('\n');
  if (gate.status === 'error') {
    counts.errors++;
    return `${open}\n      <error type="gate_error" message="${xmlAttr(gate.reason ?? 'the gate failed')}"/>\n    </testcase>`;
  }
  if (gate.status === 'skipped') {
    counts.skipped++;
    return `${open}\n      <skipped message="${xmlAttr(gate.reason ?? 'skipped')}"/>\n    </testcase>`;
  }
  if (blocks.length || (failOn === 'watch' && watches.length)) {
    counts.failures++;
    const failing = blocks.length ? blocks : watches;
    return `${open}\n      <failure type="${failing[0].severity}" message="${xmlAttr(message(failing))}">${xmlText(details)}</failure>\n    </testcase>`;
  }
  if (watches.length) return `${open}\n      <system-out>${xmlText(details)}</system-out>\n    </testcase>`;
  return `${open}</testcase>`;
}

function suite(row: BatchRow, failOn: 'watch' | 'block', totals: CaseCounts): string {
  const counts: CaseCounts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  let cases: string[];
  const props: [string, string][] = [['verdict', row.verdict], ['reused', String(row.outcome === 'reused')]];
  if (row.report) {
    const report = row.report;
    props.push(['profile', report.profile], ['sha256', report.media.sha256], ['engine', report.engine.version]);
    cases = report.gates.map((g) => gateCase(row.file, g, report, failOn, counts));
  } else {
    counts.tests++;
    counts.errors++;
    cases = [`    <testcase name="check" classname="${xmlAttr(row.file)}">\n      <error type="unreadable" message="${xmlAttr(row.error ?? 'could not be checked')}"/>\n    </testcase>`];
  }
  for (const k of Object.keys(totals) as (keyof CaseCounts)[]) totals[k] += counts[k];
  const time = row.report && row.outcome !== 'reused' ? row.report.timings.totalMs / 1000 : row.seconds;
  const properties = props.map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`).join('\n');
  return (
    `  <testsuite name="${xmlAttr(row.file)}" file="${xmlAttr(row.file)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${time.toFixed(3)}">\n` +
    `    <properties>\n${properties}\n    </properties>\n${cases.join('\n')}\n  </testsuite>`
  );
}

export function batchJunit(rows: readonly BatchRow[], failOn: 'watch' | 'block', seconds: number): string {
  const totals: CaseCounts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const suites = rows.map((row) => suite(row, failOn, totals));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="preflight" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${seconds.toFixed(3)}">\n` +
    `${suites.join('\n')}\n</testsuites>\n`
  );
}
