// The accuracy corpus of issue 14: clean programmes of the kinds agents render (narrated photo slideshows, captioned
// shorts, a screen recording, podcasts, music, a broadcast mezzanine, thumbnails) and copies of them with one injected
// defect each. Every entry carries its expectations as data (expectations.ts) and a recipe that builds it from real
// material (materials.ts) under .cache/corpus.
import { contrastRatio, relativeLuminance } from '../../engine/ocr/contrast.js';
import { accepted, expected, type Expectations, type TextLine } from './expectations.js';
import type { MaterialId } from './materials.js';
import {
  LOSSY_CEILING, WEB_LUFS,
  audiogram, broadcastProgramme, captionFilter, captionTruth, captioned, clapper, kenBurnsSlow,
  lineupTone, monoPodcast, musicOnly, panShot, podcast, recordedSpeechSlideshow, slideshowCrossfades, slideshowCuts, slideshowHeld,
  slideshowVertical, staticSway, testSource, type Caption, type CaptionLayout, type Programme,
} from './programmes.js';
import { drawtexts, filterAudio, filterVideo, finalAudio, finalThumbnail, finalVideo, master, type Kit, type TextDraw } from './recipes.js';
import { screenRecording, SCREEN_TEXT } from './screen-recording.js';

export interface CorpusEntry {
  name: string;
  /** One sentence: what the file is. */
  what: string;
  kind: 'clean' | 'defect';
  needs: MaterialId[];
  /** Request profile for the check; omitted: the default (auto). */
  profile?: string;
  expect: Expectations;
  build(kit: Kit): Promise<string>;
}

const PHOTO_SPEECH: MaterialId[] = ['photos', 'speech'];
const CAPTIONED: MaterialId[] = ['photos', 'speech', 'fonts'];

/** WCAG contrast of two sRGB hex colours, for the expectations' reasons. */
function wcag(a: string, b: string): number {
  const lum = (hex: string) => relativeLuminance(parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16));
  return Math.round(contrastRatio(lum(a), lum(b)) * 100) / 100;
}

/** Encodes a programme as it is (H.264 + AAC MP4), optionally with a picture filter and a replacement sound. */
async function encode(kit: Kit, name: string, p: Programme, opts: { vf?: string; audio?: Promise<string> } = {}): Promise<string> {
  const [video, audio] = await Promise.all([p.video!, opts.audio ?? p.audio]);
  return finalVideo(kit, { name, video, audio, vf: opts.vf, seconds: p.seconds });
}

// ------------------------------------------------------------------------------------------------ captions

const SHORT = { w: 1080, h: 1920, size: 62 };
const LANDSCAPE = { w: 1280, h: 720, size: 40 };

const OUTLINED_1: Caption[] = [
  { lines: ['Rain fell on the garden'], at: 0.4 },
  { lines: ['Every leaf held a drop'], at: 3.1 },
  { lines: ['Then the sun came back'], at: 5.8 },
];
const OUTLINED_2: Caption[] = [
  { lines: ['The dunes move slowly', 'with every coastal wind'], at: 0.4 },
  { lines: ['Grass holds the sand', 'in place for years'], at: 3.6 },
  { lines: ['Storms reshape it all', 'in a single night'], at: 6.6 },
];
const BOXED_1: Caption[] = [
  { lines: ['A ladybird climbs a stem'], at: 0.4 },
  { lines: ['Flowers open at dawn'], at: 3.1 },
  { lines: ['Bees visit every blossom'], at: 5.8 },
];
const BOXED_2: Caption[] = [
  { lines: ['Water remembers shapes', 'for only a moment'], at: 0.4 },
  { lines: ['Each splash is different', 'and gone in an instant'], at: 3.6 },
  { lines: ['Light bends through', 'every single droplet'], at: 6.8 },
];
const PLAIN_1: Caption[] = [
  { lines: ['Thunder over the hills'], at: 0.4 },
  { lines: ['The first drops arrive'], at: 3.1 },
  { lines: ['Night comes early today'], at: 5.8 },
];
const PLAIN_2: Caption[] = [
  { lines: ['Clouds gathered all afternoon', 'over the empty highway'], at: 0.4 },
  { lines: ['By evening the first rain', 'had reached the valley'], at: 4.2 },
];
const OUTLINED_LANDSCAPE: Caption[] = [
  { lines: ['Seeds travel far on a gentle breeze'], at: 0.4 },
  { lines: ['Some land in the garden next door'], at: 3.4 },
  { lines: ['Next spring they will bloom again'], at: 6.4 },
];
const BOXED_LANDSCAPE: Caption[] = [
  { lines: ['Wood keeps a record of', 'every summer and winter'], at: 0.4 },
  { lines: ['Count the rings to learn', 'how old the tree was'], at: 4.4 },
];
const UNDER_UI: Caption[] = [
  { lines: ['Follow for more gardens'], at: 0.4 },
  { lines: ['New videos every week'], at: 3.1 },
  { lines: ['Tell us your favourite'], at: 5.8 },
];
const LOW_CONTRAST: Caption[] = [
  { lines: ['The oldest trees grow slowly'], at: 0.4 },
  { lines: ['Their bark is thick and grey'], at: 3.4 },
  { lines: ['Moss covers the northern side'], at: 6.4 },
];

