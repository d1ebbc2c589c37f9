import { resolveBinary } from './binaries.js';
import { runTool } from './run.js';

export interface EngineCapabilities {
  ffmpeg: { version: string; source: string };
  ffprobe: { version: string; source: string };
  filters: string[];
}

let cached: Promise<EngineCapabilities> | null = null;
let ffmpegCached: Promise<EngineCapabilities['ffmpeg']> | null = null;

function versionOf(output: string): string {
  return /version (\S+)/.exec(output)?.[1] ?? 'unknown';
}

/** The ffmpeg a check decodes with, as its report names it: one `ffmpeg -version`, once. */
export function ffmpegIdentity(): Promise<EngineCapabilities['ffmpeg']> {
  ffmpegCached ??= (async () => {
    const ffmpeg = resolveBinary('ffmpeg');
    const fv = await runTool(ffmpeg.path, ['-hide_banner', '-version'], { timeoutMs: 15_000 });
    return { version: versionOf(fv.stdout), source: ffmpeg.source };
  })();
  return ffmpegCached;
}

/** Probes the chosen binaries once: versions and the filters this build has. */
export function engineCapabilities(): Promise<EngineCapabilities> {
  cached ??= (async () => {
    const ffmpeg = resolveBinary('ffmpeg');
    const ffprobe = resolveBinary('ffprobe');
    const [ffmpegId, pv, filters] = await Promise.all([
      ffmpegIdentity(),
      runTool(ffprobe.path, ['-hide_banner', '-version'], { timeoutMs: 15_000 }),
      runTool(ffmpeg.path, ['-hide_banner', '-filters'], { timeoutMs: 15_000 }),
    ]);
    const names = filters.stdout
      .split('\n')
      .map((l) => /^\s*[.A-Z|]{3}\s+(\S+)\s+\S+->\S+/.exec(l)?.[1])
      .filter((n): n is string => Boolean(n))
      .sort();
    return {
      ffmpeg: ffmpegId,
      ffprobe: { version: versionOf(pv.stdout), source: ffprobe.source },
      filters: names,
    };
  })();
  return cached;
}
