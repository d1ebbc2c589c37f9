// Long programmes are measured in worker threads (engine/audio/audio-analysis.ts: one for both meters beside a picture,
// one each for sound alone), fed by the caller's pushes or by another thread reading the decoder's pipe. The threads
// run the compiled meters, so this test takes the thread side from dist/ (npm test builds it first) and holds it to the
// in-thread meters of the source, fed the same PCM in the same batches: every measurement must be identical.
import { closeSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { getPriority } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import * as source from '../engine/audio/audio-analysis.js';
import * as sourceAnalyse from '../engine/analyse.js';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { openPipePairs } from '../engine/ffmpeg/pipe-pair.js';
import { probe } from '../engine/probe.js';
import { generate, renderPcm } from './helpers/media.js';

const COMPILED = resolve(import.meta.dirname, '../dist/engine/audio/audio-analysis.js');
const COMPILED_ANALYSE = resolve(import.meta.dirname, '../dist/engine/analyse.js');
const fifos = process.platform === 'linux';

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

  it('measure a programme exactly as the meters on the main thread, with back-pressure while they catch up', async () => {
    statSync(COMPILED);
    const compiled = (await import(pathToFileURL(COMPILED).href)) as typeof source;
    const pcm = interleave(await renderPcm(PROGRAMME, 2));
    const opts = { sampleRate: 48000, channels: 2, channelNames: ['FL', 'FR'] };

    // 40 s of PCM, announced as long enough for threads (the TypeScript source never starts them).
    const threads = compiled.createAudioAnalysis(opts, compiled.WORKER_MIN_SECONDS);
    const main = source.createAudioAnalysis(opts, compiled.WORKER_MIN_SECONDS);
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

  it.runIf(process.platform === 'linux')('run below the process for sound alone (a meter a thread), and at its priority in the one thread beside a picture', async () => {
    const compiled = (await import(pathToFileURL(COMPILED).href)) as typeof source;
    const opts = { sampleRate: 48000, channels: 2, channelNames: ['FL', 'FR'] };
    const pcm = interleave(await renderPcm(PROGRAMME, 2));
    /** This process's threads at `nice`: a thread's own nice value is field 19 of its stat line (after the name's ')'). */
    const threadsAt = (nice: number) =>
      readdirSync('/proc/self/task').filter((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === nice;
      }).length;
    const own = getPriority(0);
    const lowered = Math.min(19, own + 10);
    for (const meterThreads of [2, 1] as const) {
      const before = threadsAt(lowered);
      const analysis = compiled.createAudioAnalysis(opts, compiled.WORKER_MIN_SECONDS, null, meterThreads);
      // Once the meters have taken batches, each thread has set its priority (the first thing it does).
      analysis.push(pcm.subarray(0, 4 * compiled.batchFloats(2)));
      await analysis.whenCaughtUp();
      analysis.push(pcm.subarray(4 * compiled.batchFloats(2), 8 * compiled.batchFloats(2)));
      await analysis.whenCaughtUp();
      expect(threadsAt(lowered) - before, `${meterThreads} meter thread(s)`).toBe(meterThreads === 2 ? 2 : 0);
      await analysis.finish();
    }
  });

  // 5.1's 24-byte frames do not divide the decoder's 8 KB writes: reads end inside a frame, which the reader carries over.
  // A programme with a picture runs both meters in one thread (its decoder keeps the cores busy); sound alone, one each.
  it.runIf(fifos).each([
    { layout: 'stereo', channelNames: ['FL', 'FR'], meterThreads: 2 as const },
    { layout: '5.1', channelNames: ['FL', 'FR', 'FC', 'LFE', 'BL', 'BR'], meterThreads: 2 as const },
    { layout: 'stereo', channelNames: ['FL', 'FR'], meterThreads: 1 as const },
  ])('read the decoder\'s $layout pipe in a thread of their own, measuring in $meterThreads meter thread(s) exactly as the main-thread meters', async ({ channelNames, meterThreads }) => {
    const compiled = (await import(pathToFileURL(COMPILED).href)) as typeof source;
    const channels = channelNames.length;
    const pcm = interleave(await renderPcm(PROGRAMME, channels));
    const opts = { sampleRate: 48000, channels, channelNames };
    const pipe = (await openPipePairs(1))?.[0] ?? null;
    expect(pipe).not.toBeNull();
    const { readFd, writeFd } = pipe!;
    const decoder = execa(ffmpegPath(), ['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', PROGRAMME, '-ac', String(channels), '-c:a', 'pcm_f32le', '-f', 'f32le', 'pipe:3'], {
      stdio: ['ignore', 'ignore', 'pipe', writeFd] as unknown as ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    closeSync(writeFd);
    const threads = compiled.createAudioAnalysis(opts, compiled.WORKER_MIN_SECONDS, readFd, meterThreads);
    expect(threads.where).toBe('threads');
    expect(compiled.meterThreadsFor(meterThreads === 1)).toBe(meterThreads);
    expect(() => threads.push(new Float32Array(2))).toThrow(/reads its PCM from a pipe/);
    await decoder;

    const main = source.createAudioAnalysis(opts, 1);
    const batch = source.batchFloats(channels);
    for (let at = 0; at < pcm.length; at += batch) main.push(pcm.subarray(at, Math.min(pcm.length, at + batch)));
    const [fromThreads, fromMain] = await Promise.all([threads.finish(), main.finish()]);
    expect(fromThreads).toEqual(fromMain);
    expect(fromThreads.stats.frames).toBe(40 * 48000);
    expect(threads.frames).toBe(40 * 48000);
  });

  it.runIf(fifos)('give a long programme\'s decode pass, read by a thread from its own pipe, the meters\' measurements of its PCM', async () => {
    statSync(COMPILED_ANALYSE);
    const compiled = (await import(pathToFileURL(COMPILED_ANALYSE).href)) as typeof sourceAnalyse;
    const compiledAnalysis = (await import(pathToFileURL(COMPILED).href)) as typeof source;
    const minutes = source.PIPE_READER_MIN_SECONDS / 60;
    const programme = PROGRAMME.replace('d=40', `d=${minutes * 60}`);
    const file = await generate(`threads-pipe-${minutes}min.m4a`, ['-f', 'lavfi', '-i', programme, '-ac', '2', '-c:a', 'aac', '-b:a', '192k']);
    const media = await probe(file);
    expect(compiledAnalysis.wantsPipeReader(media.durationSeconds)).toBe(true);
    expect(source.wantsPipeReader(media.durationSeconds)).toBe(false);
    const progress: number[] = [];
    const signals = await compiled.analyse(media, { needs: new Set(['audio']), onProgress: (fraction) => progress.push(fraction) });

    // The same decode, measured on the main thread in the threads' batches.
    const { stdout } = await execa(ffmpegPath(), ['-v', 'error', '-i', file, '-map', '0:a', '-c:a', 'pcm_f32le', '-f', 'f32le', 'pipe:1'], {
      stdin: 'ignore',
      encoding: 'buffer',
      maxBuffer: 1 << 28,
    });
    const bytes = Buffer.from(stdout as Uint8Array);
    const pcm = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const main = source.createAudioAnalysis({ sampleRate: 48000, channels: 2, channelNames: media.audio!.channelNames }, 1);
    const batch = source.batchFloats(2);
    for (let at = 0; at < pcm.length; at += batch) main.push(pcm.subarray(at, Math.min(pcm.length, at + batch)));
    const expected = await main.finish();
    expect(signals.audio!.loudness).toEqual(expected.loudness);
    expect(signals.audio!.stats).toEqual(expected.stats);
    expect(signals.audio!.durationSeconds).toBe(pcm.length / 2 / 48000);
    // Progress comes from the ring as the reader fills it.
    expect(progress.length).toBeGreaterThan(0);
  });

  it('stop when aborted', async () => {
    statSync(COMPILED);
    const compiled = (await import(pathToFileURL(COMPILED).href)) as typeof source;
    const threads = compiled.createAudioAnalysis({ sampleRate: 48000, channels: 1, channelNames: ['FC'] }, compiled.WORKER_MIN_SECONDS);
    threads.push(new Float32Array(48000));
    await threads.abort();
    await expect(threads.finish()).rejects.toThrow(/meter thread stopped/);
  });
});