const LOW_TEXT = '#b0b0b0';
const LOW_BOX = '#6e6e6e';

interface CaptionCase {
  name: string;
  what: string;
  photos: Parameters<typeof captioned>[1];
  captions: Caption[];
  seconds: number;
  layout: CaptionLayout;
  truthStyle: TextLine['style'];
  music: number;
}

function captionCase(c: CaptionCase, kind: 'clean' | 'defect', flags: Expectations['flags']): CorpusEntry {
  return {
    name: c.name,
    what: c.what,
    kind,
    needs: CAPTIONED,
    expect: { flags, text: captionTruth(c.captions, c.seconds, c.truthStyle) },
    build: async (kit) => {
      const p = captioned(kit, c.photos, c.captions, c.seconds, c.music, c.layout.w, c.layout.h);
      return encode(kit, c.name, p, { vf: await captionFilter(kit, c.captions, c.seconds, c.layout) });
    },
  };
}

const cleanCaptions = (c: CaptionCase) => captionCase(c, 'clean', []);
const captionSpan = (captions: Caption[], seconds: number): [number, number] => {
  const truth = captionTruth(captions, seconds, 'plain');
  return [truth[0].start!, truth[truth.length - 1].end!];
};

// ------------------------------------------------------------------------------------------------ thumbnails

const TITLE = (text: string, y: string, color = 'white', size = 120, font: TextDraw['font'] = 'sansBold'): TextDraw => ({ text, font, size, color, x: '(w-text_w)/2', y, style: 'outlined', border: 8 });

function thumbnail(name: string, what: string, kind: 'clean' | 'defect', photo: Parameters<typeof finalThumbnail>[2], texts: { draw: TextDraw; style: TextLine['style'] }[], flags: Expectations['flags'], format: 'jpg' | 'png' = 'jpg'): CorpusEntry {
  return {
    name,
    what,
    kind,
    needs: texts.length ? ['photos', 'fonts'] : ['photos'],
    expect: texts.length ? { flags, text: texts.map((t) => ({ text: t.draw.text, style: t.style })) } : { flags, textFree: true },
    build: (kit) => finalThumbnail(kit, name, photo, texts.map((t) => t.draw), format),
  };
}

// ------------------------------------------------------------------------------------------------ the corpus

