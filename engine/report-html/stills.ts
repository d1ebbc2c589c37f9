// Which stills the contact sheet embeds: the still nearest each flag's start, for flags about the picture, capped so
// a long programme with many flags keeps the page small (BLOCK flags first, then earlier ones).
import { gateById } from '../gates/index.js';
import type { Flag, VideoSignals } from '../types.js';

export const MAX_EMBEDDED_STILLS = 50;

type Still = VideoSignals['stills'][number];

export interface FlagStill {
  flag: Flag;
  still: Still;
}

export interface StillSelection {
  shown: FlagStill[];
  /** Picture flags left without a still by the cap. */
  omitted: number;
}

/** Audio and transcript gates say nothing about the picture (A/V sync, which needs video, does). */
export function isAudioOnlyFlag(flag: Flag): boolean {
  const gate = gateById(flag.gate);
  if (!gate) return false;
  return (gate.area === 'audio' || gate.area === 'transcript') && !gate.requires.signals.includes('video');
}

/** The still closest in time to `seconds` (stills are in time order). */
export function nearestStill(stills: readonly Still[], seconds: number): Still | null {
  if (stills.length === 0) return null;
  let lo = 0;
  let hi = stills.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stills[mid].atSeconds < seconds) lo = mid + 1;
    else hi = mid;
  }
  const before = stills[Math.max(0, lo - 1)];
  const after = stills[lo];
  return Math.abs(before.atSeconds - seconds) <= Math.abs(after.atSeconds - seconds) ? before : after;
}

const severityRank = (flag: Flag) => (flag.severity === 'BLOCK' ? 0 : 1);

export function selectStills(flags: readonly Flag[], video: VideoSignals | null, limit = MAX_EMBEDDED_STILLS): StillSelection {
  const stills = video?.stills ?? [];
  if (stills.length === 0 || !video || video.width <= 0 || video.height <= 0) return { shown: [], omitted: 0 };
  const candidates = flags.filter((f) => !isAudioOnlyFlag(f));
  const kept = new Set([...candidates].sort((a, b) => severityRank(a) - severityRank(b) || a.start - b.start).slice(0, limit));
  const shown = candidates.filter((f) => kept.has(f)).map((flag) => ({ flag, still: nearestStill(stills, flag.start)! }));
  return { shown, omitted: candidates.length - shown.length };
}
