// How the gates that judge what a manifest declares about the media (contact sheets, opening text, scrubs, assets,
// mix levels, on-screen text) name a segment and a field: by index, span and description, with JSON paths into the
// manifest. Flags quote the manifest's own references and never a server path.
import { isAbsolute } from 'node:path';
import type { Manifest, ManifestSegment } from '../../sidecars/formats/manifest.js';
import { jsonPath } from '../../sidecars/formats/json-path.js';
import type { FlagDraft, GateContext, GateResult } from '../../types.js';
import { skippedGate } from './result.js';
import { quote, spanText } from './wording.js';

export const NEEDS_MANIFEST = 'needs manifest';

const DESCRIPTION_CHARS = 60;

/** Segments named in the summary of a flag about several segments; the evidence lists up to EVIDENCE_SEGMENTS. */
export const SUMMARY_SEGMENTS = 3;

export const EVIDENCE_SEGMENTS = 50;

export interface SegmentRef {
  index: number;
  start: number;
  end: number;
  description: string | null;
  kind: string | null;
}

export function segmentRef(segment: ManifestSegment, index: number): SegmentRef {
  return { index, start: segment.start, end: segment.end, description: segment.description ?? null, kind: segment.kind ?? null };
}

/** `segments[2] (00:00:12.000-00:00:18.500, "Host at the desk")`: the index, the span and what the picture shows (or its kind). */
export function segmentName(ref: SegmentRef): string {
  const what = ref.description ? `, ${quote(ref.description, DESCRIPTION_CHARS)}` : ref.kind ? `, ${ref.kind}` : '';
  return `segments[${ref.index}] (${spanText(ref.start, ref.end)}${what})`;
}

export function listNames(refs: SegmentRef[]): string {
  const named = refs.slice(0, SUMMARY_SEGMENTS).map((r) => `segments[${r.index}]`);
  const more = refs.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

export const fieldPath = (...path: (string | number)[]) => jsonPath(['segments', ...path]);

export function textFieldPath(segmentIndex: number, textIndex: number): string {
  return fieldPath(segmentIndex, 'onScreenText', textIndex);
}

/** A flag about several segments spans from the first one's start to the last one's end. */
export function spanOf(refs: SegmentRef[]): { start: number; end: number } {
  return { start: refs.reduce((m, r) => Math.min(m, r.start), Infinity), end: refs.reduce((m, r) => Math.max(m, r.end), -Infinity) };
}

export function manifestOrSkip(ctx: GateContext, gate: string): Manifest | GateResult {
  return ctx.sidecars.manifest ?? skippedGate(gate, NEEDS_MANIFEST);
}

export const isManifest = (value: Manifest | GateResult): value is Manifest => 'segments' in value;

export const byStart = (flags: FlagDraft[]) => [...flags].sort((a, b) => a.start - b.start || a.end - b.end);

export const URL_SCHEME = /^[a-z][a-z0-9+.-]+:\/\//i;

/** An asset or file reference as flags may show it: URLs lose their query and fragment, absolute paths all but the file name. */
export function displayReference(reference: string): string {
  const ref = reference.trim();
  if (URL_SCHEME.test(ref)) return ref.replace(/[?#].*$/, '');
  if (isAbsolute(ref) || /^[A-Za-z]:[\\/]/.test(ref)) return `<absolute path>/${ref.split(/[\\/]/).pop() ?? ''}`;
  return ref;
}
