import { describe, expect, it } from 'vitest';
import { RunProgress } from '../tools/remote/progress.js';

describe('remote run progress', () => {
  it('puts the upload first, then the job, only ever increasing, and ends at 100 when the job completes', () => {
    const sent: [number, string][] = [];
    const progress = new RunProgress((pct, message) => sent.push([pct, message]));
    progress.upload(50, 100);
    progress.upload(100, 100);
    progress.job({ status: 'running', progressPct: 50, stage: 'analyse' });
    progress.job({ status: 'running', progressPct: 40, stage: 'analyse' });
    progress.job({ status: 'completed', progressPct: 100 });
    expect(sent).toEqual([
      [5, 'upload 50 %'],
      [10, 'upload 100 %'],
      [55, 'analyse'],
      [100, 'completed'],
    ]);
  });

  it('sends nothing more for a failed job, and nothing at all without a listener', () => {
    const sent: number[] = [];
    const progress = new RunProgress((pct) => sent.push(pct));
    progress.job({ status: 'running', progressPct: 10, stage: 'probe' });
    progress.job({ status: 'failed', progressPct: 10 });
    expect(sent).toEqual([19]);
    expect(() => new RunProgress(undefined).job({ status: 'completed', progressPct: 100 })).not.toThrow();
  });
});
