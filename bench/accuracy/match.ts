// Compares what a check reported with what a corpus entry expects: per gate a true or false positive or negative,
// a wrong severity or a mistimed span; OCR word recall per text style; invented words on text-free pictures. Pure
// functions of plain data, so the suite can assert the same outcomes the bench prints.
import { phraseWords } from '../../engine/text/match.js';
import { SPAN_TOLERANCE_SECONDS, type ExpectedFlag, type Expectations, type TextLine, type TextStyle } from './expectations.js';
import type { GateStatus, Severity } from '../../engine/types.js';

/** The parts of a report the matching reads. */
export interface ReportedFlag {
  gate: string;
  severity: Severity;
  start: number;
  end: number;
  summary: string;
}
export interface ReportedGate {
  gate: string;
  status: GateStatus;
  reason?: string;
}
export interface ReadLine {
  text: string;
  start: number;
  end: number;
}

export type Outcome = 'TP' | 'FP' | 'FN' | 'TN' | 'wrong-severity';

export interface GateOutcome {
  gate: string;
  outcome: Outcome;
  /** Severity expected (TP, FN, wrong severity) or flagged (FP). */
  severity: Severity | null;
  /** A TP whose span is off by more than the tolerance. */
  mistimed?: boolean;
  /** A flag an expectation accepts without demanding it was present. */
  accepted?: boolean;
  detail: string;
}

export interface FileMatch {
  outcomes: GateOutcome[];
  /** Human-readable disagreements (empty when the file met its expectations). */
  mismatches: string[];
}

const RANK: Record<Severity, number> = { WATCH: 1, BLOCK: 2 };
const f1 = (n: number) => n.toFixed(1);
const spanText = (start: number, end: number) => `${f1(start)}–${f1(end)} s`;

export function describeExpected(e: ExpectedFlag): string {
  const where = e.start !== undefined && e.end !== undefined ? ` ${spanText(e.start, e.end)}` : '';
  return `${e.gate} ${e.severity}${where}${e.required ? '' : ' (accepted)'}`;
}

/** Matches one check's flags against one entry's expected flags. `durationSeconds` spans whole-programme expectations. */
export function matchFlags(expect: Expectations, flags: ReportedFlag[], gates: ReportedGate[], durationSeconds: number): FileMatch {
  const outcomes: GateOutcome[] = [];
  const mismatches: string[] = [];
  const consumed = new Set<ReportedFlag>();
  const statusOf = new Map(gates.map((g) => [g.gate, g]));

  for (const e of expect.flags) {
    const whole = e.start === undefined || e.end === undefined;
    const [start, end] = whole ? [0, durationSeconds] : [e.start!, e.end!];
    const candidates = flags.filter((f) => f.gate === e.gate && f.start <= end + SPAN_TOLERANCE_SECONDS && f.end >= start - SPAN_TOLERANCE_SECONDS);
    if (!e.required) {
      for (const f of candidates) if (RANK[f.severity] <= RANK[e.severity]) consumed.add(f);
      const present = candidates.filter((f) => consumed.has(f));
      outcomes.push({ gate: e.gate, outcome: 'TN', severity: e.severity, accepted: present.length > 0, detail: present.length ? `accepted: ${present[0].summary}` : 'accepted flag absent' });
      continue;
    }
    candidates.forEach((f) => consumed.add(f));
    const same = candidates.filter((f) => f.severity === e.severity);
    if (same.length) {
      const got = [Math.min(...same.map((f) => f.start)), Math.max(...same.map((f) => f.end))];
      const mistimed = !whole && (Math.abs(got[0] - start) > SPAN_TOLERANCE_SECONDS || Math.abs(got[1] - end) > SPAN_TOLERANCE_SECONDS);
      outcomes.push({ gate: e.gate, outcome: 'TP', severity: e.severity, mistimed, detail: `${same[0].summary}` });
      if (mistimed) mismatches.push(`${e.gate}: span ${spanText(got[0], got[1])}, expected ${spanText(start, end)} ±${SPAN_TOLERANCE_SECONDS}`);
    } else if (candidates.length) {
      const got = candidates.reduce((a, b) => (RANK[b.severity] > RANK[a.severity] ? b : a));
      outcomes.push({ gate: e.gate, outcome: 'wrong-severity', severity: e.severity, detail: `${got.severity}: ${got.summary}` });
      mismatches.push(`${e.gate}: ${got.severity}, expected ${e.severity}`);
    } else {
      const g = statusOf.get(e.gate);
      const why = !g ? 'gate not run' : g.status === 'skipped' || g.status === 'error' ? `gate ${g.status}: ${g.reason ?? ''}` : 'no flag';
      outcomes.push({ gate: e.gate, outcome: 'FN', severity: e.severity, detail: why });
      mismatches.push(`${e.gate}: missed (${why}), expected ${describeExpected(e)}`);
    }
  }

  const unexpected = new Map<string, ReportedFlag[]>();
  for (const f of flags) if (!consumed.has(f)) unexpected.set(f.gate, [...(unexpected.get(f.gate) ?? []), f]);
  for (const [gate, list] of unexpected) {
    const worst = list.reduce((a, b) => (RANK[b.severity] > RANK[a.severity] ? b : a));
    outcomes.push({ gate, outcome: 'FP', severity: worst.severity, detail: worst.summary });
    mismatches.push(`${gate}: unexpected ${worst.severity} ${spanText(worst.start, worst.end)} "${worst.summary}"${list.length > 1 ? ` (+${list.length - 1} more)` : ''}`);
  }

  const judged = new Set(outcomes.map((o) => o.gate));
  for (const g of gates) {
    if (judged.has(g.gate) || g.status === 'skipped' || g.status === 'error') continue;
    outcomes.push({ gate: g.gate, outcome: 'TN', severity: null, detail: '' });
  }
  return { outcomes, mismatches };
}

