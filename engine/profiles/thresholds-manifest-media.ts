// Placeholder: thresholds of the manifest-media gates per delivery profile (sidecar-gates work, issue 5).
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';

export function manifestMediaThresholds(_delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {};
}
