// Building blocks of the accuracy corpus: photo moves, sequences with cuts and crossfades, espeak-ng narration placed
// at given times, synthesised music beds, mastering to a loudness target, captions and the final encodes. Each block
// is a cached part (parts.ts); every tool is the bundled ffmpeg (the engine's own) or espeak-ng.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ffmpegEbur128 } from './meters.js';
import { BITEXACT, ffmpeg, ffmpegPart, Parts, runBinary } from './parts.js';
import { FONT_FILES, type FontName, type Materials, type PhotoName, type RecordedSpeechName } from './materials.js';

export interface Kit {
  parts: Parts;
  materials: Materials;
}

const need = (path: string | null, what: string): string => {
  if (!path) throw new Error(`${what} is not installed`);
  return path;
};
const photoFile = (kit: Kit, name: PhotoName) => join(need(kit.materials.photos.path, 'mate-backgrounds'), `${name}.jpg`);
export const fontFile = (kit: Kit, name: FontName) => join(need(kit.materials.fonts.path, 'fonts-liberation'), FONT_FILES[name]);
const soundFile = (kit: Kit, name: string) => join(need(kit.materials.sounds.path, 'sound-theme-freedesktop'), `${name}.oga`);
const recordedFile = (kit: Kit, name: RecordedSpeechName) => join(need(kit.materials.recordedSpeech.path, 'alsa-utils'), `${name}.wav`);

const require = createRequire(import.meta.url);
/** DejaVu Sans Bold from the dejavu-fonts-ttf dev dependency: the one font every machine with node_modules has. */
const DEJAVU_BOLD = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Bold.ttf');

export const FPS = 30;
const RATE = 48000;
/** Fixed thread count: x264 output depends on it, so the same recipe gives the same bytes on any machine. */
export const X264_PART = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p', '-threads', '2'];
const X264_FINAL = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-threads', '2', '-movflags', '+faststart'];
const F32 = ['-c:a', 'pcm_f32le', '-ar', String(RATE)];
const AAC = ['-c:a', 'aac', '-b:a', '160k', '-ar', String(RATE)];

const num = (n: number) => Number(n.toFixed(4)).toString();
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
/** A filter option value in single quotes (paths and expressions with commas). */
const q = (s: string) => {
  if (s.includes("'")) throw new Error(`cannot quote ${s} for a filter graph`);
  return `'${s}'`;
};

// ------------------------------------------------------------------------------------------------------------ picture

export interface Move {
  photo: PhotoName;
  seconds: number;
  /** Zoom at the first and last frame (1 = the whole cover-cropped photo). */
  zoom?: [number, number];
  /** Where the zoomed window sits in the free space, 0..1 for x and y, at the first and last frame. */
  from?: [number, number];
  to?: [number, number];
}

/** A recorded clip used as a shot (e.g. colour bars). */
export interface Shot {
  path: string;
  seconds: number;
}

const isMove = (s: Move | Shot): s is Move => 'photo' in s;

/** The filter chain that turns a looped photo into a w×h Ken Burns move of `m.seconds` (zoom 1→1, from = to: a held still). */
function moveChain(m: Move, w: number, h: number, fps: number): string {
  const n = Math.round(m.seconds * fps);
  const [z0, z1] = m.zoom ?? [1, 1];
  const [x0, y0] = m.from ?? [0.5, 0.5];
  const [x1, y1] = m.to ?? m.from ?? [0.5, 0.5];
  // Upscale first so zoompan's whole-pixel crop positions move in sub-pixel steps of the output (up to 1920 px).
  const scale = Math.max(1, Math.min(1.5, 1920 / Math.max(w, h)));
  const [sw, sh] = [even(w * scale), even(h * scale)];
  const lerp = (a: number, b: number) => `(${num(a)})+(${num(b - a)})*on/${Math.max(1, n - 1)}`;
  // The photo is decoded and scaled once, then repeated: a looped image input would decode the JPEG for every frame.
  return [
    `scale=${sw}:${sh}:force_original_aspect_ratio=increase`,
    `crop=${sw}:${sh}`,
    'setsar=1',
    `loop=loop=${n}:size=1`,
    `setpts=N/${fps}/TB`,
    `zoompan=z=${q(lerp(z0, z1))}:x=${q(`(iw-iw/zoom)*(${lerp(x0, x1)})`)}:y=${q(`(ih-ih/zoom)*(${lerp(y0, y1)})`)}:d=1:s=${w}x${h}:fps=${fps}`,
    `trim=end_frame=${n}`,
  ].join(',');
}

