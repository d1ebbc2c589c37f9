// Shared building blocks of the threshold tables: one threshold value with its source, and the 9:16 deliveries.
import type { GateThresholds, ThresholdValue } from '../types.js';
import type { DeliveryProfileId } from './index.js';

/** A threshold value with its unit, source and how sure we are of that source. */
export const t = (value: ThresholdValue['value'], unit: string, source: string, confidence: ThresholdValue['confidence']): ThresholdValue => ({
  value,
  unit,
  source,
  confidence,
});

/** A Preflight house rule: no authority gives the number, `why` says what it is for. */
export const houseRule = (value: ThresholdValue['value'], unit: string, why: string): ThresholdValue => t(value, unit, `Preflight house rule: ${why}`, 'house');

/** A Preflight house list of words or phrases. */
export const houseList = (value: string[], why: string): ThresholdValue => t(value, 'list', `Preflight house list: ${why}`, 'house');

/** The contrast criterion of the text gates. */
export const WCAG_CONTRAST = 'WCAG 2.x SC 1.4.3 (contrast ratio of W3C relative luminance)';

/** Vertical (9:16) short-form deliveries, where platform UI covers the picture and short-form rules apply. */
export const VERTICAL_DELIVERIES: readonly DeliveryProfileId[] = ['video_site_shorts', 'social_reels_ad', 'short_video_app_post'];

export const isVerticalDelivery = (delivery: DeliveryProfileId): boolean => VERTICAL_DELIVERIES.includes(delivery);

const UI_ZONE_SOURCE =
  'Meta Business Help Center Reels/ads guidance (quoted by houseofmarketers.com and behaviour.digital) keeps top 14 %, bottom 35 %, sides 6 % free; other platforms approximate';

/** The approximate 9:16 platform UI zones and how much of a text box under them is WATCH or BLOCK. */
export function uiZoneThresholds(): GateThresholds {
  return {
    uiZoneTopFraction: t(0.14, 'fraction of frame height', UI_ZONE_SOURCE, 'secondary'),
    uiZoneBottomFraction: t(0.35, 'fraction of frame height', UI_ZONE_SOURCE, 'secondary'),
    uiZoneSideFraction: t(0.06, 'fraction of frame width', UI_ZONE_SOURCE, 'secondary'),
    uiZoneWatchShare: t(0.1, 'fraction of the box', 'Preflight house rule: more than 10 % of a text box under the approximate UI zones is partly hidden', 'house'),
    uiZoneBlockShare: t(0.5, 'fraction of the box', 'Preflight house rule: half of a text box or more under platform UI is hidden', 'house'),
  };
}
