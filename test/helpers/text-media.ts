// Test media with text in the picture, drawn by the bundled ffmpeg's drawtext with a DejaVu font from the
// dejavu-fonts-ttf dev dependency (so the tests never depend on the machine's fonts).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { generate } from './media.js';

const require = createRequire(import.meta.url);
export const FONT = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf');

export interface DrawnText {
  text: string;
  size: number;
  color: string;
  x: string;
  y: string;
  /** drawtext `enable` expression, e.g. between(t,2,8). */
  enable?: string;
  box?: string;
  /** A black outline this many px wide. */
  border?: number;
}

/** One drawtext filter; text is single-quoted, so it must not contain quotes, colons, commas or percent signs. */
export function drawtext(d: DrawnText): string {
  const parts = [`fontfile=${FONT}`, `text='${d.text}'`, `fontsize=${d.size}`, `fontcolor=${d.color}`, `x=${d.x}`, `y=${d.y}`];
  if (d.enable) parts.push(`enable='${d.enable}'`);
  if (d.box) parts.push('box=1', `boxcolor=${d.box}`, 'boxborderw=12');
  if (d.border) parts.push(`borderw=${d.border}`, 'bordercolor=black');
  return `drawtext=${parts.join(':')}`;
}

/** A video of `source` (a lavfi source without duration) with texts drawn on it, H.264 in MP4. */
export function textVideo(name: string, source: string, seconds: number, texts: DrawnText[]): Promise<string> {
  const filters = texts.map(drawtext).join(',');
  return generate(`${name}.mp4`, ['-f', 'lavfi', '-i', source, ...(filters ? ['-vf', filters] : []), '-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-an']);
}

/** A still image (PNG) of `source` with texts drawn on it, then the `after` filters (e.g. hflip) applied to the whole. */
export function textImage(name: string, source: string, texts: DrawnText[], after: string[] = []): Promise<string> {
  const filters = [...texts.map(drawtext), ...after].join(',');
  return generate(`${name}.png`, ['-f', 'lavfi', '-i', source, ...(filters ? ['-vf', filters] : []), '-frames:v', '1']);
}
