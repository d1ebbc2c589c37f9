// The speed bench's media, generated once under .cache/bench: a test pattern (720p and 1080p), a captioned photo
// slideshow (Debian's nature photographs panned, a caption changing every 4 s) and a screen recording (a terminal whose
// lines are typed and printed, a pointer that moves), each H.264 30 fps with stereo AAC, 1, 10 or 60 minutes long.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { ffmpegPath } from '../engine/ffmpeg/binaries.js';
import { FONT_FILES, PHOTO_NAMES, findMaterials } from './accuracy/materials.js';

export type SpeedKind = 'pattern' | 'slideshow' | 'screen';

export interface SpeedMedia {
  kind: SpeedKind;
  height: 720 | 1080;
  minutes: number;
}

const dir = resolve(import.meta.dirname, '../../.cache/bench');
const FPS = 30;
const SLIDE_SECONDS = 5;
/** One screen-recording cycle: a command typed, its output printed line by line, then the next command. */
const SCREEN_CYCLE_SECONDS = 30;

export const mediaLabel = (m: SpeedMedia) => `${m.height}p ${{ pattern: 'test pattern', slideshow: 'captioned slideshow', screen: 'screen recording' }[m.kind]}, ${m.minutes} min`;

/** Why this machine cannot make the file (a missing apt package), or null. */
export function mediaUnavailable(m: SpeedMedia): string | null {
  const materials = findMaterials();
  if (m.kind === 'slideshow' && (!materials.photos.path || !materials.fonts.path)) return 'needs apt-get install mate-backgrounds fonts-liberation';
  if (m.kind === 'screen' && !materials.fonts.path) return 'needs apt-get install fonts-liberation';
  return null;
}

/** A bench file's picture size. */
export const size = (m: SpeedMedia) => (m.height === 720 ? { w: 1280, h: 720 } : { w: 1920, h: 1080 });
const font = (name: keyof typeof FONT_FILES) => join(findMaterials().fonts.path ?? '', FONT_FILES[name]);

/** A 60-second loop of the 12 photographs, each panned slowly across (every pixel moves in every frame). */
function slideshowLoopArgs(m: SpeedMedia): { inputs: string[]; graph: string } {
  const { w, h } = size(m);
  const photos = findMaterials().photos.path ?? '';
  const inputs = PHOTO_NAMES.flatMap((p) => ['-loop', '1', '-framerate', String(FPS), '-t', String(SLIDE_SECONDS), '-i', join(photos, `${p}.jpg`)]);
  const [sw, sh] = [Math.round(w * 1.15 / 2) * 2, Math.round(h * 1.15 / 2) * 2];
  const panned = PHOTO_NAMES.map(
    (_, i) => `[${i}:v]scale=${sw}:${sh}:force_original_aspect_ratio=increase,crop=${sw}:${sh},crop=${w}:${h}:x='(in_w-out_w)*t/${SLIDE_SECONDS}':y='(in_h-out_h)*${i % 2 ? '(1-t/' + SLIDE_SECONDS + ')' : 't/' + SLIDE_SECONDS}',setsar=1,format=yuv420p[p${i}]`,
  );
  const concat = `${PHOTO_NAMES.map((_, i) => `[p${i}]`).join('')}concat=n=${PHOTO_NAMES.length}:v=1:a=0[loop]`;
  return { inputs, graph: [...panned, concat].join(';') };
}

function esc(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/:/g, '\\:').replace(/%/g, '\\%');
}

/** Captions as burned-in subtitles: white with a black outline, bottom centre, a new one every 4 s. */
function captionFilter(m: SpeedMedia): string {
  const { h } = size(m);
  const sentences = ['A quiet morning in the garden', 'Rain moves in over the meadow', 'The dune holds the last light', 'Flowers open after the storm'];
  return sentences
    .map((s, k) => {
      const n = sentences.length;
      const text = `${esc(s)} (part %{eif\\:trunc(t/${4 * n})+1\\:d})`;
      return `drawtext=fontfile=${font('sansBold')}:text='${text}':fontsize=${Math.round(h / 16)}:fontcolor=white:borderw=3:bordercolor=black:x=(w-tw)/2:y=h-${Math.round(h / 6)}:enable='eq(mod(trunc(t/4)\\,${n})\\,${k})'`;
    })
    .join(',');
}

const TERMINAL_LINES = [
  { at: 0, text: '~/project $ npm run build', typed: true },
  { at: 3, text: 'compiled 42 files in 3.1 s' },
  { at: 4, text: 'build finished without errors' },
  { at: 6, text: '~/project $ npm test', typed: true },
  { at: 9, text: 'test/engine.test.ts  18 passed' },
  { at: 10, text: 'test/service.test.ts  24 passed' },
  { at: 11, text: 'test/http.test.ts  31 passed' },
  { at: 12.5, text: '73 tests passed in 9.4 s' },
  { at: 15, text: '~/project $ git status', typed: true },
  { at: 18, text: 'On branch main, nothing to commit' },
  { at: 21, text: '~/project $ ls dist', typed: true },
  { at: 24, text: 'engine  src  tools  http  bench' },
];

