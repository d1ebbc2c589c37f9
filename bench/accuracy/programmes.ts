// The clean programmes of the accuracy corpus, as picture and sound parts. Corpus entries encode them as they are
// (the clean controls) or inject one defect into a copy, so every defect has its clean control beside it.
import { BITEXACT, ffmpegPart } from './parts.js';
import { FPS, X264_PART, drawtexts, filterAudio, filterVideo, master, mix, musicBed, narration, photoMove, sequence, soundAt, voiceTrack, type CaptionStyle, type Kit, type Move, type Phrase, type TextDraw } from './recipes.js';
import type { TextLine } from './expectations.js';

/** Loudness targets the clean programmes are mastered to (the delivery profile's) and the true-peak ceilings. */
export const WEB_LUFS = -14;
export const PODCAST_LUFS = -16;
const BROADCAST_LUFS = -23;
/** AAC's decoder overshoots a little: master lossy deliveries with headroom under the −1 dBTP ceilings. */
export const LOSSY_CEILING = -2;
const CLICK_CEILING = -3;
const PCM_CEILING = -1.5;

export interface Programme {
  seconds: number;
  /** null for a programme without picture. */
  video: Promise<string> | null;
  /** The mix before mastering (for defects that change the sound and are then re-mastered). */
  mix: Promise<string>;
  /** Mastered to the programme's target. */
  audio: Promise<string>;
}

/** A room-tone floor (about −66 dBFS RMS) under recorded and synthesised speech: real pauses are never digital zero. */
const ROOM_TONE_DB = -66;
export function roomTone(kit: Kit, seconds: number): Promise<string> {
  return ffmpegPart(kit.parts, 'roomtone', 'wav', ['-f', 'lavfi', '-i', `anoisesrc=c=pink:r=48000:a=${(10 ** (ROOM_TONE_DB / 20) * 2).toFixed(6)}:seed=7:d=${seconds}`, '-ac', '2', '-c:a', 'pcm_f32le', ...BITEXACT]);
}

/** Pauses in speech with nothing under it stay natural (issue 14: 0.5–1.5 s). */
export const NATURAL_PAUSE = { maxPause: 1.5 };

async function voiceOverMusic(kit: Kit, phrases: Phrase[], seconds: number, music: { variant: number; db: number } | null): Promise<string> {
  const voice = await narration(kit, phrases, seconds, music ? {} : NATURAL_PAUSE);
  const beds = [{ path: await roomTone(kit, seconds), db: 0 }];
  if (music) beds.push({ path: await musicBed(kit, music.variant), db: music.db });
  return mix(kit, voice, beds, seconds);
}

/**
 * A programme's parts start building at once and are awaited later, one after another: mark them handled so a
 * failure in one surfaces where it is awaited rather than as an unhandled rejection that ends the process.
 */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

function programme(kit: Kit, seconds: number, video: Promise<string> | null, mixed: Promise<string>, lufs = WEB_LUFS, ceiling = LOSSY_CEILING, mono = false): Programme {
  return { seconds, video: video && handled(video), mix: handled(mixed), audio: handled(mixed.then((m) => master(kit, m, lufs, ceiling, mono))) };
}

// ------------------------------------------------------------------------------------------------ narrated slideshows

const SLIDESHOW_PHRASES: Phrase[] = [
  { at: 0.5, text: 'Morning light spreads across the meadow.' },
  { at: 3.3, text: 'By noon, storm clouds gather in the west.' },
  { at: 6.6, text: 'The wind shapes the dunes along the coast.' },
];
const SLIDESHOW_MOVES: Move[] = [
  { photo: 'GreenMeadow', seconds: 2.5, zoom: [1, 1.08] },
  { photo: 'Storm', seconds: 2.5, zoom: [1.1, 1.1], from: [0.2, 0.5], to: [0.8, 0.5] },
  { photo: 'Dune', seconds: 2.5, zoom: [1.08, 1] },
  { photo: 'LadyBird', seconds: 2.5, zoom: [1, 1.1], from: [0.7, 0.5], to: [0.7, 0.5] },
];

/** 10 s, 16:9: four photos with slow Ken Burns moves and hard cuts, narration over a music bed. */
export function slideshowCuts(kit: Kit, w = 1280, h = 720): Programme {
  const video = sequence(kit, SLIDESHOW_MOVES, [0, 0, 0], w, h);
  return programme(kit, 10, video, voiceOverMusic(kit, SLIDESHOW_PHRASES, 10, { variant: 0, db: -20 }));
}

