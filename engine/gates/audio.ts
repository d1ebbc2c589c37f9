// Placeholder: loudness, clipping, dead_air, channel_balance (owned by the audio-gates work).
import type { GateDefinition } from '../types.js';

export const audioGates: GateDefinition[] = [];
