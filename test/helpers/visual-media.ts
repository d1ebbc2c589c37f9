// Short clips for the visual gates' accuracy: real photographs (Debian's mate-backgrounds) moved as slideshows move
// them, a typed terminal, a 9:16 short with boxed captions, each with its defect injected into a copy. Small (640 px)
// and a few seconds long, so the tests stay fast; cached under .cache/media like every generated fixture.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from './media.js';
import { FONT } from './text-media.js';

const PHOTOS = '/usr/share/backgrounds/mate/nature';
const photo = (name: string) => join(PHOTOS, `${name}.jpg`);

/** Why the photo clips cannot be made here (with the install hint), or null. */
export const photosMissing = (): string | null =>
  ['GreenMeadow', 'Dune', 'LadyBird', 'Wood', 'Garden'].every((p) => existsSync(photo(p))) ? null : 'needs the mate-backgrounds photos: apt-get install mate-backgrounds';

const X264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p', '-an'];
const FPS = 30;

/** A Ken Burns move over `seconds` on a photo: zoom z0→z1, centre moving from (x0,y0) to (x1,y1) (fractions), 640×360 (or w×h). */
function move(name: string, seconds: number, zoom: [number, number], from: [number, number], to: [number, number], w = 640, h = 360): string {
  const n = seconds * FPS - 1;
  const z = `${zoom[0]}+${zoom[1] - zoom[0]}*on/${n}`;
  const x = `(iw-iw/zoom)*(${from[0]}+${to[0] - from[0]}*on/${n})`;
  const y = `(ih-ih/zoom)*(${from[1]}+${to[1] - from[1]}*on/${n})`;
  // The photo is scaled once and its frame repeated (a looped image input would decode the JPEG for every frame).
  return `scale=${w * 1.5}:${h * 1.5}:force_original_aspect_ratio=increase,crop=${w * 1.5}:${h * 1.5},loop=loop=${n}:size=1,setpts=N/${FPS}/TB,zoompan=z='${z}':x='${x}':y='${y}':d=1:s=${w}x${h}:fps=${FPS},trim=end_frame=${n + 1}`;
}

const still = (p: string, seconds: number) => ['-loop', '1', '-framerate', String(FPS), '-t', String(seconds), '-i', photo(p)];
/** The photo a move() starts from. */
const moving = (p: string) => ['-i', photo(p)];

/** 6 s slow Ken Burns zoom 1.0 → 1.1 on a meadow photo: slow motion, every frame differs a little. */
export const kenBurnsSlow = () => generate('vis-kenburns.mp4', [...moving('GreenMeadow'), '-vf', move('GreenMeadow', 6, [1, 1.1], [0.5, 0.5], [0.5, 0.5]), ...X264]);

/** 8 s continuous pan across a dune photo; with `freeze`, the frame at `at` s held for `seconds` (exact repeats). */
export function panShot(freeze?: { at: number; seconds: number }): Promise<string> {
  const pan = move('Dune', 8, [1.25, 1.25], [0, 0.4], [1, 0.6]);
  const vf = freeze
    ? `${pan},split[a][b];[b]trim=start=${freeze.at}:end=${freeze.at + 0.02},setpts=PTS-STARTPTS,loop=loop=${Math.round(freeze.seconds * FPS) - 1}:size=1:start=0,setpts=N/${FPS}/TB+${freeze.at}/TB[f];[a][f]overlay=eof_action=pass,format=yuv420p`
    : pan;
  return generate(`vis-pan${freeze ? `-freeze-${freeze.at}-${freeze.seconds}` : ''}.mp4`, [...moving('Dune'), '-filter_complex', vf, ...X264]);
}

/** Two photos held still 3.5 s each, joined by a hard cut: a slideshow of held slides. */
export const heldSlides = () =>
  generate('vis-held.mp4', [
    ...still('LadyBird', 3.5),
    ...still('Garden', 3.5),
    '-filter_complex',
    '[0:v]scale=640:360:force_original_aspect_ratio=increase,crop=640:360,setsar=1[a];[1:v]scale=640:360:force_original_aspect_ratio=increase,crop=640:360,setsar=1[b];[a][b]concat=n=2:v=1:a=0,format=yuv420p',
    ...X264,
  ]);

