// Local sidecar files in remote mode: checked here with the same loader as local mode (so errors read the same), then
// sent inline as base64 with their file name, which the server uses to pick the format (.srt, .vtt, .json, .txt).
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { ServiceError } from '../../src/errors.js';
import { loadSidecars, type SidecarInput } from '../../src/sidecars/index.js';

const PATH_FIELDS = [
  ['manifest_path', 'manifest'],
  ['transcript_path', 'transcript'],
  ['watchlist_path', 'watchlist'],
  ['expected_script_path', 'expected_script'],
] as const;

export type LocalSidecarPaths = Pick<SidecarInput, (typeof PATH_FIELDS)[number][0] | 'sidecar_dir'>;

export async function inlineLocalSidecars(paths: LocalSidecarPaths): Promise<Record<string, string>> {
  if (paths.sidecar_dir) {
    throw new ServiceError(
      'sidecar_dir_unsupported',
      'sidecar_dir is not available in remote mode (PREFLIGHT_API_URL is set): pass its files as manifest_path, transcript_path, watchlist_path or expected_script_path, or unset PREFLIGHT_API_URL and PREFLIGHT_API_KEY to check with per-chunk reports locally.',
      { field: 'sidecar_dir' },
      400,
    );
  }
  const given = PATH_FIELDS.filter(([field]) => paths[field]);
  if (!given.length) return {};
  await loadSidecars(Object.fromEntries(given.map(([field]) => [field, paths[field]])));
  const inline: Record<string, string> = {};
  for (const [field, kind] of given) {
    const path = resolve(paths[field]!);
    inline[`${kind}_base64`] = (await readFile(path)).toString('base64');
    inline[`${kind}_filename`] = basename(path);
  }
  return inline;
}
