import type { MediaInfo } from '../../engine/types.js';

/** Checked minutes: ceil(duration / 60) for audio and video (at least 1), 1 for an image. */
export function meteredMinutes(media: Pick<MediaInfo, 'kind' | 'durationSeconds'>): number {
  if (media.kind === 'image') return 1;
  return Math.max(1, Math.ceil(media.durationSeconds / 60 - 1e-9));
}
