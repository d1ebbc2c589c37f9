// What a sidecar directory holds: per-chunk JSON reports, the well-known sidecar files, and everything skipped (with why).
// Symbolic links are followed only when they resolve inside the directory.
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SidecarKind } from '../schemas/job.js';
import { invalidSidecar } from './errors.js';
import type { SidecarOrigin } from './origin.js';
import { fileError } from './read-file.js';

export type SingleSidecarKind = Exclude<SidecarKind, 'chunkSidecars'>;

/** Files picked up from the directory when the sidecar's own fields are absent (names matched in any case). */
export const WELL_KNOWN_FILES: Readonly<Record<string, SingleSidecarKind>> = {
  'manifest.json': 'manifest',
  'transcript.json': 'transcript',
  'transcript.srt': 'transcript',
  'transcript.vtt': 'transcript',
  'transcript.txt': 'transcript',
  'watchlist.json': 'watchlist',
  'expected_script.txt': 'expectedScript',
  'expected_script.json': 'expectedScript',
};

/** More chunk reports than this in one directory is refused rather than read. */
export const MAX_CHUNK_FILES = 10_000;

export interface DirFile {
  name: string;
  /** Absolute path to read: the entry itself, or the resolved target of a symbolic link inside the directory. */
  path: string;
}

export interface SkippedFile {
  file: string;
  reason: string;
}

export interface SidecarDirScan {
  /** The directory as given, made absolute: what messages show. */
  shownDir: string;
  /** The directory with symbolic links resolved: what containment is checked against. */
  dir: string;
  wellKnown: Partial<Record<SingleSidecarKind, DirFile>>;
  chunkFiles: DirFile[];
  skipped: SkippedFile[];
}

type EntryClass = { type: 'file'; file: DirFile } | { type: 'skip'; reason: string };

export async function scanSidecarDir(given: string): Promise<SidecarDirScan> {
  const absolute = resolve(given);
  const origin: SidecarOrigin = { kind: 'chunkSidecars', label: `sidecar_dir ${absolute}`, file: absolute, local: true };
  const dirStats = await stat(absolute).catch((error: unknown) => {
    throw fileError(error, origin);
  });
  if (!dirStats.isDirectory()) throw invalidSidecar(origin, 'is not a directory');
  const dir = await realpath(absolute);
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    throw fileError(error, origin);
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const scan: SidecarDirScan = { shownDir: absolute, dir, wellKnown: {}, chunkFiles: [], skipped: [] };
  for (const entry of entries) {
    const classified = await classify(dir, entry);
    if (classified.type === 'skip') {
      scan.skipped.push({ file: entry.name, reason: classified.reason });
      continue;
    }
    const kind = WELL_KNOWN_FILES[entry.name.toLowerCase()];
    if (kind) {
      const already = scan.wellKnown[kind];
      if (already) {
        throw invalidSidecar(origin, `holds both ${already.name} and ${entry.name}; keep one, or name the file with the ${kind} field`, { sidecar: kind });
      }
      scan.wellKnown[kind] = classified.file;
    } else if (entry.name.toLowerCase().endsWith('.json')) {
      scan.chunkFiles.push(classified.file);
    } else {
      scan.skipped.push({ file: entry.name, reason: 'not a .json file' });
    }
  }
  if (scan.chunkFiles.length > MAX_CHUNK_FILES) {
    throw invalidSidecar(origin, `holds ${scan.chunkFiles.length} chunk reports; at most ${MAX_CHUNK_FILES} are read`);
  }
  return scan;
}

async function classify(dir: string, entry: Dirent): Promise<EntryClass> {
  // Hidden files include macOS "._name.json" resource forks, which are binary.
  if (entry.name.startsWith('.')) return { type: 'skip', reason: 'hidden file' };
  const path = join(dir, entry.name);
  if (entry.isSymbolicLink()) return classifyLink(dir, path);
  if (entry.isDirectory()) return { type: 'skip', reason: 'directory (sub-directories are not read)' };
  if (!entry.isFile()) return { type: 'skip', reason: 'not a regular file' };
  return { type: 'file', file: { name: entry.name, path } };
}

async function classifyLink(dir: string, path: string): Promise<EntryClass> {
  let target: string;
  try {
    target = await realpath(path);
  } catch {
    return { type: 'skip', reason: 'broken symbolic link' };
  }
  const inside = relative(dir, target);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return { type: 'skip', reason: 'symbolic link pointing outside the sidecar directory (not followed)' };
  }
  const targetStats = await stat(target).catch(() => null);
  if (!targetStats) return { type: 'skip', reason: 'broken symbolic link' };
  if (targetStats.isDirectory()) return { type: 'skip', reason: 'symbolic link to a directory (sub-directories are not read)' };
  if (!targetStats.isFile()) return { type: 'skip', reason: 'symbolic link to something that is not a regular file' };
  return { type: 'file', file: { name: basename(path), path: target } };
}
