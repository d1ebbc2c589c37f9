// Text declared in the manifest (onScreenText with a box), and the gates that judge both what the manifest declares
// and what OCR reads in the picture: each half runs when its input is there, and both halves report together.
import type { Manifest, ManifestSegment, TextBox } from '../../sidecars/formats/manifest.js';
import { wordsKey } from '../../text/match.js';
import type { GateContext, GateResult } from '../../types.js';
import { roundedBox } from '../kit/geometry.js';
import { NEEDS_MANIFEST, byStart, segmentRef, textFieldPath, type SegmentRef } from '../kit/manifest-refs.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { textSignals, type PixelHalf } from './read-text.js';

const NO_PICTURE_TEXT = 'not read: this check has no picture';

const NO_MANIFEST = 'not given: only text read in the picture is checked';

/**
 * Gates with a declared half (manifest boxes) and a pixel half (OCR): each half runs when its input is there, the
 * flags of both are reported together, and the gate is skipped only when it has neither.
 */
export function declaredAndRead(
  ctx: GateContext,
  gate: string,
  declared: (manifest: Manifest) => GateResult,
  read: (text: NonNullable<GateContext['signals']['text']>) => PixelHalf,
): GateResult {
  const manifest = ctx.sidecars.manifest;
  const text = textSignals(ctx);
  if (!manifest && !text) return skippedGate(gate, `${NEEDS_MANIFEST} or a picture to read`);
  const pixel = text ? read(text) : null;
  const own = manifest ? declared(manifest) : gateResult(gate, { manifest: NO_MANIFEST }, []);
  const flags = pixel ? byStart([...own.flags, ...pixel.flags]) : own.flags;
  return gateResult(gate, { ...own.measurements, pixelText: pixel ? pixel.measurements : NO_PICTURE_TEXT }, flags);
}

export interface DeclaredText {
  segment: SegmentRef;
  textIndex: number;
  text: string;
  box: TextBox;
}

/** The texts of a segment that declare a box, in manifest order. */
export function boxedTexts(segment: ManifestSegment, index: number): DeclaredText[] {
  const ref = segmentRef(segment, index);
  return (segment.onScreenText ?? []).flatMap((t, textIndex) =>
    t.box ? [{ segment: ref, textIndex, text: t.text, box: t.box }] : [],
  );
}

export function countBoxless(segments: ManifestSegment[]): number {
  return segments.reduce((n, s) => n + (s.onScreenText ?? []).filter((t) => !t.box).length, 0);
}

/** Identity of a text across segments: its normalised words, or the trimmed text when it has none (symbols). */
export function declaredTextKey(text: string): string {
  return wordsKey(text) || text.trim();
}

export function textEvidence(d: DeclaredText): Record<string, unknown> {
  return { field: textFieldPath(d.segment.index, d.textIndex), text: d.text, box: roundedBox(d.box) };
}
