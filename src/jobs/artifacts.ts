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
import type { ArtifactRecord } from './record.js';

export interface ArtifactFile {
  type: ArtifactRecord['artifact_type'];
  file: string;
  contentType: string;
  content: string;
}

/** The receipt is null for a check that did not run its whole profile: such a job has no receipt file. */
export function jobArtifactFiles(report: Report, media: MediaInfo, signals: Signals, receipt: Receipt | null): ArtifactFile[] {
  const fps = timecodeFpsOf(media);
  const editor = editorExportOptions(report, media, fps);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const files: ArtifactFile[] = [
    { type: 'report_json', file: 'report.json', contentType: 'application/json', content: json(report) },
    { type: 'markers_csv', file: 'markers.csv', contentType: 'text/csv', content: markersCsv(report.flags, fps) },
    { type: 'markers_edl', file: 'markers.edl', contentType: 'text/plain', content: resolveMarkerEdl(report.flags, { fps }) },
    { type: 'markers_fcpxml', file: 'markers.fcpxml', contentType: 'application/xml', content: fcpxmlMarkers(report.flags, editor) },
    { type: 'markers_avid', file: 'markers-avid.txt', contentType: 'text/plain', content: avidMarkers(report.flags, editor) },
    { type: 'markers_premiere', file: 'markers-premiere.xml', contentType: 'application/xml', content: premiereXml(report.flags, editor) },
    { type: 'report_html', file: 'report.html', contentType: 'text/html', content: renderReportHtml({ report, signals, receipt }) },
  ];
  if (receipt) files.splice(-1, 0, { type: 'receipt', file: 'receipt.json', contentType: 'application/json', content: json(receipt) });
  return files;
}
