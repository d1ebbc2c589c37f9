// The decode pass's picture outputs, read from pipes of the check's own on Linux (engine/analyse.ts) into one reused
// buffer: every frame the decoder wrote arrives whole, to the last, run after run.
import { describe, expect, it } from 'vitest';
import { analyse } from '../engine/analyse.js';
import { openPipePairs } from '../engine/ffmpeg/pipe-pair.js';
import { probe } from '../engine/probe.js';
import { cleanShort } from './helpers/fixtures.js';

describe('the decode pass reads its picture outputs to the end', () => {
  it('takes every luma frame and every R103 sample of a 3 s clip, run after run', async () => {
    const media = await probe(await cleanShort());
    for (let run = 0; run < 3; run++) {
      const signals = await analyse(media, { needs: new Set(['video', 'legal_levels']) });
      // 3 s at 30 fps, and a full-picture sample every 2 s from 0 s.
      expect(signals.video?.frameCount, `run ${run}`).toBe(90);
      expect(signals.video?.frames.mean.length, `run ${run}`).toBe(90);
      expect(signals.video?.legalLevels?.samples, `run ${run}`).toBe(2);
    }
  });

  it('opens as many pipes as asked from one mkfifo on Linux, each a working pair', async () => {
    const pairs = await openPipePairs(3);
    if (process.platform !== 'linux') {
      expect(pairs).toBeNull();
      return;
    }
    expect(pairs).toHaveLength(3);
    const { closeSync, readSync, writeSync } = await import('node:fs');
    for (const [i, pair] of pairs!.entries()) {
      writeSync(pair.writeFd, Buffer.from(`pipe ${i}`));
      const got = Buffer.alloc(16);
      expect(got.subarray(0, readSync(pair.readFd, got)).toString()).toBe(`pipe ${i}`);
      closeSync(pair.readFd);
      closeSync(pair.writeFd);
    }
  });
});
