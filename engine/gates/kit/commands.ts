// Ready-to-run repair commands. They name the file <input> and the result <output>: a report never prints a server
// path. Times in commands count from the start of the file, as ffmpeg's -ss and -t do.
import type { AudioSignals, MediaInfo } from '../../types.js';
import { round } from './stats.js';

/** `preflight check` on the repaired file, for one gate. */
export const checkCommand = (gate: string): string => `preflight check <output> --checks ${gate}`;

/** The file has a picture, or there is no file: a sidecar-only check judges the manifest of a video. */
const hasPicture = (media: MediaInfo): boolean => media.video !== null || (media.kind === 'video' && media.videoStreamCount + media.audioStreamCount === 0);

/** Re-encoding options for edits that cut or trim video (picture cannot be stream-copied across a cut); none for sound alone. */
export function reencodeOptions(media: MediaInfo): string {
  return hasPicture(media) ? '-c:v libx264 -c:a aac' : '';
}

/** Keeps the file from media time `at` on (head) or up to it (tail). */
export function trimCommand(media: MediaInfo, position: 'head' | 'tail', at: number): string {
  const seconds = round(at - media.startSeconds, 3);
  const args = position === 'head' ? `-ss ${seconds} -i <input>` : `-i <input> -t ${seconds}`;
  return `ffmpeg ${args} ${reencodeOptions(media)} <output>`.replace(/ {2,}/g, ' ');
}

const AUDIO_ENCODERS: Record<string, string> = {
  aac: 'aac',
  mp3: 'libmp3lame',
  opus: 'libopus',
  vorbis: 'libvorbis',
  flac: 'flac',
  alac: 'alac',
  ac3: 'ac3',
  eac3: 'eac3',
};

/** Output options of an audio filter command that keep the picture and the audio format (loudnorm resamples to 192 kHz, so the rate is restored). */
export function audioOutputOptions(media: MediaInfo, a: AudioSignals): string {
  const codec = media.audio?.codec ?? '';
  const encoder = codec.startsWith('pcm_') ? codec : AUDIO_ENCODERS[codec];
  return [media.video ? '-c:v copy' : null, encoder ? `-c:a ${encoder}` : null, `-ar ${a.sampleRate}`].filter(Boolean).join(' ');
}
