// Content-level A/V offset without a sync pattern. First sync events: cuts and flashes matched to sharp sounds that
// stand out (av-sync-events.ts). Failing that, a picture that moves with the sound's level all the time (an
// audiogram's waveform): per-frame picture change cross-correlated with the 10 ms level over ±MAX_LAG, kept only when
// one lag clearly wins.
import type { AudioSignals, VideoSignals } from '../../types.js';
import { matchEvents, MAX_LAG_SECONDS, type EventMatch } from './av-sync-events.js';

export { MAX_LAG_SECONDS };
const LAG_STEP_SECONDS = 0.01;
/** Level floor of the audio envelope, dBFS: quieter blocks read as this (room tone and dither are not onsets). */
const AUDIO_FLOOR_DBFS = -60;
/** Audio onset strength compares a block with the loudest of this many blocks before it (30 ms). */
const AUDIO_ONSET_HISTORY_BLOCKS = 3;
/** The level-against-motion correlation must reach this (level curves correlate loosely even when unrelated) ... */
export const MIN_LEVEL_CORRELATION = 0.6;
/** ... and beat the best correlation further than EXCLUSION from it by this factor. */
export const MIN_PEAK_RATIO = 1.5;
const EXCLUSION_SECONDS = 0.15;
/** A sound needs this many distinct level onsets before its level can be lined up with anything. */
const MIN_SOUND_ONSETS = 3;
/** A level onset is distinct when it is this many times the median positive onset (and non-trivial). */
const EVENT_FACTOR = 4;
const MIN_EVENT_RISE_DB = 0.01;

export interface LevelCorrelation {
  peakCorrelation: number;
  /** Best correlation away from the peak (outside ±150 ms). */
  runnerUpCorrelation: number;
}

export interface ContentSyncEstimate {
  /** + = audio early (the gate's convention); null when neither method measures. */
  offsetMs: number | null;
  /** events: cuts and flashes against sharp sounds; levels: audio level against picture motion (audiograms). */
  method: 'events' | 'levels' | null;
  events: EventMatch;
  /** Null when the level correlation was not tried (events measured, or the sound has no distinct onsets). */
  levels: LevelCorrelation | null;
  reason: string | null;
}

/** Rise of each 10 ms block over the loudest of the blocks just before it, dB. */
function levelOnsets(a: AudioSignals): Float64Array {
  const db = a.stats.envelope.rmsDbfs;
  const out = new Float64Array(db.length);
  for (let k = AUDIO_ONSET_HISTORY_BLOCKS; k < db.length; k++) {
    let before = AUDIO_FLOOR_DBFS;
    for (let j = 1; j <= AUDIO_ONSET_HISTORY_BLOCKS; j++) before = Math.max(before, db[k - j]);
    out[k] = Math.max(0, Math.max(AUDIO_FLOOR_DBFS, db[k]) - before);
  }
  return out;
}

function countDistinct(onsets: Float64Array): number {
  const positive = Array.from(onsets).filter((x) => x > 0).sort((x, y) => x - y);
  if (positive.length === 0) return 0;
  const level = Math.max(MIN_EVENT_RISE_DB, EVENT_FACTOR * positive[Math.floor(positive.length / 2)]);
  let events = 0;
  for (let i = 0; i < onsets.length; i++) if (onsets[i] >= level && !(i > 0 && onsets[i - 1] >= level)) events++;
  return events;
}

/** Pearson correlation of x and y. */
function pearson(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    syy += y[i] * y[i];
    sxy += x[i] * y[i];
  }
  const vx = sxx - (sx * sx) / n;
  const vy = syy - (sy * sy) / n;
  return vx > 0 && vy > 0 ? (sxy - (sx * sy) / n) / Math.sqrt(vx * vy) : 0;
}

/** The audio series over each frame interval shifted by `lag` s (the mean of its 10 ms blocks: a frame's change
 * accumulates over its interval). */
