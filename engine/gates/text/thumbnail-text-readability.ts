// thumbnail_text_readability: thumbnail text judged at the size a feed shows it: height, contrast, margins, word count.
import { t, WCAG_CONTRAST } from '../../profiles/threshold-values.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, Severity, TextTrack, UnreadText } from '../../types.js';
import { defineGate } from '../define.js';
import { exceeds, fallsBelow, severityBand } from '../kit/bands.js';
import { boxText, insetBox, intersectionArea, outsideEdges, roundedBox, type FrameBox } from '../kit/geometry.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { round } from '../kit/stats.js';
import { threshold, thresholdNumbers, thresholdValues } from '../kit/thresholds.js';
import { pct, quote, reRun } from '../kit/wording.js';
import { NO_PICTURE, ocrMeasurements, ratioText, textSignals, trackContrast, trackEvidence, unreadEvidence, unreadName } from './read-text.js';

function thumbnailTextReadabilityThresholds(): GateThresholds {
  return {
    thumbnailWidthPx: t(320, 'px', 'Preflight house rule: thumbnails are judged as shown in mobile search and home feeds, about 320 px wide', 'house'),
    minTextHeightPx: t(12, 'px at thumbnailWidthPx', 'Preflight house rule: a line under 12 px tall at 320 px wide is hard to read at a glance (WATCH)', 'house'),
    blockTextHeightPx: t(8, 'px at thumbnailWidthPx', 'Preflight house rule: a line under 8 px tall at 320 px wide cannot be read (BLOCK)', 'house'),
    maxWords: t(5, 'words', 'Preflight house rule after common creator guidance of 3-5 words: more words than 5 are not read in a feed (WATCH)', 'house'),
    minContrastRatio: t(4.5, 'contrast ratio', `${WCAG_CONTRAST}: text shown this small is not large text, so the normal-text minimum applies (WATCH below)`, 'primary'),
    marginFraction: t(0.05, 'fraction per side', 'Preflight house rule: keep 5 % clear at every edge, where feeds crop and round corners', 'house'),
    badgeZone: t(
      [0.75, 0.8, 0.25, 0.2],
      'x, y, w, h fractions',
      'Preflight house rule: the bottom-right corner (25 % × 20 %) is covered by the duration badge in video-site feeds',
      'house',
    ),
  };
}

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

/** Lettering the detector finds but OCR cannot read surely: a viewer will struggle too. */
function unreadFlag(u: UnreadText, th: GateThresholds): FlagDraft {
  const need = ratioText(threshold(th, 'minContrastRatio'));
  return {
    severity: 'WATCH',
    start: 0,
    end: 0,
    summary: `${unreadName(u)} looks like text but cannot be read (OCR made ${quote(u.guess)} of it, ${Math.round(u.guessConfidence)} % sure)`,
    evidence: { ...unreadEvidence(u), threshold: thresholdValues(th, ['minContrastRatio']) },
    repair: {
      action: 'make_text_legible',
      reachable: false,
      instruction: `Make ${unreadName(u).toLowerCase()} legible: a plain bold typeface and a colour that stands apart from the picture (at least ${need}${u.contrast ? `, now ${ratioText(u.contrast.ratio)}` : ''}), or an outline or backing shape; or remove it. Export the thumbnail again.`,
      verify: reRun('thumbnail_text_readability', 'no thumbnail_text_readability flag about lettering that cannot be read'),
    },
  };
}

function thumbnailTextReadability(ctx: GateContext): GateResult {
  const text = textSignals(ctx);
  if (!text) return skippedGate('thumbnail_text_readability', NO_PICTURE);
  const th = ctx.thresholds;
  const aspect = text.pictureHeight / text.pictureWidth;
  const flags = [...text.tracks.flatMap((t) => thumbnailLineFlags(t, aspect, th)), ...text.unreadText.map((u) => unreadFlag(u, th))];
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

export const thumbnailTextReadabilityGate = defineGate({
  id: 'thumbnail_text_readability',
  area: 'text',
  title: 'Thumbnail text readable at small size',
  algorithm:
    'The image is read by OCR at up to 1280 px. Each line is judged as shown thumbnailWidthPx wide: a line box under minTextHeightPx tall is WATCH, under blockTextHeightPx BLOCK; contrast under minContrastRatio is WATCH; a box within marginFraction of an edge or under the duration badge corner is WATCH. ' +
    'More than maxWords words in all is one WATCH. Lettering the text detector finds but OCR cannot read surely enough to count (at least 90 % detector score, a line at least 12 px tall and three times as wide, three or more letters guessed at 50 % confidence or more) is WATCH, with what OCR made of it. A thumbnail without text passes.',
  requires: { kinds: ['image'], signals: ['text'] },
  thresholds: thumbnailTextReadabilityThresholds,
  run: thumbnailTextReadability,
});
