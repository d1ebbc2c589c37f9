// Issue 16's figures: a check's cost against a bare decode of the same file by the same ffmpeg, from outside (the CLI
// as a process, start-up included), for the default profile (OCR included) and for the technical gates alone, with
// the peak resident memory of the whole process tree and the OCR calls the check made. Each check runs between two
// bare decodes and is divided by their mean, so a machine whose speed drifts still gives a fair ratio. With
// PREFLIGHT_BENCH_BASELINE (bench/baseline.ts), an earlier build checks the same file between the same decodes. Where
// the default profile misses its target, bench/ocr-floor.ts prints what the OCR models alone cost on that file.
import { resolve } from 'node:path';
import { mediaLabel, mediaUnavailable, size, speedMedia, type SpeedMedia } from './speed-media.js';
import { baseline, inTurn } from './baseline.js';
import { bareDecode, decodePassAlone, partsText, timedProcess, type TreePeak } from './tree-rss.js';
import { ocrFloorBench } from './ocr-floor.js';

/** The default profile's gates without the text gates. */
const TECHNICAL_ONLY = 'black_frames,loop_freeze,canvas_fill,format_spec,loudness,clipping,dead_air,channel_balance,av_sync';
const CLI = resolve(import.meta.dirname, '../../bin/preflight.js');

const TARGET = { withOcr: 1.3, technical: 1.15, rssMb: 300, linearity: 0.1 };

interface Measured {
  ratio: number;
  check: number;
  /** Peak RSS of the check's process tree and what each process held at that moment. */
  peak: TreePeak;
  /** The report's verdict; null when the CLI printed no report. */
  verdict: string | null;
}

function verdictOf(stdout: string): string | null {
  try {
    return (JSON.parse(stdout) as { verdict?: string }).verdict ?? null;
  } catch {
    return null;
  }
}

interface Row extends Measured {
  media: SpeedMedia;
  profile: 'default' | 'technical';
  bare: number;
  ocr: string;
  /** The same check by the baseline build (PREFLIGHT_BENCH_BASELINE), between the same bare decodes. */
  before: Measured | null;
  /** Technical rows: the check's decode pass alone (its ffmpeg graph, every output to /dev/null) ÷ the bare decode. */
  passRatio: number | null;
  /** The same through pipes that cat empties: the transport as well. */
  pipedRatio: number | null;
}

function ocrOf(stdout: string): string {
  try {
    const report = JSON.parse(stdout) as { gates: { gate: string; measurements?: Record<string, unknown> }[] };
    const m = report.gates.find((g) => g.measurements && 'samplesRead' in g.measurements)?.measurements;
    if (!m) return 'no OCR';
    // The runtime decides the speed (native about three times faster): say which one read.
    const runtime = / on (onnxruntime-\S+ \S+)$/.exec(String(m.ocrEngine))?.[1] ?? 'unknown runtime';
    return `OCR on ${runtime}: samples ${String(m.samplesRead)} (${String(m.changeSamples)} at changes): ${String(m.wholeReads)} whole reads, ${String(m.regionReads)} region reads, ${String(m.unchangedSamples)} unchanged; ${String(m.confirmations)} confirmations, ${String(m.startSearches)} start searches, ${String(m.recognitionsSpared)} recognitions spared; ${String(m.textLines)} lines`;
  } catch {
    return 'report unreadable';
  }
}

let measured = 0;

async function measure(media: SpeedMedia, profile: Row['profile']): Promise<Row> {
  const path = await speedMedia(media);
  const args = (cli: string) => [cli, 'check', path, '--json', ...(profile === 'technical' ? ['--checks', TECHNICAL_ONLY] : [])];
  const clis = [CLI, ...(baseline() ? [baseline()!.cli] : [])];
  const decodeBefore = await bareDecode(path);
  // With a baseline, the two builds take turns going first.
  const [check, other] = await inTurn(clis.map((cli) => () => timedProcess(process.execPath, args(cli))), measured++);
  const pass = profile === 'technical' ? await decodePassAlone(path, { checks: TECHNICAL_ONLY }) : null;
  const piped = profile === 'technical' ? await decodePassAlone(path, { checks: TECHNICAL_ONLY }, 'pipes') : null;
  const decodeAfter = await bareDecode(path);
  const bare = (decodeBefore.seconds + decodeAfter.seconds) / 2;
  return {
    media,
    profile,
    ratio: check.seconds / bare,
    check: check.seconds,
    bare,
    peak: check.peak,
    verdict: verdictOf(check.stdout),
    ocr: profile === 'default' ? ocrOf(check.stdout) : '',
    before: other ? { ratio: other.seconds / bare, check: other.seconds, peak: other.peak, verdict: verdictOf(other.stdout) } : null,
    passRatio: pass === null ? null : pass / bare,
    pipedRatio: piped === null ? null : piped / bare,
  };
}

