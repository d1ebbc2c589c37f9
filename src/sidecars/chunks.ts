// Chunk sidecars from the inline fields, or from the JSON files of the sidecar directory (one report per file).
import { sidecarTooLarge, withOrigin } from './errors.js';
import { chunkFromReport, chunksFromJson, type ChunkSidecar } from '../../engine/sidecars/formats/chunk-sidecar.js';
import { jsonValue, refuseEmpty } from './parse.js';
import type { SidecarDirScan } from './sidecar-dir.js';
import { dirFileSource, type SidecarSource } from './sources.js';

/** `sourcePrefix` starts each chunk's `source`: the directory name given with the inline chunks, else the field. */
export async function loadInlineChunks(source: SidecarSource, sourcePrefix: string, maxBytes: number): Promise<ChunkSidecar[]> {
  const content = await source.load(maxBytes);
  refuseEmpty(content, source.origin);
  return withOrigin(source.origin, () => chunksFromJson(jsonValue(content), sourcePrefix));
}

/** The directory's chunk reports, in file-name order; `maxBytes` caps each file and all of them together. */
export async function loadChunkFiles(scan: SidecarDirScan, maxBytes: number): Promise<ChunkSidecar[]> {
  const chunks: ChunkSidecar[] = [];
  let totalBytes = 0;
  for (const file of scan.chunkFiles) {
    const source = dirFileSource('chunkSidecars', scan, file);
    const content = await source.load(maxBytes);
    if (content.type === 'text') totalBytes += Buffer.byteLength(content.text, 'utf8');
    if (totalBytes > maxBytes) {
      throw sidecarTooLarge({ kind: 'chunkSidecars', label: `sidecar_dir ${scan.shownDir} (chunk reports together)`, file: scan.shownDir }, totalBytes, maxBytes);
    }
    refuseEmpty(content, source.origin);
    const fallbackId = file.name.replace(/\.json$/i, '');
    chunks.push(withOrigin(source.origin, () => chunkFromReport(jsonValue(content), fallbackId, file.name)));
  }
  return chunks;
}
