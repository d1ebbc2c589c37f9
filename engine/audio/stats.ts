// Placeholder contract, replaced by the audio-stats work: clipping, silence, per-channel stats, beeps.
export interface AudioStats {
  [key: string]: unknown;
}
