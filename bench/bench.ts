// npm run bench: bare decode vs our full default-profile check on generated 1-minute and 10-minute 1080p30 H.264+AAC files,
// and a 10-minute file with burned-in captions changing every 4 s for the OCR sampling; a 60-minute podcast (bench/audio.ts);
// and the accuracy corpus of issue 14 (bench/accuracy/).
// Prints the figures; targets: check ≤ 1.5× bare decode without text in the picture (issue 2), ≤ 3× with OCR sampling
// on captioned video (issue 6), peak RSS ≤ 300 MB, cost linear in duration.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { runCheck } from '../engine/check.js';
import { gateById, thresholdsFor } from '../engine/gates/index.js';
import { DELIVERY_PROFILES } from '../engine/profiles/index.js';
import type { GateContext, MediaInfo } from '../engine/types.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { accuracyBench } from './accuracy/run.js';
import { audioBench } from './audio.js';
import { batchBench } from './batch.js';
import { startupBench } from './startup.js';
import { storeBench } from './store.js';

const dir = resolve(import.meta.dirname, '../../.cache/bench');

const require = createRequire(import.meta.url);
const FONT = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf');
/** A caption that changes every 4 s, bottom centre, as burned-in subtitles are. */
const CAPTIONS = `drawtext=fontfile=${FONT}:text='Caption number %{eif\\:trunc(t/4)\\:d} of the benchmark':fontsize=56:fontcolor=white:x=(w-tw)/2:y=h-160:box=1:boxcolor=black@0.6:boxborderw=14`;

async function makeFile(minutes: number, captions = false): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `bench-${minutes}min-1080p30${captions ? '-captions' : ''}.mp4`);
  if (existsSync(out)) return out;
  const seconds = minutes * 60;
  process.stderr.write(`generating ${out} ...\n`);
  await execa(ffmpegPath(), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=s=1920x1080:r=30:d=${seconds}`,
    '-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.1:d=${seconds}:r=48000`,
    ...(captions ? ['-vf', CAPTIONS] : []),
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-g', '60',
    '-c:a', 'aac', '-b:a', '160k', '-ac', '2', `${out}.part.mp4`,
  ], { stdin: 'ignore', timeout: 3_600_000 });
  await execa('mv', [`${out}.part.mp4`, out]);
  return out;
}

async function bareDecode(file: string): Promise<number> {
  const t = performance.now();
  await execa(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 'null', '-'], { stdin: 'ignore' });
  return (performance.now() - t) / 1000;
}

interface CheckRun {
  seconds: number;
  verdict: string;
  peakRssMb: number;
  text: Record<string, unknown>;
}

/** The default profile's gates without the text gates: the technical check whose targets come from issue 2. */
const TECHNICAL_ONLY = 'black_frames,loop_freeze,canvas_fill,format_spec,loudness,clipping,dead_air,channel_balance,av_sync';

async function fullCheck(file: string, checks?: string): Promise<CheckRun> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t = performance.now();
  const { report } = await runCheck(file, checks ? { checks } : {});
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
  const text = report.gates.find((g) => g.gate === 'text_contrast')?.measurements ?? {};
  return { seconds, verdict: report.verdict, peakRssMb: peak / 1024 / 1024, text };
}

const ocrSummary = (m: Record<string, unknown>) =>
  `OCR: ${m.samplesRead} samples every ${m.sampleIntervalSeconds} s + ${m.changeSamples} at changes, ${m.confirmations} confirmations, ${m.textLines} text lines, ${m.ocrTimeouts} timeouts`;

const f = (n: number, d = 2) => n.toFixed(d);