/**
 * Photo moves and clips one after another in one pass: `fades[i]` is the crossfade into shot i+1 in seconds (0 = a
 * hard cut). Crossfaded shots are laid over a black canvas at their start times, so the timeline is exact and nothing
 * is re-timed; cuts alone are concatenated. `post` is a filter chain applied to the whole picture (e.g. flashes).
 */
export function sequence(kit: Kit, shots: (Move | Shot)[], fades: number[], w: number, h: number, fps = FPS, post = ''): Promise<string> {
  const starts: number[] = [];
  let t = 0;
  shots.forEach((s, i) => {
    if (i > 0) t -= fades[i - 1] ?? 0;
    starts.push(t);
    t += s.seconds;
  });
  const total = t;
  const crossfades = fades.some((f) => f > 0);
  const inputs = shots.flatMap((s) => ['-i', isMove(s) ? photoFile(kit, s.photo) : s.path]);
  const chains = shots.map((s, i) => {
    const fade = i > 0 ? (fades[i - 1] ?? 0) : 0;
    const source = isMove(s) ? `${moveChain(s, w, h, fps)},` : '';
    const fadeIn = fade > 0 ? `format=yuva420p,fade=t=in:st=0:d=${num(fade)}:alpha=1,` : 'format=yuv420p,';
    return `[${i}:v]${source}${fadeIn}setpts=PTS-STARTPTS${crossfades ? `+${num(starts[i])}/TB` : ''}[s${i}]`;
  });
  const tail = `${post ? `${post},` : ''}format=yuv420p`;
  let graph: string;
  if (!crossfades) graph = `${chains.join(';')};${shots.map((_, i) => `[s${i}]`).join('')}concat=n=${shots.length}:v=1:a=0,${tail}`;
  else {
    graph = `color=c=black:s=${w}x${h}:r=${fps}:d=${num(total)}[c0];${chains.join(';')}`;
    shots.forEach((_, i) => (graph += `;[c${i}][s${i}]overlay=eof_action=pass${i === shots.length - 1 ? `,${tail}` : `[c${i + 1}]`}`));
  }
  return ffmpegPart(kit.parts, 'sequence', 'mp4', [...inputs, '-filter_complex', graph, '-frames:v', String(Math.round(total * fps)), ...X264_PART, ...BITEXACT]);
}

/** One photo move as a clip. */
export const photoMove = (kit: Kit, m: Move, w: number, h: number, fps = FPS, post = ''): Promise<string> => sequence(kit, [m], [], w, h, fps, post);

/** Runs a video filter over a part (defect injection, letterboxing, overlays), keeping its timeline. */
export function filterVideo(kit: Kit, stem: string, input: string, filter: string, extraInputs: string[] = []): Promise<string> {
  const complex = filter.includes('[');
  return ffmpegPart(kit.parts, stem, 'mp4', ['-i', input, ...extraInputs.flatMap((p) => ['-i', p]), ...(complex ? ['-filter_complex', filter] : ['-vf', filter]), ...X264_PART, ...BITEXACT]);
}

// ------------------------------------------------------------------------------------------------------------ text

export type CaptionStyle = 'outlined' | 'boxed' | 'plain';

export interface TextDraw {
  text: string;
  font: FontName | 'dejavuBold';
  size: number;
  color: string;
  /** drawtext position expressions (w, h, text_w, text_h). */
  x: string;
  y: string;
  style?: CaptionStyle;
  /** Outline width for 'outlined' (default size/14) and box padding for 'boxed' (default size/4). */
  border?: number;
  boxColor?: string;
  start?: number;
  end?: number;
}

/** The text as a file: drawtext reads it with no escaping and no expansion. */
function textFile(kit: Kit, text: string): Promise<string> {
  return kit.parts.make('text', 'txt', text, async (out) => writeFileSync(out, text));
}

