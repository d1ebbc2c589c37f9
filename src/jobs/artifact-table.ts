// Every file a completed job leaves: its kind, file name, content type and where the REST door serves it under
// /v1/qc/jobs/{job_id}/. Declared once; the service writes and addresses artifacts by it, the REST door routes
// them from it, the MCP door names them from it and docs/api.md lists them (a test holds the doc to it).
export const ARTIFACTS = [
  { kind: 'report_json', file: 'report.json', contentType: 'application/json', restPath: 'report', title: 'Timestamped report' },
  { kind: 'markers_csv', file: 'markers.csv', contentType: 'text/csv', restPath: 'artifacts/markers', title: 'Marker CSV for editors (RFC 4180)' },
  { kind: 'markers_edl', file: 'markers.edl', contentType: 'text/plain', restPath: 'artifacts/edl', title: 'DaVinci Resolve marker EDL (CMX-3600)' },
  { kind: 'markers_fcpxml', file: 'markers.fcpxml', contentType: 'application/xml', restPath: 'artifacts/fcpxml', title: 'Final Cut Pro markers (FCPXML 1.9)' },
  { kind: 'markers_avid', file: 'markers-avid.txt', contentType: 'text/plain', restPath: 'artifacts/avid', title: 'Avid Media Composer markers' },
  { kind: 'markers_premiere', file: 'markers-premiere.xml', contentType: 'application/xml', restPath: 'artifacts/premiere', title: 'Premiere Pro markers (FCP7 XML)' },
  { kind: 'receipt', file: 'receipt.json', contentType: 'application/json', restPath: 'receipt', title: 'Signed receipt' },
  { kind: 'report_html', file: 'report.html', contentType: 'text/html', restPath: 'report.html', title: 'Visual report (self-contained HTML)' },
] as const;

export type ArtifactSpec = (typeof ARTIFACTS)[number];
export type ArtifactKind = ArtifactSpec['kind'];

export function artifactByKind<K extends ArtifactKind>(kind: K): Extract<ArtifactSpec, { kind: K }> {
  return ARTIFACTS.find((a) => a.kind === kind) as Extract<ArtifactSpec, { kind: K }>;
}

export function artifactByFile(file: string): ArtifactSpec | undefined {
  return ARTIFACTS.find((a) => a.file === file);
}

/** The artifact files in words, for descriptions: `report.json, report.html, … or markers-premiere.xml`. */
export function artifactFileList(): string {
  const files = ARTIFACTS.map((a) => a.file);
  return `${files.slice(0, -1).join(', ')} or ${files.at(-1)}`;
}
