// Generates test media with the bundled ffmpeg and caches it under .cache/media (git-ignored).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { ffmpegPath } from '../../engine/ffmpeg/binaries.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const CACHE_DIR = join(ROOT, '.cache/media');

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
  // Unique per process: parallel test files may generate the same fixture at once.
  const tmp = `${out}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.part${name.slice(dot)}`;
  await execa(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args, tmp], { stdin: 'ignore', timeout: 300_000 });
  renameSync(tmp, out);
  return out;
}

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
