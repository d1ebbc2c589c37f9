// Content-addressed build steps for the corpus: every intermediate and final file is named after a hash of what made
// it (the tool arguments, the input files' names, which carry their own hashes), so a re-build reuses what exists and
// a changed recipe makes a new file. Outputs are written to a temporary name and renamed, so an interrupted build
// leaves nothing half-written behind.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runTool } from '../../engine/ffmpeg/run.js';
import { ffmpegPath } from '../../engine/ffmpeg/binaries.js';

/** Bump to rebuild every part (e.g. after changing a shared encoder setting). */
const RECIPE_VERSION = 2;
const TOOL_TIMEOUT_MS = 10 * 60_000;

/** Makes muxers and encoders write no version strings or dates, so the same recipe gives the same bytes. */
export const BITEXACT = ['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1'];

export class Parts {
  private readonly pending = new Map<string, Promise<string>>();
  readonly partsDir: string;
  /** Every file this build produced or reused. */
  readonly used = new Set<string>();

  constructor(readonly dir: string) {
    this.partsDir = join(dir, 'parts');
  }

  /** Path of a part: `stem-<hash>.ext` under parts/ (or the corpus dir itself for a final file). */
  pathFor(stem: string, ext: string, key: unknown, final = false): string {
    const hash = createHash('sha256').update(JSON.stringify({ v: RECIPE_VERSION, stem, ext, key })).digest('hex').slice(0, 12);
    return join(final ? this.dir : this.partsDir, `${stem}-${hash}.${ext}`);
  }

  /** Produces the part once: `produce(tmpPath)` writes it, concurrent callers share one run. */
  make(stem: string, ext: string, key: unknown, produce: (out: string) => Promise<void>, final = false): Promise<string> {
    const out = this.pathFor(stem, ext, key, final);
    this.used.add(out);
    if (existsSync(out) && statSync(out).size > 0) return Promise.resolve(out);
    const running = this.pending.get(out);
    if (running) return running;
    const job = (async () => {
      mkdirSync(final ? this.dir : this.partsDir, { recursive: true });
      const tmp = `${out}.${process.pid}.part.${ext}`;
      try {
        await produce(tmp);
        renameSync(tmp, out);
      } finally {
        rmSync(tmp, { force: true });
        this.pending.delete(out);
      }
      return out;
    })();
    this.pending.set(out, job);
    return job;
  }
}

/** A part made by one ffmpeg run, keyed by its whole argument list: any change of recipe makes a new part. */
export function ffmpegPart(parts: Parts, stem: string, ext: string, args: string[], final = false): Promise<string> {
  return parts.make(stem, ext, { ffmpeg: args }, (out) => ffmpeg([...args, out]).then(() => undefined), final);
}

async function run(file: string, args: string[]): Promise<string> {
  const r = await runTool(file, args, { timeoutMs: TOOL_TIMEOUT_MS });
  if (r.exitCode !== 0) throw new Error(`${file.split('/').pop()} ${args.join(' ').slice(0, 400)} failed (${r.exitCode}): ${r.stderr.trim().split('\n').slice(-4).join(' | ')}`);
  return r.stderr;
}

/** The bundled ffmpeg (the one the engine runs), errors only; returns stderr. */
export const ffmpeg = (args: string[]): Promise<string> => run(ffmpegPath(), ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args]);

export const runBinary = run;
