// Generates test media with the bundled ffmpeg and caches it under .cache/media (git-ignored).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { ffmpegPath } from '../../engine/ffmpeg/binaries.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const CACHE_DIR = join(ROOT, '.cache/media');
const GENERATE_TIMEOUT_MS = 300_000;

/**
 * Covers the running timecode testsrc2 draws in its top-left corner (about 104 × 38 px at any size): OCR reads it, and
 * a clean control or a defect fixture must hold no text of its own.
 */
export const COVER_TESTSRC2_TIMECODE = 'drawbox=x=0:y=0:w=112:h=40:c=black:t=fill';

/**
 * Runs `ffmpeg -y <args> <out>` once per distinct argument list and returns the cached file path.
 * `name` is a readable stem; the extension decides the container.
 */
export async function generate(name: string, args: string[]): Promise<string> {
  mkdirSync(CACHE_DIR, { recursive: true });
  // Paths inside the checkout (fonts) are keyed relative to it, so a file's name is the same in every clone.
  const key = createHash('sha256').update(JSON.stringify(args).replaceAll(ROOT, '<root>')).digest('hex').slice(0, 10);
  const dot = name.lastIndexOf('.');
  const out = join(CACHE_DIR, `${name.slice(0, dot)}-${key}${name.slice(dot)}`);
  if (existsSync(out)) return out;
  // The two test workers often want the same fixture at once: one makes it while the other waits for it.
  if (!(await claim(`${out}.lock`))) return existsSync(out) ? out : generate(name, args);
  try {
    // The holder before this one may have made it between the check above and the claim.
    if (existsSync(out)) return out;
    const tmp = `${out}.${process.pid}.part${name.slice(dot)}`;
    await execa(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args, tmp], { stdin: 'ignore', timeout: GENERATE_TIMEOUT_MS });
    renameSync(tmp, out);
    return out;
  } finally {
    rmSync(`${out}.lock`, { force: true });
  }
}

/** Takes the lock file (true), or waits until its holder lets go (false); a lock older than any generation is removed. */
async function claim(lock: string): Promise<boolean> {
  try {
    closeSync(openSync(lock, 'wx'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  for (;;) {
    await sleep(200);
    try {
      if (Date.now() - statSync(lock).mtimeMs > GENERATE_TIMEOUT_MS) rmSync(lock, { force: true });
    } catch {
      return false;
    }
  }
}

/**
 * The filter graph that lays a super-white (Y 254) band, input 1 (a grey strip as wide as the picture), over the top
 * of input 0 from `from` to `to` s: a lookup table on the strip, where a per-pixel expression on the whole picture
 * would cost ten times as much for the same pixels.
 */
export const superWhiteBand = (chroma: '420' | '422', from: number, to: number): string =>
  `[0:v]format=yuv${chroma}p[grey];[1:v]format=yuv${chroma}p,lutyuv=y=254[white];[grey][white]overlay=0:0:enable='between(t,${from},${to})':format=yuv${chroma}`;

/** Renders an audio filter graph (lavfi source) to float PCM for meter tests: returns planar channels. */
export async function renderPcm(lavfi: string, channels: number, sampleRate = 48000): Promise<Float32Array[]> {
  const { stdout } = await execa(
    ffmpegPath(),
    ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', lavfi, '-f', 'f32le', '-ac', String(channels), '-ar', String(sampleRate), 'pipe:1'],
    { stdin: 'ignore', encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024, timeout: 120_000 },
  );
  const buf = Buffer.from(stdout as Uint8Array);
  const interleaved = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const frames = interleaved.length / channels;
  const planar = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i++) for (let c = 0; c < channels; c++) planar[c][i] = interleaved[i * channels + c];
  return planar;
}

/** Narration spoken by espeak-ng (`espeak`, its path), cached like the ffmpeg fixtures; its pauses are the natural ones. */
export function speechWavWith(espeak: string, text: string): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const out = join(CACHE_DIR, `speech-${createHash('sha256').update(text).digest('hex').slice(0, 10)}.wav`);
  if (existsSync(out)) return out;
  const tmp = `${out}.${process.pid}.part.wav`;
  execFileSync(espeak, ['-w', tmp, text]);
  renameSync(tmp, out);
  return out;
}
