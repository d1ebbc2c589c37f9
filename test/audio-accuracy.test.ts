// Issue 14's audio and sync accuracy on real generated media, each defect beside its clean control: A/V offset
// measured from content (clapper-like cuts) or honestly reported unmeasured (speech over a still), loudness range
// against libebur128, clipping located in lossy decodes, a normalised sine left alone, and `auto` telling music
// from a podcast.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { onPath } from '../engine/ffmpeg/binaries.js';
import { checked } from './helpers/checked.js';
import { generate, speechWavWith } from './helpers/media.js';

const X264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
const AAC = ['-c:a', 'aac', '-b:a', '128k'];
const espeak = onPath('espeak-ng');
const loudgain = onPath('loudgain');
const SPEECH =
  'Welcome back to the programme. Today we walk along the harbour, past the old lighthouse. ' +
  'The tide was low, and the boats rested on the sand. Later, the rain came in from the west.';

/** Mandelbrot zoom cut by a two-frame white flash every 1.5 s, each with a noise click over a quiet tone. */
const clapper = (audioLateSeconds: number) => {
  const late = audioLateSeconds;
  const click = `if(gte(t\\,${late})*lt(mod(t-${late}\\,1.5)\\,0.04)\\,0.8*(random(0)*2-1)*exp(-mod(t-${late}\\,1.5)*80)\\,0)`;
  return generate(`clapper-late${Math.round(late * 1000)}.mp4`, [
    '-f', 'lavfi', '-i', 'mandelbrot=s=640x360:r=30',
    '-f', 'lavfi', '-i', `aevalsrc=exprs='0.05*sin(2*PI*220*t)+${click}':s=48000:d=9`,
    '-t', '9', '-vf', "drawbox=c=white:t=400:enable='lt(mod(n\\,45)\\,2)'", ...X264, ...AAC, '-ac', '2',
  ]);
};

describe('av_sync measures content offsets where the content allows, and says when it cannot', () => {
  it('finds clapper-like cuts in sync (no flag) and a 300 ms late baked-in offset (BLOCK)', async () => {
    const aligned = await checked(await clapper(0), { checks: 'av_sync' });
    const gate = aligned.report.gates.find((g) => g.gate === 'av_sync')!;
    expect(aligned.report.flags).toEqual([]);
    expect(gate.status).toBe('pass');
    expect(gate.measurements.contentMethod).toBe('transient_events');
    expect(Math.abs(gate.measurements.contentOffsetMs as number)).toBeLessThan(40);

    const late = await checked(await clapper(0.3), { checks: 'av_sync' });
    const [flag] = late.report.flags;
    expect(flag).toMatchObject({ gate: 'av_sync', severity: 'BLOCK' });
    expect(flag.evidence).toMatchObject({ basis: 'content', method: 'transient_events' });
    expect(Math.abs((flag.evidence.offsetMs as number) + 300)).toBeLessThan(40);
  }, 180_000);

  it.skipIf(!espeak)('reports speech over a still picture as unmeasured with the reason, never as a pass', async () => {
    const file = await generate('speech-over-still.mp4', [
      '-f', 'lavfi', '-i', 'color=c=0x336699:s=640x360:r=30:d=9', '-i', speechWavWith(espeak!, SPEECH), '-shortest', ...X264, ...AAC, '-ac', '2',
    ]);
    const { report } = await checked(file, { checks: 'av_sync' });
    const gate = report.gates.find((g) => g.gate === 'av_sync')!;
    expect(report.flags).toEqual([]);
    expect(gate.status).toBe('unmeasured');
    expect(gate.reason).toMatch(/not measured/);
    expect(gate.measurements.contentOffsetMs).toBeNull();
  }, 180_000);
});

describe.skipIf(!espeak || !loudgain)('loudness range agrees with libebur128 (loudgain)', () => {
  it('reads espeak narration with pauses within 0.5 LU of loudgain, and integrated loudness within 0.1 LU', async () => {
    const file = await generate('speech-pauses.m4a', ['-i', speechWavWith(espeak!, SPEECH), '-af', 'aresample=48000', '-ac', '2', ...AAC]);
    const { report } = await checked(file, { checks: 'loudness' });
    const m = report.gates.find((g) => g.gate === 'loudness')!.measurements as Record<string, number>;
    const row = execFileSync(loudgain!, ['-q', '-O', file]).toString().trim().split('\n').pop()!.split('\t');
    expect(Math.abs(m.integratedLufs - Number.parseFloat(row[1]))).toBeLessThan(0.1);
    expect(Math.abs(m.loudnessRangeLu - Number.parseFloat(row[2]))).toBeLessThan(0.5);
  }, 120_000);
});

