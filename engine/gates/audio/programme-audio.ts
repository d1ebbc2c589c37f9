// The audio of the decode pass as the audio gates read it: stats times count from the audio start, flags are in
// media time (the stream's start added), levels are shown to 0.1 dB.
import type { AudioSignals } from '../../types.js';
import { round } from '../kit/stats.js';

export const NO_AUDIO = 'needs audio: the file has no audio stream';

/** A level rounded to 0.1 dB, as R 128 displays it; null stays null (not measurable). */
export const db1 = (value: number | null) => (value === null ? null : round(value, 1));

/** Media time of an audio-relative time, rounded to the millisecond. */
export function mediaTime(a: AudioSignals, seconds: number): number {
  return round(a.startSeconds + seconds, 3);
}

export function programmeEnd(a: AudioSignals): number {
  return mediaTime(a, a.durationSeconds);
}
