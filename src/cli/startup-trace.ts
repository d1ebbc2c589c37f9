// PREFLIGHT_STARTUP_TRACE=<file>: a benchmark hook. The check appends one JSON line to the file with the wall-clock
// times (ms since the epoch, comparable with the clock of the process that started this one) at which it started
// probing, started the decode and received its first decoded picture or sound. The decode reports progress in steps of
// 1 % of the media, so on media of at most 100 frames the first step is the first frame.
import { appendFileSync } from 'node:fs';
import type { CheckStage } from '../../engine/check.js';

export type StartupTrace = (pct: number, stage: CheckStage) => void;

const now = () => performance.timeOrigin + performance.now();

export function startupTrace(file = process.env.PREFLIGHT_STARTUP_TRACE): StartupTrace | null {
  if (!file) return null;
  const marks: { probe?: number; analyse?: number; firstFrame?: number } = {};
  return (pct, stage) => {
    if (stage === 'probe') marks.probe ??= now();
    else if (stage === 'analyse' && marks.analyse === undefined) marks.analyse = now();
    else if (stage === 'analyse' && marks.firstFrame === undefined) {
      marks.firstFrame = now();
      appendFileSync(file, `${JSON.stringify({ ...marks, pct })}\n`);
    }
  };
}