const f = (n: number, d = 2) => n.toFixed(d);
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
/** A row whose check printed no report (a failed run) is not judged against a target. */
const judged = (m: Measured, ok: boolean) => (m.verdict ? verdict(ok) : 'NOT JUDGED');

const PROFILES = ['default', 'technical'] as const;

/** How far apart ratios are: the largest over the smallest, less one. */
const spreadOf = (ratios: number[]) => Math.max(...ratios) / Math.min(...ratios) - 1;

const verdictText = (m: Measured) => (m.verdict ? `verdict ${m.verdict}` : 'NO REPORT');
const beforeText = (row: Row) =>
  row.before ? `; ${baseline()!.label}: ${f(row.before.ratio)}×, check ${f(row.before.check)} s, ${f(row.before.peak.mb, 0)} MB, ${verdictText(row.before)}` : '';

/**
 * `minutes` defaults to 1 and 10 (PREFLIGHT_BENCH_MINUTES=1,10,60 adds the hour); PREFLIGHT_BENCH_MEDIA=screen-720p,...
 * picks files; PREFLIGHT_BENCH_PROFILES=technical picks profiles (an hour with OCR takes most of an hour).
 */
export async function speedBench(minutesList = (process.env.PREFLIGHT_BENCH_MINUTES ?? '1,10').split(',').map(Number)): Promise<void> {
  const only = process.env.PREFLIGHT_BENCH_MEDIA?.split(',');
  const profiles = PROFILES.filter((p) => process.env.PREFLIGHT_BENCH_PROFILES?.split(',').includes(p) ?? true);
  const kinds = (
    [
      { kind: 'pattern', height: 720 },
      { kind: 'pattern', height: 1080 },
      { kind: 'slideshow', height: 720 },
      { kind: 'screen', height: 720 },
    ] as const
  ).filter((k) => !only || only.includes(`${k.kind}-${k.height}p`));
  const rows: Row[] = [];
  console.log(`speed: check ÷ bare decode (the mean of a decode before and after), the CLI as a process; targets: default ≤ ${TARGET.withOcr}×, technical ≤ ${TARGET.technical}×, process-tree peak RSS ≤ ${TARGET.rssMb} MB, 1/10/60-min ratios within ${TARGET.linearity * 100} %`);
  for (const k of kinds) {
    for (const minutes of minutesList) {
      const media = { ...k, minutes };
      const missing = mediaUnavailable(media);
      if (missing) {
        console.log(`${mediaLabel(media)}: skipped (${missing})`);
        continue;
      }
      for (const profile of profiles) {
        const row = await measure(media, profile);
        rows.push(row);
        const target = profile === 'default' ? TARGET.withOcr : TARGET.technical;
        console.log(
          `${mediaLabel(media)}, ${profile === 'default' ? 'default profile (OCR)' : 'technical gates'}: ${f(row.ratio)}× (target ≤ ${target}×: ${judged(row, row.ratio <= target)}); check ${f(row.check)} s, bare decode ${f(row.bare)} s; peak RSS of the process tree ${f(row.peak.mb, 0)} MB (${partsText(row.peak)}; target ≤ ${TARGET.rssMb}: ${judged(row, row.peak.mb <= TARGET.rssMb)}), ${verdictText(row)}${beforeText(row)}${row.passRatio === null ? '' : `; its decode pass alone (outputs to /dev/null) ${f(row.passRatio)}×`}${row.pipedRatio === null ? '' : `, into pipes that cat empties ${f(row.pipedRatio)}×`}${row.ocr ? `; ${row.ocr}` : ''}`,
        );
      }
    }
  }
  // Where the default profile missed its target, what the OCR models alone cost on the shortest such file.
  for (const k of kinds) {
    const missed = rows.filter((r) => r.media.kind === k.kind && r.media.height === k.height && r.profile === 'default' && r.ratio > TARGET.withOcr);
    if (missed.length === 0) continue;
    const { media, bare } = missed.reduce((a, b) => (b.media.minutes < a.media.minutes ? b : a));
    const { w, h } = size(media);
    await ocrFloorBench({ path: await speedMedia(media), label: mediaLabel(media), width: w, height: h, minutes: media.minutes, decodeSeconds: bare });
  }
  for (const k of kinds) {
    for (const profile of profiles) {
      const same = rows.filter((r) => r.media.kind === k.kind && r.media.height === k.height && r.profile === profile);
      if (same.length < 2) continue;
      const spread = spreadOf(same.map((r) => r.ratio));
      const beforeSpread = same.every((r) => r.before) ? `; ${baseline()!.label}: spread ${f(spreadOf(same.map((r) => r.before!.ratio)) * 100, 0)} %` : '';
      console.log(
        `linearity, ${k.height}p ${k.kind}, ${profile}: ratios ${same.map((r) => `${r.media.minutes} min ${f(r.ratio)}×`).join(', ')}; spread ${f(spread * 100, 0)} % (target ≤ ${TARGET.linearity * 100} %: ${verdict(spread <= TARGET.linearity)})${beforeSpread}`,
      );
    }
  }
}
