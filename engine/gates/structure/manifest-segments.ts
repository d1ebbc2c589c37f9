// What the structure gates share about the manifest timeline: how a flag names and quotes a segment, names compared
// as whole words, markers, and the rule that a gate without the manifest fields it reads is skipped, never a pass.
// Free text (narration, description) is only searched for names the manifest itself declares.
import type { Manifest, ManifestSegment, Marker } from '../../sidecars/formats/manifest.js';
import { containsPhrase, wordsKey } from '../../text/match.js';
import type { GateContext, GateResult, Severity } from '../../types.js';
import { skippedGate } from '../kit/result.js';
import { reRun, spanText } from '../kit/wording.js';

export type Segment = ManifestSegment;

export type SegmentField = keyof Segment & string;

/** Segments written end-to-start with float noise (3.2 vs 3.2000001) still touch. */
export const CONTIGUOUS_EPSILON = 1e-3;

/** Evidence lists of segments stop here so a two-hour manifest keeps flags readable. */
export const MAX_LISTED_SEGMENTS = 20;

export const segmentPath = (index: number, field?: string) => `segments[${index}]${field ? `.${field}` : ''}`;


export const sameName = (a: string, b: string) => wordsKey(a) !== '' && wordsKey(a) === wordsKey(b);

/** Two declared names refer to the same thing when one contains the other as whole words ("Eiffel Tower" / "the Eiffel Tower at night"). */
export const namesMatch = (a: string, b: string) => containsPhrase(a, b) || containsPhrase(b, a);

export const declaredNames = (names: string[] | undefined) => (names ?? []).filter((n) => wordsKey(n) !== '');

export const hasMarker = (segment: Segment, marker: Marker) => segment.markers?.includes(marker) ?? false;

export const markersDeclared = (manifest: Manifest) => manifest.segments.some((s) => s.markers !== undefined);

export function excerpt(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

/** How a flag names a segment: index, time span and what the picture shows. */
export function segmentLabel(segments: Segment[], index: number): string {
  const s = segments[index];
  const what = s.description ? ` ("${excerpt(s.description)}")` : s.visualFile ? ` (${s.visualFile})` : '';
  return `${segmentPath(index)} ${spanText(s.start, s.end)}${what}`;
}

export function segmentRef(segments: Segment[], index: number) {
  const s = segments[index];
  return { index, path: segmentPath(index), start: s.start, end: s.end, span: spanText(s.start, s.end), description: s.description ?? null };
}

/** The declared values of a segment's fields, keyed by JSON path, for a flag's evidence. */
export function quoted(segments: Segment[], index: number, fields: SegmentField[]): Record<string, unknown> {
  const s = segments[index];
  return Object.fromEntries(fields.filter((f) => s[f] !== undefined).map((f) => [segmentPath(index, f), s[f]]));
}

export function listedRefs(segments: Segment[], indices: number[]) {
  return indices.slice(0, MAX_LISTED_SEGMENTS).map((i) => segmentRef(segments, i));
}

export function worse(a: Severity | null, b: Severity | null): Severity | null {
  if (a === 'BLOCK' || b === 'BLOCK') return 'BLOCK';
  return a ?? b;
}

/** The programme runs to the end of the media; a sidecar-only check falls back to the manifest's last end. */
export function programmeEnd(ctx: GateContext, manifest: Manifest): number {
  if (ctx.media.durationSeconds > 0) return ctx.media.durationSeconds;
  return manifest.segments.reduce((end, s) => Math.max(end, s.end), 0);
}

/** Index of the first segment on screen at `seconds`, or −1 when the manifest declares nothing there. */
export function segmentAt(segments: Segment[], seconds: number): number {
  return segments.findIndex((s) => s.start <= seconds && seconds < s.end);
}

export const overlaps = (a: Segment, b: Segment) => a.start < b.end && b.start < a.end;

export const verify = (gate: string, where: string) => reRun(gate, `no ${gate} flag for ${where}`);

export type ManifestRun = (ctx: GateContext, manifest: Manifest) => GateResult;

/** Missing manifest or empty timeline → skipped with the reason, never a pass. */
export function withManifest(gate: string, run: ManifestRun): (ctx: GateContext) => GateResult {
  return (ctx) => {
    const manifest = ctx.sidecars.manifest;
    if (!manifest) return skippedGate(gate, 'needs manifest');
    if (manifest.segments.length === 0) return { ...skippedGate(gate, 'needs manifest segments: the manifest declares none'), measurements: { segments: 0 } };
    return run(ctx, manifest);
  };
}

/** The manifest is there but declares none of the fields this gate reads. */
export function undeclared(gate: string, reason: string, measurements: Record<string, unknown>): GateResult {
  return { ...skippedGate(gate, reason), measurements };
}

export const NAMES =
  'Names are compared as whole words and phrases with case, accents and punctuation normalised ("interface" never matches "face"); two names match when one contains the other.';