/** 11 s, 16:9: four photos, slow pans and zooms joined by 1 s crossfades, narration over music. */
export function slideshowCrossfades(kit: Kit): Programme {
  const moves: Move[] = [
    { photo: 'Garden', seconds: 3.5, zoom: [1, 1.1] },
    { photo: 'YellowFlower', seconds: 3.5, zoom: [1.12, 1.12], from: [0, 0.5], to: [1, 0.5] },
    { photo: 'TwoWings', seconds: 3.5, zoom: [1.12, 1] },
    { photo: 'RainDrops', seconds: 3.5, zoom: [1.1, 1.1], from: [0.5, 0], to: [0.5, 1] },
  ];
  const phrases: Phrase[] = [
    { at: 0.6, text: 'Gardens change with every season.' },
    { at: 3.8, text: 'Some flowers open only in the sun.' },
    { at: 7.4, text: 'Others wait for the evening rain.' },
  ];
  const video = sequence(kit, moves, [1, 1, 1], 1280, 720);
  return programme(kit, 11, video, voiceOverMusic(kit, phrases, 11, { variant: 1, db: -19 }));
}

/** 9 s, 16:9: three photos held still (no move) for 3 s each with hard cuts, a British voice, no music. */
export function slideshowHeld(kit: Kit): Programme {
  const moves: Move[] = [
    { photo: 'LadyBird', seconds: 3 },
    { photo: 'Blinds', seconds: 3 },
    { photo: 'FreshFlower', seconds: 3 },
  ];
  const phrases: Phrase[] = [
    { at: 0.5, text: 'Look closely at the smallest things.', voice: 'en-gb' },
    { at: 3.4, text: 'A beetle on a stem.', voice: 'en-gb' },
    { at: 6.2, text: 'A flower after the rain.', voice: 'en-gb' },
  ];
  const video = sequence(kit, moves, [0, 0], 1280, 720);
  return programme(kit, 9, video, voiceOverMusic(kit, phrases, 9, null));
}

/** 8 s: one photo, zoom 1.0 → 1.15 over the whole shot (the slow move of issue 14), music only. */
export function kenBurnsSlow(kit: Kit): Programme {
  const video = photoMove(kit, { photo: 'GreenMeadow', seconds: 8, zoom: [1, 1.15] }, 1280, 720);
  const music = (async () => mix(kit, null, [{ path: await musicBed(kit, 2, 96), db: 0 }], 8))();
  return programme(kit, 8, video, music);
}

/** 10 s: one continuous pan across a photo (moving footage throughout), narration over music. */
export function panShot(kit: Kit): Programme {
  const video = photoMove(kit, { photo: 'Dune', seconds: 10, zoom: [1.25, 1.25], from: [0, 0.4], to: [1, 0.6] }, 1280, 720);
  return programme(kit, 10, video, voiceOverMusic(kit, SLIDESHOW_PHRASES, 10, { variant: 2, db: -20 }));
}

const VERTICAL_PHRASES: Phrase[] = [
  { at: 0.5, text: 'Three small stories from one garden.' },
  { at: 3.5, text: 'A ladybird on a flower stem.' },
  { at: 6.4, text: 'And a flower facing the sun.' },
];

/** 9 s, 9:16: three vertical Ken Burns shots with 0.8 s crossfades, narration over music. */
export function slideshowVertical(kit: Kit, w = 1080, h = 1920): Programme {
  const moves: Move[] = [
    { photo: 'Garden', seconds: 3.53, zoom: [1, 1.1], from: [0.4, 0.5], to: [0.4, 0.5] },
    { photo: 'LadyBird', seconds: 3.53, zoom: [1.1, 1], from: [0.75, 0.5], to: [0.7, 0.5] },
    { photo: 'YellowFlower', seconds: 3.54, zoom: [1.05, 1.15], from: [0.6, 0.5], to: [0.6, 0.5] },
  ];
  const video = sequence(kit, moves, [0.8, 0.8], w, h);
  return programme(kit, 9, video, voiceOverMusic(kit, VERTICAL_PHRASES, 9, { variant: 0, db: -21 }));
}

// ------------------------------------------------------------------------------------------------ captioned programmes

export interface Caption {
  lines: string[];
  /** When the phrase is spoken; the caption shows from just before it until just before the next one. */
  at: number;
}

export interface CaptionLayout {
  w: number;
  h: number;
  size: number;
  /** Top of the first line, fraction of the height; lines are 1.3 × size apart. */
  top: number;
  style: CaptionStyle;
  color?: string;
  boxColor?: string;
  font?: TextDraw['font'];
}

export interface CaptionWindow extends Caption {
  start: number;
  end: number;
}

