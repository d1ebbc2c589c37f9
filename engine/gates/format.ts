// Placeholder: format_spec, shorts_format (owned by the format work).
import type { GateDefinition } from '../types.js';

export const formatGates: GateDefinition[] = [];
