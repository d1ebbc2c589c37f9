// Sidecar ingestion: local paths and inline forms → validated, normalised sidecars plus the job's ingress record.
import { dirname } from 'node:path';
import type { SidecarIngress } from '../schemas/job.js';
import { loadChunkFiles, loadInlineChunks } from './chunks.js';
import { invalidSidecar } from './errors.js';
import { given, type SidecarInput } from './fields.js';
import type { EngineSidecars } from '../../engine/sidecars/index.js';
import type { ChunkSidecar } from '../../engine/sidecars/formats/chunk-sidecar.js';
import { describeType } from '../../engine/sidecars/formats/value-type.js';
import { sidecarIngress, type SuppliedSidecar } from './ingress.js';
import { parseSidecar } from './parse.js';
import { describeSkipped } from '../describe-skipped.js';
import { scanSidecarDir, WELL_KNOWN_FILES, type SidecarDirScan, type SingleSidecarKind, type SkippedFile } from './sidecar-dir.js';
import { dirFileSource, explicitSource, type SidecarSource } from './sources.js';

export type { SidecarInput } from './fields.js';
export type { SkippedFile } from './sidecar-dir.js';
export { WELL_KNOWN_FILES, MAX_CHUNK_FILES } from './sidecar-dir.js';
export { SIDECAR_NEVER_EXPOSES } from './ingress.js';
export * from '../../engine/sidecars/formats/index.js';

/** Default cap per sidecar (a chunk directory counts as one sidecar): 20 MB. */
export const DEFAULT_SIDECAR_MAX_BYTES = 20 * 1024 * 1024;

export interface ParsedSidecars extends EngineSidecars {
  /** Files of `sidecar_dir` that were not read, by name within the directory, with the reason. */
  skippedFiles: SkippedFile[];
}

export interface LoadSidecarsOptions {
  /** Cap per sidecar in bytes; default DEFAULT_SIDECAR_MAX_BYTES. */
  maxBytes?: number;
}

export interface LoadedSidecars {
  sidecars: ParsedSidecars;
  ingress: SidecarIngress | null;
}

const SINGLE_KINDS: readonly SingleSidecarKind[] = ['manifest', 'transcript', 'watchlist', 'expectedScript'];

/**
 * Reads, validates and normalises every sidecar the input names. Throws ServiceError: `invalid_sidecar` (400),
 * `sidecar_not_found` (400) or `sidecar_too_large` (413), each message starting with the field and file at fault.
 * Local path fields read the server's file system: only doors serving the local user may pass them.
 */
export async function loadSidecars(input: SidecarInput, opts: LoadSidecarsOptions = {}): Promise<LoadedSidecars> {
  const maxBytes = opts.maxBytes ?? DEFAULT_SIDECAR_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new RangeError(`maxBytes must be a positive integer, got ${maxBytes}`);

  const scan = await scanDirIfGiven(input);
  const sidecars: ParsedSidecars = { skippedFiles: scan ? [...scan.skipped] : [] };
  const supplied: SuppliedSidecar[] = [];

  for (const kind of SINGLE_KINDS) {
    const source = chooseSource(input, kind, scan, sidecars.skippedFiles);
    if (!source) continue;
    const content = await source.load(maxBytes);
    assign(sidecars, kind, parseSidecar(kind, content, source.origin));
    if (kind === 'manifest' && source.origin.local && source.origin.file) sidecars.manifestDir = dirname(source.origin.file);
    supplied.push({ kind, local: source.origin.local });
  }

  const chunks = await loadChunks(input, scan, sidecars.skippedFiles, maxBytes);
  if (chunks) {
    sidecars.chunkSidecars = chunks.chunks;
    supplied.push({ kind: 'chunkSidecars', local: chunks.local });
  }

  sidecars.skippedFiles.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { sidecars, ingress: sidecarIngress(supplied) };
}

async function scanDirIfGiven(input: SidecarInput): Promise<SidecarDirScan | null> {
  if (!given(input, 'sidecar_dir')) return null;
  const dir: unknown = input.sidecar_dir;
  const origin = { kind: 'chunkSidecars' as const, label: 'sidecar_dir' };
  if (typeof dir !== 'string') throw invalidSidecar(origin, `expected a directory path, received ${describeType(dir)}`);
  if (dir.trim() === '') throw invalidSidecar(origin, 'is empty (expected a directory path)');
  const scan = await scanSidecarDir(dir);
  if (Object.keys(scan.wellKnown).length === 0 && scan.chunkFiles.length === 0) {
    throw invalidSidecar(
      { ...origin, label: `sidecar_dir ${scan.shownDir}` },
      `holds no sidecar files (no *.json chunk reports, none of ${Object.keys(WELL_KNOWN_FILES).join(', ')})${describeSkipped(scan.skipped)}`,
      { skippedFiles: scan.skipped },
    );
  }
  return scan;
}

/** The explicit field wins; the directory's well-known file is then listed as skipped. */
function chooseSource(input: SidecarInput, kind: SingleSidecarKind, scan: SidecarDirScan | null, skipped: SkippedFile[]): SidecarSource | null {
  const explicit = explicitSource(input, kind);
  const dirFile = scan?.wellKnown[kind];
  if (explicit && dirFile) skipped.push({ file: dirFile.name, reason: `not used: the ${kind} was given by ${explicit.field}` });
  if (explicit) return explicit;
  return scan && dirFile ? dirFileSource(kind, scan, dirFile) : null;
}

async function loadChunks(
  input: SidecarInput,
  scan: SidecarDirScan | null,
  skipped: SkippedFile[],
  maxBytes: number,
): Promise<{ chunks: ChunkSidecar[]; local: boolean } | null> {
  const inline = explicitSource(input, 'chunkSidecars');
  if (inline) {
    for (const file of scan?.chunkFiles ?? []) skipped.push({ file: file.name, reason: `not used: chunk sidecars were given by ${inline.field}` });
    // chunk_sidecar_dirname (the inline "file name" of chunk sidecars) names where the reports came from.
    return { chunks: await loadInlineChunks(inline, inline.origin.filename ?? inline.field, maxBytes), local: false };
  }
  if (scan && scan.chunkFiles.length > 0) return { chunks: await loadChunkFiles(scan, maxBytes), local: true };
  return null;
}

function assign<K extends SingleSidecarKind>(sidecars: ParsedSidecars, kind: K, value: ParsedSidecars[K]): void {
  sidecars[kind] = value;
}