export interface ConfusionRow {
  gate: string;
  TP: number;
  FP: number;
  FN: number;
  TN: number;
  wrongSeverity: number;
  /** TPs whose span is off by more than the tolerance. */
  mistimed: number;
  /** FPs that are BLOCK. */
  falseBlocks: number;
}

/** Sums per-file outcomes into one row per gate, gates in first-seen order. */
export function confusion(files: GateOutcome[][]): ConfusionRow[] {
  const rows = new Map<string, ConfusionRow>();
  for (const outcomes of files) {
    for (const o of outcomes) {
      const row = rows.get(o.gate) ?? { gate: o.gate, TP: 0, FP: 0, FN: 0, TN: 0, wrongSeverity: 0, mistimed: 0, falseBlocks: 0 };
      if (o.outcome === 'wrong-severity') row.wrongSeverity++;
      else row[o.outcome]++;
      if (o.mistimed) row.mistimed++;
      if (o.outcome === 'FP' && o.severity === 'BLOCK') row.falseBlocks++;
      rows.set(o.gate, row);
    }
  }
  return [...rows.values()];
}

// ------------------------------------------------------------------------------------------------ OCR recall

export interface LineRecall {
  text: string;
  style: TextStyle;
  words: number;
  wordsRead: number;
  /** Every word of the line was read. */
  read: boolean;
}

/** Time slack around a line's window: OCR samples once a second and confirms half a second later. */
const OCR_TIME_SLACK_SECONDS = 1;

const overlaps = (line: TextLine, read: ReadLine) =>
  line.start === undefined || line.end === undefined || (read.start <= line.end + OCR_TIME_SLACK_SECONDS && read.end >= line.start - OCR_TIME_SLACK_SECONDS);

/** Word recall of each ground-truth line against the lines OCR read at overlapping times. */
export function lineRecall(truth: TextLine[], read: ReadLine[]): LineRecall[] {
  return truth.map((line) => {
    const words = phraseWords(line.text);
    const seen = new Set(read.filter((r) => overlaps(line, r)).flatMap((r) => phraseWords(r.text)));
    const found = words.filter((w) => seen.has(w)).length;
    return { text: line.text, style: line.style, words: words.length, wordsRead: found, read: found === words.length };
  });
}

/** Words OCR read that no ground-truth line of the file contains: misreads, or invented text on a text-free picture. */
export function extraWords(expect: Expectations, read: ReadLine[]): string[] {
  const truth = new Set((expect.text ?? []).flatMap((l) => phraseWords(l.text)));
  return read.flatMap((r) => phraseWords(r.text)).filter((w) => !truth.has(w));
}

export interface StyleRecall {
  style: TextStyle;
  lines: number;
  linesRead: number;
  words: number;
  wordsRead: number;
}

export function recallByStyle(lines: LineRecall[]): StyleRecall[] {
  const byStyle = new Map<TextStyle, StyleRecall>();
  for (const l of lines) {
    const s = byStyle.get(l.style) ?? { style: l.style, lines: 0, linesRead: 0, words: 0, wordsRead: 0 };
    s.lines++;
    if (l.read) s.linesRead++;
    s.words += l.words;
    s.wordsRead += l.wordsRead;
    byStyle.set(l.style, s);
  }
  return [...byStyle.values()];
}
