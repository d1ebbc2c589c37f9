// The accuracy bench's printed tables: per file, per gate (confusion), OCR recall per style, invented words and
// loudness agreement with the independent meters.
import { describeExpected } from './match.js';
import type { AccuracyResults, FileResult } from './run.js';
import type { MeterReading } from './meters.js';

/** Issue 14's agreement targets: integrated within 0.1 LU, LRA within 0.5 LU, true peak within 0.3 dB. */
export const LOUDNESS_TOLERANCE = { integratedLufs: 0.1, loudnessRangeLu: 0.5, truePeakDbtp: 0.3 } as const;

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)} %` : '-');
const signed = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '-' : `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`);
const fixed = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '-' : n.toFixed(digits));

function expectedText(f: FileResult): string {
  const flags = f.expect.flags.map(describeExpected);
  return flags.length ? flags.join('; ') : '0 flags';
}

function gotText(f: FileResult): string {
  if (!f.verdict) return '-';
  const counts = new Map<string, number>();
  for (const fl of f.flags) counts.set(`${fl.gate} ${fl.severity}`, (counts.get(`${fl.gate} ${fl.severity}`) ?? 0) + 1);
  const list = [...counts].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k));
  return list.length ? `${f.verdict}: ${list.join(', ')}` : 'PASS';
}

function printFiles(r: AccuracyResults, log: (s: string) => void): void {
  log('\nPer file (expected vs got; every mismatch listed under its file)');
  const rows = r.files.map((f) => [f.name, f.kind, f.profile, expectedText(f), gotText(f), f.skipped ? 'SKIPPED' : f.match!.mismatches.length ? 'MISMATCH' : 'ok', f.checkSeconds ? f.checkSeconds.toFixed(1) : '-']);
  log(table(['file', 'kind', 'profile', 'expected', 'got', 'result', 'check s'], rows));
  log('\nMismatches');
  for (const f of r.files) {
    if (f.skipped) log(`${f.name}: skipped — ${f.skipped}`);
    else for (const m of f.match!.mismatches) log(`${f.name}: ${m}`);
  }
}

function printConfusion(r: AccuracyResults, log: (s: string) => void): void {
  log('\nPer gate (TP: flag at the right gate and severity overlapping the expected span; FP: a flag no expectation');
  log('accounts for, one per file and gate; FN: expected flag missing; TN: gate ran, nothing expected, nothing flagged;');
  log('wrong severity: flagged at the right place as WATCH instead of BLOCK or back; mistimed: TP off by more than 0.5 s)');
  const rows = r.confusion.map((c) => [c.gate, String(c.TP), `${c.FP}${c.falseBlocks ? ` (${c.falseBlocks} BLOCK)` : ''}`, String(c.FN), String(c.TN), String(c.wrongSeverity), String(c.mistimed)]);
  const sum = (k: 'TP' | 'FP' | 'FN' | 'TN' | 'wrongSeverity' | 'mistimed' | 'falseBlocks') => r.confusion.reduce((s, c) => s + c[k], 0);
  rows.push(['all gates', String(sum('TP')), `${sum('FP')} (${sum('falseBlocks')} BLOCK)`, String(sum('FN')), String(sum('TN')), String(sum('wrongSeverity')), String(sum('mistimed'))]);
  log(table(['gate', 'TP', 'FP', 'FN', 'TN', 'wrong severity', 'mistimed'], rows));

  const checked = r.files.filter((f) => f.match);
  const clean = checked.filter((f) => f.kind === 'clean');
  const cleanBlock = clean.filter((f) => f.match!.outcomes.some((o) => o.outcome === 'FP' && o.severity === 'BLOCK'));
  const cleanWatches = clean.reduce((s, f) => s + f.flags.filter((fl) => fl.severity === 'WATCH').length, 0);
  const unexpectedCleanWatch = clean.reduce((s, f) => s + f.match!.outcomes.filter((o) => o.outcome === 'FP' && o.severity === 'WATCH').length, 0);
  log(`clean files: ${clean.length}; with a false BLOCK: ${cleanBlock.length}${cleanBlock.length ? ` (${cleanBlock.map((f) => f.name).join(', ')})` : ''}; WATCH flags: ${cleanWatches} (${unexpectedCleanWatch} unexpected gate-file pairs; target at most one WATCH per five files = ${Math.floor(clean.length / 5)})`);
  const defects = checked.flatMap((f) => f.match!.outcomes.filter((o) => o.outcome !== 'TN' && o.outcome !== 'FP'));
  const found = defects.filter((o) => o.outcome === 'TP');
  log(`expected flags: ${defects.length}; found at the right gate and severity: ${found.length}; of those within ±0.5 s: ${found.filter((o) => !o.mistimed).length}; wrong severity: ${defects.filter((o) => o.outcome === 'wrong-severity').length}; missed: ${defects.filter((o) => o.outcome === 'FN').length}`);
  const files = checked.filter((f) => f.match!.mismatches.length === 0).length;
  log(`files meeting every expectation: ${files} of ${checked.length} (${r.files.length - checked.length} not checked)`);
}

function printOcr(r: AccuracyResults, log: (s: string) => void): void {
  log('\nOCR recall per text style (a line is read when every one of its words was read at an overlapping time)');
  log(table(['style', 'lines', 'lines read', 'words', 'words read', 'word recall'], r.ocrByStyle.map((s) => [s.style, String(s.lines), `${s.linesRead} (${pct(s.linesRead, s.lines)})`, String(s.words), String(s.wordsRead), pct(s.wordsRead, s.words)])));
  const textFree = r.files.filter((f) => f.expect.textFree && f.ocr);
  const invented = textFree.filter((f) => f.ocr!.extraWords.length);
  log(`invented words on ${textFree.length} text-free pictures: ${textFree.reduce((s, f) => s + f.ocr!.extraWords.length, 0)}${invented.length ? ` (${invented.map((f) => `${f.name}: ${f.ocr!.extraWords.slice(0, 6).join(' ')}`).join('; ')})` : ''}`);
  const texted = r.files.filter((f) => f.expect.text?.length && f.ocr);
  const extra = texted.filter((f) => f.ocr!.extraWords.length);
  log(`words read beside the ground truth on ${texted.length} pictures with text: ${texted.reduce((s, f) => s + f.ocr!.extraWords.length, 0)}${extra.length ? ` (${extra.map((f) => `${f.name}: ${f.ocr!.extraWords.slice(0, 6).join(' ')}`).join('; ')})` : ''}`);
  const missedLines = texted.flatMap((f) => f.ocr!.lines.filter((l) => !l.read).map((l) => `${f.name}: "${l.text}" ${l.wordsRead}/${l.words}`));
  if (missedLines.length) log(`lines not fully read:\n  ${missedLines.join('\n  ')}`);
}

type Metric = keyof MeterReading;
const METRICS: [Metric, string][] = [['integratedLufs', 'I'], ['loudnessRangeLu', 'LRA'], ['truePeakDbtp', 'TP']];

function diff(ours: MeterReading, ref: MeterReading | null, k: Metric): number | null {
  const a = ours[k];
  const b = ref?.[k];
  return a === null || b === null || b === undefined ? null : a - b;
}

function printLoudness(r: AccuracyResults, loudgainMissing: boolean, log: (s: string) => void): void {
  const withAudio = r.files.filter((f) => f.loudness);
  log(`\nLoudness: the engine's meter minus loudgain (libebur128) and minus ffmpeg ebur128=peak=true (mono measured dual-mono by all three)${loudgainMissing ? '; loudgain not installed: apt-get install loudgain' : ''}`);
  const rows = withAudio.map((f) => {
    const L = f.loudness!;
    return [f.name, ...METRICS.flatMap(([k]) => [fixed(L.ours[k], 2), signed(diff(L.ours, L.loudgain, k), 2), signed(diff(L.ours, L.ffmpeg, k), 2)])];
  });
  log(table(['file', 'I', 'ΔI lg', 'ΔI ff', 'LRA', 'ΔLRA lg', 'ΔLRA ff', 'TP', 'ΔTP lg', 'ΔTP ff'], rows));
  const summary = METRICS.map(([k, label]) => {
    const cells = (['loudgain', 'ffmpeg'] as const).map((ref) => {
      const ds = withAudio.map((f) => diff(f.loudness!.ours, f.loudness![ref], k)).filter((d): d is number => d !== null);
      if (!ds.length) return `${ref}: -`;
      const within = ds.filter((d) => Math.abs(d) <= LOUDNESS_TOLERANCE[k] + 1e-9).length;
      const worst = ds.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a));
      const mean = ds.reduce((a, b) => a + b, 0) / ds.length;
      return `${ref}: ${within}/${ds.length} within ±${LOUDNESS_TOLERANCE[k]}, mean ${signed(mean, 2)}, worst ${signed(worst, 2)}`;
    });
    return `${label}: ${cells.join('; ')}`;
  });
  log(summary.join('\n'));
}

export function printReport(r: AccuracyResults, opts: { loudgainMissing: boolean; log: (s: string) => void }): void {
  const { log } = opts;
  printFiles(r, log);
  printConfusion(r, log);
  printOcr(r, log);
  printLoudness(r, opts.loudgainMissing, log);
  const t = r.timings;
  log(`\ntimings: corpus build ${t.buildSeconds.toFixed(1)} s; checks ${t.checkSeconds.toFixed(1)} s wall (${t.checkSecondsSum.toFixed(1)} s summed over files); reference meters ${t.metersSeconds.toFixed(1)} s; ${r.machine.cpus} CPUs, load average ${r.machine.loadAverage.join(' ')}`);
}
