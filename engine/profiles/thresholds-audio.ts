// Placeholder: thresholds of the audio gates per delivery profile (owned by the audio-gates work).
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';

export function audioThresholds(_delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {};
}
