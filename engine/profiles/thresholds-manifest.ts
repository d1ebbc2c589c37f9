// Placeholder: thresholds of the manifest gates per delivery profile (sidecar-gates work, issue 5).
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';

export function manifestThresholds(_delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {};
}
