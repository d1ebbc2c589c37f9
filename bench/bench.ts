// npm run bench: bare decode vs our full default-profile check on generated 1-minute and 10-minute 1080p30 H.264+AAC files.
// Prints the figures; targets (issue 2): check ≤ 1.5× bare decode, peak RSS ≤ 300 MB, cost linear in duration.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { runCheck } from '../engine/check.js';
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
