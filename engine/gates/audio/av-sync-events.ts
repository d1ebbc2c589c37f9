// Content-level A/V offset from sync events: picture events (cuts, flashes) matched to sharp audio transients (a clap,
// a shutter click, a slate). Only transients that stand out from the onsets around them count, so a beat that repeats
// every half second, a hi-hat or the syllables of speech (which line up with cuts at many lags alike) weigh nothing,
// and the lag must win by event-level agreement, not by correlation of whole curves.
import type { AudioSignals, VideoSignals } from '../../types.js';
import { median } from '../kit/stats.js';

/** Lags searched on either side of zero, s; and their step (the 10 ms audio envelope block). */
export const MAX_LAG_SECONDS = 0.6;
const LAG_STEP_SECONDS = 0.01;
/** High-pass level floor, dBFS: quieter blocks read as this (room tone and dither are not transients). */
const HIGH_PASS_FLOOR_DBFS = -65;
/** A transient rises this far, dB, over the loudest of the blocks just before it (30 ms) ... */
const TRANSIENT_MIN_RISE_DB = 9;
const TRANSIENT_HISTORY_BLOCKS = 3;
/** ... and is the largest rise within this of it (one event per attack). */
const TRANSIENT_PEAK_SECONDS = 0.05;
/**
 * A transient's salience is its rise above the largest rise of any other transient this close (the lag range): a
 * click among beats of its own size could be any of them, a click over quieter beats is the click.
 */
const SALIENCE_WINDOW_SECONDS = MAX_LAG_SECONDS;
/** A picture event is matched when the audio at its lag has a transient at least this salient, dB. */
export const MIN_SALIENCE_DB = 3;
/** A picture onset suppresses a weaker one this soon after it (a flash's end, the second frame of a cut). */
const REFRACTORY_SECONDS = 0.15;
/** An earlier onset at least this fraction of a later one's size makes the later one its echo. */
const COMPARABLE_ONSET = 0.5;
/**
 * A picture onset is an event when it is this many times the usual change (and non-trivial): the median positive
 * onset, or the median frame change when that is smaller (held stills between cuts have no onsets but the cuts).
 */
const EVENT_FACTOR = 4;
const MIN_EVENT_CHANGE = 0.01;
/** At least this many picture events must be matched at the winning lag (a single cut lines up with anything) ... */
export const MIN_MATCHED_EVENTS = 3;
/** ... and at least this share of all picture events (cuts that no sound marks leave the lag open) ... */
export const MIN_MATCHED_SHARE = 0.5;
/** ... and the lag's agreement must beat the best lag further than EXCLUSION from it by this factor. */
export const MIN_SCORE_RATIO = 2;
const EXCLUSION_SECONDS = 0.15;

export interface TimedEvent {
  /** Media time, s. */
  at: number;
  /** Picture: onset size; audio: rise of the high-passed level, dB. */
  strength: number;
}

export interface Transient extends TimedEvent {
  /** Rise above the largest other transient within SALIENCE_WINDOW, dB (0 when not above it). */
  salienceDb: number;
}

export interface EventMatch {
  /** + = audio early (the gate's convention); null when no lag is clearly agreed. */
  offsetMs: number | null;
  pictureEvents: number;
  /** Audio transients, and those salient enough to mark an event. */
  transients: number;
  salientTransients: number;
  /** Picture events with a salient transient at the winning lag. */
  matchedEvents: number;
  /** Summed salience at the winning lag, and the best sum further than 150 ms from it, dB. */
  score: number;
  runnerUpScore: number;
  /** Range of the matched events' own offsets, ms. */
  spreadMs: number | null;
  reason: string | null;
}

/**
 * Positive first difference of the per-frame picture change: the frames where a cut, a flash or motion begins. Within
 * REFRACTORY of an onset only the first counts, so a flash's return to the picture is not a second event.
 */
export function pictureOnsets(v: VideoSignals): Float64Array {
  const n = v.frames.length;
  const rises = new Float64Array(n);
  for (let i = 1; i < n; i++) rises[i] = Math.max(0, v.frames.diff[i] - v.frames.diff[i - 1]);
  const refractory = Math.max(1, Math.round(REFRACTORY_SECONDS * v.fps));
  const out = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    let echo = false;
    for (let j = Math.max(1, i - refractory); j < i && !echo; j++) echo = rises[j] >= COMPARABLE_ONSET * rises[i];
    out[i] = echo ? 0 : rises[i];
  }
  return out;
}

/** Picture onsets that stand out from the picture's usual change: cuts and flashes, not the frames of a slow move. */
export function pictureEvents(v: VideoSignals): TimedEvent[] {
  const onsets = pictureOnsets(v);
  const positive = Array.from(onsets).filter((x) => x > 0);
  if (positive.length === 0) return [];
  const usual = Math.min(median(positive), median(v.frames.diff));
  const level = Math.max(MIN_EVENT_CHANGE, EVENT_FACTOR * usual);
  const events: TimedEvent[] = [];
  for (let i = 0; i < onsets.length; i++) {
    if (onsets[i] >= level && !(i > 0 && onsets[i - 1] >= level)) events.push({ at: v.startSeconds + i / v.fps, strength: onsets[i] });
  }
  return events;
}

