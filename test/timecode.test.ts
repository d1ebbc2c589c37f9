import { describe, expect, it } from 'vitest';
import {
  formatTimecode,
  formatTimestamp,
  frameIndex,
  framesToTimecode,
  isDropFrame,
  parseTimecode,
  timecodeRate,
} from '../engine/timecode.js';

const NTSC_30 = 30000 / 1001;

describe('formatTimestamp', () => {
  it.each([
    [0, '00:00:00.000'],
    [62.5, '00:01:02.500'],
    [59.9994, '00:00:59.999'],
    [59.9995, '00:01:00.000'],
    [3599.99, '00:59:59.990'],
    [3599.9996, '01:00:00.000'],
    [36_000.001, '10:00:00.001'],
    [360_000, '100:00:00.000'],
  ])('%s s → %s', (seconds, expected) => {
    expect(formatTimestamp(seconds)).toBe(expected);
  });

  it('never writes 60 seconds or 1000 milliseconds', () => {
    const bad: string[] = [];
    for (let halfMs = 0; halfMs < 400_000; halfMs += 1) {
      const text = formatTimestamp(halfMs / 2000);
      if (!/^\d\d:[0-5]\d:[0-5]\d\.\d{3}$/.test(text)) bad.push(text);
    }
    expect(bad).toEqual([]);
  });

  it('clamps negative time to zero and rejects non-finite input', () => {
    expect(formatTimestamp(-0.2)).toBe('00:00:00.000');
    expect(() => formatTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => formatTimestamp(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('frameIndex', () => {
  it('counts the frame on screen, not the nearest one', () => {
    expect(frameIndex(0, 25)).toBe(0);
    expect(frameIndex(0.039, 25)).toBe(0);
    expect(frameIndex(0.04, 25)).toBe(1);
    expect(frameIndex(62.5, 30)).toBe(1875);
    expect(frameIndex(3599.99, 25)).toBe(89_999);
  });

  it('is exact at every frame boundary despite floating point (k/fps → k)', () => {
    const misses: string[] = [];
    for (let k = 0; k < 20_000; k += 1) {
      if (frameIndex(k / 25, 25) !== k) misses.push(`25:${k}`);
      if (frameIndex((k * 1001) / 30000, 29.97) !== k) misses.push(`29.97:${k}`);
      if (frameIndex((k * 1001) / 24000, 23.976) !== k) misses.push(`23.976:${k}`);
    }
    expect(misses).toEqual([]);
  });

  it('reads 29.97 and 23.976 as the exact 1000/1001 rates', () => {
    expect(timecodeRate(29.97).exact).toBe(NTSC_30);
    expect(timecodeRate(23.976).exact).toBe(24000 / 1001);
    expect(timecodeRate(59.94)).toEqual({ exact: 60000 / 1001, nominal: 60, dropPerMinute: 4 });
    expect(timecodeRate(25)).toEqual({ exact: 25, nominal: 25, dropPerMinute: 0 });
  });

  it('rejects a non-positive or non-finite fps', () => {
    expect(() => frameIndex(1, 0)).toThrow(RangeError);
    expect(() => frameIndex(1, -25)).toThrow(RangeError);
    expect(() => frameIndex(1, Number.NaN)).toThrow(RangeError);
  });
});

describe('formatTimecode (non-drop)', () => {
  it.each([
    [0, 25, '00:00:00:00'],
    [62.5, 25, '00:01:02:12'],
    [62.5, 30, '00:01:02:15'],
    [59.9995, 25, '00:00:59:24'],
    [3599.99, 25, '00:59:59:24'],
    [3600, 25, '01:00:00:00'],
    [90_000, 25, '25:00:00:00'],
    [1, 23.976, '00:00:00:23'],
    [(24 * 1001) / 24000, 23.976, '00:00:01:00'],
    [60, 24, '00:01:00:00'],
    [1, 50, '00:00:01:00'],
  ])('%s s at %s fps → %s', (seconds, fps, expected) => {
    expect(formatTimecode(seconds, fps)).toBe(expected);
  });

  it('uses ":" before frames for 23.976 (non-drop by convention)', () => {
    expect(isDropFrame(23.976)).toBe(false);
    expect(formatTimecode(600, 23.976)).toMatch(/^\d\d:\d\d:\d\d:\d\d$/);
  });
});

describe('formatTimecode (drop-frame 29.97 / 59.94)', () => {
  it('knows which rates are drop-frame', () => {
    expect(isDropFrame(29.97)).toBe(true);
    expect(isDropFrame(NTSC_30)).toBe(true);
    expect(isDropFrame(59.94)).toBe(true);
    expect(isDropFrame(30)).toBe(false);
    expect(isDropFrame(25)).toBe(false);
  });

  it('skips labels ;00 and ;01 at each minute except every tenth', () => {
    expect(framesToTimecode(1799, 29.97)).toBe('00:00:59;29');
    expect(framesToTimecode(1800, 29.97)).toBe('00:01:00;02');
    expect(framesToTimecode(3597, 29.97)).toBe('00:01:59;29');
    expect(framesToTimecode(3598, 29.97)).toBe('00:02:00;02');
    expect(framesToTimecode(17_981, 29.97)).toBe('00:09:59;29');
    expect(framesToTimecode(17_982, 29.97)).toBe('00:10:00;00');
    expect(framesToTimecode(17_983, 29.97)).toBe('00:10:00;01');
    expect(framesToTimecode(107_892, 29.97)).toBe('01:00:00;00');
  });

  it('gives 00:01:00;02 for the first frame after one minute of 29.97 media', () => {
    const seconds = (1800 * 1001) / 30000; // 60.06 s
    expect(formatTimecode(seconds, 29.97)).toBe('00:01:00;02');
    expect(formatTimecode(60.06, NTSC_30)).toBe('00:01:00;02');
  });

  it('skips four labels per minute at 59.94', () => {
    expect(framesToTimecode(3599, 59.94)).toBe('00:00:59;59');
    expect(framesToTimecode(3600, 59.94)).toBe('00:01:00;04');
    expect(framesToTimecode(35_964, 59.94)).toBe('00:10:00;00');
  });
});

describe('parseTimecode', () => {
  it('inverts framesToTimecode at every kind of rate', () => {
    const misses: string[] = [];
    for (const fps of [25, 24, 23.976, 29.97, 59.94, 50]) {
      for (let frames = 0; frames < 250_000; frames += 97) {
        if (parseTimecode(framesToTimecode(frames, fps), fps) !== frames) misses.push(`${fps}:${frames}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('reads record start timecodes', () => {
    expect(parseTimecode('01:00:00:00', 25)).toBe(90_000);
    expect(parseTimecode('01:00:00;00', 29.97)).toBe(107_892);
    expect(parseTimecode('00:01:00;02', 29.97)).toBe(1800);
    expect(parseTimecode('00:01:00:02', 29.97)).toBe(1800);
  });

  it('rejects malformed, out-of-range and dropped timecodes', () => {
    expect(() => parseTimecode('1:00:00:00', 25)).toThrow(RangeError);
    expect(() => parseTimecode('00:60:00:00', 25)).toThrow(RangeError);
    expect(() => parseTimecode('00:00:00:25', 25)).toThrow(RangeError);
    expect(() => parseTimecode('00:01:00;00', 29.97)).toThrow(/drop-frame/);
    expect(() => parseTimecode('00:01:00;01', 29.97)).toThrow(/drop-frame/);
    expect(parseTimecode('00:10:00;00', 29.97)).toBe(17_982);
  });
});
