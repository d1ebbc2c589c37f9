// Shared building blocks of the threshold tables: one threshold value with its source, and the 9:16 deliveries.
import type { ThresholdValue } from '../types.js';
import type { DeliveryProfileId } from './index.js';

/** A threshold value with its unit, source and how sure we are of that source. */
export const t = (value: ThresholdValue['value'], unit: string, source: string, confidence: ThresholdValue['confidence']): ThresholdValue => ({
  value,
  unit,
  source,
  confidence,
});

/** Vertical (9:16) short-form deliveries, where platform UI covers the picture and short-form rules apply. */
export const VERTICAL_DELIVERIES: readonly DeliveryProfileId[] = ['video_site_shorts', 'social_reels_ad', 'short_video_app_post'];

export const isVerticalDelivery = (delivery: DeliveryProfileId): boolean => VERTICAL_DELIVERIES.includes(delivery);