async function drawtext(kit: Kit, d: TextDraw): Promise<string> {
  const font = d.font === 'dejavuBold' ? DEJAVU_BOLD : fontFile(kit, d.font);
  const opts = [`fontfile=${q(font)}`, `textfile=${q(await textFile(kit, d.text))}`, 'expansion=none', `fontsize=${d.size}`, `fontcolor=${d.color}`, `x=${q(d.x)}`, `y=${q(d.y)}`];
  if (d.style === 'outlined') opts.push(`borderw=${d.border ?? Math.max(2, Math.round(d.size / 14))}`, 'bordercolor=black');
  if (d.style === 'boxed') opts.push('box=1', `boxcolor=${d.boxColor ?? 'black@0.6'}`, `boxborderw=${d.border ?? Math.round(d.size / 4)}`);
  if (d.start !== undefined && d.end !== undefined) opts.push(`enable=${q(`between(t,${num(d.start)},${num(d.end)})`)}`);
  return `drawtext=${opts.join(':')}`;
}

export async function drawtexts(kit: Kit, draws: TextDraw[]): Promise<string> {
  return (await Promise.all(draws.map((d) => drawtext(kit, d)))).join(',');
}

// ------------------------------------------------------------------------------------------------------------ sound

/** Duration of a PCM WAV (espeak-ng's output, alsa-utils' prompts), seconds. */
function wavSeconds(path: string): number {
  const b = readFileSync(path);
  const rate = b.readUInt32LE(24);
  const blockAlign = b.readUInt16LE(32);
  let at = 12;
  while (at + 8 <= b.length) {
    const id = b.toString('ascii', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'data') return Math.min(size, b.length - at - 8) / blockAlign / rate;
    at += 8 + size + (size % 2);
  }
  throw new Error(`no data chunk in ${path}`);
}

export interface Phrase {
  /** Start of the phrase in the programme, seconds. */
  at: number;
  text: string;
  /** espeak-ng voice (default en-us) and words per minute (default 165). */
  voice?: string;
  wpm?: number;
  /** Latest end allowed (e.g. the caption it belongs to); the build fails if the phrase runs over. */
  endBy?: number;
}

/** One phrase spoken by espeak-ng: a 22.05 kHz mono WAV. */
async function speak(kit: Kit, text: string, voice = 'en-us', wpm = 165): Promise<{ path: string; seconds: number }> {
  const espeak = need(kit.materials.speech.path, 'espeak-ng');
  const args = ['-v', voice, '-s', String(wpm)];
  const path = await kit.parts.make('speech', 'wav', { espeak: [...args, text] }, (out) => runBinary(espeak, [...args, '-w', out, text]).then(() => undefined));
  return { path, seconds: wavSeconds(path) };
}

/** Recorded speech (alsa-utils' voice prompts) placed like a phrase. */
export interface RecordedClip {
  at: number;
  recorded: RecordedSpeechName;
}

export interface VoiceOptions {
  /**
   * Longest pause allowed at the head, between clips and at the tail, seconds: speech with nothing under it must pause
   * naturally (0.5–1.5 s), or a clean control would hold dead air. The build fails when the script breaks it.
   */
  maxPause?: number;
}

/**
 * Phrases (espeak-ng) and recorded clips placed at their times with silence between, mono 48 kHz float, exactly
 * `seconds` long.
 */
export async function voiceTrack(kit: Kit, items: (Phrase | RecordedClip)[], seconds: number, opts: VoiceOptions = {}): Promise<string> {
  const clips = await Promise.all(
    items.map(async (item) => {
      if ('recorded' in item) {
        const path = recordedFile(kit, item.recorded);
        return { at: item.at, text: item.recorded, path, seconds: wavSeconds(path) };
      }
      return { at: item.at, endBy: item.endBy, text: item.text, ...(await speak(kit, item.text, item.voice, item.wpm)) };
    }),
  );
  return placeClips(kit, clips, seconds, opts.maxPause);
}

export const narration = (kit: Kit, phrases: Phrase[], seconds: number, opts: VoiceOptions = {}) => voiceTrack(kit, phrases, seconds, opts);

