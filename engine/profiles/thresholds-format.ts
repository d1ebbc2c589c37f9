// Placeholder: thresholds of format_spec and shorts_format per delivery profile (owned by the format work).
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';

export function formatThresholds(_delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {};
}
