// text_contrast: WCAG contrast of each line read in the picture against its local background.
import { t, WCAG_CONTRAST } from '../../profiles/threshold-values.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, Severity, TextTrack, UnreadText } from '../../types.js';
import { defineGate } from '../define.js';
import { fallsBelow, reaches } from '../kit/bands.js';
import { boxText } from '../kit/geometry.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdValues } from '../kit/thresholds.js';
import { quote, reRun } from '../kit/wording.js';
import { isStill, NO_PICTURE, ocrMeasurements, ratioText, textSignals, trackContrast, trackEvidence, trackSpan, unreadEvidence, unreadName } from './read-text.js';

function textContrastThresholds(): GateThresholds {
  return {
    normalTextMinRatio: t(4.5, 'contrast ratio', `${WCAG_CONTRAST}: AA minimum for normal text`, 'primary'),
    largeTextMinRatio: t(3, 'contrast ratio', `${WCAG_CONTRAST}: AA minimum for large text; below it no text size passes (BLOCK)`, 'primary'),
    largeTextHeightFraction: t(
      0.04,
      'fraction of frame height',
      'Preflight house rule: WCAG large text is 24 CSS px; on a phone or laptop showing the frame about 600 CSS px tall that is a line box of 4 % of the height (43 px at 1080p)',
      'house',
    ),
  };
}

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

/** Lettering no reading counts for is measured too (its contrast is often why it cannot be read); never large text. */
function unreadContrastFlag(u: UnreadText, ratio: number, severity: Severity, th: GateThresholds): FlagDraft {
  const need = threshold(th, 'normalTextMinRatio');
  return {
    severity,
    start: 0,
    end: 0,
    summary: `${unreadName(u)} (unreadable; OCR made ${quote(u.guess)} of it) has a contrast of ${ratioText(ratio)} against its background (text needs ${ratioText(need)})`,
    evidence: { ...unreadEvidence(u), threshold: thresholdValues(th, ['normalTextMinRatio', 'largeTextMinRatio']) },
    repair: {
      action: 'back_text_with_shape',
      reachable: false,
      instruction: `Back ${unreadName(u).toLowerCase()} with ${u.contrast?.textIsLighter ? 'a dark' : 'a light'} solid or 70 % opaque shape, add an outline, or recolour it so it reaches at least ${ratioText(need)} (now ${ratioText(ratio)}); export again.`,
      verify: reRun('text_contrast', 'no text_contrast flag about unreadable lettering'),
    },
  };
}

/** Under largeTextMinRatio BLOCK at any size; under normalTextMinRatio WATCH unless the text is large. */
function contrastSeverity(ratio: number, large: boolean, th: GateThresholds): Severity | null {
  if (fallsBelow(ratio, threshold(th, 'largeTextMinRatio'))) return 'BLOCK';
  return !large && fallsBelow(ratio, threshold(th, 'normalTextMinRatio')) ? 'WATCH' : null;
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
    const severity = contrastSeverity(c.ratio, large, th);
    if (severity) flags.push(contrastFlag(track, c, large, severity, th, isStill(text)));
  }
  for (const u of text.unreadText) {
    if (!u.contrast) continue;
    ratios.push(u.contrast.ratio);
    const severity = contrastSeverity(u.contrast.ratio, false, th);
    if (severity) flags.push(unreadContrastFlag(u, u.contrast.ratio, severity, th));
  }
  return gateResult('text_contrast', { ...ocrMeasurements(text), linesMeasured: ratios.length, lowestContrastRatio: ratios.length ? round(Math.min(...ratios), 2) : null }, flags);
}

export const textContrastGate = defineGate({
  id: 'text_contrast',
  area: 'text',
  title: 'WCAG contrast of on-screen text',
  algorithm:
    'Text is read by offline OCR on frames of the decode pass (see Text in the picture). For each read line, the WCAG 2.x contrast ratio of the relative luminance of its stroke cores (the quarter of its text pixels, its ink, that contrasts most with what is around: anti-aliased edges are blends) against the quarter of a ring of pixels around the strokes that contrasts most with them (what the eye reads them against: the outline, shadow or backing box, else the picture), the median over the samples that read it. ' +
    'Lettering on a still picture that the detector finds but OCR cannot read surely (see thumbnail_text_readability) is measured within its box as faint text is (below), as normal text. ' +
    'Text too faint to show as ink (white at 30 % over a photo) is measured within its word boxes instead: pixels more than 10 code values lighter (or darker) than the boxes\' median, of the polarity that spans more of the words, against the pixels that are neither. ' +
    'Below largeTextMinRatio (3:1) is BLOCK at any size; below normalTextMinRatio (4.5:1) is WATCH unless the line is large text (box height at least largeTextHeightFraction of the frame).',
  requires: { kinds: ['video', 'image'], signals: ['text'] },
  thresholds: textContrastThresholds,
  run: textContrast,
});
