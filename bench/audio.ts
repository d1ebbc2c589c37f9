// npm run bench -- audio: a 60-minute stereo podcast (48 kHz AAC) checked against a bare decode of the same file by
// the same ffmpeg, in interleaved decode / check / decode rounds in one run, so a drift in the machine's speed
// falls on both sides of each ratio. Target (issue 16): check ≤ 1.5× bare decode; peak RSS printed beside it.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { runCheck } from '../engine/check.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';

const dir = resolve(import.meta.dirname, '../../.cache/bench');
const MINUTES = 60;
const ROUNDS = 3;
const TARGET = 1.5;

/**
 * Two "voices" of band-limited pink noise with a syllable rhythm (2.3 Hz) and irregular phrases and pauses
 * (two slow sines), over a −66 dBFS room tone, at about −16 LUFS: the level shape of speech, synthesised in
 * about a minute rather than spoken.
 */
export async function makePodcast(minutes = MINUTES): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `podcast-${minutes}min-48k.m4a`);
  if (existsSync(out)) return out;
  const seconds = minutes * 60;
  process.stderr.write(`generating ${out} ...\n`);
  const phrases = 'gt(sin(2*PI*t/4.3)+0.6*sin(2*PI*t/1.7)\\,-0.4)*(0.25+0.75*abs(sin(2*PI*2.3*t)))';
  const part = `${out}.${process.pid}.part.m4a`;
  await execa(ffmpegPath(), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `anoisesrc=c=pink:r=48000:a=0.5:seed=3:d=${seconds}`,
    '-f', 'lavfi', '-i', `anoisesrc=c=pink:r=48000:a=0.001:seed=7:d=${seconds}`,
    '-filter_complex', `[0:a]bandpass=f=1000:width_type=h:w=1800,volume='${phrases}':eval=frame[v];[v][1:a]amix=inputs=2:duration=first,pan=stereo|c0=c0|c1=0.9*c0,volume=17dB`,
    '-c:a', 'aac', '-b:a', '128k', '-ar', '48000', part,
  ], { stdin: 'ignore', timeout: 3_600_000 });
  await execa('mv', [part, out]);
  return out;
}

async function bareDecode(file: string): Promise<number> {
  const t = performance.now();
  await execa(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 'null', '-'], { stdin: 'ignore' });
  return (performance.now() - t) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const f = (n: number, d = 2) => n.toFixed(d);

export async function audioBench(): Promise<void> {
  const file = await makePodcast();
  const ratios: number[] = [];
  const checks: number[] = [];
  const decodes: number[] = [];
  let verdict = '';
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  let before = await bareDecode(file);
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now();
    const { report } = await runCheck(file, {});
    const check = (performance.now() - t) / 1000;
    const after = await bareDecode(file);
    verdict = report.verdict;
    const decode = (before + after) / 2;
    checks.push(check);
    decodes.push(decode);
    ratios.push(check / decode);
    before = after;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
  const rounds = ratios.map((r, i) => `${f(checks[i])} s / ${f(decodes[i])} s = ${f(r)}×`).join('; ');
  console.log(`${MINUTES} min stereo podcast, 48 kHz AAC, default profile: check ÷ bare decode ${f(median(ratios))}× median of ${ROUNDS} interleaved rounds (${rounds}), verdict ${verdict}`);
  const ratio = median(ratios);
  console.log(`  target ≤ ${TARGET}× → ${ratio <= TARGET ? 'met' : 'MISSED'}; peak RSS of the checking process (worker threads included; ffmpeg apart) ${f(peak / 1024 / 1024, 0)} MB`);
}