/** A terminal over a plain wallpaper: each cycle's lines typed (revealed a character at a time) or printed at once. */
function screenFilter(m: SpeedMedia): string {
  const { w, h } = size(m);
  const k = h / 720;
  const fontSize = Math.round(24 * k);
    const lineH = Math.round(34 * k);
  const [x0, y0] = [Math.round(88 * k), Math.round(110 * k)];
  const win = `drawbox=x=${Math.round(64 * k)}:y=${Math.round(48 * k)}:w=${Math.round(w - 128 * k)}:h=${Math.round(h - 96 * k)}:color=0x1e1e1e:t=fill`;
  const bar = `drawbox=x=${Math.round(64 * k)}:y=${Math.round(48 * k)}:w=${Math.round(w - 128 * k)}:h=${Math.round(40 * k)}:color=0x3c3c3c:t=fill`;
  const cycle = `mod(t\\,${SCREEN_CYCLE_SECONDS})`;
  const shown = (from: number, to: number) => `enable='between(${cycle}\\,${from.toFixed(3)}\\,${to.toFixed(3)})'`;
  const lines = TERMINAL_LINES.flatMap((l, i) => {
    const y = y0 + i * lineH;
    const draw = (text: string, enable: string) => `drawtext=fontfile=${font('mono')}:text='${esc(text)}':fontsize=${fontSize}:fontcolor=0xd4d4d4:x=${x0}:y=${y}:${enable}`;
    if (!l.typed) return [draw(l.text, shown(l.at, SCREEN_CYCLE_SECONDS))];
    // Typing: the prompt, then one more character every 1/12 s.
    const prompt = 12;
    const typedFrom = l.at + 0.5;
    const steps = Array.from({ length: l.text.length - prompt }, (_, k) => draw(l.text.slice(0, prompt + k), shown(k === 0 ? l.at : typedFrom + k / 12, typedFrom + (k + 1) / 12)));
    return [...steps, draw(l.text, shown(typedFrom + (l.text.length - prompt) / 12, SCREEN_CYCLE_SECONDS))];
  });
  const title = `drawtext=fontfile=${font('sans')}:text='Terminal (session %{eif\\:trunc(t/${SCREEN_CYCLE_SECONDS})+1\\:d})':fontsize=${Math.round(18 * k)}:fontcolor=0xcccccc:x=${Math.round(80 * k)}:y=${Math.round(58 * k)}`;
  const pointer = `drawtext=fontfile=${font('sansBold')}:text='+':fontsize=${Math.round(32 * k)}:fontcolor=white:x='${Math.round(w * 0.6)}+${Math.round(200 * k)}*sin(t/3)':y='${Math.round(h * 0.7)}+${Math.round(80 * k)}*sin(t/5)'`;
  return [win, bar, title, ...lines, pointer].join(',');
}

const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '60'];

/** The minute of panned photographs the slideshows loop (captions are drawn over the loop, so they run on). */
async function slideshowLoop(m: SpeedMedia): Promise<string> {
  const out = join(dir, `speed-slideshow-loop-${m.height}p.mp4`);
  if (existsSync(out)) return out;
  const loop = slideshowLoopArgs(m);
  await execa(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...loop.inputs, '-filter_complex', loop.graph, '-map', '[loop]', ...X264, '-an', `${out}.part.mp4`], {
    stdin: 'ignore',
    timeout: 3_600_000,
  });
  renameSync(`${out}.part.mp4`, out);
  return out;
}

/** The file for `m`, generated on first use. */
export async function speedMedia(m: SpeedMedia): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `speed-${m.kind}-${m.height}p-${m.minutes}min.mp4`);
  if (existsSync(out)) return out;
  const seconds = m.minutes * 60;
  const { w, h } = size(m);
  process.stderr.write(`generating ${out} ...\n`);
  const audio = ['-f', 'lavfi', '-t', String(seconds), '-i', `anoisesrc=c=pink:a=0.05:r=48000,volume='0.5+0.5*sin(t)':eval=frame`];
  let inputs: string[];
  let graph: string;
  if (m.kind === 'pattern') {
    inputs = ['-f', 'lavfi', '-i', `testsrc2=s=${w}x${h}:r=${FPS}:d=${seconds}`, ...audio];
    graph = '[0:v]format=yuv420p[v]';
  } else if (m.kind === 'slideshow') {
    inputs = ['-stream_loop', '-1', '-i', await slideshowLoop(m), ...audio];
    graph = `[0:v]${captionFilter(m)},format=yuv420p[v]`;
  } else {
    inputs = ['-f', 'lavfi', '-i', `color=c=0x2d5a7b:s=${w}x${h}:r=${FPS}:d=${seconds}`, ...audio];
    graph = `[0:v]${screenFilter(m)},format=yuv420p[v]`;
  }
  await execa(ffmpegPath(), [
    '-hide_banner', '-loglevel', 'error', '-y', ...inputs,
    '-filter_complex', graph, '-map', '[v]', '-map', '1:a', '-t', String(seconds),
    ...X264,
    '-c:a', 'aac', '-b:a', '160k', '-ac', '2', `${out}.part.mp4`,
  ], { stdin: 'ignore', timeout: 3_600_000 });
  renameSync(`${out}.part.mp4`, out);
  return out;
}