const TYPED = 'npm run build --verbose';
const PROMPT = '~ $ ';

/**
 * 8 s terminal: a command typed at 10 characters a second with a blinking caret, a pointer gliding, output lines, then
 * 3 s where only the pointer rests and the caret is hidden (nothing moves): a screen recording, not a freeze.
 */
export function typedTerminal(): Promise<string> {
  const draws: string[] = [];
  const text = (t: string, x: number, y: number, enable: string) =>
    `drawtext=fontfile=${FONT}:text='${t}':fontsize=18:fontcolor=0xd4d4d4:x=${x}:y=${y}:enable='${enable}'`;
  draws.push(text(PROMPT, 24, 30, 'gte(t,0)'));
  const startTyping = 0.6;
  const charW = 11;
  for (let k = 1; k <= TYPED.length; k++) {
    const from = startTyping + (k - 1) / 10;
    const until = k === TYPED.length ? 99 : startTyping + k / 10;
    draws.push(text(TYPED.slice(0, k).replaceAll('-', '\\-'), 24 + 4 * charW, 30, `between(t,${from.toFixed(2)},${until.toFixed(2)})`));
  }
  const typedEnd = startTyping + TYPED.length / 10;
  draws.push(text('compiled 42 files', 24, 58, `gte(t,${(typedEnd + 0.5).toFixed(2)})`));
  draws.push(text('build finished', 24, 86, `gte(t,${(typedEnd + 1.0).toFixed(2)})`));
  // Caret: blinks while typing, hidden after the output (the last 3 s hold still).
  const caretX = `24+${4 * charW}+${charW}*min(${TYPED.length},max(0,floor((t-${startTyping})*10)))`;
  draws.push(`drawbox=x='${caretX}':y=30:w=2:h=20:c=0xd4d4d4:t=fill:enable='lt(t,${(typedEnd + 1.0).toFixed(2)})*lt(mod(t,1),0.5)'`);
  // Pointer: glides from the left to a rest point until 5 s, then rests.
  const px = `200+200*min(1,t/5)`;
  draws.push(`drawbox=x='${px}':y='200+40*min(1,t/5)':w=8:h=12:c=white:t=fill`);
  return generate('vis-terminal.mp4', ['-f', 'lavfi', '-i', `color=c=0x1e1e1e:s=640x360:r=${FPS}:d=8`, '-vf', draws.join(','), ...X264]);
}

/** A 9:16 short (360×640): a Ken Burns photo with a white caption on a semi-transparent black box across the middle. */
export const boxedCaptionShort = () =>
  generate('vis-boxed-short.mp4', [
    ...moving('GreenMeadow'),
    '-vf',
    `${move('GreenMeadow', 5, [1, 1.1], [0.5, 0.5], [0.5, 0.5], 360, 640)},drawtext=fontfile=${FONT}:text='Rain fell on the garden':fontsize=22:fontcolor=white:x=(w-text_w)/2:y=h*0.58:box=1:boxcolor=black@0.5:boxborderw=12,format=yuv420p`,
    ...X264,
  ]);

/** A vertical photo move centred on a 640×360 canvas whose sides are a blurred, enlarged copy of it. */
export const blurredFillPhoto = () =>
  generate('vis-blurred-fill.mp4', [
    ...moving('LadyBird'),
    '-vf',
    `${move('LadyBird', 5, [1, 1.1], [0.6, 0.5], [0.6, 0.5], 202, 360)},split[a][b];[a]scale=640:1140,crop=640:360,boxblur=12:2[bg];[b]null[fg];[bg][fg]overlay=219:0,format=yuv420p`,
    ...X264,
  ]);

/** Debian's soft-focus wood photograph as a 1280×720 JPEG thumbnail: sharp in the middle, soft towards the edges. */
export const softFocusThumbnail = () => generate('vis-wood-thumb.jpg', ['-i', photo('Wood'), '-vf', 'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720', '-frames:v', '1', '-q:v', '3']);
