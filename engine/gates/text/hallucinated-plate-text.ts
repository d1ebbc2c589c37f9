// hallucinated_plate_text: lettering in generated plates that nobody approved: text the manifest declares on a
// generated plate without approval, and lines read in the picture that are not real words and not approved.
import { t } from '../../profiles/threshold-values.js';
import type { Manifest, OnScreenText } from '../../sidecars/formats/manifest.js';
import { tokenize } from '../../text/match.js';
import { judgeWords } from '../../ocr/lexicon.js';
import { textSimilarity } from '../../ocr/words.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, TextSignals } from '../../types.js';
import { defineGate } from '../define.js';
import { EPSILON, reaches } from '../kit/bands.js';
import { boxText, roundedBox } from '../kit/geometry.js';
import { segmentName, segmentRef, textFieldPath, type SegmentRef } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { quote, reRun, reRunWithManifest, spanText } from '../kit/wording.js';
import { declaredAndRead } from './declared-text.js';
import { ocrMeasurements, trackEvidence, type PixelHalf } from './read-text.js';

function hallucinatedPlateTextThresholds(): GateThresholds {
  return {
    realWordShare: t(
      0.5,
      'fraction of words',
      'Preflight house rule: a line is lettering without real words when fewer than half of its words of three or more letters are English dictionary words (an-array-of-english-words), numbers or short acronyms',
      'house',
    ),
    approvedSimilarity: t(0.8, 'similarity', 'Preflight house rule: read text matches approved declared text at 80 % character similarity (OCR misreads a letter or two)', 'house'),
  };
}

function plateTextFlag(ref: SegmentRef, text: OnScreenText, textIndex: number): FlagDraft {
  const name = segmentName(ref);
  const field = textFieldPath(ref.index, textIndex);
  const hasWords = tokenize(text.text).length > 0;
  const shown = quote(text.text);
  return {
    severity: hasWords ? 'BLOCK' : 'WATCH',
    start: ref.start,
    end: ref.end,
    summary: hasWords
      ? `Generated plate ${name} shows unapproved text ${shown}`
      : `Generated plate ${name} declares unapproved text without readable words (${shown})`,
    evidence: { segment: ref, field, text: text.text, approved: text.approved ?? null, box: text.box ? roundedBox(text.box) : null },
    repair: {
      action: 're_render_plate',
      reachable: false,
      instruction: `Re-generate the plate of ${name} without the lettering ${shown} (or paint it out) and re-render ${spanText(ref.start, ref.end)}; if the text is meant to be there, set approved: true on ${field}.`,
      verify: reRunWithManifest('hallucinated_plate_text', `no hallucinated_plate_text flag for ${field}`),
    },
  };
}

function declaredPlateText(manifest: Manifest): GateResult {
  const plates = manifest.segments.flatMap((s, i) => (s.kind === 'generated_plate' ? [{ segment: s, ref: segmentRef(s, i) }] : []));
  const flags = plates.flatMap(({ segment, ref }) =>
    (segment.onScreenText ?? []).flatMap((text, textIndex) => (text.approved === true ? [] : [plateTextFlag(ref, text, textIndex)])),
  );
  const declared = plates.filter(({ segment }) => (segment.onScreenText ?? []).length > 0).length;
  const texts = plates.reduce((n, { segment }) => n + (segment.onScreenText ?? []).length, 0);
  return gateResult(
    'hallucinated_plate_text',
    {
      plates: plates.length,
      platesWithDeclaredText: declared,
      platesWithoutDeclaredText: plates.length - declared,
      approvedTexts: texts - flags.length,
      unapprovedTexts: flags.length,
    },
    flags,
  );
}

interface PlateSpan {
  start: number;
  end: number;
  plate: boolean;
  approved: string[];
}

function manifestSpans(manifest: Manifest | null): PlateSpan[] {
  return (manifest?.segments ?? []).map((s) => ({
    start: s.start,
    end: s.end,
    plate: s.kind === 'generated_plate',
    approved: (s.onScreenText ?? []).filter((t) => t.approved === true).map((t) => t.text),
  }));
}

/** Read lettering that the manifest does not approve and that is not made of real words. */
export function pixelPlateText(text: TextSignals, manifest: Manifest | null, th: GateThresholds): PixelHalf {
  const spans = manifestSpans(manifest);
  const similar = threshold(th, 'approvedSimilarity');
  const realShare = threshold(th, 'realWordShare');
  const flags: FlagDraft[] = [];
  let approved = 0;
  for (const track of text.tracks) {
    const during = spans.filter((s) => s.start < track.end + EPSILON && s.end > track.start - EPSILON);
    if (during.some((s) => s.approved.some((a) => textSimilarity(a, track.text) >= similar))) {
      approved++;
      continue;
    }
    const judged = judgeWords(track.text);
    if (judged.judged.length === 0 || reaches(judged.realShare, realShare)) continue;
    const onPlate = during.some((s) => s.plate);
    const q = quote(track.text);
    flags.push({
      severity: onPlate ? 'BLOCK' : 'WATCH',
      start: track.start,
      end: track.end,
      summary: `${onPlate ? 'A generated plate shows' : 'The picture shows'} lettering that is not real words: ${q}`,
      evidence: {
        ...trackEvidence(track),
        notWords: judged.unreal,
        realWordShare: round(judged.realShare, 2),
        onGeneratedPlate: onPlate,
        source: 'read in the picture (OCR)',
        threshold: thresholdValues(th, ['realWordShare', 'approvedSimilarity']),
      },
      repair: {
        action: 're_render_plate',
        reachable: false,
        instruction: `Re-generate or paint out the lettering ${q} (${boxText(track.box)}) in ${spanText(track.start, track.end)}; if it is meant to be there, declare it in the manifest's onScreenText for that segment with approved: true.`,
        verify: reRun('hallucinated_plate_text', `no hallucinated_plate_text flag for ${q}`),
      },
    });
  }
  return { measurements: { ...ocrMeasurements(text), approvedLines: approved, linesNotWords: flags.length }, flags };
}

function hallucinatedPlateText(ctx: GateContext): GateResult {
  return declaredAndRead(ctx, 'hallucinated_plate_text', declaredPlateText, (text) => pixelPlateText(text, ctx.sidecars.manifest ?? null, ctx.thresholds));
}

export const hallucinatedPlateTextGate = defineGate({
  id: 'hallucinated_plate_text',
  area: 'text',
  title: 'Unapproved text in generated plates',
  algorithm:
    'Every on-screen text declared on a generated_plate segment must carry approved: true; unapproved text with words is BLOCK (quoted), unapproved text without readable words WATCH. ' +
    'Read text (OCR): a line that no approved declared text of an overlapping segment matches (approvedSimilarity) and whose words are mostly not real words (fewer than realWordShare dictionary words, numbers or short acronyms among its words of three or more letters) is BLOCK on a generated_plate segment and WATCH elsewhere or without a manifest.',
  requires: { kinds: ['video', 'image'], signals: ['text'], orSidecar: 'manifest' },
  thresholds: hallucinatedPlateTextThresholds,
  run: hallucinatedPlateText,
});
