// Placeholder: thresholds of the transcript gates per delivery profile (sidecar-gates work, issue 5).
import type { GateThresholds } from '../types.js';
import type { DeliveryProfileId } from './index.js';

export function transcriptThresholds(_delivery: DeliveryProfileId): Record<string, GateThresholds> {
  return {};
}
