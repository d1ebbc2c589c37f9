// Hand-built flags shared by the exporter tests.
import type { Flag } from '../../engine/types.js';

export function flag(overrides: Partial<Flag> & Pick<Flag, 'id' | 'gate' | 'severity' | 'start' | 'end' | 'summary'>, repair: Partial<Flag['repair']> = {}): Flag {
  return {
    timestamp: '',
    timecode: '',
    frame: 0,
    evidence: {},
    ...overrides,
    repair: { action: 'review', instruction: 'Review the span.', verify: 'Re-run the check.', reachable: true, ...repair },
  };
}

// Three flags, deliberately out of time order, with text that needs quoting and escaping.
export const blackFrames = flag(
  { id: 'f_0001', gate: 'black_frames', severity: 'BLOCK', start: 62.5, end: 65, summary: '2.5 s of black picture mid-programme' },
  { action: 're_render_span', instruction: 'Replace 00:01:02.500-00:01:05.000 with picture, or cut the span and re-render.' },
);
export const loudness = flag(
  { id: 'f_0002', gate: 'loudness', severity: 'WATCH', start: 0, end: 120.25, summary: 'Integrated -16.2 LUFS, 2.2 LU under "video site" target' },
  { action: 'normalize_loudness', instruction: 'Run: ffmpeg -i in.mp4 -af loudnorm=I=-14:TP=-1.0 out.mp4\nthen re-check | compare' },
);
export const safeArea = flag(
  { id: 'f_0003', gate: 'text_safe_area', severity: 'WATCH', start: 12.04, end: 12.04, summary: '-Caption outside the graphics-safe area' },
  { action: 'edit_overlay', instruction: '@bottom: move caption up 40 px', reachable: false },
);
export const FLAGS = [blackFrames, loudness, safeArea];