// script_faithfulness on a 2-hour transcript (about 20 000 words) against its script with a few edits. Target < 2 s.
function scriptFaithfulnessBench(): number {
  const vocabulary = ['the', 'river', 'carried', 'stones', 'past', 'quiet', 'villages', 'while', 'engineers', 'measured', 'every', 'bend', 'and', 'wrote', 'numbers', 'down'];
  const count = 20_000;
  const scriptWords = Array.from({ length: count }, (_, i) => vocabulary[(i * 7 + (i >> 3)) % vocabulary.length]);
  const spoken = [...scriptWords];
  for (const at of [1000, 5000, 12000, 18000]) spoken.splice(at, 3, 'something', 'else', 'entirely', 'here');
  const words = spoken.map((text, i) => ({ text, start: i * 0.36, end: i * 0.36 + 0.3 }));
  const media: MediaInfo = {
    path: '', kind: 'audio', container: 'wav', formatLongName: null, sizeBytes: 0, durationSeconds: count * 0.36, bitRate: null, startSeconds: 0,
    video: null, audio: null, videoStreamCount: 0, audioStreamCount: 1, subtitleStreamCount: 0, otherStreams: [],
  };
  const ctx: GateContext = {
    media,
    signals: { video: null, audio: null, analysisMs: 0 },
    sidecars: { transcript: { text: spoken.join(' '), words, segments: null, format: 'json' }, expectedScript: { text: scriptWords.join(' '), format: 'text' } },
    thresholds: thresholdsFor('script_faithfulness', 'podcast_delivery'),
    profileId: 'npo_podcast_or_audio',
    deliveryProfile: DELIVERY_PROFILES.podcast_delivery,
    timecodeFps: 25,
  };
  const gate = gateById('script_faithfulness')!;
  const t = performance.now();
  const result = gate.run(ctx);
  const ms = performance.now() - t;
  console.log(`script_faithfulness, 2 h transcript (${count} words): ${ms.toFixed(0)} ms (target < 2000 ms), ${result.flags.length} drift spans, status ${result.status}`);
  return ms;
}

async function videoBench(): Promise<void> {
  const rows: { label: string; bare: number; check: number; ratio: number; rss: number }[] = [];
  const runs = [
    [1, false, TECHNICAL_ONLY],
    [10, false, TECHNICAL_ONLY],
    [1, false, undefined],
    [10, false, undefined],
    [10, true, undefined],
  ] as const;
  for (const [minutes, captions, checks] of runs) {
    const file = await makeFile(minutes, captions);
    const bare = await bareDecode(file);
    const check = await fullCheck(file, checks);
    const label = `${minutes} min 1080p30${captions ? ' with captions' : ''}, ${checks ? 'technical gates' : 'default profile with OCR'}`;
    rows.push({ label, bare, check: check.seconds, ratio: check.seconds / bare, rss: check.peakRssMb });
    console.log(`${label}: bare decode ${f(bare)} s, check ${f(check.seconds)} s, ratio ${f(check.seconds / bare)}×, peak RSS (node, worker threads included) ${f(check.peakRssMb, 0)} MB, verdict ${check.verdict}`);
    if (!checks) console.log(`  ${ocrSummary(check.text)}`);
  }
  const [one, ten, , , captioned] = rows;
  console.log(`linearity (technical): check time 10 min / 1 min = ${f(ten.check / one.check)} (10.0 is linear); bare decode 10/1 = ${f(ten.bare / one.bare)}`);
  console.log(`targets: technical ≤ 1.5× → ${ten.ratio <= 1.5 ? 'met' : 'MISSED'}; technical peak RSS ≤ 300 MB → ${ten.rss <= 300 ? 'met' : 'MISSED'}; with OCR on captions ≤ 3× → ${captioned.ratio <= 3 ? 'met' : 'MISSED'} (peak RSS ${f(captioned.rss, 0)} MB: the OCR worker's WASM heap)`);
}

// `npm run bench` runs everything but the store; `npm run bench -- video`, `-- audio`, `-- script`, `-- batch`, `-- startup`,
// `-- accuracy [entry ...]` or `-- store [jobs ...]` runs one part (the store's seeds 100k jobs per engine: only when asked).
const MODES = ['video', 'audio', 'script', 'accuracy', 'batch', 'startup', 'store'];
const only = process.argv[2];
if (only && !MODES.includes(only)) throw new Error(`unknown bench mode "${only}": one of ${MODES.join(', ')}`);
if (!only || only === 'video') await videoBench();
if (!only || only === 'audio') await audioBench();
if (!only || only === 'script') scriptFaithfulnessBench();
if (!only || only === 'accuracy') await accuracyBench({ only: process.argv.slice(3) });
if (!only || only === 'batch') await batchBench();
if (!only || only === 'startup') await startupBench();
if (only === 'store') await storeBench(process.argv.slice(3));