function audioOnFrames(audio: Float64Array, a: AudioSignals, v: VideoSignals, lag: number, out: Float64Array): void {
  const block = a.stats.envelope.blockSeconds;
  for (let i = 0; i < out.length; i++) {
    const from = Math.round((v.startSeconds + i / v.fps + lag - a.startSeconds) / block);
    const to = Math.max(from + 1, Math.round((v.startSeconds + (i + 1) / v.fps + lag - a.startSeconds) / block));
    let sum = 0;
    let count = 0;
    for (let k = Math.max(0, from); k < Math.min(audio.length, to); k++) {
      sum += audio[k];
      count++;
    }
    out[i] = count ? sum / count : 0;
  }
}

interface LagSearch {
  lagSeconds: number;
  peak: number;
  runnerUp: number;
}

/** Correlation of the picture series with the audio series shifted by every lag in ±MAX_LAG; the winning lag. */
function searchLags(picture: Float64Array, audio: Float64Array, a: AudioSignals, v: VideoSignals): LagSearch {
  const steps = Math.round(MAX_LAG_SECONDS / LAG_STEP_SECONDS);
  const correlations: number[] = [];
  const shifted = new Float64Array(picture.length);
  for (let s = -steps; s <= steps; s++) {
    audioOnFrames(audio, a, v, s * LAG_STEP_SECONDS, shifted);
    correlations.push(pearson(picture, shifted));
  }
  let best = 0;
  for (let i = 1; i < correlations.length; i++) if (correlations[i] > correlations[best]) best = i;
  const exclusion = Math.round(EXCLUSION_SECONDS / LAG_STEP_SECONDS);
  let runnerUp = 0;
  correlations.forEach((r, i) => {
    if (Math.abs(i - best) > exclusion && r > runnerUp) runnerUp = r;
  });
  const peak = correlations[best] ?? 0;
  // The plateau of equal correlations a frame-long window makes: take its middle.
  let first = best;
  let last = best;
  while (first > 0 && correlations[first - 1] >= peak - 1e-9) first--;
  while (last < correlations.length - 1 && correlations[last + 1] >= peak - 1e-9) last++;
  return { lagSeconds: ((first + last) / 2 - steps) * LAG_STEP_SECONDS, peak, runnerUp };
}

function levelVerdict(search: LagSearch): string | null {
  if (search.peak < MIN_LEVEL_CORRELATION) return `best correlation ${search.peak.toFixed(2)} < ${MIN_LEVEL_CORRELATION}`;
  if (search.peak < MIN_PEAK_RATIO * search.runnerUp) return `no single lag wins (correlation ${search.peak.toFixed(2)} against ${search.runnerUp.toFixed(2)} elsewhere)`;
  return null;
}

/** The 10 ms RMS amplitude (linear, from the floor up): a drawn waveform is linear in the samples, and decibels would
 * compress its loud moments into its quiet ones. */
function audioLevel(a: AudioSignals): Float64Array {
  return Float64Array.from(a.stats.envelope.rmsDbfs, (db) => 10 ** (Math.max(AUDIO_FLOOR_DBFS, db) / 20));
}

function noEvents(events: EventMatch): string {
  return `cuts and flashes do not line up with sharp sounds (${events.reason ?? 'no events'})`;
}

export function estimateContentOffset(v: VideoSignals, a: AudioSignals): ContentSyncEstimate {
  const events = matchEvents(v, a);
  if (events.offsetMs !== null) return { offsetMs: events.offsetMs, method: 'events', events, levels: null, reason: null };
  // A sound without repeated onsets (a steady tone, whose only edges are its start and an encoder's priming) lines up
  // with anything by level.
  if (countDistinct(levelOnsets(a)) < MIN_SOUND_ONSETS) {
    return { offsetMs: null, method: null, events, levels: null, reason: `${noEvents(events)}, and the sound's level has fewer than ${MIN_SOUND_ONSETS} distinct onsets to follow` };
  }
  const search = searchLags(v.frames.diff, audioLevel(a), a, v);
  const levels = { peakCorrelation: search.peak, runnerUpCorrelation: search.runnerUp };
  const problem = levelVerdict(search);
  if (problem !== null) return { offsetMs: null, method: null, events, levels, reason: `${noEvents(events)}, and the picture does not move with the sound's level (${problem})` };
  // Audio matching the picture `lag` s later means the audio is late: the gate's convention is + = audio early.
  return { offsetMs: Math.round(-search.lagSeconds * 1000) + 0, method: 'levels', events, levels, reason: null };
}
