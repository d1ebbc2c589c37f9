// Chunk sidecars: one JSON report per rendered chunk (a directory of files, or inline as an array or an object map).
// A chunk failed when its status or verdict says so.
import { z } from 'zod';
import { failAt, parseWithSchema } from './format-error.js';
import { jsonPath, type JsonPathSegment } from './json-path.js';
import { describeType, isPlainObject } from './value-type.js';

export interface ChunkSidecar {
  /** chunk, id or name from the report; else the file name (directory), map key or `#index` (array). */
  id: string;
  status: string | null;
  verdict: string | null;
  failed: boolean;
  /** Where the report came from: a file name in the sidecar directory, or a JSON path in the inline value. */
  source: string;
  /** The report as given, unknown fields included. */
  report: Record<string, unknown>;
}

const identifier = z.union([z.string(), z.number()]);

export const ChunkReportSchema = z
  .object({
    chunk: identifier.optional().meta({ description: 'Chunk id (first of chunk, id, name that is present and not empty).' }),
    id: identifier.optional().meta({ description: 'Chunk id when chunk is absent.' }),
    name: identifier.optional().meta({ description: 'Chunk id when chunk and id are absent.' }),
    status: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'Run status. failed, fail, failure, error, errored, block or blocked (any case) marks the chunk failed.' }),
    verdict: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'QC verdict. BLOCK, BLOCKED, FAIL or FAILED (any case) marks the chunk failed.' }),
  })
  .loose()
  .meta({
    title: 'Preflight chunk sidecar (one chunk report)',
    description: 'One per-chunk JSON report, as a file in the sidecar directory. Unknown fields are kept and ignored.',
  });

export const ChunkSidecarsJsonSchema = z.union([z.array(ChunkReportSchema), z.record(z.string(), ChunkReportSchema)]).meta({
  title: 'Preflight chunk sidecars (inline collection)',
  description: 'Inline chunk reports: an array of reports, or an object map from chunk id to report.',
});

const FAILED_STATUSES = new Set(['failed', 'fail', 'failure', 'error', 'errored', 'block', 'blocked']);
const FAILED_VERDICTS = new Set(['BLOCK', 'BLOCKED', 'FAIL', 'FAILED']);

export function isFailedChunk(status: string | null, verdict: string | null): boolean {
  return (status !== null && FAILED_STATUSES.has(status.trim().toLowerCase())) || (verdict !== null && FAILED_VERDICTS.has(verdict.trim().toUpperCase()));
}

/** One report (a directory file). `fallbackId` is used when the report names no chunk. */
export function chunkFromReport(value: unknown, fallbackId: string, source: string, basePath: JsonPathSegment[] = []): ChunkSidecar {
  if (!isPlainObject(value)) return failAt(jsonPath(basePath), `expected a chunk report object, received ${describeType(value)}`);
  const parsed = parseWithSchema(ChunkReportSchema, value, basePath);
  const named = [parsed.chunk, parsed.id, parsed.name].map((candidate) => (candidate === undefined ? '' : String(candidate).trim())).find((candidate) => candidate !== '');
  const status = parsed.status ?? null;
  const verdict = parsed.verdict ?? null;
  return { id: named ?? fallbackId, status, verdict, failed: isFailedChunk(status, verdict), source, report: value };
}

/** The inline forms: an array of reports or an object map id → report. `label` prefixes each chunk's source. */
export function chunksFromJson(value: unknown, label: string): ChunkSidecar[] {
  if (Array.isArray(value)) {
    return value.map((report, index) => chunkFromReport(report, `#${index}`, jsonPath([index], label), [index]));
  }
  if (isPlainObject(value)) {
    return Object.entries(value).map(([key, report]) => chunkFromReport(report, key, jsonPath([key], label), [key]));
  }
  return failAt('', `expected an array of chunk reports or an object map of chunk id to report, received ${describeType(value)}`);
}
