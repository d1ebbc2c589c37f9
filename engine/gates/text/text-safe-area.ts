// text_safe_area: lines read in the picture inside the graphics-safe area and clear of the 9:16 platform UI zones.
import type { DeliveryProfileId } from '../../profiles/index.js';
import { isVerticalDelivery, t, uiZoneThresholds } from '../../profiles/threshold-values.js';
import type { FlagDraft, GateContext, GateResult, GateThresholds, TextTrack } from '../../types.js';
import { defineGate } from '../define.js';
import { boxText, insetBox, outsideEdges, roundedBox } from '../kit/geometry.js';
import { gateResult, skippedGate } from '../kit/result.js';
import { threshold, thresholdSeverity, thresholdValues } from '../kit/thresholds.js';
import { clearOfUi, uiZoneEvidence, uiZones, uiZonesMeasurement, underUi, type UiZones } from '../kit/ui-zones.js';
import { pct, quote, reRun } from '../kit/wording.js';
import { isStill, NO_PICTURE, ocrMeasurements, textSignals, trackEvidence, trackSpan } from './read-text.js';

const SAFE_AREAS = 'EBU R 95 (2008) / SMPTE ST 2046-1:2009';

function textSafeAreaThresholds(delivery: DeliveryProfileId): GateThresholds {
  const areas: GateThresholds = {
    graphicsSafeMargin: t(0.05, 'fraction per side', `${SAFE_AREAS}: graphics (title) safe area 90 %; text outside it is WATCH`, 'secondary'),
    actionSafeMargin: t(0.035, 'fraction per side', `${SAFE_AREAS}: action safe area 93 %`, 'secondary'),
    actionSafeSeverity: t(
      delivery === 'broadcast_r128' ? 'BLOCK' : 'WATCH',
      'severity',
      delivery === 'broadcast_r128'
        ? 'Preflight house rule: broadcast displays may still crop outside action safe, so text there is BLOCK'
        : 'Preflight house rule: web and app players do not overscan, so text outside action safe is WATCH, not BLOCK',
      'house',
    ),
  };
  if (!isVerticalDelivery(delivery)) return areas;
  return {
    ...areas,
    ...uiZoneThresholds(),
  };
}

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
      ...uiZoneEvidence(under, th),
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

export const textSafeAreaGate = defineGate({
  id: 'text_safe_area',
  area: 'text',
  title: 'Text inside the safe area and clear of platform UI',
  algorithm:
    'Each read line (the union of every box it was read at) is compared with the graphics-safe area (90 %, graphicsSafeMargin per side): outside it is WATCH; outside the action-safe area (93 %) takes actionSafeSeverity (BLOCK for broadcast, WATCH for web delivery). ' +
    'For 9:16 delivery profiles, the share of the box under the approximate platform UI zones above uiZoneWatchShare is WATCH, at least uiZoneBlockShare BLOCK.',
  requires: { kinds: ['video', 'image'], signals: ['text'] },
  thresholds: textSafeAreaThresholds,
  run: textSafeArea,
});
