import { accessSync, chmodSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { EngineError } from '../errors.js';

const require = createRequire(import.meta.url);

export interface BinaryChoice {
  path: string;
  /** Where the binary came from: env, ffmpeg-static, @ffmpeg-installer, PATH. */
  source: string;
}

function usable(path: string | null | undefined): path is string {
  if (!path || !existsSync(path) || !statSync(path).isFile()) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // npm may skip the installer's `chmod u+x` postinstall; make the bundled binary executable ourselves.
    try {
      chmodSync(path, statSync(path).mode | 0o755);
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }
}

function fromPackage(load: () => string | null | undefined): string | null {
  try {
    return load() ?? null;
  } catch {
    return null;
  }
}

/** The first executable called `name` on PATH, or null. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) {
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        /* not executable */
      }
    }
  }
  return null;
}

type Tool = 'ffmpeg' | 'ffprobe';

const chains: Record<Tool, { source: string; load: () => string | null | undefined }[]> = {
  ffmpeg: [
    { source: 'env PREFLIGHT_FFMPEG', load: () => process.env.PREFLIGHT_FFMPEG },
    { source: 'ffmpeg-static', load: () => fromPackage(() => require('ffmpeg-static') as string) },
    { source: '@ffmpeg-installer/ffmpeg', load: () => fromPackage(() => (require('@ffmpeg-installer/ffmpeg') as { path: string }).path) },
    { source: 'PATH', load: () => onPath('ffmpeg') },
  ],
  ffprobe: [
    { source: 'env PREFLIGHT_FFPROBE', load: () => process.env.PREFLIGHT_FFPROBE },
    { source: 'ffprobe-static', load: () => fromPackage(() => (require('ffprobe-static') as { path: string }).path) },
    { source: '@ffprobe-installer/ffprobe', load: () => fromPackage(() => (require('@ffprobe-installer/ffprobe') as { path: string }).path) },
    { source: 'PATH', load: () => onPath('ffprobe') },
  ],
};

const cache = new Map<Tool, BinaryChoice>();

export function resolveBinary(tool: Tool): BinaryChoice {
  const hit = cache.get(tool);
  if (hit) return hit;
  for (const step of chains[tool]) {
    const path = step.load();
    if (step.source.startsWith('env') && path && !usable(path)) {
      throw new EngineError('ffmpeg_unavailable', `${step.source} points at ${path}, which is not an executable file.`);
    }
    if (usable(path)) {
      const choice = { path, source: step.source };
      cache.set(tool, choice);
      return choice;
    }
  }
  throw new EngineError(
    'ffmpeg_unavailable',
    `No ${tool} binary found. Run npm install (it bundles one), install ${tool} on PATH, or set PREFLIGHT_${tool.toUpperCase()}.`,
  );
}

export const ffmpegPath = (): string => resolveBinary('ffmpeg').path;
export const ffprobePath = (): string => resolveBinary('ffprobe').path;
