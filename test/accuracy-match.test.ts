// The accuracy bench's matching of expectations against reports (bench/accuracy/match.ts): what counts as a true or
// false positive, a miss, a wrong severity, a mistimed span, an accepted flag; OCR recall and invented words.
import { describe, expect, it } from 'vitest';
import { accepted, expected } from '../bench/accuracy/expectations.js';
import { confusion, extraWords, lineRecall, matchFlags, recallByStyle, type ReportedFlag, type ReportedGate } from '../bench/accuracy/match.js';

const flag = (gate: string, severity: 'BLOCK' | 'WATCH', start: number, end: number, summary = `${gate} ${severity}`): ReportedFlag => ({ gate, severity, start, end, summary });
const ran = (...ids: string[]): ReportedGate[] => ids.map((gate) => ({ gate, status: 'pass' }));

describe('matching expected flags with reported flags', () => {
  it('counts a flag at the right gate and severity overlapping the span as a true positive, timed within 0.5 s', () => {
    const m = matchFlags({ flags: [expected('black_frames', 'BLOCK', [4, 6.5], 'black')] }, [flag('black_frames', 'BLOCK', 4.1, 6.4)], ran('black_frames', 'loop_freeze'), 10);
    expect(m.outcomes).toEqual([
      expect.objectContaining({ gate: 'black_frames', outcome: 'TP', mistimed: false }),
      expect.objectContaining({ gate: 'loop_freeze', outcome: 'TN' }),
    ]);
    expect(m.mismatches).toEqual([]);
  });

  it('reports a true positive whose span is off by more than 0.5 s as mistimed', () => {
    const m = matchFlags({ flags: [expected('clipping', 'BLOCK', [3.5, 5.5], 'clip')] }, [flag('clipping', 'BLOCK', 0, 8)], ran('clipping'), 10);
    expect(m.outcomes[0]).toMatchObject({ outcome: 'TP', mistimed: true });
    expect(m.mismatches).toEqual(['clipping: span 0.0–8.0 s, expected 3.5–5.5 s ±0.5']);
  });

  it('tells a wrong severity from a miss, and says when the gate did not run', () => {
    const wrong = matchFlags({ flags: [expected('loop_freeze', 'BLOCK', [3, 6.5], 'freeze')] }, [flag('loop_freeze', 'WATCH', 3, 6.5)], ran('loop_freeze'), 10);
    expect(wrong.outcomes[0]).toMatchObject({ outcome: 'wrong-severity' });
    expect(wrong.mismatches).toEqual(['loop_freeze: WATCH, expected BLOCK']);

    const missed = matchFlags({ flags: [expected('av_sync', 'BLOCK', null, 'late')] }, [], [{ gate: 'av_sync', status: 'skipped', reason: 'needs video with audio' }], 9);
    expect(missed.outcomes[0]).toMatchObject({ outcome: 'FN', detail: 'gate skipped: needs video with audio' });
  });

  it('does not count a flag at another time as finding the defect', () => {
    const m = matchFlags({ flags: [expected('black_frames', 'BLOCK', [4, 6.5], 'black')] }, [flag('black_frames', 'BLOCK', 8, 9.5)], ran('black_frames'), 10);
    expect(m.outcomes.map((o) => o.outcome)).toEqual(['FN', 'FP']);
  });

  it('counts unexplained flags once per gate as false positives, with the worst severity', () => {
    const m = matchFlags({ flags: [] }, [flag('loop_freeze', 'WATCH', 0, 2), flag('loop_freeze', 'BLOCK', 3, 9), flag('canvas_fill', 'WATCH', 0, 10)], ran('loop_freeze', 'canvas_fill', 'loudness'), 10);
    expect(m.outcomes).toEqual([
      expect.objectContaining({ gate: 'loop_freeze', outcome: 'FP', severity: 'BLOCK' }),
      expect.objectContaining({ gate: 'canvas_fill', outcome: 'FP', severity: 'WATCH' }),
      expect.objectContaining({ gate: 'loudness', outcome: 'TN' }),
    ]);
    expect(m.mismatches[0]).toBe('loop_freeze: unexpected BLOCK 3.0–9.0 s "loop_freeze BLOCK" (+1 more)');
  });

  it('accepts a tolerated flag at its severity or milder, present or absent, but not a stronger one', () => {
    const tolerated = { flags: [expected('clipping', 'BLOCK', [3.5, 5.5], 'clip'), accepted('loudness', 'WATCH', 'true peak')] };
    const clip = flag('clipping', 'BLOCK', 3.5, 5.5);
    expect(matchFlags(tolerated, [clip, flag('loudness', 'WATCH', 0, 10)], ran('clipping', 'loudness'), 10).mismatches).toEqual([]);
    expect(matchFlags(tolerated, [clip], ran('clipping', 'loudness'), 10).mismatches).toEqual([]);
    const stronger = matchFlags(tolerated, [clip, flag('loudness', 'BLOCK', 0, 10)], ran('clipping', 'loudness'), 10);
    expect(stronger.outcomes.find((o) => o.outcome === 'FP')).toMatchObject({ gate: 'loudness', severity: 'BLOCK' });
  });

  it('sums outcomes per gate into a confusion table', () => {
    const a = matchFlags({ flags: [expected('black_frames', 'BLOCK', [4, 6.5], 'black')] }, [flag('black_frames', 'BLOCK', 4, 6.5), flag('loop_freeze', 'BLOCK', 0, 5)], ran('black_frames', 'loop_freeze'), 10);
    const b = matchFlags({ flags: [] }, [flag('loop_freeze', 'WATCH', 0, 3)], ran('black_frames', 'loop_freeze'), 10);
    const c = matchFlags({ flags: [expected('black_frames', 'WATCH', [5, 6], 'short black')] }, [flag('black_frames', 'BLOCK', 5, 6)], ran('black_frames', 'loop_freeze'), 10);
    expect(confusion([a.outcomes, b.outcomes, c.outcomes])).toEqual([
      { gate: 'black_frames', TP: 1, FP: 0, FN: 0, TN: 1, wrongSeverity: 1, mistimed: 0, falseBlocks: 0 },
      { gate: 'loop_freeze', TP: 0, FP: 2, FN: 0, TN: 1, wrongSeverity: 0, mistimed: 0, falseBlocks: 1 },
    ]);
  });
});

