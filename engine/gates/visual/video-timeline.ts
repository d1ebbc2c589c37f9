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