async function placeClips(kit: Kit, clips: { at: number; endBy?: number; text: string; path: string; seconds: number }[], seconds: number, maxPause?: number): Promise<string> {
  let cursor = 0;
  const pieces: string[] = [];
  const labels: string[] = [];
  const problems: string[] = [];
  clips.forEach((c, i) => {
    const gap = c.at - cursor;
    if (gap < 0) problems.push(`"${c.text}" starts at ${c.at} s but the previous clip runs to ${cursor.toFixed(2)} s`);
    if (maxPause !== undefined && gap > maxPause) problems.push(`${gap.toFixed(2)} s pause before "${c.text}" (at most ${maxPause} s)`);
    if (c.endBy !== undefined && c.at + c.seconds > c.endBy) problems.push(`"${c.text}" (${c.seconds.toFixed(2)} s) runs past ${c.endBy} s`);
    pieces.push(`anullsrc=r=${RATE}:cl=mono,atrim=duration=${num(Math.max(0, gap))}[g${i}]`, `[${i}:a]aresample=${RATE},aformat=sample_fmts=flt:channel_layouts=mono[p${i}]`);
    labels.push(`[g${i}][p${i}]`);
    cursor = c.at + c.seconds;
  });
  if (cursor > seconds) problems.push(`speech runs to ${cursor.toFixed(2)} s, past the programme's ${seconds} s`);
  if (maxPause !== undefined && seconds - cursor > maxPause) problems.push(`${(seconds - cursor).toFixed(2)} s of silence at the tail (at most ${maxPause} s)`);
  if (problems.length) throw new Error(`voice track: ${problems.join('; ')}`);
  const graph = `${pieces.join(';')};${labels.join('')}concat=n=${clips.length * 2}:v=0:a=1,apad,atrim=duration=${num(seconds)}`;
  const inputs = clips.flatMap((c) => ['-i', c.path]);
  return ffmpegPart(kit.parts, 'voice', 'wav', [...inputs, '-filter_complex', graph, ...F32, '-ac', '1', ...BITEXACT]);
}

/** Triads (Hz) of the music beds' progressions. */
const CHORDS: Record<string, [number, number, number]> = {
  Am: [220, 261.63, 329.63],
  F: [174.61, 220, 261.63],
  C: [261.63, 329.63, 392],
  G: [196, 246.94, 293.66],
  Em: [164.81, 196, 246.94],
  Dm: [146.83, 174.61, 220],
};
const PROGRESSIONS = [
  ['Am', 'F', 'C', 'G'],
  ['C', 'G', 'Am', 'F'],
  ['Dm', 'Am', 'Em', 'Am'],
];

/** Every music bed is this long; programmes take the part they need (mix trims). */
const MUSIC_BED_SECONDS = 16;

/**
 * A synthesised music bed: a plucked triad on every beat, the root an octave down on the bar, a noise hi-hat on the
 * off-beat, the two channels voiced apart. Envelopes start from zero, so chord changes do not click.
 */
export function musicBed(kit: Kit, variant = 0, bpm = 112): Promise<string> {
  const seconds = MUSIC_BED_SECONDS;
  const beat = 60 / bpm;
  const bar = beat * 4;
  const prog = PROGRESSIONS[variant % PROGRESSIONS.length];
  const pick = (tone: (c: [number, number, number]) => number) => {
    const freqs = prog.map((name) => num(tone(CHORDS[name])));
    return `if(eq(mod(floor(t/${num(bar)}),4),0),${freqs[0]},if(eq(mod(floor(t/${num(bar)}),4),1),${freqs[1]},if(eq(mod(floor(t/${num(bar)}),4),2),${freqs[2]},${freqs[3]})))`;
  };
  const env = (period: number, decay: number, shift = 0) => `(1-exp(-300*mod(t-${num(shift)},${num(period)})))*exp(-${decay}*mod(t-${num(shift)},${num(period)}))`;
  const tone = (i: 0 | 1 | 2, gain: number, detune = 1) => `${gain}*sin(2*PI*${pick((c) => c[i] * detune)}*t)*${env(beat, 3.5)}`;
  const bass = `0.22*sin(2*PI*${pick((c) => c[0] / 2)}*t)*${env(bar / 2, 1.6)}`;
  const hat = `0.035*(2*random(0)-1)*${env(beat, 45, beat / 2)}`;
  const left = [tone(0, 0.09), tone(1, 0.07), tone(2, 0.05, 1.003), bass, hat].join('+');
  const right = [tone(0, 0.07, 1.002), tone(1, 0.09), tone(2, 0.06), bass, hat].join('+');
  const src = `aevalsrc=exprs=${q(`${left}|${right}`)}:s=${RATE}:d=${num(seconds)}`;
  return ffmpegPart(kit.parts, 'music', 'wav', ['-f', 'lavfi', '-i', src, ...F32, ...BITEXACT]);
}

