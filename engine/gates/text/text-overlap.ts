// text_overlap: text boxes covering each other, and declared text under the 9:16 platform UI zones: declared boxes in
// the manifest and lines read in the same sample of the picture.
import type { DeliveryProfileId } from '../../profiles/index.js';
import { isVerticalDelivery, t, uiZoneThresholds } from '../../profiles/threshold-values.js';
import type { Manifest } from '../../sidecars/formats/manifest.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, Severity, TextSignals, TextTrack } from '../../types.js';
import { defineGate } from '../define.js';
import { EPSILON, exceeds, reaches, severityBand } from '../kit/bands.js';
import { boxArea, boxText, intersectionArea } from '../kit/geometry.js';
import { segmentName, textFieldPath } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { uiZoneEvidence, uiZones, uiZonesMeasurement, underUi, type UiZones, type UnderUi } from '../kit/ui-zones.js';
import { pct, quote, reRun, reRunWithManifest, spanText } from '../kit/wording.js';
import { boxedTexts, countBoxless, declaredAndRead, textEvidence, type DeclaredText } from './declared-text.js';
import { ocrMeasurements, trackEvidence, type PixelHalf } from './read-text.js';

function textOverlapThresholds(delivery: DeliveryProfileId): GateThresholds {
  const overlap: GateThresholds = {
    overlapWatchRatio: t(
      0.1,
      'fraction of the smaller box',
      'Preflight house rule: two text boxes sharing more than 10 % of the smaller box collide visibly; touching or slightly padded boxes pass',
      'house',
    ),
    overlapBlockRatio: t(0.5, 'fraction of the smaller box', 'Preflight house rule: half of a text box covered by another text box is unreadable', 'house'),
  };
  if (!isVerticalDelivery(delivery)) return overlap;
  return {
    ...overlap,
    ...uiZoneThresholds(),
  };
}

function overlapFlag(a: DeclaredText, b: DeclaredText, ratio: number, severity: Severity, th: GateThresholds): FlagDraft {
  const name = segmentName(a.segment);
  const [ta, tb] = [quote(a.text), quote(b.text)];
  return {
    severity,
    start: a.segment.start,
    end: a.segment.end,
    summary: `${ta} and ${tb} overlap in ${name}: ${pct(ratio)} of the smaller box is covered`,
    evidence: { segment: a.segment, texts: [textEvidence(a), textEvidence(b)], overlapRatio: round(ratio, 3), threshold: thresholdValues(th, ['overlapWatchRatio', 'overlapBlockRatio']) },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move or shrink ${ta} (${boxText(a.box)}) or ${tb} (${boxText(b.box)}) in ${name} so their boxes no longer overlap, or merge them into one text block; re-render ${spanText(a.segment.start, a.segment.end)} and update the boxes.`,
      verify: reRunWithManifest('text_overlap', `no text_overlap flag for segments[${a.segment.index}]`),
    },
  };
}

function overlapFlags(texts: DeclaredText[], th: GateThresholds): { flags: FlagDraft[]; pairs: number; largest: number } {
  const out = { flags: [] as FlagDraft[], pairs: 0, largest: 0 };
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i], texts[j]];
      const smaller = Math.min(boxArea(a.box), boxArea(b.box));
      if (smaller <= 0) continue;
      out.pairs++;
      const ratio = intersectionArea(a.box, b.box) / smaller;
      out.largest = Math.max(out.largest, ratio);
      const severity = severityBand(ratio, threshold(th, 'overlapWatchRatio'), threshold(th, 'overlapBlockRatio'), exceeds, reaches);
      if (severity) out.flags.push(overlapFlag(a, b, ratio, severity, th));
    }
  }
  return out;
}

function uiZoneFlag(d: DeclaredText, under: UnderUi, z: UiZones, th: GateThresholds): FlagDraft {
  const { share, severity, zones } = under;
  const name = segmentName(d.segment);
  const text = quote(d.text);
  const clear = `x ${pct(z.side)}-${pct(1 - z.side)}, y ${pct(z.top)}-${pct(1 - z.bottom)}`;
  return {
    severity,
    start: d.segment.start,
    end: d.segment.end,
    summary: `${text} in ${name} lies ${pct(share)} under the 9:16 platform UI zones (${zones.join(', ')})`,
    evidence: {
      segment: d.segment,
      ...textEvidence(d),
      ...uiZoneEvidence(under, th),
    },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move ${text} in ${name} into the area clear of platform UI (${clear} of the frame; now ${boxText(d.box)}), shrinking it if needed; re-render ${spanText(d.segment.start, d.segment.end)} and update the box.`,
      verify: reRunWithManifest('text_overlap', `no text_overlap flag for ${textFieldPath(d.segment.index, d.textIndex)}`),
    },
  };
}

