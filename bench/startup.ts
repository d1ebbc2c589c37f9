// npm run bench -- startup: how soon `preflight check file.mp4` is at work (issue 16: from exec to the first decoded
// frame ≤ 0.3 s), and how long `preflight --version` and `--help` take, beside a bare `node -e 0`. Times come from
// this process's clock before each exec and the marks the CLI appends under PREFLIGHT_STARTUP_TRACE (src/cli/startup-trace.ts).
// With PREFLIGHT_BENCH_BASELINE, the baseline build's --version, --help and whole check run in the same rounds (an
// earlier build may write no marks, so only whole processes are compared).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { baseline } from './baseline.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/preflight.js');
const dir = join(ROOT, '.cache/bench');
const RUNS = 7;
const TARGET_FIRST_FRAME_S = 0.3;

/** 90 frames: the decode's first 1 % progress step is its first frame. */
async function makeClip(): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'startup-720p30-3s.mp4');
  if (existsSync(out)) return out;
  const part = `${out}.${process.pid}.part.mp4`;
  await execa(ffmpegPath(), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=30:d=3',
    '-f', 'lavfi', '-i', 'sine=f=440:d=3:r=48000',
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', part,
  ], { stdin: 'ignore', timeout: 120_000 });
  await execa('mv', [part, out]);
  return out;
}

const now = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms: number) => (ms / 1000).toFixed(3);

async function wholeRun(command: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const t = now();
  await execa(command, args, { stdin: 'ignore', reject: false, env });
  return now() - t;
}

export async function startupBench(): Promise<void> {
  const clip = await makeClip();
  const work = mkdtempSync(join(tmpdir(), 'preflight-bench-startup-'));
  const trace = join(work, 'trace.jsonl');
  const marks: { probe: number; analyse: number; firstFrame: number }[] = [];
  const base = baseline();
  const times: Record<string, number[]> = { node: [], version: [], help: [], check: [], baseVersion: [], baseHelp: [], baseCheck: [] };
  const env = { PREFLIGHT_HOME: join(work, 'home'), PREFLIGHT_STARTUP_TRACE: trace };
  try {
    for (let i = 0; i < RUNS; i++) {
      times.node.push(await wholeRun('node', ['-e', '0']));
      times.version.push(await wholeRun('node', [BIN, '--version']));
      times.help.push(await wholeRun('node', [BIN, '--help']));
      if (base) {
        times.baseVersion.push(await wholeRun('node', [base.cli, '--version']));
        times.baseHelp.push(await wholeRun('node', [base.cli, '--help']));
        times.baseCheck.push(await wholeRun('node', [base.cli, 'check', clip, '--json'], { PREFLIGHT_HOME: join(work, 'base-home') }));
      }
      const t = now();
      await execa('node', [BIN, 'check', clip, '--json'], { stdin: 'ignore', reject: false, env });
      times.check.push(now() - t);
      const lines = readFileSync(trace, 'utf8').trim().split('\n');
      const m = JSON.parse(lines[lines.length - 1]) as { probe: number; analyse: number; firstFrame: number };
      marks.push({ probe: m.probe - t, analyse: m.analyse - t, firstFrame: m.firstFrame - t });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const firstFrame = median(marks.map((m) => m.firstFrame));
  console.log(
    `startup, preflight check on a 3 s 720p30 clip (median of ${RUNS}): exec → probe ${s(median(marks.map((m) => m.probe)))} s, ` +
      `→ decode started ${s(median(marks.map((m) => m.analyse)))} s, → first decoded frame ${s(firstFrame)} s ` +
      `(target ≤ ${TARGET_FIRST_FRAME_S} s → ${firstFrame / 1000 <= TARGET_FIRST_FRAME_S ? 'met' : 'MISSED'})`,
  );
  const whole = (version: number[], help: number[], check: number[]) =>
    `preflight --version ${s(median(version))} s, --help ${s(median(help))} s, check of the clip ${s(median(check))} s`;
  console.log(`startup, whole process (median of ${RUNS}): ${whole(times.version, times.help, times.check)}; node -e 0 ${s(median(times.node))} s`);
  if (base) console.log(`startup, ${base.label}, whole process in the same rounds (median of ${RUNS}): ${whole(times.baseVersion, times.baseHelp, times.baseCheck)}`);
}
