import type { GateDefinition } from '../types.js';

export const syncGates: GateDefinition[] = [];