export const CORPUS: CorpusEntry[] = [
  // ---------------------------------------------------------------- clean programmes
  {
    name: 'slideshow-cuts-16x9',
    what: '10 s 720p: four photos with slow Ken Burns moves and hard cuts, espeak narration with pauses over a music bed',
    kind: 'clean',
    needs: PHOTO_SPEECH,
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'slideshow-cuts-16x9', slideshowCuts(kit)),
  },
  {
    name: 'slideshow-crossfade-16x9',
    what: '11 s 720p: four photos with slow pans and zooms joined by 1 s crossfades, narration over music',
    kind: 'clean',
    needs: PHOTO_SPEECH,
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'slideshow-crossfade-16x9', slideshowCrossfades(kit)),
  },
  {
    name: 'slideshow-held-16x9',
    what: '9 s 720p: three photos held still 3 s each (no move) with hard cuts, a British voice',
    kind: 'clean',
    needs: PHOTO_SPEECH,
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'slideshow-held-16x9', slideshowHeld(kit)),
  },
  {
    name: 'kenburns-slow-16x9',
    what: '8 s 720p: one photo zooming 1.0 → 1.15 over the whole shot, music only',
    kind: 'clean',
    needs: ['photos'],
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'kenburns-slow-16x9', kenBurnsSlow(kit)),
  },
  {
    name: 'slideshow-9x16',
    what: '9 s 1080×1920: three vertical Ken Burns shots with 0.8 s crossfades, narration over music',
    kind: 'clean',
    needs: PHOTO_SPEECH,
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'slideshow-9x16', slideshowVertical(kit)),
  },
  {
    name: 'slideshow-9x16-720w',
    what: 'the vertical slideshow rendered at 720×1280',
    kind: 'clean',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('shorts_format', 'WATCH', null, 'narrower than the recommended 1080 px but at least 720 px: the docs promise a WATCH, and an editor would re-export at 1080×1920')], textFree: true },
    build: (kit) => encode(kit, 'slideshow-9x16-720w', slideshowVertical(kit, 720, 1280)),
  },
  cleanCaptions({ name: 'captions-outlined-1line-9x16', what: '8.5 s short: white captions with a black outline, one line, spoken', photos: ['GreenMeadow', 'YellowFlower', 'RainDrops'], captions: OUTLINED_1, seconds: 8.5, layout: { ...SHORT, top: 0.58, style: 'outlined' }, truthStyle: 'outlined', music: 0 }),
  cleanCaptions({ name: 'captions-outlined-2line-9x16', what: '9.5 s short: outlined captions in two lines', photos: ['Dune', 'Storm', 'TwoWings'], captions: OUTLINED_2, seconds: 9.5, layout: { ...SHORT, top: 0.55, style: 'outlined' }, truthStyle: 'outlined', music: 1 }),
  cleanCaptions({ name: 'captions-boxed-1line-9x16', what: '8.5 s short: white captions on a semi-transparent black box, one line', photos: ['LadyBird', 'Garden', 'FreshFlower'], captions: BOXED_1, seconds: 8.5, layout: { ...SHORT, top: 0.58, style: 'boxed' }, truthStyle: 'boxed', music: 2 }),
  cleanCaptions({ name: 'captions-boxed-2line-9x16', what: '9.5 s short: boxed captions in two lines', photos: ['Aqua', 'Blinds', 'RainDrops'], captions: BOXED_2, seconds: 9.8, layout: { ...SHORT, top: 0.55, style: 'boxed' }, truthStyle: 'boxed', music: 0 }),
  cleanCaptions({ name: 'captions-plain-1line-9x16', what: '8.5 s short: plain white captions (no outline, no box) over dark photos', photos: ['Storm', 'TwoWings', 'Storm'], captions: PLAIN_1, seconds: 8.5, layout: { ...SHORT, top: 0.58, style: 'plain' }, truthStyle: 'plain', music: 1 }),
  cleanCaptions({ name: 'captions-plain-2line-16x9', what: '8 s 720p: plain white captions in two lines over dark photos', photos: ['Storm', 'TwoWings'], captions: PLAIN_2, seconds: 8, layout: { ...LANDSCAPE, top: 0.74, style: 'plain' }, truthStyle: 'plain', music: 2 }),
  cleanCaptions({ name: 'captions-outlined-16x9', what: '9 s 720p slideshow: outlined one-line captions at the bottom', photos: ['FreshFlower', 'Garden', 'YellowFlower'], captions: OUTLINED_LANDSCAPE, seconds: 9, layout: { ...LANDSCAPE, top: 0.8, style: 'outlined' }, truthStyle: 'outlined', music: 0 }),
  cleanCaptions({ name: 'captions-boxed-2line-16x9', what: '8 s 720p slideshow: boxed two-line captions in DejaVu Sans Bold', photos: ['Wood', 'Blinds'], captions: BOXED_LANDSCAPE, seconds: 8, layout: { ...LANDSCAPE, top: 0.74, style: 'boxed', font: 'dejavuBold' }, truthStyle: 'boxed', music: 1 }),
  {
    name: 'screen-recording-16x9',
    what: '10 s 720p screen capture: a terminal window on a wallpaper, commands typed at 12 characters a second with a caret, output appearing, a mouse pointer moving; narration',
    kind: 'clean',
    needs: ['photos', 'speech', 'fonts'],
    expect: { flags: [], text: SCREEN_TEXT },
    build: async (kit) => {
      const { video, audio, seconds } = await screenRecording(kit);
      return finalVideo(kit, { name: 'screen-recording-16x9', video, audio, seconds });
    },
  },
  {
    name: 'static-sway-16x9',
    what: '10 s 720p: a static shot of a garden where only one flower sways a few pixels, a voice over it',
    kind: 'clean',
    needs: PHOTO_SPEECH,
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'static-sway-16x9', staticSway(kit)),
  },
  {
    name: 'testsrc2-music',
    what: "8 s 720p of ffmpeg's testsrc2 pattern with a music bed",
    kind: 'clean',
    needs: [],
    expect: { flags: [accepted('text_safe_area', 'WATCH', "the pattern's small timecode sits in the top-left corner, outside the graphics-safe area")] },
    build: (kit) => encode(kit, 'testsrc2-music', testSource(kit, 'testsrc2', 0)),
  },
  {
    name: 'mandelbrot-music',
    what: "8 s 720p of ffmpeg's mandelbrot zoom with a music bed",
    kind: 'clean',
    needs: [],
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'mandelbrot-music', testSource(kit, 'mandelbrot', 1)),
  },
  {
    name: 'life-music',
    what: "8 s 720p of ffmpeg's game of life with a music bed",
    kind: 'clean',
    needs: [],
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'life-music', testSource(kit, 'life', 2)),
  },
  {
    name: 'mezzanine-422-pcm',
    what: '8 s 1080p25 broadcast mezzanine: H.264 4:2:2 in MOV with 24-bit PCM, 1 s of SMPTE HD bars, photos, narration at −23 LUFS',
    kind: 'clean',
    needs: PHOTO_SPEECH,
    profile: 'broadcast_r128',
    expect: { flags: [], textFree: true },
    build: (kit) => mezzanine(kit, 'mezzanine-422-pcm', 'smptehdbars'),
  },
  {
    name: 'recorded-speech-16x9',
    what: '10 s 720p: real recorded speech (alsa-utils voice prompts) with pauses over two photos and quiet music',
    kind: 'clean',
    needs: ['photos', 'recordedSpeech'],
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'recorded-speech-16x9', recordedSpeechSlideshow(kit)),
  },
  {
    name: 'sync-clapper-16x9',
    what: '9 s 720p: photos cut every 1.5 s, each cut a two-frame white flash with a camera-shutter click, over music; in sync',
    kind: 'clean',
    needs: ['photos', 'sounds'],
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'sync-clapper-16x9', clapper(kit)),
  },
  {
    name: 'audiogram-16x9',
    what: "9 s 720p audiogram: a photo with the speech's live waveform under it, a British voice; in sync",
    kind: 'clean',
    needs: PHOTO_SPEECH,
    expect: { flags: [], textFree: true },
    build: (kit) => encode(kit, 'audiogram-16x9', audiogram(kit)),
  },
  {
    name: 'podcast-dialogue',
    what: '14 s stereo MP3 podcast: two espeak voices taking turns with 0.5–1.5 s pauses over room tone, −16 LUFS',
    kind: 'clean',
    needs: ['speech'],
    expect: { flags: [] },
    build: async (kit) => finalAudio(kit, 'podcast-dialogue', await podcast(kit).audio, 'mp3'),
  },
  {
    name: 'podcast-mono-recorded',
    what: '10 s mono AAC (M4A) podcast: a synthesised host introducing recorded voice prompts, −16 LUFS measured dual-mono',
    kind: 'clean',
    needs: ['speech', 'recordedSpeech'],
    expect: { flags: [] },
    build: async (kit) => finalAudio(kit, 'podcast-mono-recorded', await monoPodcast(kit).audio, 'm4a', true),
  },
  {
    name: 'music-only',
    what: '12 s stereo AAC (M4A) of music alone, mastered to −14 LUFS like a streaming release',
    kind: 'clean',
    needs: [],
    expect: { flags: [] },
    build: async (kit) => finalAudio(kit, 'music-only', await musicOnly(kit).audio, 'm4a'),
  },
  {
    name: 'lineup-tone-1k',
    what: '8 s 16-bit WAV of a 1 kHz tone on both channels, normalised to −16 LUFS by a plain gain',
    kind: 'clean',
    needs: [],
    expect: { flags: [] },
    build: async (kit) => finalAudio(kit, 'lineup-tone-1k', await lineupTone(kit).audio, 'wav'),
  },
  thumbnail('thumb-title-meadow', 'meadow photo with a bold outlined title "HIDDEN MEADOW"', 'clean', 'GreenMeadow', [{ draw: TITLE('HIDDEN MEADOW', 'h*0.12'), style: 'bold-title' }], []),
  thumbnail('thumb-title-storm', 'storm photo with a bold yellow outlined title "STORM SEASON"', 'clean', 'Storm', [{ draw: TITLE('STORM SEASON', 'h*0.14', '#ffd400', 118), style: 'bold-title' }], []),
  thumbnail('thumb-badge-title', 'ladybird photo with a yellow "NEW EPISODE" badge top left and a title', 'clean', 'LadyBird', [
    { draw: { text: 'NEW EPISODE', font: 'sansBold', size: 44, color: 'black', x: '90', y: '80', style: 'boxed', boxColor: '#ffd400', border: 16 }, style: 'badge' },
    { draw: TITLE('SMALL WONDERS', 'h*0.55', 'white', 110), style: 'bold-title' },
  ], [accepted('thumbnail_text_readability', 'WATCH', "the badge's 44 px capitals are 8.5 px tall at 320 px wide, 11 px type in a feed: under the gate's 12 px line")]),
  thumbnail('thumb-none-wood', 'soft-focus wood photo, no text', 'clean', 'Wood', [], []),
  thumbnail('thumb-none-dune', 'dune grass photo, no text', 'clean', 'Dune', [], []),
  thumbnail('thumb-none-raindrops', 'rain drops on leaves, no text (PNG)', 'clean', 'RainDrops', [], [], 'png'),

  // ---------------------------------------------------------------- injected defects
  {
    name: 'mezzanine-sd-bars',
    what: 'the mezzanine with SD SMPTE bars (BT.601 code values) at its head although it is tagged BT.709',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    profile: 'broadcast_r128',
    expect: {
      flags: [expected('format_spec', 'BLOCK', [0, 1], 'read as BT.709, 20.5 % of the bars frame is outside R 103 −5 %..105 % (computed from the code values), over the 1 % allowance: BLOCK for broadcast')],
      textFree: true,
    },
    build: (kit) => mezzanine(kit, 'mezzanine-sd-bars', 'smptebars'),
  },
  {
    name: 'black-mid-16x9',
    what: 'slideshow-cuts-16x9 with 2.5 s of black picture from 4.0 s (sound goes on)',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('black_frames', 'BLOCK', [4, 6.5], 'interior black ≥ 2 s is BLOCK')], textFree: true },
    build: (kit) => encode(kit, 'black-mid-16x9', slideshowCuts(kit), { vf: "drawbox=c=black:t=fill:enable='gte(t,4)*lt(t,6.5)'" }),
  },
  {
    name: 'black-short-16x9',
    what: 'slideshow-cuts-16x9 with 1.0 s of black picture from 5.0 s',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('black_frames', 'WATCH', [5, 6], 'interior black ≥ 0.5 s and < 2 s is WATCH')], textFree: true },
    build: (kit) => encode(kit, 'black-short-16x9', slideshowCuts(kit), { vf: "drawbox=c=black:t=fill:enable='gte(t,5)*lt(t,6)'" }),
  },
  {
    name: 'freeze-in-pan-16x9',
    what: 'a continuous 10 s pan with the picture frozen (one frame repeated exactly) from 3.5 s to 6.5 s, narration going on',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('loop_freeze', 'WATCH', [3.5, 6.5], 'a 3 s freeze is over freezeWatchSeconds (2 s) and under freezeBlockSeconds (5 s)')], textFree: true },
    build: async (kit) => {
      const p = panShot(kit);
      return encode(kit, 'freeze-in-pan-16x9', { ...p, video: freezeAt(kit, await p.video!, 3.5, 3) });
    },
  },
  {
    name: 'freeze-ai-render',
    what: 'the same pan frozen for 3.5 s from 3.0 s, checked against the ai_render_gate delivery profile',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    profile: 'ai_render_gate',
    expect: { flags: [expected('loop_freeze', 'BLOCK', [3, 6.5], 'ai_render_gate blocks a freeze of 3 s or more')], textFree: true },
    build: async (kit) => {
      const p = panShot(kit);
      return encode(kit, 'freeze-ai-render', { ...p, video: freezeAt(kit, await p.video!, 3, 3.5) });
    },
  },
  {
    name: 'loop-sequence-16x9',
    what: 'slideshow-crossfade-16x9 with the moving shots of 2.0–5.3 s played again at 5.3–8.6 s',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('loop_freeze', 'BLOCK', [5.3, 8.6], 'a repeated moving sequence of 3.3 s is over loopBlockSeconds (3 s)')], textFree: true },
    build: async (kit) => {
      const p = slideshowCrossfades(kit);
      const looped = filterVideo(kit, 'loop', await p.video!, '[0:v]split[a][b];[b]trim=start=2:end=5.3,setpts=PTS-STARTPTS+5.3/TB[r];[a][r]overlay=eof_action=pass,format=yuv420p');
      return encode(kit, 'loop-sequence-16x9', { ...p, video: looped });
    },
  },
  {
    name: 'silence-mid-speech-16x9',
    what: 'slideshow-cuts-16x9 with the sound cut to digital silence from 4.0 s to 7.5 s, mid-sentence at both ends',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('dead_air', 'WATCH', [4, 7.5], 'interior silence of 3.5 s: over 2 s (WATCH) and under 5 s (BLOCK) for long-form video')], textFree: true },
    build: async (kit) => {
      const p = slideshowCuts(kit);
      return encode(kit, 'silence-mid-speech-16x9', p, { audio: filterAudio(kit, 'silence', await p.audio, "volume=0:enable='between(t,4,7.5)'") });
    },
  },
  {
    name: 'podcast-dropout',
    what: 'podcast-dialogue with a 4 s dropout to digital silence from 5.0 s, mid-sentence (M4A)',
    kind: 'defect',
    needs: ['speech'],
    expect: { flags: [expected('dead_air', 'WATCH', [5, 9], 'interior silence of 4 s: over 3 s (WATCH) and under 8 s (BLOCK) for podcasts')] },
    build: async (kit) => finalAudio(kit, 'podcast-dropout', await filterAudio(kit, 'silence', await podcast(kit).audio, "volume=0:enable='between(t,5,9)'"), 'm4a'),
  },
  {
    name: 'sync-clapper-late300',
    what: 'sync-clapper-16x9 with every click 300 ms after its flash (offset baked into the content)',
    kind: 'defect',
    needs: ['photos', 'sounds'],
    expect: { flags: [expected('av_sync', 'BLOCK', null, 'audio 300 ms late is past the 185 ms acceptability limit (BT.1359)')], textFree: true },
    build: (kit) => encode(kit, 'sync-clapper-late300', clapper(kit, 300)),
  },
  {
    name: 'audiogram-late300',
    what: 'audiogram-16x9 with the speech 300 ms behind its waveform (offset in the content)',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('av_sync', 'BLOCK', null, 'audio 300 ms late is past the 185 ms acceptability limit (BT.1359)')], textFree: true },
    build: (kit) => encode(kit, 'audiogram-late300', audiogram(kit, 300)),
  },
  {
    name: 'container-offset-300',
    what: 'slideshow-cuts-16x9 with its audio stream starting 300 ms after the picture (container offset)',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('av_sync', 'BLOCK', null, 'audio 300 ms late is past the 185 ms acceptability limit (BT.1359)')], textFree: true },
    build: async (kit) => {
      const p = slideshowCuts(kit);
      return finalVideo(kit, { name: 'container-offset-300', video: await p.video!, audio: await p.audio, seconds: p.seconds, audioInputArgs: ['-itsoffset', '0.3'] });
    },
  },
  {
    name: 'clipping-mid-16x9',
    what: 'slideshow-cuts-16x9 with the narration driven 12 dB into hard clipping at full scale from 3.5 s to 5.5 s',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: {
      flags: [
        expected('clipping', 'BLOCK', [3.5, 5.5], 'full-scale clipped runs: BLOCK'),
        accepted('loudness', 'BLOCK', 'the clipped span peaks at or over 0 dBTP: a true-peak flag is a fair consequence'),
      ],
      textFree: true,
    },
    build: async (kit) => {
      const p = slideshowCuts(kit);
      return encode(kit, 'clipping-mid-16x9', p, { audio: filterAudio(kit, 'clip', await p.audio, "volume=12dB:enable='between(t,3.5,5.5)',aeval=exprs='max(-1,min(1,val(0)))|max(-1,min(1,val(1)))'") });
    },
  },
  {
    name: 'clipping-podcast-aac',
    what: 'podcast-dialogue driven 10 dB into hard clipping throughout, as AAC (M4A)',
    kind: 'defect',
    needs: ['speech'],
    expect: {
      flags: [
        expected('clipping', 'BLOCK', null, 'clipped throughout: the whole programme'),
        accepted('loudness', 'BLOCK', 'the clipped podcast is far over −16 LUFS and 0 dBTP'),
      ],
    },
    build: async (kit) => finalAudio(kit, 'clipping-podcast-aac', await filterAudio(kit, 'clip', await podcast(kit).audio, "volume=10dB,aeval=exprs='max(-1,min(1,val(0)))|max(-1,min(1,val(1)))'"), 'm4a'),
  },
  {
    name: 'dead-channel-16x9',
    what: 'slideshow-cuts-16x9 with the right channel silent (a mono source on the left only), re-mastered to −14 LUFS',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('channel_balance', 'BLOCK', null, 'one of the first two channels is dead: BLOCK')], textFree: true },
    build: async (kit) => {
      const p = slideshowCuts(kit);
      const left = await filterAudio(kit, 'dead-right', await p.mix, 'pan=stereo|c0=c0|c1=0*c1');
      return encode(kit, 'dead-channel-16x9', p, { audio: master(kit, left, WEB_LUFS, LOSSY_CEILING) });
    },
  },
  {
    name: 'letterbox-16x9',
    what: 'the slideshow rendered at 2.39:1 and letterboxed into 1280×720 (25.6 % black bars)',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('canvas_fill', 'WATCH', null, '25.6 % bars: over 5 % (WATCH), under 30 % (BLOCK) for long-form')], textFree: true },
    build: async (kit) => {
      const p = slideshowCuts(kit, 1280, 536);
      return encode(kit, 'letterbox-16x9', p, { vf: 'pad=1280:720:0:92:black' });
    },
  },
  {
    name: 'pillarbox-16x9',
    what: 'the vertical slideshow pillarboxed with black bars into 1280×720 (68 % bars)',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('canvas_fill', 'BLOCK', null, 'vertical video on a 16:9 canvas: 68 % padding is over 30 %')], textFree: true },
    build: async (kit) => encode(kit, 'pillarbox-16x9', slideshowVertical(kit), { vf: 'scale=404:720,pad=1280:720:438:0:black' }),
  },
  {
    name: 'blurred-fill-16x9',
    what: 'the vertical slideshow on a 1280×720 canvas filled with a blurred, enlarged copy of itself',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('canvas_fill', 'BLOCK', null, 'blurred fill padding over 68 % of the picture')], textFree: true },
    build: async (kit) => encode(kit, 'blurred-fill-16x9', slideshowVertical(kit), { vf: 'split[a][b];[a]scale=1280:2276,crop=1280:720,boxblur=24:2[bg];[b]scale=404:720[fg];[bg][fg]overlay=438:0' }),
  },
  {
    name: 'loudness-quiet-16x9',
    what: 'slideshow-cuts-16x9 mastered to −26 LUFS',
    kind: 'defect',
    needs: PHOTO_SPEECH,
    expect: { flags: [expected('loudness', 'BLOCK', null, '−26 LUFS is under the −20 LUFS block floor for video sites')], textFree: true },
    build: async (kit) => {
      const p = slideshowCuts(kit);
      return encode(kit, 'loudness-quiet-16x9', p, { audio: p.mix.then((m) => master(kit, m, -26, LOSSY_CEILING)) });
    },
  },
  {
    name: 'loudness-hot-podcast',
    what: 'podcast-dialogue mastered to −11 LUFS with a limiter (true peak kept under −1 dBTP), MP3',
    kind: 'defect',
    needs: ['speech'],
    expect: { flags: [expected('loudness', 'BLOCK', null, '−11 LUFS is over the −13 LUFS block ceiling for podcasts')] },
    build: async (kit) => finalAudio(kit, 'loudness-hot-podcast', await master(kit, await podcast(kit).mix, -11, LOSSY_CEILING), 'mp3'),
  },
  captionCase(
    { name: 'captions-under-ui-9x16', what: '8.5 s short with outlined captions at 80 % of the height, under the platforms\' bottom UI', photos: ['Garden', 'LadyBird', 'Aqua'], captions: UNDER_UI, seconds: 8.5, layout: { ...SHORT, top: 0.8, style: 'outlined' }, truthStyle: 'outlined', music: 2 },
    'defect',
    [expected('text_safe_area', 'BLOCK', captionSpan(UNDER_UI, 8.5), 'each caption sits wholly inside the bottom 35 % UI zone: at least half the box is BLOCK')],
  ),
  captionCase(
    { name: 'captions-low-contrast-16x9', what: `9 s 720p slideshow with grey captions (${LOW_TEXT}) on an opaque grey box (${LOW_BOX})`, photos: ['Dune', 'GreenMeadow', 'Storm'], captions: LOW_CONTRAST, seconds: 9, layout: { ...LANDSCAPE, top: 0.8, style: 'boxed', color: LOW_TEXT, boxColor: LOW_BOX }, truthStyle: 'low-contrast', music: 0 },
    'defect',
    [expected('text_contrast', 'BLOCK', captionSpan(LOW_CONTRAST, 9), `WCAG contrast ${wcag(LOW_TEXT, LOW_BOX)}:1 is under 3:1: BLOCK at any size`)],
  ),
  {
    name: 'lower-third-small-16x9',
    what: 'slideshow-held-16x9 with a small white name tag (22 px) on an opaque mid-grey lower third from 1.0 to 7.0 s',
    kind: 'defect',
    needs: CAPTIONED,
    expect: {
      flags: [expected('text_contrast', 'WATCH', [1, 7], `white on #7f7f7f is ${wcag('#ffffff', '#7f7f7f')}:1, under 4.5:1 for text this small (WATCH), over 3:1`)],
      text: [{ text: 'Anna Berg, field botanist', style: 'lower-third', start: 1, end: 7 }],
    },
    build: async (kit) => {
      const vf = await drawtexts(kit, [{ text: 'Anna Berg, field botanist', font: 'sans', size: 22, color: 'white', x: '90', y: 'h*0.8', style: 'boxed', boxColor: '#7f7f7f', border: 10, start: 1, end: 7 }]);
      return encode(kit, 'lower-third-small-16x9', slideshowHeld(kit), { vf });
    },
  },
  thumbnail('thumb-small-text', 'dune photo whose only text is a 22 px line (5.5 px tall at 320 px wide)', 'defect', 'Dune', [
    { draw: { text: 'tips for sandy coastal gardens', font: 'sansBold', size: 22, color: 'white', x: '(w-text_w)/2', y: 'h*0.45', style: 'outlined', border: 2 }, style: 'small' },
  ], [expected('thumbnail_text_readability', 'BLOCK', null, 'a line under 8 px tall at 320 px wide cannot be read: BLOCK')]),
  thumbnail('thumb-faint-title', 'garden photo with a faint title (white at 30 % opacity)', 'defect', 'Garden', [
    { draw: { text: 'SUMMER FIELDS', font: 'sansBold', size: 120, color: 'white@0.3', x: '(w-text_w)/2', y: 'h*0.4' }, style: 'faint' },
  ], [
    expected('text_contrast', 'BLOCK', null, 'faint text against the photo is far under 3:1: BLOCK at any size'),
    expected('thumbnail_text_readability', 'WATCH', null, 'contrast under 4.5:1 is WATCH'),
  ]),
  thumbnail('thumb-badge-corner', 'storm photo with a title and a yellow "NEW" badge in the bottom-right corner, under the duration badge', 'defect', 'Storm', [
    { draw: TITLE('STORM SEASON', 'h*0.14', '#ffd400', 118), style: 'bold-title' },
    { draw: { text: 'NEW', font: 'sansBold', size: 48, color: 'black', x: 'w-190', y: 'h-112', style: 'boxed', boxColor: '#ffd400', border: 14 }, style: 'badge' },
  ], [expected('thumbnail_text_readability', 'WATCH', null, 'text under the duration-badge corner is covered in feeds: WATCH')]),
  thumbnail('thumb-long-title', 'meadow photo with a nine-word title in two lines (DejaVu Sans Bold)', 'defect', 'GreenMeadow', [
    { draw: TITLE('HOW TO GROW A WILD', 'h*0.1', 'white', 84, 'dejavuBold'), style: 'bold-title' },
    { draw: TITLE('MEADOW IN YOUR GARDEN', 'h*0.1+110', 'white', 84, 'dejavuBold'), style: 'bold-title' },
  ], [
    expected('thumbnail_text_readability', 'WATCH', null, 'nine words is over the five a feed reads: WATCH'),
    expected('text_safe_area', 'WATCH', null, 'the second line at 84 px runs from the left edge to the right one'),
  ]),
];

