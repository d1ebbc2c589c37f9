// Content-level A/V offset without a sync pattern: the lag at which audio onsets line up with picture-change onsets
// (cuts, flashes, a waveform that moves with the voice). Both series are reduced to onset strengths on the analysis
// frame grid and cross-correlated over ±MAX_LAG; the estimate is kept only when one lag clearly wins.
import type { AudioSignals, VideoSignals } from '../../types.js';

/** Lags searched on either side of zero, s; and their step (the 10 ms audio envelope block). */
export const MAX_LAG_SECONDS = 0.6;
const LAG_STEP_SECONDS = 0.01;
/** Level floor of the audio envelope, dBFS: quieter blocks read as this (room tone and dither are not onsets). */
const AUDIO_FLOOR_DBFS = -60;
/** A picture onset suppresses a weaker one this soon after it (a flash's end, the second frame of a cut). */
const REFRACTORY_SECONDS = 0.15;
/** An earlier onset at least this fraction of a later one's size makes the later one its echo. */
const COMPARABLE_ONSET = 0.5;
/** Audio onset strength compares a block with the mean of this many blocks before it (30 ms). */
const AUDIO_ONSET_HISTORY_BLOCKS = 3;
/** A correlation peak must reach this normalised correlation ... */
export const MIN_PEAK_CORRELATION = 0.35;
/** The level-against-motion correlation must reach this (level curves correlate loosely even when unrelated). */
export const MIN_LEVEL_CORRELATION = 0.6;
/** ... beat the best correlation further than EXCLUSION from it by this factor ... */
export const MIN_PEAK_RATIO = 1.5;
const EXCLUSION_SECONDS = 0.15;
/** ... and rest on at least this many distinct picture onsets (a single cut lines up with anything). */
export const MIN_ONSET_EVENTS = 3;
/** A picture onset counts as an event when it is this many times the median positive onset (and non-trivial). */
const EVENT_FACTOR = 4;
const MIN_EVENT_CHANGE = 0.01;

export interface ContentSyncEstimate {
  /** + = audio early (the gate's convention); null when no lag wins clearly. */
  offsetMs: number | null;
  /** onsets: audio onsets against cuts and flashes; levels: audio level against picture motion (audiograms). */
  method: 'onsets' | 'levels' | null;
  peakCorrelation: number;
  /** Best correlation away from the peak (outside ±150 ms). */
  runnerUpCorrelation: number;
  pictureEvents: number;
  reason: string | null;
}

/**
 * Positive first difference of the per-frame picture change: the frames where motion or a cut begins. Within
 * REFRACTORY of an onset only the first counts, so a flash's return to the picture is not a second event.
 */
function pictureOnsets(v: VideoSignals): Float64Array {
  const n = v.frames.length;
  const rises = new Float64Array(n);
  for (let i = 1; i < n; i++) rises[i] = Math.max(0, v.frames[i].diff - v.frames[i - 1].diff);
  const refractory = Math.max(1, Math.round(REFRACTORY_SECONDS * v.fps));
  const out = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    let echo = false;
    for (let j = Math.max(1, i - refractory); j < i && !echo; j++) echo = rises[j] >= COMPARABLE_ONSET * rises[i];
    out[i] = echo ? 0 : rises[i];
  }
  return out;
}

/** Rise of each 10 ms block over the loudest of the blocks just before it, dB (only the first block of a burst). */
function audioOnsets(a: AudioSignals): Float64Array {
  const db = a.stats.envelope.rmsDbfs;
  const out = new Float64Array(db.length);
  for (let k = AUDIO_ONSET_HISTORY_BLOCKS; k < db.length; k++) {
    let before = AUDIO_FLOOR_DBFS;
    for (let j = 1; j <= AUDIO_ONSET_HISTORY_BLOCKS; j++) before = Math.max(before, db[k - j]);
    out[k] = Math.max(0, Math.max(AUDIO_FLOOR_DBFS, db[k]) - before);
  }
  return out;
}