function captionWindows(captions: Caption[], seconds: number): CaptionWindow[] {
  return captions.map((c, i) => ({ ...c, start: Math.max(0, c.at - 0.1), end: i + 1 < captions.length ? captions[i + 1].at - 0.15 : seconds - 0.3 }));
}

function captionDraws(captions: Caption[], seconds: number, l: CaptionLayout): TextDraw[] {
  return captionWindows(captions, seconds).flatMap((c) =>
    c.lines.map((text, k) => ({
      text,
      font: l.font ?? 'sansBold',
      size: l.size,
      color: l.color ?? 'white',
      x: '(w-text_w)/2',
      y: `${Math.round(l.h * l.top + k * l.size * 1.3)}`,
      style: l.style,
      boxColor: l.boxColor,
      start: c.start,
      end: c.end,
    })),
  );
}

/** Ground truth for OCR recall: every caption line with its style and time on screen. */
export function captionTruth(captions: Caption[], seconds: number, style: TextLine['style']): TextLine[] {
  return captionWindows(captions, seconds).flatMap((c) => c.lines.map((text) => ({ text, style, start: c.start, end: c.end })));
}

/** A captioned programme (a 9:16 short or a 16:9 slideshow): a photo per caption, crossfaded, each caption spoken over music. */
export function captioned(kit: Kit, photos: Move['photo'][], captions: Caption[], seconds: number, musicVariant: number, w: number, h: number): Programme {
  const each = (seconds + (photos.length - 1) * 0.5) / photos.length;
  const moves: Move[] = photos.map((photo, i) => ({ photo, seconds: Number(each.toFixed(3)), zoom: i % 2 ? [1.12, 1.02] : [1.02, 1.12] }));
  const video = sequence(kit, moves, photos.slice(1).map(() => 0.5), w, h);
  const phrases = captionWindows(captions, seconds).map((c) => ({ at: c.at, text: c.lines.join(' '), endBy: c.end }));
  return programme(kit, seconds, video, voiceOverMusic(kit, phrases, seconds, { variant: musicVariant, db: -21 }));
}

/** The final picture filter for captions drawn on a programme. */
export const captionFilter = (kit: Kit, captions: Caption[], seconds: number, layout: CaptionLayout) => drawtexts(kit, captionDraws(captions, seconds, layout));

// ------------------------------------------------------------------------------------------------ other programmes

/** 10 s: a static shot (the garden photo held) where only a flower sways a few pixels, with narration. */
export function staticSway(kit: Kit): Programme {
  const seconds = 10;
  const video = (async () => {
    const still = await photoMove(kit, { photo: 'Garden', seconds }, 1280, 720);
    // A feathered 240 px disc around the flower head, swaying ±4 px: the only motion in the shot.
    const sway = [
      '[0:v]split[bg][src]',
      "[src]crop=240:240:700:180,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*clip(3*(1-hypot(X-120,Y-120)/120),0,1)'[disc]",
      "[bg][disc]overlay=x='700+4*sin(2*PI*t/2.7)':y='180+2*sin(2*PI*t/3.3)',format=yuv420p",
    ].join(';');
    return filterVideo(kit, 'sway', still, sway);
  })();
  const phrases: Phrase[] = [
    { at: 0.8, text: 'Sit still for a moment and watch.', voice: 'en-us+f3' },
    { at: 4.0, text: 'Only the flower moves in the breeze.', voice: 'en-us+f3' },
    { at: 7.2, text: 'A quiet morning in the garden.', voice: 'en-us+f3' },
  ];
  return programme(kit, seconds, video, voiceOverMusic(kit, phrases, seconds, null));
}

/** 8 s of an ffmpeg test source (testsrc2, mandelbrot, life) with a music bed. */
export function testSource(kit: Kit, source: 'testsrc2' | 'mandelbrot' | 'life', variant: number): Programme {
  const seconds = 8;
  const src = {
    testsrc2: `testsrc2=s=1280x720:r=${FPS}:d=${seconds}`,
    mandelbrot: `mandelbrot=s=640x360:r=${FPS}:end_scale=0.05,trim=duration=${seconds},scale=1280:720:flags=bicubic`,
    life: `life=s=320x180:r=${FPS}:seed=42:ratio=0.12:mold=8:life_color=#a3be8c:death_color=#2e3440:mold_color=#4c566a,trim=duration=${seconds},scale=1280:720:flags=neighbor`,
  }[source];
  const video = ffmpegPart(kit.parts, `src-${source}`, 'mp4', ['-f', 'lavfi', '-i', src, '-frames:v', String(seconds * FPS), ...X264_PART, ...BITEXACT]);
  const music = (async () => mix(kit, null, [{ path: await musicBed(kit, variant, 100 + variant * 12), db: 0 }], seconds))();
  return programme(kit, seconds, video, music);
}

