// Sidecars per file in a batch: `take1.mp4` reads the directory `take1.sidecars/` beside it (or `take1.mp4.sidecars/`
// when two files share a stem), by exactly the rules of --sidecar-dir. The sidecars named on the command line apply
// to every file; a file's own directory stands in for --sidecar-dir.
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { loadSidecars, type LoadedSidecars } from '../../sidecars/index.js';

export const SIDECAR_DIR_SUFFIX = '.sidecars';

export interface SharedSidecarFlags {
  manifest?: string;
  transcript?: string;
  watchlist?: string;
  expectedScript?: string;
  sidecarDir?: string;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** The sidecar directory that belongs to `file`, if there is one. */
export async function ownSidecarDir(file: string): Promise<string | null> {
  const name = basename(file);
  const dot = name.lastIndexOf('.');
  const candidates = [join(dirname(file), `${name}${SIDECAR_DIR_SUFFIX}`)];
  if (dot > 0) candidates.push(join(dirname(file), `${name.slice(0, dot)}${SIDECAR_DIR_SUFFIX}`));
  for (const candidate of candidates) if (await isDirectory(candidate)) return candidate;
  return null;
}

export async function sidecarsFor(file: string, shared: SharedSidecarFlags): Promise<LoadedSidecars & { sidecarDir: string | null }> {
  const sidecarDir = (await ownSidecarDir(file)) ?? shared.sidecarDir ?? null;
  const loaded = await loadSidecars({
    manifest_path: shared.manifest,
    transcript_path: shared.transcript,
    watchlist_path: shared.watchlist,
    expected_script_path: shared.expectedScript,
    sidecar_dir: sidecarDir ?? undefined,
  });
  return { ...loaded, sidecarDir };
}
