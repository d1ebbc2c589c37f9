// text_crop_jitter: text cut by the frame edge, or jumping between neighbouring moments: declared boxes in the
// manifest (across back-to-back segments) and text read in the picture (between neighbouring readings).
import { t } from '../../profiles/threshold-values.js';
import type { Manifest, ManifestSegment } from '../../sidecars/formats/manifest.js';
import { wordsKey } from '../../text/match.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, Severity, TextSignals, TextTrack } from '../../types.js';
import { defineGate } from '../define.js';
import { exceeds, fallsBelow } from '../kit/bands.js';
import { boxShift, boxText, edgesTouched, frameOverhangs, roundedBox, type FrameBox } from '../kit/geometry.js';
import { byStart, segmentName, textFieldPath } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { hms, pct, quote, reRun, reRunWithManifest, spanText } from '../kit/wording.js';
import { boxedTexts, countBoxless, declaredAndRead, declaredTextKey, textEvidence, type DeclaredText } from './declared-text.js';
import { isStill, ocrMeasurements, trackEvidence, trackSpan, type PixelHalf } from './read-text.js';

function textCropJitterThresholds(): GateThresholds {
  return {
    // Declared boxes (manifest).
    edgeOverhangBlockFraction: t(
      0.005,
      'fraction of frame',
      'Preflight house rule: a box past the frame edge by more than 0.5 % (about 10 px at 1920) cuts letters (BLOCK); a smaller overhang may be box padding (WATCH)',
      'house',
    ),
    jitterWatchFraction: t(
      0.005,
      'fraction of frame',
      'Preflight house rule: the same text shifting by more than 0.5 % of the frame (5-10 px at 1080p) across a cut is a visible jump',
      'house',
    ),
    intentionalMoveFraction: t(0.1, 'fraction of frame', 'Preflight house rule: a move of 10 % of the frame or more reads as a deliberate reposition, not jitter', 'house'),
    adjacentGapSeconds: t(0.1, 's', 'Preflight house rule: segments less than 0.1 s apart are back to back, so the text stays on screen across the cut', 'house'),
    // Text read in the picture (OCR).
    pixelJitterWatchFraction: t(
      0.008,
      'fraction of frame',
      'Preflight house rule: OCR boxes of unchanged text vary by a pixel or two; the same words moving by more than 0.8 % of the frame (about 8 px at 960) within half a second to a few seconds is visible jitter',
      'house',
    ),
    edgeTouchFraction: t(
      0.002,
      'fraction of frame',
      'Preflight house rule: read text whose box comes within 0.2 % of a frame edge (2 px at 960) has letters cut by the edge (BLOCK)',
      'house',
    ),
  };
}