function countEvents(onsets: Float64Array): number {
  const positive = Array.from(onsets).filter((x) => x > 0).sort((x, y) => x - y);
  if (positive.length === 0) return 0;
  const level = Math.max(MIN_EVENT_CHANGE, EVENT_FACTOR * positive[Math.floor(positive.length / 2)]);
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

/** The audio onset strength over each frame interval shifted by `lag` s (the strongest 10 ms block in it). */
function audioOnFrames(audio: Float64Array, a: AudioSignals, v: VideoSignals, lag: number, out: Float64Array): void {
  const block = a.stats.envelope.blockSeconds;
  for (let i = 0; i < out.length; i++) {
    const from = Math.round((v.startSeconds + i / v.fps + lag - a.startSeconds) / block);
    const to = Math.max(from + 1, Math.round((v.startSeconds + (i + 1) / v.fps + lag - a.startSeconds) / block));
    let best = 0;
    for (let k = Math.max(0, from); k < Math.min(audio.length, to); k++) if (audio[k] > best) best = audio[k];
    out[i] = best;
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

function verdictOf(search: LagSearch, minPeak: number): string | null {
  if (search.peak < minPeak) return `best correlation ${search.peak.toFixed(2)} < ${minPeak}`;
  if (search.peak < MIN_PEAK_RATIO * search.runnerUp) return `no single lag wins (correlation ${search.peak.toFixed(2)} against ${search.runnerUp.toFixed(2)} elsewhere)`;
  return null;
}

/** Picture change per frame (a waveform or a visualiser moves with the sound's level). */
function pictureMotion(v: VideoSignals): Float64Array {
  return Float64Array.from(v.frames, (f) => f.diff);
}

/** The 10 ms level above the floor, dB. */
function audioLevel(a: AudioSignals): Float64Array {
  return Float64Array.from(a.stats.envelope.rmsDbfs, (db) => Math.max(AUDIO_FLOOR_DBFS, db) - AUDIO_FLOOR_DBFS);
}

export function estimateContentOffset(v: VideoSignals, a: AudioSignals): ContentSyncEstimate {
  const picture = pictureOnsets(v);
  const pictureEvents = countEvents(picture);
  const sound = audioOnsets(a);
  const onsets = searchLags(picture, sound, a, v);
  // A single sound onset (a tone starting, an encoder's priming) lines up with any cut as well as a single cut does.
  // A sound without repeated onsets (a steady tone, whose only edges are its start and an encoder's priming) lines up
  // with anything, by onsets or by level.
  const soundProblem = countEvents(sound) < MIN_ONSET_EVENTS ? `fewer than ${MIN_ONSET_EVENTS} distinct onsets` : null;
  const onsetProblem =
    soundProblem ?? (pictureEvents < MIN_ONSET_EVENTS ? `fewer than ${MIN_ONSET_EVENTS} distinct picture onsets (cuts, flashes)` : verdictOf(onsets, MIN_PEAK_CORRELATION));
  // Picture that moves with the sound's level all the time (an audiogram): whole-envelope correlation.
  const levels = onsetProblem === null || soundProblem ? null : searchLags(pictureMotion(v), audioLevel(a), a, v);
  const levelProblem = soundProblem ?? (levels === null ? null : verdictOf(levels, MIN_LEVEL_CORRELATION));
  const found = onsetProblem === null ? onsets : levels !== null && levelProblem === null ? levels : null;
  const shown = found ?? onsets;
  return {
    // Audio matching the picture `lag` s later means the audio is late: the gate's convention is + = audio early.
    offsetMs: found === null ? null : Math.round(-found.lagSeconds * 1000) + 0,
    method: found === null ? null : found === onsets ? 'onsets' : 'levels',
    peakCorrelation: shown.peak,
    runnerUpCorrelation: shown.runnerUp,
    pictureEvents,
    reason: soundProblem ? `the sound has ${soundProblem} to line up with the picture` : found === null ? `audio onsets do not line up with cuts or flashes (${onsetProblem}) and the picture does not move with the sound's level (${levelProblem})` : null,
  };
}