/** 10 s, 16:9: real recorded speech (alsa-utils' voice prompts) with pauses over a held-photo slideshow. */
export function recordedSpeechSlideshow(kit: Kit): Programme {
  const seconds = 10;
  const clips = [
    { at: 0.6, recorded: 'Front_Left' as const },
    { at: 2.8, recorded: 'Front_Right' as const },
    { at: 5.1, recorded: 'Rear_Left' as const },
    { at: 7.6, recorded: 'Rear_Right' as const },
  ];
  const moves: Move[] = [
    { photo: 'Aqua', seconds: 5, zoom: [1, 1.05] },
    { photo: 'RainDrops', seconds: 5, zoom: [1.05, 1] },
  ];
  const video = sequence(kit, moves, [0], 1280, 720);
  const mixed = (async () => {
    const voice = await voiceTrack(kit, clips, seconds);
    return mix(kit, voice, [{ path: await musicBed(kit, 1, 88), db: -22 }], seconds);
  })();
  return programme(kit, seconds, video, mixed);
}

/** Cut times of the clapper programme: a white flash frame pair and a camera-shutter click at each. */
const CLAPPER_CUTS = [1.5, 3, 4.5, 6, 7.5];

/**
 * 9 s, 16:9: six held photos cut every 1.5 s, each cut marked by a two-frame white flash and a shutter click (the
 * clapper of a real shoot) over a music bed cut on the beat; `audioLateMs` delays the whole soundtrack.
 */
export function clapper(kit: Kit, audioLateMs = 0): Programme {
  const seconds = 9;
  const photos: Move['photo'][] = ['Storm', 'Dune', 'Wood', 'Aqua', 'Garden', 'TwoWings'];
  const flashes = CLAPPER_CUTS.map((t) => `drawbox=c=white:t=fill:enable='between(t,${t},${(t + 0.06).toFixed(2)})'`).join(',');
  const video = sequence(kit, photos.map((photo) => ({ photo, seconds: 1.5 })), photos.slice(1).map(() => 0), 1280, 720, FPS, flashes);
  const mixed = (async () => {
    const clicks = await soundAt(kit, 'camera-shutter', CLAPPER_CUTS, seconds);
    const inSync = await mix(kit, null, [{ path: clicks, db: 0 }, { path: await musicBed(kit, 2, 120), db: -14 }], seconds);
    // The whole soundtrack is late, music with the clicks, as when picture and sound slip apart in an edit.
    return audioLateMs ? filterAudio(kit, 'late', inSync, `adelay=${audioLateMs}|${audioLateMs},atrim=duration=${seconds}`) : inSync;
  })();
  // Clicks are the sharpest transients AAC meets here: its overshoot on them needs a decibel more headroom.
  return programme(kit, seconds, video, mixed, WEB_LUFS, CLICK_CEILING);
}

const AUDIOGRAM_PHRASES: Phrase[] = [
  { at: 0.5, text: 'This week on the show, we visit a wild garden.', voice: 'en-gb' },
  { at: 4.3, text: 'Stay with us.', voice: 'en-gb' },
  { at: 6.2, text: 'It is closer than you think.', voice: 'en-gb' },
];

/**
 * 9 s, 16:9: an audiogram (a photo with the speech's waveform drawn live under it), as podcast clips are shared;
 * the waveform moves with the words, so an offset between picture and sound is visible. `audioLateMs` delays the sound.
 */
export function audiogram(kit: Kit, audioLateMs = 0): Programme {
  const seconds = 9;
  const voice = narration(kit, AUDIOGRAM_PHRASES, seconds, NATURAL_PAUSE);
  const video = (async () => {
    const photo = await photoMove(kit, { photo: 'TwoWings', seconds, zoom: [1, 1.04] }, 1280, 720);
    const graph = `[1:a]aformat=channel_layouts=mono,showwaves=s=1000x180:mode=cline:rate=${FPS}:colors=white[wave];[0:v][wave]overlay=x=140:y=500:shortest=1,format=yuv420p`;
    return filterVideo(kit, 'audiogram', photo, graph, [await voice]);
  })();
  const mixed = (async () => {
    const delayed = audioLateMs ? await filterAudio(kit, 'late', await voice, `adelay=${audioLateMs},atrim=duration=${seconds}`) : await voice;
    return mix(kit, delayed, [{ path: await roomTone(kit, seconds), db: 0 }], seconds);
  })();
  return programme(kit, seconds, video, mixed);
}