/** A recorded event sound (camera shutter, bell) placed at each time, stereo 48 kHz float. */
export function soundAt(kit: Kit, name: string, times: number[], seconds: number): Promise<string> {
  const file = soundFile(kit, name);
  // The recording's own lead-in silence is cut, so the sound starts at its time (a clapper's click is on the clap).
  const graph = `[0:a]silenceremove=start_periods=1:start_threshold=-60dB,asplit=${times.length}${times.map((_, i) => `[s${i}]`).join('')};${times.map((t, i) => `[s${i}]aresample=${RATE},aformat=sample_fmts=flt:channel_layouts=stereo,adelay=${Math.round(t * 1000)}|${Math.round(t * 1000)},apad,atrim=duration=${num(seconds)}[e${i}]`).join(';')};${times.map((_, i) => `[e${i}]`).join('')}amix=inputs=${times.length},volume=${times.length}`;
  return ffmpegPart(kit.parts, `sound-${name}`, 'wav', ['-i', file, '-filter_complex', graph, ...F32, ...BITEXACT]);
}

/** Voice (mono, centred in both channels) over stereo beds at their own gains (dB), or beds alone; stereo float. */
export function mix(kit: Kit, voice: string | null, beds: { path: string; db: number }[], seconds: number): Promise<string> {
  const inputs = [...(voice ? [voice] : []), ...beds.map((b) => b.path)];
  const parts: string[] = [];
  const labels: string[] = [];
  if (voice) {
    parts.push(`[0:a]aformat=sample_fmts=flt:channel_layouts=mono,pan=stereo|c0=c0|c1=c0,apad,atrim=duration=${num(seconds)}[m0]`);
    labels.push('[m0]');
  }
  beds.forEach((b, i) => {
    const at = i + (voice ? 1 : 0);
    parts.push(`[${at}:a]aformat=sample_fmts=flt:channel_layouts=stereo,volume=${num(b.db)}dB,apad,atrim=duration=${num(seconds)}[m${at}]`);
    labels.push(`[m${at}]`);
  });
  const graph = labels.length === 1 ? `${parts[0].replace(/\[m0\]$/, '')}` : `${parts.join(';')};${labels.join('')}amix=inputs=${labels.length}:duration=first,volume=${labels.length}`;
  return ffmpegPart(kit.parts, 'mix', 'wav', [...inputs.flatMap((p) => ['-i', p]), '-filter_complex', graph, ...F32, ...BITEXACT]);
}

/** Any audio filter over a float WAV part (defects: silence, clipping, a dead channel, a content delay). */
export function filterAudio(kit: Kit, stem: string, input: string, filter: string): Promise<string> {
  return ffmpegPart(kit.parts, stem, 'wav', ['-i', input, '-af', filter, ...F32, ...BITEXACT]);
}

/** The mastering method, part of every master's cache key: changing it re-masters. */
const MASTERING = { limiter: 'attack=5:release=60:level=disabled', headroomDb: 0.5, toleranceLu: 0.05, passes: 8, codec: F32 };

/**
 * Gain to `targetLufs` (measured by ffmpeg's ebur128), with a look-ahead limiter when the gain would push the true
 * peak over `ceilingDbtp`; re-measured and trimmed until within 0.05 LU.
 */
