import type { GateDefinition } from '../types.js';

export const visualGates: GateDefinition[] = [];
