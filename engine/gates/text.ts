// Gates on text read in the picture (OCR tracks from engine/ocr/): WCAG contrast, safe area and platform UI zones,
// thumbnail readability, and the pixel halves of text_overlap, text_crop_jitter and hallucinated_plate_text.
import type { Manifest } from '../sidecars/formats/manifest.js';
import { judgeWords } from '../ocr/lexicon.js';
import { textKey, textSimilarity } from '../ocr/words.js';
import type { FlagDraft, GateContext, GateDefinition, GateResult, GateThresholds, Severity, TextSignals, TextTrack } from '../types.js';
import { EPSILON, exceeds, fallsBelow, reaches, severityBand } from './kit/bands.js';
import { boxArea, boxShift, boxText, edgesTouched, insetBox, intersectionArea, outsideEdges, roundedBox, type FrameBox } from './kit/geometry.js';
import { gateResult, skippedGate } from './kit/result.js';
import { median, round } from './kit/stats.js';
import { threshold, thresholdNumbers, thresholdSeverity, thresholdValues } from './kit/thresholds.js';
import { clearOfUi, UI_ZONE_KEYS, uiZones, uiZonesMeasurement, underUi, type UiZones } from './kit/ui-zones.js';
import { pct, quote, reRun, spanText } from './kit/wording.js';
import { defineGate } from './define.js';
import { textThresholds } from '../profiles/thresholds-text.js';

const ratioText = (r: number) => `${round(r, 2).toFixed(2)}:1`;


/** Why a text gate cannot read the picture, or the OCR signals. */
export function textSignals(ctx: GateContext): TextSignals | null {
  return ctx.signals.text ?? null;
}

const NO_PICTURE = 'needs video/image: no picture was read';

export function ocrMeasurements(text: TextSignals): Record<string, unknown> {
  return {
    ocrEngine: text.engine,
    ocrPicture: `${text.pictureWidth}x${text.pictureHeight}`,
    sampleIntervalSeconds: round(text.sampleIntervalSeconds, 2),
    samplesRead: text.samples,
    changeSamples: text.changeSamples,
    confirmations: text.confirmations,
    unconfirmedLines: text.unconfirmedLines,
    ocrTimeouts: text.timeouts,
    textLines: text.tracks.length,
  };
}

/** What a flag says about one read line: its words, box, size and when it was seen. */
export function trackEvidence(track: TextTrack): Record<string, unknown> {
  const first = track.observations[0];
  return {
    text: track.text,
    words: first.words.map((w) => ({ text: w.text, confidence: round(w.confidence, 0), box: roundedBox(w.box) })),
    box: roundedBox(track.box),
    heightFraction: round(track.heightFraction, 4),
    seen: { start: round(track.start, 3), end: round(track.end, 3), samples: track.observations.length },
    confidence: round(track.observations.reduce((s, o) => s + o.confidence, 0) / track.observations.length, 1),
  };
}

function trackSpan(track: TextTrack, still: boolean): string {
  return still ? 'the image' : spanText(track.start, track.end);
}

const isStill = (text: TextSignals) => text.sampleIntervalSeconds === 0;

function trackContrast(track: TextTrack): { ratio: number; textIsLighter: boolean; lighter: number; darker: number } | null {
  const measured = track.observations.flatMap((o) => (o.contrast ? [o.contrast] : []));
  if (measured.length === 0) return null;
  const ratio = median(measured.map((c) => c.ratio));
  const near = [...measured].sort((a, b) => Math.abs(a.ratio - ratio) - Math.abs(b.ratio - ratio))[0];
  return { ratio, textIsLighter: near.textIsLighter, lighter: near.lighterLuminance, darker: near.darkerLuminance };
}

// ---------------------------------------------------------------- text_contrast

