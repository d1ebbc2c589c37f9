import { resolveBinary } from './binaries.js';
import { runTool } from './run.js';

export interface EngineCapabilities {
  ffmpeg: { version: string; source: string };
  ffprobe: { version: string; source: string };
  filters: string[];
}

let cached: Promise<EngineCapabilities> | null = null;

function versionOf(output: string): string {
  return /version (\S+)/.exec(output)?.[1] ?? 'unknown';
}

/** Probes the chosen binaries once: versions and the filters this build has. */
export function engineCapabilities(): Promise<EngineCapabilities> {
  cached ??= (async () => {
    const ffmpeg = resolveBinary('ffmpeg');
    const ffprobe = resolveBinary('ffprobe');
    const [fv, pv, filters] = await Promise.all([
      runTool(ffmpeg.path, ['-hide_banner', '-version'], { timeoutMs: 15_000 }),
      runTool(ffprobe.path, ['-hide_banner', '-version'], { timeoutMs: 15_000 }),
      runTool(ffmpeg.path, ['-hide_banner', '-filters'], { timeoutMs: 15_000 }),
    ]);
    const names = filters.stdout
      .split('\n')
      .map((l) => /^\s*[.A-Z|]{3}\s+(\S+)\s+\S+->\S+/.exec(l)?.[1])
      .filter((n): n is string => Boolean(n))
      .sort();
    return {
      ffmpeg: { version: versionOf(fv.stdout), source: ffmpeg.source },
      ffprobe: { version: versionOf(pv.stdout), source: ffprobe.source },
      filters: names,
    };
  })();
  return cached;
}
