// npm run bench -- audio: a 60-minute stereo podcast (48 kHz AAC) checked against a bare decode of the same file by
// the same ffmpeg, in interleaved decode / check / decode rounds in one run, so a drift in the machine's speed
// falls on both sides of each ratio. Target (issue 16): check ≤ 1.5× bare decode. The check runs as the CLI, a
// process timed from outside with its start-up, as the video rows do, with the peak RSS of its process tree; the
// same check run in this process, from the compiled modules (the way the MCP server runs it), is printed beside it.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { runCheck } from '../engine/check.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { baseline, inTurn } from './baseline.js';
import { bareDecode, decodePassAlone, timedProcess } from './tree-rss.js';

const dir = resolve(import.meta.dirname, '../../.cache/bench');
const CLI = resolve(import.meta.dirname, '../../bin/preflight.js');
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const f = (n: number, d = 2) => n.toFixed(d);

interface Round {
  check: number;
  decode: number;
}

/**
 * ROUNDS interleaved decode / check / decode rounds of `file`; each check is divided by the mean of the decodes beside
 * it. `others` (a baseline build's check) run in the same rounds, between the same decodes, and get rounds of their own.
 */
async function rounds(file: string, check: () => Promise<number>, ...others: (() => Promise<number>)[]): Promise<Round[][]> {
  const runs = [check, ...others];
  const out: Round[][] = runs.map(() => []);
  let before = (await bareDecode(file)).seconds;
  for (let round = 0; round < ROUNDS; round++) {
    const seconds = await inTurn(runs, round);
    const after = (await bareDecode(file)).seconds;
    seconds.forEach((s, i) => out[i].push({ check: s, decode: (before + after) / 2 }));
    before = after;
  }
  return out;
}

function summary(label: string, measured: Round[]): void {
  const ratios = measured.map((r) => r.check / r.decode);
  const ratio = median(ratios);
  const each = measured.map((r, i) => `${f(r.check)} s / ${f(r.decode)} s = ${f(ratios[i])}×`).join('; ');
  console.log(`  ${label}: check ÷ bare decode ${f(ratio)}× median of ${ROUNDS} interleaved rounds (${each}); target ≤ ${TARGET}× → ${ratio <= TARGET ? 'met' : 'MISSED'}`);
}

export async function audioBench(): Promise<void> {
  const podcast = await makePodcast();
  console.log(`${MINUTES} min stereo podcast, 48 kHz AAC, default profile:`);
  const base = baseline();
  const peaks: number[] = [];
  const verdicts: string[] = [];
  const cliRun = (cli: string, k: number) => async () => {
    const check = await timedProcess(process.execPath, [cli, 'check', podcast, '--json']);
    peaks[k] = Math.max(peaks[k] ?? 0, check.peak.mb);
    verdicts[k] = (JSON.parse(check.stdout) as { verdict: string }).verdict;
    return check.seconds;
  };
  const passAlone = () => decodePassAlone(podcast);
  const passThroughPipe = () => decodePassAlone(podcast, {}, 'pipes');
  const [cli, pass, piped, before] = await rounds(podcast, cliRun(CLI, 0), passAlone, passThroughPipe, ...(base ? [cliRun(base.cli, 1)] : []));
  summary(`the CLI as a process, verdict ${verdicts[0]}, peak RSS of its process tree ${f(peaks[0], 0)} MB`, cli);
  summary("the check's decode pass alone (its ffmpeg writing the PCM to /dev/null: the decoder's floor)", pass);
  summary("the same decode pass writing the PCM into a pipe that cat empties (the floor of a check that reads its PCM from a pipe)", piped);
  if (base) summary(`${base.label}'s CLI in the same rounds, verdict ${verdicts[1]}, peak RSS of its process tree ${f(peaks[1], 0)} MB`, before);

  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const [inProcess] = await rounds(podcast, async () => {
    const t = performance.now();
    await runCheck(podcast, {});
    return (performance.now() - t) / 1000;
  });
  clearInterval(sampler);
  peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
  summary(`runCheck in this process (compiled modules, as the MCP server runs it), peak RSS (worker threads included; ffmpeg apart) ${f(peak / 1024 / 1024, 0)} MB`, inProcess);
}