function contrastFlag(track: TextTrack, c: NonNullable<ReturnType<typeof trackContrast>>, large: boolean, severity: Severity, th: GateThresholds, still: boolean): FlagDraft {
  const text = quote(track.text);
  const need = large ? threshold(th, 'largeTextMinRatio') : threshold(th, 'normalTextMinRatio');
  const target = threshold(th, 'normalTextMinRatio');
  const backing = c.textIsLighter ? 'a dark' : 'a light';
  return {
    severity,
    start: track.start,
    end: track.end,
    summary: `${text} has a contrast of ${ratioText(c.ratio)} against its background (${large ? 'large' : 'normal'} text needs ${ratioText(need)})`,
    evidence: {
      ...trackEvidence(track),
      contrastRatio: round(c.ratio, 2),
      textIs: c.textIsLighter ? 'lighter' : 'darker',
      lighterLuminance: round(c.lighter, 4),
      darkerLuminance: round(c.darker, 4),
      largeText: large,
      threshold: thresholdValues(th, ['normalTextMinRatio', 'largeTextMinRatio', 'largeTextHeightFraction']),
    },
    repair: {
      action: 'back_text_with_shape',
      reachable: false,
      instruction: `Back ${text} (${boxText(track.box)}) with ${backing} solid or 70 % opaque shape, add an outline, or recolour it so it reaches at least ${ratioText(target)} against what is behind it (now ${ratioText(c.ratio)}); re-render ${trackSpan(track, still)}.`,
      verify: reRun('text_contrast', `no text_contrast flag for ${text}`),
    },
  };
}

function textContrast(ctx: GateContext): GateResult {
  const text = textSignals(ctx);
  if (!text) return skippedGate('text_contrast', NO_PICTURE);
  const th = ctx.thresholds;
  const flags: FlagDraft[] = [];
  const ratios: number[] = [];
  for (const track of text.tracks) {
    const c = trackContrast(track);
    if (!c) continue;
    ratios.push(c.ratio);
    const large = reaches(track.heightFraction, threshold(th, 'largeTextHeightFraction'));
    let severity: Severity | null = null;
    if (fallsBelow(c.ratio, threshold(th, 'largeTextMinRatio'))) severity = 'BLOCK';
    else if (!large && fallsBelow(c.ratio, threshold(th, 'normalTextMinRatio'))) severity = 'WATCH';
    if (severity) flags.push(contrastFlag(track, c, large, severity, th, isStill(text)));
  }
  return gateResult('text_contrast', { ...ocrMeasurements(text), linesMeasured: ratios.length, lowestContrastRatio: ratios.length ? round(Math.min(...ratios), 2) : null }, flags);
}

// ---------------------------------------------------------------- text_safe_area

