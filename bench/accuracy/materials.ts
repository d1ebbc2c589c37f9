// The real material the accuracy corpus is made of, none of it drawn here: Debian's nature photographs, fonts,
// recorded sounds and speech, and the espeak-ng synthesiser. Each comes from one apt package; a missing one makes the
// entries that need it "unavailable" with the install hint, never a silent substitute.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { onPath } from '../../engine/ffmpeg/binaries.js';

export type MaterialId = 'photos' | 'fonts' | 'speech' | 'sounds' | 'recordedSpeech';

export interface Material {
  id: MaterialId;
  /** The Debian package that ships it. */
  apt: string;
  what: string;
  /** Directory or binary; null when the machine lacks it. */
  path: string | null;
}

export type Materials = Record<MaterialId, Material>;

/** The nature photographs of mate-backgrounds (real photos; gnome-backgrounds and ukui-wallpapers ship drawings). */
export const PHOTO_NAMES = ['Aqua', 'Blinds', 'Dune', 'FreshFlower', 'Garden', 'GreenMeadow', 'LadyBird', 'RainDrops', 'Storm', 'TwoWings', 'Wood', 'YellowFlower'] as const;
export type PhotoName = (typeof PHOTO_NAMES)[number];

export const FONT_FILES = {
  sans: 'LiberationSans-Regular.ttf',
  sansBold: 'LiberationSans-Bold.ttf',
  mono: 'LiberationMono-Regular.ttf',
} as const;
export type FontName = keyof typeof FONT_FILES;

/** Recorded human speech in alsa-utils ("Front left", "Rear right", ...). */
export const RECORDED_SPEECH = ['Front_Left', 'Front_Right', 'Front_Center', 'Rear_Left', 'Rear_Right', 'Side_Left', 'Side_Right'] as const;
export type RecordedSpeechName = (typeof RECORDED_SPEECH)[number];

const ROOT = {
  photos: '/usr/share/backgrounds/mate/nature',
  fonts: '/usr/share/fonts/truetype/liberation',
  sounds: '/usr/share/sounds/freedesktop/stereo',
  recordedSpeech: '/usr/share/sounds/alsa',
};

function dirWith(dir: string, files: readonly string[]): string | null {
  return files.every((f) => existsSync(join(dir, f))) ? dir : null;
}

/** Looks the material up on this machine. */
export function findMaterials(): Materials {
  return {
    photos: { id: 'photos', apt: 'mate-backgrounds', what: 'nature photographs', path: dirWith(ROOT.photos, PHOTO_NAMES.map((p) => `${p}.jpg`)) },
    fonts: { id: 'fonts', apt: 'fonts-liberation', what: 'Liberation fonts', path: dirWith(ROOT.fonts, Object.values(FONT_FILES)) },
    speech: { id: 'speech', apt: 'espeak-ng', what: 'espeak-ng speech synthesiser', path: onPath('espeak-ng') },
    sounds: { id: 'sounds', apt: 'sound-theme-freedesktop', what: 'recorded event sounds', path: dirWith(ROOT.sounds, ['camera-shutter.oga', 'bell.oga']) },
    recordedSpeech: { id: 'recordedSpeech', apt: 'alsa-utils', what: 'recorded speech', path: dirWith(ROOT.recordedSpeech, RECORDED_SPEECH.map((s) => `${s}.wav`)) },
  };
}

/** The materials an entry needs that this machine lacks, as one install hint (null when everything is there). */
export function missingHint(materials: Materials, needs: readonly MaterialId[]): string | null {
  const missing = [...new Set(needs)].filter((id) => !materials[id].path).map((id) => materials[id]);
  if (missing.length === 0) return null;
  return `needs ${missing.map((m) => m.what).join(', ')}: apt-get install ${missing.map((m) => m.apt).join(' ')}`;
}