function cutFlag(d: DeclaredText, th: GateThresholds): FlagDraft | null {
  const crossed = frameOverhangs(d.box).filter((e) => exceeds(e.overhang, 0));
  if (crossed.length === 0) return null;
  const worst = Math.max(...crossed.map((e) => e.overhang));
  const severity: Severity = exceeds(worst, threshold(th, 'edgeOverhangBlockFraction')) ? 'BLOCK' : 'WATCH';
  const name = segmentName(d.segment);
  const text = quote(d.text);
  const edges = crossed.length > 1 ? `${crossed.map((e) => e.edge).join(' and ')} edges` : `${crossed[0].edge} edge`;
  return {
    severity,
    start: d.segment.start,
    end: d.segment.end,
    summary: `${text} in ${name} is cut by the ${edges} of the frame (its box reaches ${pct(worst)} past it)`,
    evidence: { segment: d.segment, ...textEvidence(d), edges: crossed.map((e) => ({ edge: e.edge, overhangFraction: round(e.overhang, 4) })), threshold: thresholdValues(th, ['edgeOverhangBlockFraction']) },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move or shrink ${text} in ${name} so its whole box is inside the frame (now ${boxText(d.box)}), ideally inside the 90 % graphics-safe area, re-render ${spanText(d.segment.start, d.segment.end)} and update the box.`,
      verify: reRunWithManifest('text_crop_jitter', `no text_crop_jitter flag for ${textFieldPath(d.segment.index, d.textIndex)}`),
    },
  };
}

function jitterFlag(before: DeclaredText, after: DeclaredText, shift: number, th: GateThresholds): FlagDraft {
  const text = quote(after.text);
  const cut = hms(after.segment.start);
  return {
    severity: 'WATCH',
    start: after.segment.start,
    end: after.segment.end,
    summary: `${text} jumps by ${pct(shift)} of the frame at ${cut}, from ${segmentName(before.segment)} to ${segmentName(after.segment)}`,
    evidence: {
      segment: after.segment,
      previousSegment: before.segment,
      text: after.text,
      fields: [textFieldPath(before.segment.index, before.textIndex), textFieldPath(after.segment.index, after.textIndex)],
      boxBefore: roundedBox(before.box),
      boxAfter: roundedBox(after.box),
      shiftFraction: round(shift, 4),
      threshold: thresholdValues(th, ['jitterWatchFraction', 'intentionalMoveFraction', 'adjacentGapSeconds']),
    },
    repair: {
      action: 'align_text',
      reachable: false,
      instruction: `Give ${text} the same box in segments[${before.segment.index}] and segments[${after.segment.index}] (before ${boxText(before.box)}, after ${boxText(after.box)}) so it does not jump at ${cut}, and re-render ${spanText(after.segment.start, after.segment.end)}; if the move is meant, make it a clear reposition or an animated move.`,
      verify: reRunWithManifest('text_crop_jitter', `no text_crop_jitter flag at ${cut}`),
    },
  };
}

interface JitterScan {
  flags: FlagDraft[];
  compared: number;
  largestShift: number;
}

/** The same text in back-to-back segments: a small shift of its box is jitter, a large one a deliberate move. */
function scanJitter(segments: ManifestSegment[], th: GateThresholds): JitterScan {
  const scan: JitterScan = { flags: [], compared: 0, largestShift: 0 };
  const watch = threshold(th, 'jitterWatchFraction');
  const intentional = threshold(th, 'intentionalMoveFraction');
  for (let i = 1; i < segments.length; i++) {
    if (exceeds(segments[i].start - segments[i - 1].end, threshold(th, 'adjacentGapSeconds'))) continue;
    const before = new Map<string, DeclaredText>();
    for (const d of boxedTexts(segments[i - 1], i - 1)) if (!before.has(declaredTextKey(d.text))) before.set(declaredTextKey(d.text), d);
    for (const after of boxedTexts(segments[i], i)) {
      const previous = before.get(declaredTextKey(after.text));
      if (!previous) continue;
      before.delete(declaredTextKey(after.text));
      const shift = boxShift(previous.box, after.box);
      scan.compared++;
      scan.largestShift = Math.max(scan.largestShift, shift);
      if (exceeds(shift, watch) && fallsBelow(shift, intentional)) scan.flags.push(jitterFlag(previous, after, shift, th));
    }
  }
  return scan;
}

function declaredCropJitter(manifest: Manifest, th: GateThresholds): GateResult {
  const texts = manifest.segments.flatMap(boxedTexts);
  const cuts = texts.map((d) => cutFlag(d, th)).filter((f): f is FlagDraft => f !== null);
  const jitter = scanJitter(manifest.segments, th);
  return gateResult(
    'text_crop_jitter',
    {
      boxesChecked: texts.length,
      textsWithoutBox: countBoxless(manifest.segments),
      cutBoxes: cuts.length,
      pairsCompared: jitter.compared,
      jitterShifts: jitter.flags.length,
      largestShiftFraction: round(jitter.largestShift, 4),
    },
    byStart([...cuts, ...jitter.flags]),
  );
}

/** Left/top corner positions of a track's readings in time order (sample, then its confirming frame). */
function positions(track: TextTrack): { at: number; box: FrameBox; text: string }[] {
  return track.observations.flatMap((o) => [
    { at: o.atSeconds, box: o.box, text: o.text },
    ...(o.confirmBox && o.confirmAtSeconds !== null ? [{ at: o.confirmAtSeconds, box: o.confirmBox, text: o.text }] : []),
  ]);
}

/** Steps of a track between readings of the same words: jitter is a shift that is not part of a steady move. */
function jitterOf(track: TextTrack, watch: number, intentional: number): { shifts: number; largest: number } | null {
  const seq = positions(track);
  const steps: { dx: number; dy: number; shift: number }[] = [];
  for (let i = 1; i < seq.length; i++) {
    if (wordsKey(seq[i].text) !== wordsKey(seq[i - 1].text)) continue;
    if (Math.abs(seq[i].box.w - seq[i - 1].box.w) > 0.02) continue;
    steps.push({ dx: seq[i].box.x - seq[i - 1].box.x, dy: seq[i].box.y - seq[i - 1].box.y, shift: boxShift(seq[i].box, seq[i - 1].box) });
  }
  const jumps = steps.filter((s) => exceeds(s.shift, watch) && fallsBelow(s.shift, intentional));
  if (jumps.length === 0) return null;
  const sign = (v: number) => (Math.abs(v) > watch / 2 ? Math.sign(v) : 0);
  const steady = steps.length >= 2 && steps.every((s) => sign(s.dx) === sign(steps[0].dx) && sign(s.dy) === sign(steps[0].dy) && (sign(s.dx) !== 0 || sign(s.dy) !== 0));
  return steady ? null : { shifts: jumps.length, largest: Math.max(...jumps.map((s) => s.shift)) };
}

/** Read text cut by the frame edge, and read text that jitters between neighbouring samples. */
export function pixelCropJitter(text: TextSignals, th: GateThresholds): PixelHalf {
  const edge = threshold(th, 'edgeTouchFraction');
  const watch = threshold(th, 'pixelJitterWatchFraction');
  const intentional = threshold(th, 'intentionalMoveFraction');
  const still = isStill(text);
  const flags: FlagDraft[] = [];
  let cut = 0;
  let jittering = 0;
  for (const track of text.tracks) {
    const q = quote(track.text);
    const touched = edgesTouched(track.box, edge);
    if (touched.length) {
      cut++;
      flags.push({
        severity: 'BLOCK',
        start: track.start,
        end: track.end,
        summary: `${q} is cut by the ${touched.join(' and ')} edge of the frame`,
        evidence: { ...trackEvidence(track), edges: touched, source: 'read in the picture (OCR)', threshold: thresholdValues(th, ['edgeTouchFraction']) },
        repair: {
          action: 'move_text',
          reachable: false,
          instruction: `Move or shrink ${q} (now ${boxText(track.box)}, touching the ${touched.join(' and ')} edge) so all of it is inside the frame, ideally inside the 90 % graphics-safe area; re-render ${trackSpan(track, still)}.`,
          verify: reRun('text_crop_jitter', `no text_crop_jitter flag for ${q}`),
        },
      });
    }
    const jitter = jitterOf(track, watch, intentional);
    if (jitter) {
      jittering++;
      flags.push({
        severity: 'WATCH',
        start: track.start,
        end: track.end,
        summary: `${q} shifts by up to ${pct(jitter.largest)} of the frame between neighbouring frames (${jitter.shifts} jump${jitter.shifts > 1 ? 's' : ''})`,
        evidence: {
          ...trackEvidence(track),
          shifts: jitter.shifts,
          largestShiftFraction: round(jitter.largest, 4),
          positions: positions(track).map((p) => ({ at: round(p.at, 3), box: roundedBox(p.box) })),
          source: 'read in the picture (OCR)',
          threshold: thresholdValues(th, ['pixelJitterWatchFraction', 'intentionalMoveFraction']),
        },
        repair: {
          action: 'align_text',
          reachable: false,
          instruction: `Hold ${q} at one position (${boxText(track.observations[0].box)}) for ${spanText(track.start, track.end)}: remove the keyframes, stabilisation or per-frame layout that moves it, or make the move a deliberate animation; re-render that span.`,
          verify: reRun('text_crop_jitter', `no text_crop_jitter flag for ${q}`),
        },
      });
    }
  }
  return { measurements: { ...ocrMeasurements(text), linesCutByEdge: cut, linesJittering: jittering }, flags };
}

function textCropJitter(ctx: GateContext): GateResult {
  return declaredAndRead(ctx, 'text_crop_jitter', (m) => declaredCropJitter(m, ctx.thresholds), (text) => pixelCropJitter(text, ctx.thresholds));
}

export const textCropJitterGate = defineGate({
  id: 'text_crop_jitter',
  area: 'text',
  title: 'Text cut by the frame edge or jittering',
  algorithm:
    'From the declared on-screen text boxes (fractions of the frame): a box past a frame edge (x < 0, y < 0, x + w > 1, y + h > 1) cuts the text, BLOCK when the overhang exceeds edgeOverhangBlockFraction, WATCH below. ' +
    'The same text (normalised words) in back-to-back segments (gap ≤ adjacentGapSeconds) whose box edges move by more than jitterWatchFraction but less than intentionalMoveFraction jumps at the cut: WATCH. ' +
    'Read text (OCR): a line whose box comes within edgeTouchFraction of a frame edge is cut (BLOCK); the same words moving by more than pixelJitterWatchFraction (and less than intentionalMoveFraction) between neighbouring readings (a sample and its confirming frame half a second later, or consecutive samples), other than in a steady one-way move (a crawl), jitter: WATCH.',
  requires: { kinds: ['video', 'image'], signals: ['text'], orSidecar: 'manifest' },
  thresholds: textCropJitterThresholds,
  run: textCropJitter,
});
