import type { Report } from '../report.js';
import type { MediaInfo } from '../types.js';
import type { EditorExportOptions } from './fcpxml.js';

/** The clip the editor markers sit on, from a report and its media. */
export function editorExportOptions(report: Report, media: MediaInfo, fps: number): EditorExportOptions {
  return {
    fps,
    durationSeconds: Math.max(media.durationSeconds, 1 / fps),
    mediaName: report.media.fileName || 'media',
    mediaWidth: media.video?.displayWidth || undefined,
    mediaHeight: media.video?.displayHeight || undefined,
  };
}