/** Sharp rises of the high-passed level, each with its salience among the transients around it. */
export function audioTransients(a: AudioSignals): Transient[] {
  const db = Array.from(a.stats.envelope.highPassDbfs, (x) => Math.max(HIGH_PASS_FLOOR_DBFS, x));
  const block = a.stats.envelope.blockSeconds;
  const rise = new Float64Array(db.length);
  for (let k = 1; k < db.length; k++) {
    let before = HIGH_PASS_FLOOR_DBFS;
    for (let j = 1; j <= TRANSIENT_HISTORY_BLOCKS && k - j >= 0; j++) before = Math.max(before, db[k - j]);
    rise[k] = Math.max(0, db[k] - before);
  }
  const peak = Math.round(TRANSIENT_PEAK_SECONDS / block);
  const found: TimedEvent[] = [];
  for (let k = 1; k < rise.length; k++) {
    if (rise[k] < TRANSIENT_MIN_RISE_DB) continue;
    let top = true;
    // Ties go to the earlier block: the attack starts there.
    for (let j = Math.max(0, k - peak); j <= Math.min(rise.length - 1, k + peak) && top; j++) top = j === k || (j < k ? rise[j] < rise[k] : rise[j] <= rise[k]);
    if (top) found.push({ at: a.startSeconds + k * block, strength: rise[k] });
  }
  // `found` is in time order: the rivals of each transient are its neighbours on either side within the window.
  return found.map((e, i) => {
    let rival = 0;
    for (let j = i - 1; j >= 0 && e.at - found[j].at <= SALIENCE_WINDOW_SECONDS + 1e-9; j--) rival = Math.max(rival, found[j].strength);
    for (let j = i + 1; j < found.length && found[j].at - e.at <= SALIENCE_WINDOW_SECONDS + 1e-9; j++) rival = Math.max(rival, found[j].strength);
    return { ...e, salienceDb: Math.max(0, e.strength - rival) };
  });
}

interface LagScore {
  lag: number;
  score: number;
  matched: number;
}

/** The most salient transient within `tolerance` of `at` (transients sorted by time; a binary search finds the first). */
function salientNear(transients: Transient[], at: number, tolerance: number): Transient | null {
  let lo = 0;
  let hi = transients.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (transients[mid].at < at - tolerance) lo = mid + 1;
    else hi = mid;
  }
  let best: Transient | null = null;
  for (let i = lo; i < transients.length && transients[i].at <= at + tolerance; i++) {
    if (best === null || transients[i].salienceDb > best.salienceDb) best = transients[i];
  }
  return best;
}

function scoreLag(picture: TimedEvent[], salient: Transient[], lag: number, tolerance: number): LagScore {
  let score = 0;
  let matched = 0;
  for (const p of picture) {
    const t = salientNear(salient, p.at + lag, tolerance);
    if (t) {
      score += t.salienceDb;
      matched++;
    }
  }
  return { lag, score, matched };
}

/**
 * Matches every picture event with the salient transient at each lag in ±MAX_LAG (audio late by `lag`) and keeps the
 * lag where most salience agrees; the offset is the median of the matched pairs' own offsets.
 */
export function matchEvents(v: VideoSignals, a: AudioSignals): EventMatch {
  const picture = pictureEvents(v);
  const transients = audioTransients(a);
  const salient = transients.filter((t) => t.salienceDb >= MIN_SALIENCE_DB);
  // A picture event spans the frame before it (the change happened in between) and the audio its 10 ms block.
  const tolerance = 0.5 / v.fps + a.stats.envelope.blockSeconds;
  const steps = Math.round(MAX_LAG_SECONDS / LAG_STEP_SECONDS);
  const scores: LagScore[] = [];
  for (let s = -steps; s <= steps; s++) scores.push(scoreLag(picture, salient, s * LAG_STEP_SECONDS, tolerance));
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i].score > scores[best].score) best = i;
  // The plateau of equal scores the tolerance makes: take its middle.
  let first = best;
  let last = best;
  while (first > 0 && scores[first - 1].score >= scores[best].score - 1e-9 && scores[first - 1].matched === scores[best].matched) first--;
  while (last < scores.length - 1 && scores[last + 1].score >= scores[best].score - 1e-9 && scores[last + 1].matched === scores[best].matched) last++;
  const lag = ((first + last) / 2 - steps) * LAG_STEP_SECONDS;
  const exclusion = Math.round(EXCLUSION_SECONDS / LAG_STEP_SECONDS);
  let runnerUp = 0;
  scores.forEach((s, i) => {
    if ((i < first - exclusion || i > last + exclusion) && s.score > runnerUp) runnerUp = s.score;
  });
  const top = scores[best];
  const offsets: number[] = [];
  for (const p of picture) {
    const t = salientNear(salient, p.at + lag, tolerance);
    if (t) offsets.push(p.at - t.at);
  }
  offsets.sort((x, y) => x - y);
  const base = {
    pictureEvents: picture.length,
    transients: transients.length,
    salientTransients: salient.length,
    matchedEvents: top.matched,
    score: top.score,
    runnerUpScore: runnerUp,
    spreadMs: offsets.length ? (offsets[offsets.length - 1] - offsets[0]) * 1000 : null,
  };
  const reason =
    picture.length < MIN_MATCHED_EVENTS
      ? `fewer than ${MIN_MATCHED_EVENTS} cuts or flashes`
      : salient.length < MIN_MATCHED_EVENTS
        ? `fewer than ${MIN_MATCHED_EVENTS} sharp sounds, such as claps or clicks, that stand out from the sound around them`
        : top.matched < MIN_MATCHED_EVENTS || top.matched < MIN_MATCHED_SHARE * picture.length
          ? top.matched === 0
            ? `none of the ${picture.length} cuts or flashes has a salient sharp sound within ±${MAX_LAG_SECONDS * 1000} ms`
            : `at most ${top.matched} of ${picture.length} cuts or flashes have a sharp sound at any one lag`
          : top.score < MIN_SCORE_RATIO * runnerUp
            ? `no single lag wins (agreement ${top.score.toFixed(0)} dB against ${runnerUp.toFixed(0)} dB at another lag)`
            : null;
  return { ...base, offsetMs: reason === null ? Math.round(median(offsets) * 1000) + 0 : null, reason };
}