/** The broadcast programme as a mezzanine: H.264 4:2:2 in MOV, BT.709-tagged, 24-bit PCM. */
async function mezzanine(kit: Kit, name: string, bars: Parameters<typeof broadcastProgramme>[1]): Promise<string> {
  const p = broadcastProgramme(kit, bars);
  const [video, audio] = await Promise.all([p.video!, p.audio]);
  return finalVideo(kit, {
    name,
    video,
    audio,
    seconds: p.seconds,
    container: 'mov',
    audioCodec: 'pcm_s24le',
    vf: 'format=yuv422p',
    videoArgs: ['-c:v', 'libx264', '-profile:v', 'high422', '-preset', 'veryfast', '-crf', '14', '-pix_fmt', 'yuv422p', '-threads', '2', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709'],
  });
}

/** A still held for `seconds` from `at` inside moving footage: one frame repeated exactly, the timeline unchanged. */
function freezeAt(kit: Kit, video: string, at: number, seconds: number): Promise<string> {
  const frames = Math.round(seconds * 30);
  return filterVideo(kit, 'freeze', video, `[0:v]split[a][b];[b]trim=start=${at}:end=${at + 0.04},setpts=PTS-STARTPTS,loop=loop=${frames - 1}:size=1:start=0,setpts=N/30/TB+${at}/TB[f];[a][f]overlay=eof_action=pass,format=yuv420p`);
}
