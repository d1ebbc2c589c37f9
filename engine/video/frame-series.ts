// Per-frame statistics kept as columns of doubles while the decode pass streams: a long programme's frames cost
// 40 bytes each instead of an object with five boxed numbers.
import { GrowableArray } from '../growable-array.js';
import type { VideoFrameSeries, VideoFrameStats } from '../types.js';

const MEASURES = ['mean', 'darkFraction', 'diff', 'peakChange', 'changedShare'] as const satisfies readonly (keyof VideoFrameStats)[];

export class FrameSeriesBuilder {
  private readonly columns = MEASURES.map(() => new GrowableArray((n) => new Float64Array(n)));

  get length(): number {
    return this.columns[0].length;
  }

  push(stats: VideoFrameStats): void {
    MEASURES.forEach((measure, k) => this.columns[k].push(stats[measure]));
  }

  finish(): VideoFrameSeries {
    const [mean, darkFraction, diff, peakChange, changedShare] = this.columns.map((c) => c.view());
    return { length: this.length, mean, darkFraction, diff, peakChange, changedShare };
  }
}

/** The series of the given frames. */
export function frameSeriesOf(frames: readonly VideoFrameStats[]): VideoFrameSeries {
  const builder = new FrameSeriesBuilder();
  for (const f of frames) builder.push(f);
  return builder.finish();
}
