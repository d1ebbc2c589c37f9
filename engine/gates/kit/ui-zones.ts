// The approximate 9:16 platform UI zones (top, bottom and side bands), judged one way for every text box: declared in
// a manifest (text_overlap) or read in the picture (text_safe_area).
import type { GateThresholds, Severity } from '../../types.js';
import { EPSILON, exceeds, reaches, severityBand } from './bands.js';
import { boxArea, boxBottom, boxRight, intersectionArea, type FrameBox } from './geometry.js';
import { round } from './stats.js';
import { threshold, thresholdValues } from './thresholds.js';

export const UI_ZONE_KEYS = ['uiZoneTopFraction', 'uiZoneBottomFraction', 'uiZoneSideFraction', 'uiZoneWatchShare', 'uiZoneBlockShare'];

export interface UiZones {
  top: number;
  bottom: number;
  side: number;
}

/** The zones of a 9:16 delivery profile's thresholds; null for other profiles, which carry none. */
export function uiZones(th: GateThresholds): UiZones | null {
  if (!('uiZoneTopFraction' in th)) return null;
  return { top: threshold(th, 'uiZoneTopFraction'), bottom: threshold(th, 'uiZoneBottomFraction'), side: threshold(th, 'uiZoneSideFraction') };
}

export const clearOfUi = (z: UiZones): FrameBox => ({ x: z.side, y: z.top, w: 1 - 2 * z.side, h: 1 - z.top - z.bottom });

export const uiZonesMeasurement = (z: UiZones | null) => (z ? { top: z.top, bottom: z.bottom, sides: z.side } : 'not applied: not a 9:16 delivery profile');

function zonesEntered(box: FrameBox, z: UiZones): string[] {
  const entered: [string, boolean][] = [
    ['top', box.y < z.top - EPSILON],
    ['bottom', boxBottom(box) > 1 - z.bottom + EPSILON],
    ['left', box.x < z.side - EPSILON],
    ['right', boxRight(box) > 1 - z.side + EPSILON],
  ];
  return entered.filter(([, on]) => on).map(([zone]) => zone);
}

export interface UnderUi {
  /** Share of the box under the zones, 0..1. */
  share: number;
  severity: Severity;
  /** The zones the box enters, in the order top, bottom, left, right. */
  zones: string[];
}

/** What a flag about text under the zones says of it: the share under them, the zones entered, the thresholds. */
export function uiZoneEvidence({ share, zones }: UnderUi, th: GateThresholds): Record<string, unknown> {
  return { shareUnderUi: round(share, 3), zones, threshold: thresholdValues(th, UI_ZONE_KEYS) };
}

/** WATCH above uiZoneWatchShare of the box under the zones, BLOCK from uiZoneBlockShare; null when clear enough. */
export function underUi(box: FrameBox, z: UiZones, th: GateThresholds): UnderUi | null {
  const area = boxArea(box);
  if (area <= 0) return null;
  const share = 1 - intersectionArea(box, clearOfUi(z)) / area;
  const severity = severityBand(share, threshold(th, 'uiZoneWatchShare'), threshold(th, 'uiZoneBlockShare'), exceeds, reaches);
  return severity ? { share, severity, zones: zonesEntered(box, z) } : null;
}
