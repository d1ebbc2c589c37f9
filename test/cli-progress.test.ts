import { describe, expect, it } from 'vitest';
import { progressBar } from '../src/cli/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream, writes };
}

describe('progress bar', () => {
  it('draws fixed-width lines on a TTY and clears them when done', () => {
    const { stream, writes } = fakeStream(true);
    const bar = progressBar(stream);
    bar.update(10, 'analyse');
    bar.update(10, 'analyse');
    bar.update(100, 'report');
    bar.done();
    expect(writes).toHaveLength(3);
    expect(writes[0]).toContain(' 10% analyse');
    expect(writes[1]).toContain('100% report');
    expect(writes[0].length).toBe(writes[1].length);
    expect(writes[2].trim()).toBe('');
    expect(writes[2].length).toBeGreaterThanOrEqual(writes[1].length);
  });

  it('writes nothing when the stream is not a terminal', () => {
    const { stream, writes } = fakeStream(false);
    const bar = progressBar(stream);
    bar.update(50, 'analyse');
    bar.done();
    expect(writes).toEqual([]);
  });
});