export function master(kit: Kit, input: string, targetLufs: number, ceilingDbtp: number, mono = false): Promise<string> {
  const m = MASTERING;
  return kit.parts.make('master', 'wav', { input, targetLufs, ceilingDbtp, mono, method: m }, async (out) => {
    const measured = await ffmpegEbur128(input, mono);
    if (measured.integratedLufs === null || measured.truePeakDbtp === null) throw new Error(`cannot master silence (${input})`);
    let gain = targetLufs - measured.integratedLufs;
    if (measured.truePeakDbtp + gain <= ceilingDbtp) {
      await ffmpeg(['-i', input, '-af', `volume=${num(gain)}dB`, ...m.codec, ...BITEXACT, out]);
      return;
    }
    // Limiting costs loudness: search the gain (always from the original input) that lands on the target after the
    // limiter, and lower the limiter's sample-peak limit when inter-sample peaks still pass the true-peak ceiling.
    let limitDb = ceilingDbtp - m.headroomDb;
    const trial = `${out}.trial.wav`;
    try {
      for (let pass = 0; pass < m.passes; pass++) {
        await ffmpeg(['-i', input, '-af', `volume=${num(gain)}dB,alimiter=limit=${num(10 ** (limitDb / 20))}:${m.limiter}`, ...m.codec, ...BITEXACT, trial]);
        const r = await ffmpegEbur128(trial, mono);
        const miss = targetLufs - (r.integratedLufs ?? targetLufs);
        const peakOver = (r.truePeakDbtp ?? -Infinity) - ceilingDbtp;
        if (Math.abs(miss) < m.toleranceLu && peakOver <= 0) break;
        gain += miss;
        if (peakOver > 0) limitDb -= peakOver + 0.1;
      }
      renameSync(trial, out);
    } finally {
      rmSync(trial, { force: true });
    }
  });
}

// ------------------------------------------------------------------------------------------------------------ finals

export interface FinalVideo {
  name: string;
  video: string;
  /** Extra video filter (captions) applied in the final encode. */
  vf?: string;
  audio?: string | null;
  seconds: number;
  /** Audio encoding: AAC (default) or 24-bit PCM for a broadcast mezzanine. */
  audioCodec?: 'aac' | 'pcm_s24le';
  container?: 'mp4' | 'mov';
  /** Picture encoding override (the mezzanine's 4:2:2). */
  videoArgs?: string[];
  /** Input options for the audio (e.g. -itsoffset for a container offset). */
  audioInputArgs?: string[];
}

/** The corpus file: H.264 + AAC in MP4 unless told otherwise, with the picture filter applied. */
export function finalVideo(kit: Kit, f: FinalVideo): Promise<string> {
  const container = f.container ?? 'mp4';
  const audioArgs = f.audio ? (f.audioCodec === 'pcm_s24le' ? ['-c:a', 'pcm_s24le', '-ar', String(RATE)] : AAC) : ['-an'];
  const videoArgs = f.videoArgs ?? X264_FINAL;
  const args = [
    '-i', f.video,
    ...(f.audio ? [...(f.audioInputArgs ?? []), '-i', f.audio] : []),
    ...(f.vf ? ['-vf', f.vf] : []),
    '-map', '0:v:0', ...(f.audio ? ['-map', '1:a:0'] : []),
    ...videoArgs, ...audioArgs,
    '-t', num(f.seconds),
    ...BITEXACT,
  ];
  return ffmpegPart(kit.parts, f.name, container, args, true);
}

/** An audio-only corpus file (podcast, music): AAC in M4A, MP3 or 16-bit WAV. */
export function finalAudio(kit: Kit, name: string, audio: string, format: 'm4a' | 'mp3' | 'wav', mono = false): Promise<string> {
  const codec = format === 'm4a' ? ['-c:a', 'aac', '-b:a', '128k'] : format === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '160k'] : ['-c:a', 'pcm_s16le'];
  const args = ['-i', audio, ...codec, '-ar', String(RATE), '-ac', mono ? '1' : '2', ...BITEXACT];
  return ffmpegPart(kit.parts, name, format, args, true);
}

/** A 1280×720 thumbnail: the photo cover-cropped, with text drawn on it, as JPEG or PNG. */
export async function finalThumbnail(kit: Kit, name: string, photo: PhotoName, texts: TextDraw[], format: 'jpg' | 'png'): Promise<string> {
  const file = photoFile(kit, photo);
  const draw = texts.length ? `,${await drawtexts(kit, texts)}` : '';
  const vf = `scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,setsar=1${draw}`;
  const args = ['-i', file, '-vf', vf, '-frames:v', '1', ...(format === 'jpg' ? ['-q:v', '3'] : []), ...BITEXACT];
  return ffmpegPart(kit.parts, name, format, args, true);
}
