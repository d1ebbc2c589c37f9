// Short media for batch tests: a few seconds each, so a folder of them checks quickly.
import { COVER_TESTSRC2_TIMECODE, generate } from './media.js';

const X264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
const AAC = ['-c:a', 'aac', '-b:a', '128k'];
/** Stereo 1 kHz at −14 LUFS: on target for video sites. */
const tone = (amplitude: number, seconds: number) => `aevalsrc=exprs='${amplitude}*sin(2*PI*1000*t)|${amplitude}*sin(2*PI*1000*t)':s=48000:d=${seconds}`;
const picture = (seconds: number) => `testsrc2=s=1280x720:r=25:d=${seconds},${COVER_TESTSRC2_TIMECODE}`;

/** Clean 3 s video with on-target sound. */
export const shortClean = () => generate('batch-clean.mp4', ['-f', 'lavfi', '-i', picture(3), '-f', 'lavfi', '-i', tone(0.19953, 3), ...X264, ...AAC, '-shortest']);

/** Clean 3 s audio at −16 LUFS. */
export const shortAudio = () => generate('batch-audio.wav', ['-f', 'lavfi', '-i', tone(0.15849, 3), '-c:a', 'pcm_s16le']);

/** A still PNG. */
export const shortStill = () => generate('batch-still.png', ['-f', 'lavfi', '-i', `testsrc2=s=640x360:r=1:d=1,${COVER_TESTSRC2_TIMECODE}`, '-frames:v', '1']);

/** 5 s video with black picture from 1.0 s to 3.5 s. */
export const shortBlack = () =>
  generate('batch-black.mp4', [
    '-f', 'lavfi', '-i', picture(5), '-f', 'lavfi', '-i', tone(0.19953, 5),
    '-vf', "drawbox=c=black:t=fill:enable='between(t,1,3.5)'", ...X264, ...AAC, '-shortest',
  ]);

/** 3 s video whose sound sits near −34 LUFS, far under the target. */
export const shortQuiet = () => generate('batch-quiet.mp4', ['-f', 'lavfi', '-i', picture(3), '-f', 'lavfi', '-i', tone(0.02, 3), ...X264, ...AAC, '-shortest']);
