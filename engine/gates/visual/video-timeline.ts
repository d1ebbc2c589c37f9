// The analysis frames of the decode pass as time: what the visual gates share.
import type { GateContext, VideoSignals } from '../../types.js';
import type { IndexSpan } from '../kit/stats.js';

/** Media time of analysis frame `i`. */
export const frameTime = (v: VideoSignals, i: number) => v.startSeconds + i / v.fps;

/** Length of a run of frames, seconds. */
export const spanSeconds = (v: VideoSignals, s: IndexSpan) => (s.last - s.first + 1) / v.fps;

/** The decoded picture, or why the gate cannot judge it (a still image has a picture but no timeline). */
export function decodedVideo(ctx: GateContext, needsTimeline = true): VideoSignals | string {
  const v = ctx.signals.video;
  if (!v || v.frameCount === 0) return `needs video: no decodable picture`;
  if (needsTimeline && !(v.fps > 0)) return 'needs video: a still image has no timeline';
  return v;
}

/** A frame-to-frame change this large (mean, 0..1) and 3× the motion before it is a cut, not motion. */
export const CUT_DIFF = 0.05;

/**
 * The shot around media time `atSeconds`: from the last cut at or before it to the next cut after it, searched no
 * further than `reach` seconds either way (a sparse sample speaks for its shot, not beyond the samples beside it).
 * A cut is a frame whose change from its predecessor is at least CUT_DIFF.
 */
export function shotAround(v: VideoSignals, atSeconds: number, reach: number): { start: number; end: number } | null {
  if (!(v.fps > 0) || v.frameCount === 0) return null;
  const at = Math.min(v.frameCount - 1, Math.max(0, Math.round((atSeconds - v.startSeconds) * v.fps)));
  const span = Math.max(1, Math.floor(reach * v.fps));
  let first = at;
  while (first > 0 && at - first < span && v.frames.diff[first] < CUT_DIFF) first--;
  let next = at + 1;
  while (next < v.frameCount && next - at < span && v.frames.diff[next] < CUT_DIFF) next++;
  return { start: frameTime(v, first), end: frameTime(v, next) };
}
