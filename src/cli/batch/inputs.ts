// What `preflight check a.mp4 renders/ 'out/**/*.mov'` means: the files named, the files matching a glob, and the
// media inside directories (their sub-directories with --recursive). Directory entries are recognised by probing.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { probe } from '../../../engine/probe.js';
import { SIDECAR_DIR_SUFFIX } from './sidecars.js';

/** Extensions taken as media without a probe; any other file found in a directory is probed to decide. */
const MEDIA_EXTENSIONS = new Set(
  'mp4 m4v mov mkv webm avi mxf mts m2ts ts mpg mpeg wmv flv 3gp ogv wav mp3 m4a aac flac ogg opus oga wma aif aiff caf ac3 eac3 png jpg jpeg webp gif bmp tif tiff avif heic'.split(' '),
);
/** Sidecar and report files never probed: ffprobe reads subtitles and JSON-lookalikes would waste a process. */
const NEVER_MEDIA = new Set('json srt vtt txt md csv edl xml fcpxml html htm log yaml yml'.split(' '));
/** More files than this in one batch is refused rather than checked. */
export const MAX_BATCH_FILES = 10_000;

export interface BatchInput {
  /** Absolute path. */
  path: string;
  /** As the user would recognise it: relative to the working directory when inside it. */
  shown: string;
}

export interface ExpandedInputs {
  files: BatchInput[];
  /** Directory entries left out because they are not media, with why (never an error; named when nothing else is found). */
  skipped: (BatchInput & { reason: string })[];
}

interface LeftOut {
  path: string;
  reason: string;
}

export class InputError extends Error {}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

async function isMediaByProbe(path: string): Promise<boolean> {
  try {
    const media = await probe(path);
    return media.video !== null || media.audio !== null;
  } catch {
    return false;
  }
}

interface Walk {
  recursive: boolean;
  exclude: ReadonlySet<string>;
  out: string[];
  skipped: LeftOut[];
}

async function walk(dir: string, w: Walk): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new InputError(`cannot read the directory ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // A file's sidecar directory belongs to that file, and the batch's own report directory is never media.
      if (w.recursive && !entry.name.endsWith(SIDECAR_DIR_SUFFIX) && !w.exclude.has(path)) await walk(path, w);
      continue;
    }
    if (entry.isSymbolicLink()) {
      // A link is followed to a file (pipelines link their renders into a delivery folder); not to a directory, where
      // a link back up the tree would never end.
      const target = await stat(path).catch(() => null);
      if (!target?.isFile()) {
        w.skipped.push({ path, reason: target?.isDirectory() ? 'a link to a directory (links are followed to files only)' : 'a link to nothing readable' });
        continue;
      }
    } else if (!entry.isFile()) continue;
    const ext = extensionOf(entry.name);
    if (MEDIA_EXTENSIONS.has(ext)) w.out.push(path);
    else if (NEVER_MEDIA.has(ext)) w.skipped.push({ path, reason: 'sidecar or document, not media' });
    else if (await isMediaByProbe(path)) w.out.push(path);
    else w.skipped.push({ path, reason: 'not a media file ffprobe can read' });
    if (w.out.length > MAX_BATCH_FILES) throw new InputError(`more than ${MAX_BATCH_FILES} files to check; split the batch`);
  }
}

function shownPath(path: string, cwd: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}

/**
 * Expands the command's arguments in order, each file once. A file named outright is always checked (an unreadable
 * one becomes an error row); a glob or directory contributes only what is recognised as media.
 */
export async function expandInputs(args: readonly string[], opts: { recursive: boolean; cwd?: string; exclude?: readonly string[] }): Promise<ExpandedInputs> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const ordered: string[] = [];
  const skipped: LeftOut[] = [];
  for (const arg of args) {
    const absolute = resolve(cwd, arg);
    const stats = await stat(absolute).catch(() => null);
    if (stats?.isDirectory()) {
      await walk(absolute, { recursive: opts.recursive, exclude: new Set((opts.exclude ?? []).map((d) => resolve(cwd, d))), out: ordered, skipped });
    } else if (!stats && isDynamicPattern(arg)) {
      const matches = (await glob(arg, { cwd, absolute: true, onlyFiles: true, dot: false })).sort();
      if (matches.length === 0) throw new InputError(`no file matches ${arg}`);
      for (const match of matches) {
        const ext = extensionOf(match);
        if (MEDIA_EXTENSIONS.has(ext) || (!NEVER_MEDIA.has(ext) && (await isMediaByProbe(match)))) ordered.push(match);
        else skipped.push({ path: match, reason: 'not a media file ffprobe can read' });
      }
    } else {
      // Missing or unreadable: checked anyway, so the batch shows it as an error row with the reason.
      ordered.push(absolute);
    }
    if (ordered.length > MAX_BATCH_FILES) throw new InputError(`more than ${MAX_BATCH_FILES} files to check; split the batch`);
  }
  const seen = new Set<string>();
  const files: BatchInput[] = [];
  for (const path of ordered) {
    if (seen.has(path)) continue;
    seen.add(path);
    files.push({ path, shown: shownPath(path, cwd) });
  }
  return { files, skipped: skipped.map((s) => ({ ...s, shown: shownPath(s.path, cwd) })) };
}
