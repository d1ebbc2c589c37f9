// opening_footer_text_presence: approved footer text declared in the opening seconds.
import type { DeliveryProfileId } from '../../profiles/index.js';
import { isVerticalDelivery, t } from '../../profiles/threshold-values.js';
import type { OnScreenText } from '../../sidecars/formats/manifest.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds } from '../../types.js';
import { defineGate } from '../define.js';
import { fallsBelow } from '../kit/bands.js';
import { boxBottom, roundedBox } from '../kit/geometry.js';
import { manifestOrSkip, isManifest, segmentName, segmentRef, textFieldPath, type SegmentRef } from '../kit/manifest-refs.js';
import { gateResult } from '../kit/result.js';
import { threshold } from '../kit/thresholds.js';
import { pct, quote, reRunWithManifest } from '../kit/wording.js';

function openingFooterTextThresholds(delivery: DeliveryProfileId): GateThresholds {
  return {
    openingSeconds: t(3, 's', 'Preflight house rule: the opening is the first 3 s, the window in which viewers decide to stay (as first_three_seconds)', 'house'),
    footerBandTop: t(
      isVerticalDelivery(delivery) ? 0.5 : 0.8,
      'fraction of frame height',
      isVerticalDelivery(delivery)
        ? 'Preflight house rule for 9:16: the bottom 35 % is under platform UI, so footer text sits in the lower half, above that zone (its bottom edge at or below half the height)'
        : 'Preflight house rule: footer text has its bottom edge in the lowest fifth of the frame (lower-third and caption band)',
      'house',
    ),
  };
}

type OpeningTextState = 'footer' | 'unapproved_footer' | 'above_band' | 'no_box';

interface OpeningText {
  segment: SegmentRef;
  textIndex: number;
  text: OnScreenText;
  state: OpeningTextState;
}

function openingTextState(text: OnScreenText, bandTop: number): OpeningTextState {
  if (!text.box) return 'no_box';
  if (fallsBelow(boxBottom(text.box), bandTop)) return 'above_band';
  return text.approved === true ? 'footer' : 'unapproved_footer';
}

/** The closest miss decides the message: unapproved footer text, then text without a box, then text above the band. */
const NEAREST_MISS: OpeningTextState[] = ['unapproved_footer', 'no_box', 'above_band'];

function openingFooterMessage(nearest: OpeningText | undefined, bandTop: number, openingSeconds: number): { summary: string; instruction: string } {
  const band = `its bottom edge at or below ${pct(bandTop)} of the frame height`;
  if (!nearest) {
    return {
      summary: `No on-screen text is declared in the first ${openingSeconds} s`,
      instruction: `add footer text (a caption or lower third with ${band}) and declare it in onScreenText with its box and approved: true`,
    };
  }
  const text = quote(nearest.text.text);
  const field = textFieldPath(nearest.segment.index, nearest.textIndex);
  const where = `in ${segmentName(nearest.segment)}`;
  if (nearest.state === 'unapproved_footer') {
    return {
      summary: `Opening footer text ${text} ${where} is not approved`,
      instruction: `review ${text} and set approved: true on ${field} if it is meant to be there; otherwise replace it with approved footer text`,
    };
  }
  if (nearest.state === 'no_box') {
    return {
      summary: `Opening text ${text} ${where} declares no box, so it is not known to sit in the footer band`,
      instruction: `declare the box of ${text} on ${field}; if it is not in the footer band, move it down so ${band}`,
    };
  }
  const bottom = nearest.text.box ? boxBottom(nearest.text.box) : 0;
  return {
    summary: `Opening text ${text} ${where} sits above the footer band: its bottom edge is at ${pct(bottom)} of the height, the band starts at ${pct(bandTop)}`,
    instruction: `move ${text} (${field}) down, or add footer text, so ${band}, and update its box`,
  };
}

function openingFooterFlag(opening: SegmentRef[], texts: OpeningText[], bandTop: number, openingSeconds: number): FlagDraft {
  const nearest = NEAREST_MISS.map((state) => texts.find((t) => t.state === state)).find(Boolean);
  const target = nearest?.segment ?? opening[0];
  const { summary, instruction } = openingFooterMessage(nearest, bandTop, openingSeconds);
  const where = target ? ` in ${segmentName(target)}` : '';
  return {
    severity: 'WATCH',
    start: target?.start ?? 0,
    end: target ? Math.min(target.end, openingSeconds) : openingSeconds,
    summary: target ? `${summary}${nearest ? '' : ` (${segmentName(target)})`}` : `${summary}: the manifest declares no segment there`,
    evidence: {
      segment: target ?? null,
      openingSegments: opening,
      texts: texts.map((t) => ({ field: textFieldPath(t.segment.index, t.textIndex), text: t.text.text, box: t.text.box ? roundedBox(t.text.box) : null, approved: t.text.approved ?? null, state: t.state })),
      threshold: { openingSeconds, footerBandTop: bandTop },
    },
    repair: {
      action: 'add_footer_text',
      reachable: false,
      instruction: `In the first ${openingSeconds} s${where}: ${instruction}. Re-render the opening if the picture changes.`,
      verify: reRunWithManifest('opening_footer_text_presence', 'approved footer text in the opening and no opening_footer_text_presence flag'),
    },
  };
}

function openingFooterTextPresence(ctx: GateContext): GateResult {
  const manifest = manifestOrSkip(ctx, 'opening_footer_text_presence');
  if (!isManifest(manifest)) return manifest;
  const openingSeconds = threshold(ctx.thresholds, 'openingSeconds');
  const bandTop = threshold(ctx.thresholds, 'footerBandTop');
  const opening = manifest.segments.flatMap((s, i) => (s.start < openingSeconds ? [segmentRef(s, i)] : []));
  const texts: OpeningText[] = opening.flatMap((ref) =>
    (manifest.segments[ref.index].onScreenText ?? []).map((text, textIndex) => ({ segment: ref, textIndex, text, state: openingTextState(text, bandTop) })),
  );
  const footer = texts.find((t) => t.state === 'footer');
  const measurements = {
    openingSegments: opening.length,
    openingTexts: texts.length,
    approvedFooterTexts: texts.filter((t) => t.state === 'footer').length,
    footerText: footer ? footer.text.text : null,
  };
  return gateResult('opening_footer_text_presence', measurements, footer ? [] : [openingFooterFlag(opening, texts, bandTop, openingSeconds)]);
}

export const openingFooterTextPresenceGate = defineGate({
  id: 'opening_footer_text_presence',
  area: 'structure',
  title: 'Opening footer text present',
  algorithm:
    'The opening is every segment starting within the first openingSeconds. It passes when one of them declares on-screen text that is approved (approved: true) and whose box reaches the footer band ' +
    '(bottom edge y + h at or below footerBandTop of the height; for 9:16 delivery the band is the lower half, since the bottom 35 % is under platform UI). ' +
    'Otherwise one WATCH names the closest miss: footer text not approved, text without a box, text above the band, or no text (or no segment) at all.',
  requires: { kinds: ['video'], sidecars: ['manifest'] },
  thresholds: openingFooterTextThresholds,
  run: openingFooterTextPresence,
});