const PODCAST_PHRASES: Phrase[] = [
  { at: 0.6, text: 'Welcome back to the garden hour.' },
  { at: 3.3, text: 'Today we talk about meadows.', voice: 'en-gb+f3' },
  { at: 5.9, text: 'Why do wild flowers matter so much?' },
  { at: 8.6, text: 'They feed the insects that feed everything else.', voice: 'en-gb+f3' },
  { at: 12.2, text: 'A good place to start.' },
];

/** A two-voice podcast with natural pauses of 0.5–1.5 s, 14 s, mastered for podcast delivery. */
export function podcast(kit: Kit): Programme {
  const seconds = 14;
  return programme(kit, seconds, null, voiceOverMusic(kit, PODCAST_PHRASES, seconds, null), PODCAST_LUFS, LOSSY_CEILING);
}

/** 10 s mono podcast: a synthesised host introducing two recorded voice prompts, mastered dual-mono to −16 LUFS. */
export function monoPodcast(kit: Kit): Programme {
  const seconds = 10;
  const mixed = (async () => {
    const voice = await voiceTrack(kit, [
      { at: 0.5, text: 'Here is a speaker test from our studio.' },
      { at: 3.3, recorded: 'Front_Left' },
      { at: 5.2, recorded: 'Front_Right' },
      { at: 7.3, text: 'Both sides are working.' },
    ], seconds, NATURAL_PAUSE);
    const room = await roomTone(kit, seconds);
    return ffmpegPart(kit.parts, 'mono-podcast', 'wav', ['-i', voice, '-i', room, '-filter_complex', '[1:a]pan=mono|c0=c0[r];[0:a][r]amix=inputs=2:duration=first,volume=2', '-c:a', 'pcm_f32le', '-ac', '1', ...BITEXACT]);
  })();
  return programme(kit, seconds, null, mixed, PODCAST_LUFS, LOSSY_CEILING, true);
}

/** 8 s of a 1 kHz line-up tone on both channels, set to −16 LUFS (a plain gain: a normalised sine). */
export function lineupTone(kit: Kit): Programme {
  const seconds = 8;
  const tone = ffmpegPart(kit.parts, 'tone', 'wav', ['-f', 'lavfi', '-i', `aevalsrc=exprs='0.25*sin(2*PI*1000*t)|0.25*sin(2*PI*1000*t)':s=48000:d=${seconds}`, '-c:a', 'pcm_f32le', ...BITEXACT]);
  return programme(kit, seconds, null, tone, PODCAST_LUFS, PCM_CEILING);
}

/** 12 s of music alone (a bed at a livelier tempo), mastered to −14 LUFS as music streams are. */
export function musicOnly(kit: Kit): Programme {
  const seconds = 12;
  const mixed = (async () => mix(kit, null, [{ path: await musicBed(kit, 1, 124), db: 0 }], seconds))();
  return programme(kit, seconds, null, mixed);
}

/**
 * 8 s, 1080p25 broadcast programme: 1 s of colour bars, then two photos with a crossfade, narration over music.
 * `bars` is smptehdbars (SMPTE RP 219, BT.709 code values) for the clean file; smptebars carries SD (BT.601) code
 * values, which in a BT.709 programme put about 20 % of the picture outside EBU R 103.
 */
export function broadcastProgramme(kit: Kit, bars: 'smptehdbars' | 'smptebars' = 'smptehdbars'): Programme {
  const seconds = 8;
  const fps = 25;
  const video = (async () => {
    const head = await ffmpegPart(kit.parts, 'bars', 'mp4', ['-f', 'lavfi', '-i', `${bars}=s=1920x1080:r=${fps}:d=1`, ...X264_PART, ...BITEXACT]);
    return sequence(kit, [{ path: head, seconds: 1 }, { photo: 'Storm', seconds: 4, zoom: [1, 1.06] }, { photo: 'Dune', seconds: 4, zoom: [1.06, 1] }], [0, 1], 1920, 1080, fps);
  })();
  const phrases: Phrase[] = [
    { at: 1.5, text: 'Tonight, the storm reaches the coast.', voice: 'en-gb' },
    { at: 4.6, text: 'By morning the dunes have moved.', voice: 'en-gb' },
  ];
  return programme(kit, seconds, video, voiceOverMusic(kit, phrases, seconds, { variant: 2, db: -22 }), BROADCAST_LUFS, PCM_CEILING);
}
