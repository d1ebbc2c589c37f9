// Media and sidecars of the golden reports (test/golden.test.ts): each file carries several known defects at once, so
// one check exercises many gates. Video is encoded with one x264 thread, so the same ffmpeg makes the same bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineSidecars } from '../../engine/sidecars/index.js';
import { chunksFromJson, expectedScriptFromText, manifestFromJson, transcriptFromJson, watchlistFromJson } from '../../engine/sidecars/formats/index.js';
import { generate, superWhiteBand } from './media.js';
import { drawtext, textImage, type DrawnText } from './text-media.js';

const X264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-threads', '1'];
const AAC = ['-c:a', 'aac', '-b:a', '128k'];
const TONE_14 = "aevalsrc=exprs='0.19953*sin(2*PI*1000*t)|0.19953*sin(2*PI*1000*t)':s=48000";

/**
 * 640×360, 15.6 s, letterboxed (2.39:1 picture): a 2 s freeze from 4 s, a 1.6 s repeat of earlier picture, 2.2 s of
 * black from 12 s. Sound: a quiet tone with the right channel 6 dB down, hard clipping at 1-1.5 s, 3 s of silence from
 * 6 s, starting 0.2 s after the picture and ending before it.
 */
export const videoDefects = () =>
  generate('golden-video-defects.mp4', [
    '-f', 'lavfi', '-i', 'testsrc2=s=640x268:r=25:d=12',
    '-itsoffset', '0.2',
    '-f', 'lavfi', '-i',
    "aevalsrc=exprs='if(between(t\\,6\\,9)\\,0\\,if(between(t\\,1\\,1.5)\\,max(-1\\,min(1\\,3*sin(2*PI*440*t)))\\,0.0447*sin(2*PI*1000*t)))|0.5*if(between(t\\,6\\,9)\\,0\\,if(between(t\\,1\\,1.5)\\,max(-1\\,min(1\\,3*sin(2*PI*440*t)))\\,0.0447*sin(2*PI*1000*t)))':s=48000:d=15",
    '-filter_complex',
    "[0:v]loop=loop=50:size=1:start=100,setpts=N/25/TB,loop=loop=1:size=40:start=225,setpts=N/25/TB,pad=640:360:0:46:black,drawbox=c=black:t=fill:enable='between(t,12,14.2)'[v]",
    '-map', '[v]', '-map', '1:a', ...X264, ...AAC,
  ]);

/** 6 s of one still picture with an on-target tone: an audiogram, or a render that never moved. */
export const stillWithSound = () =>
  generate('golden-still-with-sound.mp4', [
    '-f', 'lavfi', '-i', 'color=c=0x336699:s=320x240:r=25:d=6,drawbox=x=40:y=40:w=100:h=80:c=yellow:t=fill',
    '-f', 'lavfi', '-i', `${TONE_14}:d=6`, ...X264, ...AAC, '-shortest',
  ]);

/** Web-style MP4 judged for broadcast: H.264 4:2:0, AAC, 30 fps; super-white band from 1 s to 2.5 s; hot, peaky tone. */
export const webFileForBroadcast = () =>
  generate('golden-broadcast.mp4', [
    '-f', 'lavfi', '-i', 'color=c=0x606060:s=1280x720:r=30:d=4',
    '-f', 'lavfi', '-i', 'color=c=0x606060:s=1280x72:r=30:d=4',
    '-f', 'lavfi', '-i', "aevalsrc=exprs='0.99*sin(2*PI*997*t)|0.99*sin(2*PI*997*t)':s=48000:d=4",
    '-filter_complex', `${superWhiteBand('420', 1, 2.5)}[v]`,
    '-map', '[v]', '-map', '2:a',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', '-threads', '1',
    '-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709', ...AAC, '-shortest',
  ]);

/** Landscape 640×360 with a flash/beep sync pattern, the beeps 200 ms after the flashes. */
export const landscapeSyncLate = () =>
  generate('golden-sync-late.mp4', [
    '-f', 'lavfi', '-i', "color=c=0x202020:s=640x360:r=30:d=8,drawbox=c=white:t=fill:enable='lt(mod(t,1),0.066)'",
    '-f', 'lavfi', '-i', "aevalsrc=exprs='if(between(mod(t-0.2\\,1)\\,0\\,0.06)\\,0.5*sin(2*PI*1000*t)\\,0)|if(between(mod(t-0.2\\,1)\\,0\\,0.06)\\,0.5*sin(2*PI*1000*t)\\,0)':s=48000:d=8",
    ...X264, ...AAC,
  ]);

/** A thumbnail with a long small headline, a low-contrast tag, and a label under the duration badge. */
export const thumbnail = () =>
  textImage('golden-thumbnail', 'color=c=0x1a1a2e:s=1280x720', [
    { text: 'how I fixed every single mistake in my first edit', size: 30, color: 'white', x: '80', y: '120' },
    { text: 'Limited offer', size: 40, color: '0x6a6a90', x: '80', y: '300' },
    { text: 'Watch now', size: 40, color: 'white', x: 'w-tw-40', y: 'h-th-40' },
  ]);