describe('OCR recall', () => {
  const truth = [
    { text: 'Rain fell on the garden', style: 'outlined' as const, start: 0.3, end: 3 },
    { text: 'Every leaf held a drop', style: 'outlined' as const, start: 3, end: 5.6 },
    { text: 'HIDDEN MEADOW', style: 'bold-title' as const },
  ];

  it('counts the words of each line read at an overlapping time, case and punctuation aside', () => {
    const read = [
      { text: 'Rain fell on the garden.', start: 0.5, end: 2.5 },
      { text: 'Every leaf held a', start: 3.5, end: 5 },
      { text: 'drop', start: 9, end: 9.5 },
      { text: 'hidden meadow', start: 0, end: 0 },
    ];
    const lines = lineRecall(truth, read);
    expect(lines.map((l) => [l.wordsRead, l.words, l.read])).toEqual([[5, 5, true], [4, 5, false], [2, 2, true]]);
    expect(recallByStyle(lines)).toEqual([
      { style: 'outlined', lines: 2, linesRead: 1, words: 10, wordsRead: 9 },
      { style: 'bold-title', lines: 1, linesRead: 1, words: 2, wordsRead: 2 },
    ]);
  });

  it('lists words read that no ground-truth line holds: invented on a text-free picture', () => {
    expect(extraWords({ flags: [], textFree: true }, [{ text: 'Mext npn', start: 1, end: 2 }])).toEqual(['mext', 'npn']);
    expect(extraWords({ flags: [], text: truth }, [{ text: 'Every leaf held a dorp', start: 3, end: 4 }])).toEqual(['dorp']);
  });
});