function uiZoneFlags(texts: DeclaredText[], z: UiZones, th: GateThresholds): FlagDraft[] {
  return texts.flatMap((d) => {
    const under = underUi(d.box, z, th);
    return under ? [uiZoneFlag(d, under, z, th)] : [];
  });
}

function declaredOverlap(manifest: Manifest, th: GateThresholds): GateResult {
  const zones = uiZones(th);
  const flags: FlagDraft[] = [];
  let pairs = 0;
  let largest = 0;
  let underUi = 0;
  manifest.segments.forEach((segment, index) => {
    const texts = boxedTexts(segment, index);
    const overlaps = overlapFlags(texts, th);
    const ui = zones ? uiZoneFlags(texts, zones, th) : [];
    pairs += overlaps.pairs;
    largest = Math.max(largest, overlaps.largest);
    underUi += ui.length;
    flags.push(...overlaps.flags, ...ui);
  });
  return gateResult(
    'text_overlap',
    {
      boxesChecked: manifest.segments.reduce((n, s, i) => n + boxedTexts(s, i).length, 0),
      textsWithoutBox: countBoxless(manifest.segments),
      pairsChecked: pairs,
      overlappingPairs: flags.length - underUi,
      largestOverlapRatio: round(largest, 3),
      uiZones: uiZonesMeasurement(zones),
      boxesUnderUi: underUi,
      source: 'declared boxes in the manifest',
    },
    flags,
  );
}

/** Lines read in the same sample whose boxes overlap. */
export function pixelOverlap(text: TextSignals, th: GateThresholds): PixelHalf {
  const watch = threshold(th, 'overlapWatchRatio');
  const block = threshold(th, 'overlapBlockRatio');
  const found = new Map<string, { a: TextTrack; b: TextTrack; ratio: number; start: number; end: number }>();
  let pairs = 0;
  text.tracks.forEach((a, i) =>
    text.tracks.slice(i + 1).forEach((b, j) => {
      for (const oa of a.observations) {
        const ob = b.observations.find((o) => Math.abs(o.atSeconds - oa.atSeconds) < EPSILON);
        if (!ob) continue;
        pairs++;
        const smaller = Math.min(boxArea(oa.box), boxArea(ob.box));
        const ratio = smaller > 0 ? intersectionArea(oa.box, ob.box) / smaller : 0;
        if (!exceeds(ratio, watch)) continue;
        const key = `${i}:${i + 1 + j}`;
        const seen = found.get(key);
        found.set(key, { a, b, ratio: Math.max(ratio, seen?.ratio ?? 0), start: Math.min(seen?.start ?? Infinity, oa.atSeconds), end: Math.max(seen?.end ?? 0, oa.confirmAtSeconds ?? oa.atSeconds) });
      }
    }),
  );
  const flags = [...found.values()].map(({ a, b, ratio, start, end }): FlagDraft => {
    const [ta, tb] = [quote(a.text), quote(b.text)];
    return {
      severity: reaches(ratio, block) ? 'BLOCK' : 'WATCH',
      start,
      end,
      summary: `${ta} and ${tb} overlap in the picture: ${pct(ratio)} of the smaller box is covered`,
      evidence: { texts: [trackEvidence(a), trackEvidence(b)], overlapRatio: round(ratio, 3), source: 'read in the picture (OCR)', threshold: thresholdValues(th, ['overlapWatchRatio', 'overlapBlockRatio']) },
      repair: {
        action: 'move_text',
        reachable: false,
        instruction: `Move ${ta} (${boxText(a.box)}) or ${tb} (${boxText(b.box)}) so they no longer overlap, or merge them into one text block; re-render ${spanText(start, end)}.`,
        verify: reRun('text_overlap', `no text_overlap flag for ${ta}`),
      },
    };
  });
  return { measurements: { ...ocrMeasurements(text), pairsCompared: pairs, overlappingPairs: flags.length }, flags };
}

function textOverlap(ctx: GateContext): GateResult {
  return declaredAndRead(ctx, 'text_overlap', (m) => declaredOverlap(m, ctx.thresholds), (text) => pixelOverlap(text, ctx.thresholds));
}

export const textOverlapGate = defineGate({
  id: 'text_overlap',
  area: 'text',
  title: 'Text boxes overlapping each other or UI zones',
  algorithm:
    'From the declared on-screen text boxes of each segment: two boxes whose intersection covers more than overlapWatchRatio of the smaller box are WATCH, at least overlapBlockRatio BLOCK. ' +
    'For 9:16 delivery profiles, the share of each box under the approximate platform UI zones (top, bottom and side bands) above uiZoneWatchShare is WATCH, at least uiZoneBlockShare BLOCK. ' +
    'Read text (OCR): two lines read in the same sample whose boxes overlap are judged by the same ratios. Read text under the 9:16 UI zones is reported once, by text_safe_area.',
  requires: { kinds: ['video', 'image'], signals: ['text'], orSidecar: 'manifest' },
  thresholds: textOverlapThresholds,
  run: textOverlap,
});
