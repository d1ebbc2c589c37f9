import type { SidecarKind } from '../schemas/job.js';

/** Every field of SidecarInput, by type. */
export interface SidecarInput {
  manifest_path?: string;
  transcript_path?: string;
  watchlist_path?: string;
  expected_script_path?: string;
  sidecar_dir?: string;
  manifest_json?: unknown;
  manifest_base64?: string;
  manifest_filename?: string;
  transcript_text?: string;
  transcript_json?: unknown;
  transcript_base64?: string;
  transcript_filename?: string;
  watchlist_json?: unknown;
  watchlist_base64?: string;
  watchlist_filename?: string;
  expected_script_text?: string;
  expected_script_json?: unknown;
  expected_script_base64?: string;
  expected_script_filename?: string;
  chunk_sidecars_json?: unknown;
  chunk_sidecars_base64?: string;
  chunk_sidecar_dirname?: string;
}

export type SidecarField = keyof SidecarInput;

/** The input fields of each sidecar. At most one of path/text/json/base64 may be given; `filename` names inline content. */
export interface SidecarFieldSet {
  path?: SidecarField;
  text?: SidecarField;
  json?: SidecarField;
  base64?: SidecarField;
  filename?: SidecarField;
}

export const SIDECAR_FIELDS: Readonly<Record<SidecarKind, SidecarFieldSet>> = {
  manifest: { path: 'manifest_path', json: 'manifest_json', base64: 'manifest_base64', filename: 'manifest_filename' },
  transcript: {
    path: 'transcript_path',
    text: 'transcript_text',
    json: 'transcript_json',
    base64: 'transcript_base64',
    filename: 'transcript_filename',
  },
  watchlist: { path: 'watchlist_path', json: 'watchlist_json', base64: 'watchlist_base64', filename: 'watchlist_filename' },
  expectedScript: {
    path: 'expected_script_path',
    text: 'expected_script_text',
    json: 'expected_script_json',
    base64: 'expected_script_base64',
    filename: 'expected_script_filename',
  },
  chunkSidecars: { json: 'chunk_sidecars_json', base64: 'chunk_sidecars_base64', filename: 'chunk_sidecar_dirname' },
};

/** null counts as absent: JSON clients often send it for "not given". */
export function given(input: SidecarInput, field: SidecarField | undefined): boolean {
  return field !== undefined && input[field] !== undefined && input[field] !== null;
}
