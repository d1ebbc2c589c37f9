// Published JSON Schemas (draft 2020-12) of the JSON sidecar formats, generated from the zod schemas that validate them.
import { z } from 'zod';
import { ChunkReportSchema, ChunkSidecarsJsonSchema } from './chunk-sidecar.js';
import { ExpectedScriptJsonSchema } from './expected-script.js';
import { ManifestSchema } from './manifest.js';
import { TranscriptJsonSchema } from './transcript.js';
import { WatchlistJsonSchema } from './watchlist.js';

export const SIDECAR_JSON_SCHEMAS = {
  'preflight-manifest-1': ManifestSchema,
  transcript: TranscriptJsonSchema,
  'expected-script': ExpectedScriptJsonSchema,
  watchlist: WatchlistJsonSchema,
  'chunk-sidecar': ChunkReportSchema,
  'chunk-sidecars': ChunkSidecarsJsonSchema,
} as const;

export type SidecarSchemaName = keyof typeof SIDECAR_JSON_SCHEMAS;
export const SIDECAR_SCHEMA_NAMES = Object.keys(SIDECAR_JSON_SCHEMAS) as SidecarSchemaName[];

export function sidecarSchemaUrl(name: SidecarSchemaName): string {
  return `https://preflight.dev/schemas/${name}.json`;
}

/** Repository-relative path of the committed copy. */
export function sidecarSchemaDocPath(name: SidecarSchemaName): string {
  return `docs/schemas/${name}.schema.json`;
}

/** The input form (what a user writes): defaults are optional, and refinements are described in words. */
export function sidecarJsonSchema(name: SidecarSchemaName): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(SIDECAR_JSON_SCHEMAS[name], { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return { $schema, $id: sidecarSchemaUrl(name), ...rest };
}

export function sidecarJsonSchemaText(name: SidecarSchemaName): string {
  return `${JSON.stringify(sidecarJsonSchema(name), null, 2)}\n`;
}
