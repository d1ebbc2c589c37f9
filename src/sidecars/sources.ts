// Where each sidecar's content comes from: one explicit field (path, text, JSON or base64), or a file of the sidecar
// directory. Choosing is strict: two fields for the same sidecar are an error, never a silent pick.
import { basename, join, resolve } from 'node:path';
import type { SidecarKind } from '../schemas/job.js';
import { decodeSidecarText } from './decode-text.js';
import { invalidSidecar, withOrigin } from './errors.js';
import { given, SIDECAR_FIELDS, type SidecarField, type SidecarFieldSet, type SidecarInput } from './fields.js';
import { describeType } from '../../engine/sidecars/formats/value-type.js';
import { inlineBase64, inlineJson, inlineText } from './inline.js';
import type { SidecarOrigin } from './origin.js';
import { readSidecarFile } from './read-file.js';
import type { DirFile, SidecarDirScan } from './sidecar-dir.js';

export type SidecarContent =
  /** Text to parse; `mayBeJson` is false for `*_text` fields, whose content is never sniffed as JSON. */
  | { type: 'text'; text: string; mayBeJson: boolean }
  /** An already-structured value (`*_json` given as an object or array, or a parsed JSON string). */
  | { type: 'json'; value: unknown };

export interface SidecarSource {
  origin: SidecarOrigin;
  /** The input field it came from, or `sidecar_dir`. */
  field: SidecarField;
  /** Reads and decodes the content, enforcing the size cap. */
  load(maxBytes: number): Promise<SidecarContent>;
}

export function explicitSource(input: SidecarInput, kind: SidecarKind): SidecarSource | null {
  const fields = SIDECAR_FIELDS[kind];
  const contentFields = [fields.path, fields.text, fields.json, fields.base64].filter((field): field is SidecarField => given(input, field));
  const filename = filenameOf(input, kind);
  if (contentFields.length > 1) {
    throw invalidSidecar(
      { kind, label: kind },
      `give one of ${listFields(fields)}, not ${contentFields.join(' and ')}`,
      { fields: contentFields },
    );
  }
  const [field] = contentFields;
  if (field === undefined) {
    if (filename !== undefined && fields.filename) {
      throw invalidSidecar({ kind, label: fields.filename }, `names inline content, but none of ${listFields(fields, false)} was given`);
    }
    return null;
  }
  const value = input[field];
  if (field === fields.path) return pathSource(kind, field, value);

  const origin: SidecarOrigin = { kind, label: filename ? `${field} (${filename})` : field, local: false };
  if (filename) {
    origin.file = filename;
    origin.filename = filename;
  }
  if (field === fields.text) return { origin, field, load: async (maxBytes) => ({ type: 'text', text: inlineText(value, origin, maxBytes), mayBeJson: false }) };
  if (field === fields.json) return { origin, field, load: async (maxBytes) => ({ type: 'json', value: inlineJson(value, origin, maxBytes) }) };
  return { origin, field, load: async (maxBytes) => ({ type: 'text', text: inlineBase64(value, origin, maxBytes), mayBeJson: true }) };
}

function pathSource(kind: SidecarKind, field: SidecarField, value: unknown): SidecarSource {
  if (typeof value !== 'string') throw invalidSidecar({ kind, label: field }, `expected a file path, received ${describeType(value)}`);
  if (value.trim() === '') throw invalidSidecar({ kind, label: field }, 'is empty (expected a file path)');
  const path = resolve(value);
  const origin: SidecarOrigin = { kind, label: `${field} ${path}`, file: path, filename: basename(path), local: true };
  return { origin, field, load: (maxBytes) => readTextFile(path, origin, maxBytes, false) };
}

/** A file found in the sidecar directory. */
export function dirFileSource(kind: SidecarKind, scan: SidecarDirScan, file: DirFile): SidecarSource {
  const shown = join(scan.shownDir, file.name);
  const origin: SidecarOrigin = { kind, label: `sidecar_dir ${shown}`, file: shown, filename: file.name, local: true };
  return { origin, field: 'sidecar_dir', load: (maxBytes) => readTextFile(file.path, origin, maxBytes, true) };
}

async function readTextFile(path: string, origin: SidecarOrigin, maxBytes: number, noFollow: boolean): Promise<SidecarContent> {
  const bytes = await readSidecarFile(path, origin, { maxBytes, noFollow });
  return { type: 'text', text: withOrigin(origin, () => decodeSidecarText(bytes)), mayBeJson: true };
}

function filenameOf(input: SidecarInput, kind: SidecarKind): string | undefined {
  const field = SIDECAR_FIELDS[kind].filename;
  if (!field || !given(input, field)) return undefined;
  const value = input[field];
  if (typeof value !== 'string') throw invalidSidecar({ kind, label: field }, `expected a string, received ${describeType(value)}`);
  return value.trim() === '' ? undefined : value;
}

function listFields(fields: SidecarFieldSet, withPath = true): string {
  const names = [withPath ? fields.path : undefined, fields.text, fields.json, fields.base64].filter((name): name is SidecarField => name !== undefined);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
