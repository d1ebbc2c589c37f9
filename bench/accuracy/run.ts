// `npm run bench -- accuracy`: builds the corpus, runs the real check on every file (the default profile unless the
// entry names one), compares each report with the entry's expectations and the loudness with independent meters,
// prints the tables and writes the same results to .cache/accuracy/last.json for later comparison.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ENGINE_VERSION, runCheck } from '../../engine/check.js';
import { buildCorpus, mapLimit, repoRoot, type BuiltEntry } from './build.js';
import { CORPUS, type CorpusEntry } from './corpus.js';
import { findMaterials } from './materials.js';
import { onPath } from '../../engine/ffmpeg/binaries.js';
import { confusion, extraWords, lineRecall, matchFlags, recallByStyle, type FileMatch, type LineRecall } from './match.js';
import { ffmpegEbur128, loudgainReading, type MeterReading } from './meters.js';
import { printReport } from './print.js';
import type { Report } from '../../engine/report.js';
import type { Signals } from '../../engine/types.js';

export interface LoudnessComparison {
  ours: MeterReading;
  loudgain: MeterReading | null;
  ffmpeg: MeterReading | null;
  mono: boolean;
}

export interface FileResult {
  name: string;
  what: string;
  kind: CorpusEntry['kind'];
  profile: string;
  expect: CorpusEntry['expect'];
  verdict: Report['verdict'] | null;
  flags: { gate: string; severity: string; start: number; end: number; summary: string }[];
  match: FileMatch | null;
  /** Why there is no result (unavailable material, a build or check failure). */
  skipped?: string;
  checkSeconds: number;
  ocr: { lines: LineRecall[]; extraWords: string[]; read: { text: string; start: number; end: number }[] } | null;
  loudness: LoudnessComparison | null;
}

export interface AccuracyResults {
  createdAt: string;
  engineVersion: string;
  machine: { cpus: number; loadAverage: number[] };
  timings: { buildSeconds: number; checkSeconds: number; checkSecondsSum: number; metersSeconds: number };
  files: FileResult[];
  confusion: ReturnType<typeof confusion>;
  ocrByStyle: ReturnType<typeof recallByStyle>;
}

export interface AccuracyOptions {
  concurrency?: number;
  /** Only these entries (by name). */
  only?: string[];
  jsonPath?: string;
  log?: (line: string) => void;
}

function oursFrom(report: Report, signals: Signals): MeterReading {
  const L = signals.audio?.loudness;
  const m = report.gates.find((g) => g.gate === 'loudness')?.measurements as Record<string, number | null> | undefined;
  return {
    integratedLufs: L?.integratedLufs ?? m?.integratedLufs ?? null,
    loudnessRangeLu: L?.loudnessRangeLu ?? m?.loudnessRangeLu ?? null,
    truePeakDbtp: L?.truePeakDbtp ?? m?.truePeakDbtp ?? null,
  };
}

export async function referenceLoudness(path: string, mono: boolean, loudgain: string | null): Promise<Pick<LoudnessComparison, 'loudgain' | 'ffmpeg'>> {
  const [lg, ff] = await Promise.all([
    loudgain ? loudgainReading(loudgain, path, mono).catch(() => null) : Promise.resolve(null),
    ffmpegEbur128(path, mono).catch(() => null),
  ]);
  return { loudgain: lg, ffmpeg: ff };
}

/**
 * Checks one built corpus file with the entry's profile and compares the report with its expectations; the loudness
 * comparison carries the engine's figures, the reference meters' are filled in by `referenceLoudness`.
 */
export async function checkEntry(b: BuiltEntry): Promise<FileResult> {
  const e = b.entry;
  const base = { name: e.name, what: e.what, kind: e.kind, profile: e.profile ?? 'auto', expect: e.expect };
  const none = { verdict: null, flags: [], match: null, checkSeconds: 0, ocr: null, loudness: null };
  if (!b.path) return { ...base, ...none, skipped: b.unavailable ?? `build failed: ${b.error}` };
  const t = performance.now();
  let checked: Awaited<ReturnType<typeof runCheck>>;
  try {
    checked = await runCheck(b.path, e.profile ? { profile: e.profile } : {});
  } catch (err) {
    return { ...base, ...none, skipped: `check failed: ${(err as Error).message}` };
  }
  const checkSeconds = (performance.now() - t) / 1000;
  const { report, signals } = checked;
  const flags = report.flags.map((f) => ({ gate: f.gate, severity: f.severity, start: f.start, end: f.end, summary: f.summary }));
  const match = matchFlags(e.expect, flags, report.gates, report.media.durationSeconds);
  const read = (signals.text?.tracks ?? []).map((tr) => ({ text: tr.text, start: tr.start, end: tr.end }));
  const ocr = signals.text ? { lines: lineRecall(e.expect.text ?? [], read), extraWords: extraWords(e.expect, read), read } : null;
  const loudness = report.media.audio ? { ours: oursFrom(report, signals), loudgain: null, ffmpeg: null, mono: report.media.audio.channels === 1 } : null;
  return { ...base, verdict: report.verdict, flags, match, checkSeconds, ocr, loudness };
}

export async function accuracyBench(opts: AccuracyOptions = {}): Promise<AccuracyResults> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const concurrency = opts.concurrency ?? 2;
  const materials = findMaterials();
  const entries = opts.only?.length ? CORPUS.filter((e) => opts.only!.includes(e.name)) : CORPUS;
  if (opts.only?.length && entries.length !== opts.only.length) throw new Error(`unknown corpus entries: ${opts.only.filter((n) => !CORPUS.some((e) => e.name === n)).join(', ')}`);

  log(`building the corpus (${entries.length} entries) ...`);
  const build = await buildCorpus({ entries, materials, concurrency, prune: !opts.only?.length, onEntry: (b) => b.error && log(`  build failed: ${b.entry.name}: ${b.error}`) });
  const unavailable = build.built.filter((b) => b.unavailable);
  log(`built in ${build.seconds.toFixed(1)} s${unavailable.length ? `; unavailable on this machine: ${unavailable.map((b) => `${b.entry.name} (${b.unavailable})`).join('; ')}` : ''}`);

  const checkStart = performance.now();
  const files = await mapLimit(build.built, concurrency, checkEntry);
  const checkSeconds = (performance.now() - checkStart) / 1000;

  const loudgain = onPath('loudgain');
  const meterStart = performance.now();
  await mapLimit(files, concurrency, async (f, i) => {
    if (f.loudness) Object.assign(f.loudness, await referenceLoudness(build.built[i].path!, f.loudness.mono, loudgain));
  });
  const metersSeconds = (performance.now() - meterStart) / 1000;

  const results: AccuracyResults = {
    createdAt: new Date().toISOString(),
    engineVersion: ENGINE_VERSION,
    machine: { cpus: cpus().length, loadAverage: loadavg().map((n) => Math.round(n * 100) / 100) },
    timings: { buildSeconds: build.seconds, checkSeconds, checkSecondsSum: files.reduce((s, f) => s + f.checkSeconds, 0), metersSeconds },
    files,
    confusion: confusion(files.filter((f) => f.match).map((f) => f.match!.outcomes)),
    ocrByStyle: recallByStyle(files.flatMap((f) => f.ocr?.lines ?? [])),
  };
  printReport(results, { loudgainMissing: !loudgain, log });
  const jsonPath = opts.jsonPath ?? join(resolve(repoRoot(), '.cache/accuracy'), 'last.json');
  mkdirSync(dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  log(`results written to ${jsonPath}`);
  return results;
}
