// The files a completed job leaves behind: report JSON, editor markers, the receipt and the visual report.
import { timecodeFpsOf } from '../../engine/check.js';
import { avidMarkers } from '../../engine/exports/avid-markers.js';
import { editorExportOptions } from '../../engine/exports/editor-options.js';
import { fcpxmlMarkers } from '../../engine/exports/fcpxml.js';
import { markersCsv } from '../../engine/exports/markers-csv.js';
import { premiereXml } from '../../engine/exports/premiere-xml.js';
import { resolveMarkerEdl } from '../../engine/exports/resolve-edl.js';
import type { Receipt } from '../../engine/receipt.js';
import { renderReportHtml } from '../../engine/report-html/index.js';
import type { Report } from '../../engine/report.js';
import type { MediaInfo, Signals } from '../../engine/types.js';
import { artifactByKind, type ArtifactKind } from './artifact-table.js';

export interface ArtifactFile {
  type: ArtifactKind;
  file: string;
  contentType: string;
  content: string;
}

const artifact = (kind: ArtifactKind, content: string): ArtifactFile => {
  const { file, contentType } = artifactByKind(kind);
  return { type: kind, file, contentType, content };
};

/**
 * The receipt is null for a check that did not run its whole profile: such a job has no receipt file. The visual
 * report is rendered from the check's signals, or given ready (a reused check has no signals: src/jobs/reuse.ts).
 */
export function jobArtifactFiles(report: Report, media: MediaInfo, page: { signals: Signals } | { html: string }, receipt: Receipt | null): ArtifactFile[] {
  const fps = timecodeFpsOf(media);
  const editor = editorExportOptions(report, media, fps);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const files: ArtifactFile[] = [
    artifact('report_json', json(report)),
    artifact('markers_csv', markersCsv(report.flags, fps)),
    artifact('markers_edl', resolveMarkerEdl(report.flags, { fps })),
    artifact('markers_fcpxml', fcpxmlMarkers(report.flags, editor)),
    artifact('markers_avid', avidMarkers(report.flags, editor)),
    artifact('markers_premiere', premiereXml(report.flags, editor)),
    artifact('report_html', 'html' in page ? page.html : renderReportHtml({ report, signals: page.signals, receipt })),
  ];
  if (receipt) files.splice(-1, 0, artifact('receipt', json(receipt)));
  return files;
}
