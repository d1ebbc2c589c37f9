// npm run bench -- batch: four files checked one `preflight check` at a time against one batch with --jobs 2, and
// the same batch run again over its --report-dir (every report reused: hashing instead of decoding).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/preflight.js');
const dir = join(ROOT, '.cache/bench/batch');
const SECONDS = 30;

/** A 720p test pattern with a tone, its hue and pitch set by `index` (so each file is distinct), cached. */
export async function benchClip(index: number, seconds = SECONDS): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `batch-${index}-720p25-${seconds}s.mp4`);
  if (existsSync(out)) return out;
  process.stderr.write(`generating ${out} ...\n`);
  const part = `${out}.${process.pid}.part.mp4`;
  await execa(ffmpegPath(), [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=s=1280x720:r=25:d=${seconds},hue=h=${index * 40}`,
    '-f', 'lavfi', '-i', `sine=f=${440 + index * 110}:d=${seconds}:r=48000`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-ac', '2', part,
  ], { stdin: 'ignore', timeout: 600_000 });
  await execa('mv', [part, out]);
  return out;
}

async function timed(args: string[], home: string): Promise<{ seconds: number; code: number | undefined }> {
  const t = performance.now();
  const r = await execa('node', [BIN, ...args], { reject: false, stdin: 'ignore', env: { PREFLIGHT_HOME: home }, timeout: 1_800_000 });
  return { seconds: (performance.now() - t) / 1000, code: r.exitCode };
}

export async function batchBench(): Promise<void> {
  const files = [];
  for (let i = 0; i < 4; i++) files.push(await benchClip(i));
  const work = mkdtempSync(join(tmpdir(), 'preflight-bench-batch-'));
  const home = join(work, 'home');
  try {
    let singles = 0;
    for (const file of files) singles += (await timed(['check', file], home)).seconds;
    const reports = join(work, 'reports');
    const batch = await timed(['check', ...files, '--jobs', '2', '--report-dir', reports], home);
    const reused = await timed(['check', ...files, '--jobs', '2', '--report-dir', reports], home);
    const f = (n: number) => n.toFixed(2);
    const index = JSON.parse(readFileSync(join(reports, 'index.json'), 'utf8')) as { files: { verdict: string }[] };
    const verdicts = index.files.map((e) => e.verdict).join(', ');
    console.log(`batch, 4 × ${SECONDS} s 720p25: 4 single runs ${f(singles)} s; one batch --jobs 2 ${f(batch.seconds)} s (${f(singles / batch.seconds)}× faster; verdicts ${verdicts}, exit ${batch.code})`);
    console.log(`batch reuse: second run over the same --report-dir ${f(reused.seconds)} s (${f(batch.seconds / reused.seconds)}× faster than the first batch; saved ${f(batch.seconds - reused.seconds)} s)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
