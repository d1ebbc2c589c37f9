// The marker exports a batch can write beside each report (--export), named by what editors call them.
import { avidMarkers } from '../../../engine/exports/avid-markers.js';
import { editorExportOptions } from '../../../engine/exports/editor-options.js';
import { fcpxmlMarkers } from '../../../engine/exports/fcpxml.js';
import { markersCsv } from '../../../engine/exports/markers-csv.js';
import { premiereXml } from '../../../engine/exports/premiere-xml.js';
import { resolveMarkerEdl } from '../../../engine/exports/resolve-edl.js';
import { timecodeFpsOf } from '../../../engine/check.js';
import type { Report } from '../../../engine/report.js';
import type { MediaInfo } from '../../../engine/types.js';

export const EXPORT_KINDS = {
  markers: { suffix: 'markers.csv', render: (r: Report, m: MediaInfo) => markersCsv(r.flags, timecodeFpsOf(m)) },
  edl: { suffix: 'markers.edl', render: (r: Report, m: MediaInfo) => resolveMarkerEdl(r.flags, { fps: timecodeFpsOf(m) }) },
  fcpxml: { suffix: 'markers.fcpxml', render: (r: Report, m: MediaInfo) => fcpxmlMarkers(r.flags, editorExportOptions(r, m, timecodeFpsOf(m))) },
  avid: { suffix: 'avid-markers.txt', render: (r: Report, m: MediaInfo) => avidMarkers(r.flags, editorExportOptions(r, m, timecodeFpsOf(m))) },
  'premiere-xml': { suffix: 'premiere.xml', render: (r: Report, m: MediaInfo) => premiereXml(r.flags, editorExportOptions(r, m, timecodeFpsOf(m))) },
} as const;

export type ExportKind = keyof typeof EXPORT_KINDS;

export function parseExportKinds(list: string | undefined): ExportKind[] {
  if (!list) return [];
  const kinds = [...new Set(list.split(',').map((k) => k.trim()).filter(Boolean))];
  const unknown = kinds.filter((k) => !(k in EXPORT_KINDS));
  if (unknown.length) throw new Error(`unknown export ${unknown.join(', ')}; choose from ${Object.keys(EXPORT_KINDS).join(', ')}`);
  return (kinds as ExportKind[]).sort();
}
