// The sidecar formats: zod schemas, parsers and normalised types. Pure (zod only), so gates can use them directly.
export { ChunkReportSchema, ChunkSidecarsJsonSchema, chunkFromReport, chunksFromJson, isFailedChunk, type ChunkSidecar } from './chunk-sidecar.js';
export { ExpectedScriptJsonSchema, ExpectedScriptObjectSchema, expectedScriptFromJson, expectedScriptFromText, type ExpectedScript } from './expected-script.js';
export { SidecarFormatError, type SidecarFormatLocation } from './format-error.js';
export { jsonPath, type JsonPathSegment } from './json-path.js';
export { parseJsonText } from './json-text.js';
export {
  SIDECAR_JSON_SCHEMAS,
  SIDECAR_SCHEMA_NAMES,
  sidecarJsonSchema,
  sidecarJsonSchemaText,
  sidecarSchemaDocPath,
  sidecarSchemaUrl,
  type SidecarSchemaName,
} from './json-schemas.js';
export { MAX_TIMELINE_SECONDS } from './limits.js';
export {
  AssetTriageSchema,
  MANIFEST_SCHEMA_ID,
  MARKERS,
  ManifestSchema,
  MarkerSchema,
  MixSchema,
  OnScreenTextSchema,
  SEGMENT_KINDS,
  SegmentKindSchema,
  SegmentSchema,
  SourceScrubSchema,
  TextBoxSchema,
  manifestFromJson,
  type Manifest,
  type ManifestSegment,
  type Marker,
  type OnScreenText,
  type SegmentKind,
  type TextBox,
} from './manifest.js';
export { detectTextFormat, type TextFormat } from './sniff.js';
export {
  TranscriptJsonSchema,
  TranscriptObjectSchema,
  TranscriptSegmentSchema,
  TranscriptWordSchema,
  transcriptFromJson,
  transcriptFromSrt,
  transcriptFromText,
  transcriptFromWebVtt,
  type Transcript,
  type TranscriptFormat,
  type TranscriptSegment,
  type TranscriptWord,
} from './transcript.js';
export { WatchlistJsonSchema, WatchlistObjectSchema, WatchlistTermSchema, watchlistFromJson, type Watchlist, type WatchlistTerm } from './watchlist.js';
