// Long programmes are measured in two worker threads (engine/audio/audio-analysis.ts). The threads run the compiled
// meters, so this test takes the thread side from dist/ (npm test builds it first) and holds it to the in-thread
// meters of the source, fed the same PCM in the same pushes: every measurement must be identical.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as source from '../engine/audio/audio-analysis.js';
import { renderPcm } from './helpers/media.js';

const COMPILED = resolve(import.meta.dirname, '../dist/engine/audio/audio-analysis.js');

/** 40 s stereo: 440 Hz bursts every 5 s over noise on the left; a 220 Hz sine clipped at ±0.99 for 1 s in 7 on the right. */
const PROGRAMME = "aevalsrc=exprs='0.3*sin(2*PI*440*t)*lt(mod(t\\,5)\\,0.2)+0.02*(random(0)-0.5)|clip(1.3*sin(2*PI*220*t)\\,-0.99\\,0.99)*gt(mod(t\\,7)\\,6)':s=48000:d=40";

function interleave(planar: Float32Array[]): Float32Array {
  const channels = planar.length;
  const out = new Float32Array(planar[0].length * channels);
  for (let c = 0; c < channels; c++) for (let i = 0; i < planar[c].length; i++) out[i * channels + c] = planar[c][i];
  return out;
}

describe('audio meters in worker threads', () => {
  it('are shipped beside the bundled CLI, which starts them as ./meter-worker.js next to its chunks', () => {
    const bundled = resolve(import.meta.dirname, '../dist/cli');
    expect(statSync(resolve(bundled, 'meter-worker.js')).size).toBeGreaterThan(0);
  });

  it('measure a 40 s programme exactly as the meters on the main thread, with back-pressure while they catch up', async () => {
    statSync(COMPILED);
    const compiled = (await import(pathToFileURL(COMPILED).href)) as typeof source;
    const pcm = interleave(await renderPcm(PROGRAMME, 2));
    const opts = { sampleRate: 48000, channels: 2, channelNames: ['FL', 'FR'] };

    const threads = compiled.createAudioAnalysis(opts, 40);
    const main = source.createAudioAnalysis(opts, 40);
    expect(threads.where).toBe('threads');
    expect(main.where).toBe('main');
    expect(source.createAudioAnalysis(opts, source.WORKER_MIN_SECONDS - 1).where).toBe('main');

    // Odd pushes to the threads (they re-batch); the main-thread meters get the threads' batches.
    let wasBehind = false;
    for (let at = 0; at < pcm.length; at += 2 * 10_007) {
      threads.push(pcm.subarray(at, Math.min(pcm.length, at + 2 * 10_007)));
      wasBehind ||= threads.behind;
    }
    const batch = source.batchFloats(2);
    for (let at = 0; at < pcm.length; at += batch) main.push(pcm.subarray(at, Math.min(pcm.length, at + batch)));
    expect(wasBehind).toBe(true);
    await threads.whenCaughtUp();
    expect(threads.behind).toBe(false);

    const [fromThreads, fromMain] = await Promise.all([threads.finish(), main.finish()]);
    expect(fromThreads).toEqual(fromMain);
    expect(fromMain.stats.frames).toBe(40 * 48000);
    // The bursts at 0 s (no quiet before it), 20 s (where the right channel's clipping starts) and 35 s (right after
    // it) are no beeps.
    expect(fromMain.stats.beeps.map((b) => Math.round(b.onset * 100) / 100)).toEqual([5, 10, 15, 25, 30]);
    expect(fromMain.stats.clipping.spanCount).toBe(5);
    expect(fromMain.loudness.truePeakDbtp).toBeGreaterThan(-0.2);
    expect(fromMain.loudness.truePeakDbtp).toBeLessThan(0.2);
  });

  it('stop when aborted', async () => {
    statSync(COMPILED);
    const compiled = (await import(pathToFileURL(COMPILED).href)) as typeof source;
    const threads = compiled.createAudioAnalysis({ sampleRate: 48000, channels: 1, channelNames: ['FC'] }, 60);
    threads.push(new Float32Array(48000));
    await threads.abort();
    await expect(threads.finish()).rejects.toThrow(/meter thread stopped/);
  });
});