describe.skipIf(!espeak)('clipping in lossy decodes and at full scale', () => {
  const clipped = "volume=12dB,aeval=exprs='max(-1\\,min(1\\,val(0)))|max(-1\\,min(1\\,val(1)))':c=same";

  it('blocks narration clipped throughout as AAC over its whole span, and passes the unclipped control', async () => {
    const speech = speechWavWith(espeak!, SPEECH);
    const bad = await generate('speech-clipped.m4a', ['-i', speech, '-af', `aresample=48000,aformat=channel_layouts=stereo,${clipped}`, ...AAC]);
    const { report, signals } = await checked(bad, { checks: 'clipping' });
    const [flag] = report.flags;
    expect(flag).toMatchObject({ gate: 'clipping', severity: 'BLOCK' });
    const duration = signals.audio!.durationSeconds;
    expect(flag.start).toBeLessThan(1);
    expect(flag.end).toBeGreaterThan(duration - 1.5);
    expect(flag.evidence.spansFrom).toBe('near_full_scale_blocks');

    const clean = await generate('speech-clean.m4a', ['-i', speech, '-af', 'aresample=48000,aformat=channel_layouts=stereo,volume=-3dB', ...AAC]);
    expect((await checked(clean, { checks: 'clipping' })).report.flags).toEqual([]);
  }, 120_000);

  it('locates a clipped stretch inside clean narration (MP3) within 0.5 s', async () => {
    const file = await generate('speech-clipped-mid.mp3', [
      '-i', speechWavWith(espeak!, SPEECH), '-af', `aresample=48000,aformat=channel_layouts=stereo,volume=18dB:enable='between(t\\,3\\,5)',aeval=exprs='max(-1\\,min(1\\,val(0)))|max(-1\\,min(1\\,val(1)))':c=same`,
      '-c:a', 'libmp3lame', '-b:a', '192k',
    ]);
    const [flag] = (await checked(file, { checks: 'clipping' })).report.flags;
    expect(flag).toMatchObject({ gate: 'clipping', severity: 'BLOCK' });
    expect(Math.abs(flag.start - 3)).toBeLessThan(0.5);
    expect(Math.abs(flag.end - 5)).toBeLessThan(0.5);
  }, 120_000);

  it('does not flag a sine peak-normalised to full scale, in 16-bit PCM or AAC', async () => {
    // 32767 × sin: the crests touch the rail without any flat run.
    const wav = await generate('sine-full-scale.wav', ['-f', 'lavfi', '-i', "aevalsrc=exprs='sin(2*PI*440*t)|sin(2*PI*440*t)':s=48000:d=6", '-c:a', 'pcm_s16le']);
    const m4a = await generate('sine-full-scale.m4a', ['-i', wav, ...AAC]);
    for (const file of [wav, m4a]) expect((await checked(file, { checks: 'clipping' })).report.flags).toEqual([]);
  }, 120_000);
});

describe('auto tells a music track from a podcast', () => {
  it('judges a music bed against streaming loudness and says so', async () => {
    // Two-chord pad with a soft beat, mastered near −14 LUFS: no speech pauses, level always moving.
    const music = await generate('music-bed.m4a', [
      '-f', 'lavfi', '-i',
      "aevalsrc=exprs='0.25*(sin(2*PI*220*t)+sin(2*PI*277*t)+sin(2*PI*330*t))*(0.7+0.3*sin(2*PI*0.5*t))+0.3*sin(2*PI*60*t)*exp(-8*mod(t\\,0.5))':s=48000:d=12",
      '-ac', '2', ...AAC,
    ]);
    const { report } = await checked(music);
    expect(report.profile).toBe('npo_podcast_or_audio');
    expect(report.deliveryProfile).toBe('video_site_longform');
    expect(report.warnings.join(' ')).toMatch(/audio is music/);
  }, 120_000);

  it.skipIf(!espeak)('keeps narration on podcast delivery', async () => {
    const speech = await generate('speech-podcast.m4a', ['-i', speechWavWith(espeak!, SPEECH), '-af', 'aresample=48000', '-ac', '2', ...AAC]);
    const { report } = await checked(speech);
    expect(report.deliveryProfile).toBe('podcast_delivery');
    expect(report.warnings.join(' ')).not.toMatch(/audio is music/);
  }, 120_000);
});
