// Placeholder: filled by the sidecar-gates work (issue 5).
import type { GateDefinition } from '../types.js';

export const transcriptGates: GateDefinition[] = [];
