// npm run bench: bare decode vs our full default-profile check on generated 1-minute and 10-minute 1080p30 H.264+AAC files.
// Prints the figures; targets (issue 2): check ≤ 1.5× bare decode, peak RSS ≤ 300 MB, cost linear in duration.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { runCheck } from '../engine/check.js';
import { gateById } from '../engine/gates/catalogue.js';
import { DELIVERY_PROFILES, thresholdsFor } from '../engine/profiles/index.js';
import type { GateContext, MediaInfo } from '../engine/types.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';

const dir = resolve(import.meta.dirname, '../../.cache/bench');

async function makeFile(minutes: number): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `bench-${minutes}min-1080p30.mp4`);
  if (existsSync(out)) return out;
  const seconds = minutes * 60;
  process.stderr.write(`generating ${out} ...\n`);
  await execa(ffmpegPath(), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=s=1920x1080:r=30:d=${seconds}`,
    '-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.1:d=${seconds}:r=48000`,
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

async function fullCheck(file: string): Promise<{ seconds: number; verdict: string; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t = performance.now();
  const { report } = await runCheck(file, {});
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
  return { seconds, verdict: report.verdict, peakRssMb: peak / 1024 / 1024 };
}

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
  const rows: { minutes: number; bare: number; check: number; ratio: number; rss: number; verdict: string }[] = [];
  for (const minutes of [1, 10]) {
    const file = await makeFile(minutes);
    const bare = await bareDecode(file);
    const check = await fullCheck(file);
    rows.push({ minutes, bare, check: check.seconds, ratio: check.seconds / bare, rss: check.peakRssMb, verdict: check.verdict });
    console.log(`${minutes} min 1080p30: bare decode ${f(bare)} s, full check ${f(check.seconds)} s, ratio ${f(check.seconds / bare)}×, peak RSS (node) ${f(check.peakRssMb, 0)} MB, verdict ${check.verdict}`);
  }
  const [one, ten] = rows;
  console.log(`linearity: check time 10 min / 1 min = ${f(ten.check / one.check)} (10.0 is linear); bare decode 10/1 = ${f(ten.bare / one.bare)}`);
  console.log(`targets: ratio ≤ 1.5× → ${ten.ratio <= 1.5 ? 'met' : 'MISSED'}; peak RSS ≤ 300 MB → ${ten.rss <= 300 ? 'met' : 'MISSED'}`);
}

// `npm run bench` runs everything; `npm run bench -- video` or `-- script` runs one part.
const only = process.argv[2];
if (!only || only === 'video') await videoBench();
if (!only || only === 'script') scriptFaithfulnessBench();