function safeAreaFlag(track: TextTrack, th: GateThresholds, still: boolean): FlagDraft | null {
  const graphics = insetBox(threshold(th, 'graphicsSafeMargin'));
  const action = insetBox(threshold(th, 'actionSafeMargin'));
  const outGraphics = outsideEdges(track.box, graphics);
  if (outGraphics.length === 0) return null;
  const outAction = outsideEdges(track.box, action);
  const severity = outAction.length ? thresholdSeverity(th, 'actionSafeSeverity') : 'WATCH';
  const area = outAction.length ? 'action-safe (93 %)' : 'graphics-safe (90 %)';
  const text = quote(track.text);
  return {
    severity,
    start: track.start,
    end: track.end,
    summary: `${text} lies outside the ${area} area at the ${(outAction.length ? outAction : outGraphics).join(' and ')} edge`,
    evidence: {
      ...trackEvidence(track),
      outsideGraphicsSafe: outGraphics,
      outsideActionSafe: outAction,
      graphicsSafeArea: roundedBox(graphics),
      threshold: thresholdValues(th, ['graphicsSafeMargin', 'actionSafeMargin', 'actionSafeSeverity']),
    },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move ${text} (now ${boxText(track.box)}) inside the graphics-safe area (${boxText(graphics)}), shrinking it if it does not fit; re-render ${trackSpan(track, still)}.`,
      verify: reRun('text_safe_area', `no text_safe_area flag for ${text}`),
    },
  };
}

function uiZoneFlag(track: TextTrack, z: UiZones, th: GateThresholds, still: boolean): FlagDraft | null {
  const under = underUi(track.box, z, th);
  if (!under) return null;
  const { share, severity, zones } = under;
  const text = quote(track.text);
  return {
    severity,
    start: track.start,
    end: track.end,
    summary: `${text} lies ${pct(share)} under the 9:16 platform UI zones (${zones.join(', ')})`,
    evidence: {
      ...trackEvidence(track),
      shareUnderUi: round(share, 3),
      zones,
      threshold: thresholdValues(th, UI_ZONE_KEYS),
    },
    repair: {
      action: 'move_text',
      reachable: false,
      instruction: `Move ${text} (now ${boxText(track.box)}) into the area clear of platform UI (${boxText(clearOfUi(z))}), shrinking it if needed; re-render ${trackSpan(track, still)}.`,
      verify: reRun('text_safe_area', `no text_safe_area flag for ${text}`),
    },
  };
}

function textSafeArea(ctx: GateContext): GateResult {
  const text = textSignals(ctx);
  if (!text) return skippedGate('text_safe_area', NO_PICTURE);
  const th = ctx.thresholds;
  const zones = uiZones(th);
  const still = isStill(text);
  const safe = text.tracks.map((t) => safeAreaFlag(t, th, still)).filter((f): f is FlagDraft => f !== null);
  const ui = zones ? text.tracks.map((t) => uiZoneFlag(t, zones, th, still)).filter((f): f is FlagDraft => f !== null) : [];
  return gateResult(
    'text_safe_area',
    {
      ...ocrMeasurements(text),
      linesOutsideSafeArea: safe.length,
      uiZones: uiZonesMeasurement(zones),
      linesUnderUi: ui.length,
    },
    [...safe, ...ui],
  );
}

// ---------------------------------------------------------------- thumbnail_text_readability

function thumbnailFlag(track: TextTrack, severity: Severity, summary: string, action: string, instruction: string, extra: Record<string, unknown>, th: GateThresholds, keys: string[]): FlagDraft {
  return {
    severity,
    start: track.start,
    end: track.end,
    summary,
    evidence: { ...trackEvidence(track), ...extra, threshold: thresholdValues(th, keys) },
    repair: { action, reachable: false, instruction, verify: reRun('thumbnail_text_readability', `no thumbnail_text_readability flag for ${quote(track.text)}`) },
  };
}

function thumbnailLineFlags(track: TextTrack, aspect: number, th: GateThresholds): FlagDraft[] {
  const flags: FlagDraft[] = [];
  const text = quote(track.text);
  const widthPx = threshold(th, 'thumbnailWidthPx');
  const heightPx = track.heightFraction * widthPx * aspect;
  const minPx = threshold(th, 'minTextHeightPx');
  const severity = severityBand(heightPx, minPx, threshold(th, 'blockTextHeightPx'), fallsBelow);
  if (severity) {
    const factor = Math.ceil((minPx / heightPx) * 10) / 10;
    flags.push(
      thumbnailFlag(
        track,
        severity,
        `${text} is ${round(heightPx, 1)} px tall when the thumbnail is shown ${widthPx} px wide (readable from ${minPx} px)`,
        'enlarge_text',
        `Enlarge ${text} at least ${factor}× (to a line ${pct((minPx / (widthPx * aspect)))} of the height or more), cutting words if it no longer fits, and export the thumbnail again.`,
        { heightAtThumbnailPx: round(heightPx, 1) },
        th,
        ['thumbnailWidthPx', 'minTextHeightPx', 'blockTextHeightPx'],
      ),
    );
  }
  const c = trackContrast(track);
  if (c && fallsBelow(c.ratio, threshold(th, 'minContrastRatio'))) {
    flags.push(
      thumbnailFlag(
        track,
        'WATCH',
        `${text} has a contrast of ${ratioText(c.ratio)}, under ${ratioText(threshold(th, 'minContrastRatio'))} for text seen at thumbnail size`,
        'back_text_with_shape',
        `Back ${text} with ${c.textIsLighter ? 'a dark' : 'a light'} shape, add a thick outline, or recolour it to reach ${ratioText(threshold(th, 'minContrastRatio'))}, and export the thumbnail again.`,
        { contrastRatio: round(c.ratio, 2) },
        th,
        ['minContrastRatio'],
      ),
    );
  }
  const margin = threshold(th, 'marginFraction');
  const edges = outsideEdges(track.box, insetBox(margin));
  const [bx, by, bw, bh] = thresholdNumbers(th, 'badgeZone');
  const badge: FrameBox = { x: bx, y: by, w: bw, h: bh };
  const underBadge = exceeds(intersectionArea(track.box, badge), 0);
  if (edges.length || underBadge) {
    const where = [edges.length ? `within ${pct(margin)} of the ${edges.join(' and ')} edge` : '', underBadge ? 'under the duration badge (bottom right)' : ''].filter(Boolean).join(' and ');
    flags.push(
      thumbnailFlag(
        track,
        'WATCH',
        `${text} sits ${where}`,
        'move_text',
        `Move ${text} (now ${boxText(track.box)}) inside ${boxText(insetBox(margin))} and clear of the bottom-right ${pct(bw)} × ${pct(bh)} corner, and export the thumbnail again.`,
        { edges, underDurationBadge: underBadge },
        th,
        ['marginFraction', 'badgeZone'],
      ),
    );
  }
  return flags;
}

function thumbnailTextReadability(ctx: GateContext): GateResult {
  const text = textSignals(ctx);
  if (!text) return skippedGate('thumbnail_text_readability', NO_PICTURE);
  const th = ctx.thresholds;
  const aspect = text.pictureHeight / text.pictureWidth;
  const flags = text.tracks.flatMap((t) => thumbnailLineFlags(t, aspect, th));
  const words = text.tracks.reduce((n, t) => n + t.text.split(/\s+/).filter(Boolean).length, 0);
  const maxWords = threshold(th, 'maxWords');
  if (words > maxWords && text.tracks.length) {
    const first = text.tracks[0];
    flags.push({
      severity: 'WATCH',
      start: first.start,
      end: first.end,
      summary: `The thumbnail carries ${words} words of text; more than ${maxWords} are not read in a feed`,
      evidence: { words, lines: text.tracks.map((t) => ({ text: t.text, box: roundedBox(t.box) })), threshold: thresholdValues(th, ['maxWords']) },
      repair: {
        action: 'cut_words',
        reachable: false,
        instruction: `Cut the thumbnail text to at most ${maxWords} words (now ${words}: ${text.tracks.map((t) => quote(t.text)).join(', ')}) and enlarge what remains; export the thumbnail again.`,
        verify: reRun('thumbnail_text_readability', `no thumbnail_text_readability flag about the word count`),
      },
    });
  }
  return gateResult('thumbnail_text_readability', { ...ocrMeasurements(text), words, smallestLineAtThumbnailPx: text.tracks.length ? round(Math.min(...text.tracks.map((t) => t.heightFraction)) * threshold(th, 'thumbnailWidthPx') * aspect, 1) : null }, flags);
}

// ---------------------------------------------------------------- pixel halves of the declared-text gates

export interface PixelHalf {
  measurements: Record<string, unknown>;
  flags: FlagDraft[];
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
    if (textKey(seq[i].text) !== textKey(seq[i - 1].text)) continue;
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

// ---------------------------------------------------------------- definitions

export const textGates: GateDefinition[] = [
  defineGate({
    id: 'text_contrast',
    area: 'text',
    title: 'WCAG contrast of on-screen text',
    algorithm:
      'Text is read by offline OCR on frames of the decode pass (see Text in the picture). For each read line, the WCAG 2.x relative luminance of every pixel of its box (padded by a fifth of its height) gives the contrast ratio of the 95th against the 5th percentile, the median over the samples that read it. ' +
      'Below largeTextMinRatio (3:1) is BLOCK at any size; below normalTextMinRatio (4.5:1) is WATCH unless the line is large text (box height at least largeTextHeightFraction of the frame).',
    requires: { kinds: ['video', 'image'], signals: ['text'] },
    thresholds: (delivery) => textThresholds(delivery).text_contrast,
    run: textContrast,
  }),
  defineGate({
    id: 'text_safe_area',
    area: 'text',
    title: 'Text inside the safe area and clear of platform UI',
    algorithm:
      'Each read line (the union of every box it was read at) is compared with the graphics-safe area (90 %, graphicsSafeMargin per side): outside it is WATCH; outside the action-safe area (93 %) takes actionSafeSeverity (BLOCK for broadcast, WATCH for web delivery). ' +
      'For 9:16 delivery profiles, the share of the box under the approximate platform UI zones above uiZoneWatchShare is WATCH, at least uiZoneBlockShare BLOCK.',
    requires: { kinds: ['video', 'image'], signals: ['text'] },
    thresholds: (delivery) => textThresholds(delivery).text_safe_area,
    run: textSafeArea,
  }),
  defineGate({
    id: 'thumbnail_text_readability',
    area: 'text',
    title: 'Thumbnail text readable at small size',
    algorithm:
      'The image is read by OCR at up to 1280 px. Each line is judged as shown thumbnailWidthPx wide: a line box under minTextHeightPx tall is WATCH, under blockTextHeightPx BLOCK; contrast under minContrastRatio is WATCH; a box within marginFraction of an edge or under the duration badge corner is WATCH. ' +
      'More than maxWords words in all is one WATCH. A thumbnail without text passes.',
    requires: { kinds: ['image'], signals: ['text'] },
    thresholds: (delivery) => textThresholds(delivery).thumbnail_text_readability,
    run: thumbnailTextReadability,
  }),
];