const VERTICAL_TEXTS: DrawnText[] = [
  { text: 'Qxvrtplk Zbnmwq', size: 40, color: 'white', x: '60', y: '260' },
  { text: 'Breaking news tonight', size: 40, color: 'white', x: '-30', y: '420' },
  { text: 'Stay tuned for more', size: 36, color: 'white', x: '80+20*mod(floor(t*2+0.5)\\,2)', y: '560' },
  { text: 'Follow for more', size: 40, color: '0xc0c8d0', x: '(w-tw)/2', y: 'h-200' },
];

/** A 540×960 short, 8 s, with drawn text: invented lettering, text cut by the edge, jittering text, text under the UI. */
export const verticalWithText = () =>
  generate('golden-vertical-text.mp4', [
    '-f', 'lavfi', '-i', 'color=c=0x707a86:s=540x960:r=25:d=8',
    '-f', 'lavfi', '-i', `${TONE_14}:d=8`,
    '-vf', VERTICAL_TEXTS.map(drawtext).join(','),
    ...X264, ...AAC, '-shortest',
  ]);

const MANIFEST = {
  schema: 'preflight-manifest/1',
  title: 'Golden short',
  segments: [
    { start: 0, end: 1.5, kind: 'title_card', description: 'Title card', contactSheet: 'sheets/seg-00.jpg', markers: [] },
    {
      start: 1.5,
      end: 3,
      kind: 'talking_head',
      speaker: 'Ana',
      onScreenCharacter: 'Ben',
      description: 'Host at the desk',
      narration: 'Ana explains the Eiffel Tower',
      namedEntities: ['Eiffel Tower'],
      subjects: ['desk'],
      contactSheet: 'sheets/missing.jpg',
      mix: { voiceDb: -20, musicDb: -22 },
      sourceScrub: { status: 'pending' },
    },
    {
      start: 3,
      end: 5.5,
      kind: 'generated_plate',
      visualFile: 'plates/city.mp4',
      sourceFamily: 'generator',
      description: 'City at night',
      subjects: ['city'],
      namedEntities: ['Louvre'],
      onScreenText: [
        { text: 'Qxvrtplk Zbnmwq', box: { x: 0.1, y: 0.27, w: 0.6, h: 0.05 } },
        { text: 'Stay tuned for more', box: { x: 0.15, y: 0.58, w: 0.6, h: 0.05 }, approved: true },
      ],
      contactSheet: 'https://cdn.example.com/sheet.jpg?token=secret',
      sourceScrub: { status: 'watermark detected' },
      mix: { voiceDb: -16 },
    },
    {
      start: 5.5,
      end: 8,
      kind: 'b_roll',
      visualFile: 'plates/city.mp4',
      sourceFamily: 'generator',
      description: 'City at night',
      onScreenText: [
        { text: 'Stay tuned for more', box: { x: 0.16, y: 0.585, w: 0.6, h: 0.05 }, approved: true },
        { text: 'Follow for more', box: { x: 0.25, y: 0.79, w: 0.5, h: 0.05 } },
        { text: 'Follow us', box: { x: 0.3, y: 0.8, w: 0.45, h: 0.05 } },
        { text: 'Edge text', box: { x: 0.9, y: 0.1, w: 0.2, h: 0.05 } },
      ],
      contactSheet: '../outside.jpg',
      markers: ['cta'],
    },
  ],
  assetTriage: { reused: [], rejected: ['plates/rejected.mp4'] },
};

const WORDS = 'Welcome back. Visit example dot com slash deals today. Doctor new yen says um the plan is [laughs] simple and the';

function timedWords(text: string, start: number, step: number) {
  return text
    .split(/\s+/)
    .map((word, i) => ({ text: word, start: Math.round((start + i * step) * 1000) / 1000, end: Math.round((start + i * step + step * 0.8) * 1000) / 1000 }));
}

/** Every sidecar kind, with a folder for the manifest holding one of the contact sheets it names. */
export function goldenSidecars(root: string): EngineSidecars {
  const manifestDir = join(root, 'job');
  mkdirSync(join(manifestDir, 'sheets'), { recursive: true });
  writeFileSync(join(manifestDir, 'sheets', 'seg-00.jpg'), 'jpeg');
  writeFileSync(join(root, 'outside.jpg'), 'jpeg');
  return {
    manifest: manifestFromJson(MANIFEST),
    manifestDir,
    transcript: transcriptFromJson({ words: timedWords(WORDS, 0.2, 0.35) }),
    watchlist: watchlistFromJson({ terms: [{ expected: 'Nguyen', banned: ['new yen'] }], banned: ['um'] }),
    expectedScript: expectedScriptFromText('Welcome back. Visit our site for deals today. Doctor Nguyen says the plan is simple and clear.'),
    chunkSidecars: chunksFromJson(
      [
        { chunk: 'c1', status: 'done', verdict: 'PASS' },
        { chunk: 'c2', status: 'failed', error: 'render timed out', start: 3, end: 5.5 },
        { chunk: 'c3', status: 'running' },
        { chunk: 'c4', status: 'done', verdict: 'WATCH' },
      ],
      'chunk_sidecars',
    ),
  };
}
