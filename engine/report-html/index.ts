// The visual report: one self-contained HTML page (inline CSS, SVG and PNG data URIs, no scripts, no requests) with
// the verdict, a flag timeline, the flags, a contact sheet, loudness and waveform charts, the gates and the receipt.
// The same input gives the same bytes: nothing here reads the clock or the locale.
import { thresholdsFor } from '../gates/index.js';
import { DELIVERY_PROFILE_IDS, type DeliveryProfileId } from '../profiles/index.js';
import type { Receipt } from '../receipt.js';
import type { Report } from '../report.js';
import type { Signals } from '../types.js';
import { renderContactSheet } from './contact-sheet.js';
import { renderFlagList } from './flag-list.js';
import { renderGatesTable } from './gates-table.js';
import { renderHeader } from './header.js';
import { html, trusted, type SafeHtml } from './html.js';
import { renderLoudnessChart } from './loudness-chart.js';
import { renderReceipt } from './receipt-section.js';
import { selectStills } from './stills.js';
import { REPORT_CSS } from './styles.js';
import { renderTimeline } from './timeline.js';
import { renderWaveform } from './waveform.js';

export { encodeGrayPng, crc32, pngDataUri } from './png.js';
export { escapeHtml } from './html.js';
export { MAX_EMBEDDED_STILLS } from './stills.js';

export interface ReportHtmlInput {
  report: Report;
  /** The check's signals (stills, loudness, envelope); null leaves out the contact sheet and the charts. */
  signals: Signals | null;
  receipt?: Receipt | null;
  /** Shown in the footer when given; the page never reads the clock itself. */
  generatedAt?: string;
}

export const CONTENT_SECURITY_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** The delivery profile's integrated loudness target, when the profile is known and has one. */
export function loudnessTarget(deliveryProfile: string): number | null {
  if (!(DELIVERY_PROFILE_IDS as readonly string[]).includes(deliveryProfile)) return null;
  const value = thresholdsFor('loudness', deliveryProfile as DeliveryProfileId).targetLufs?.value;
  return typeof value === 'number' ? value : null;
}

function section(id: string, title: string, body: SafeHtml | null): SafeHtml {
  return html`<section id="${id}"><h2>${title}</h2>${body}</section>`;
}

function footer(report: Report, generatedAt: string | undefined): SafeHtml {
  return html`<footer>Preflight ${report.engine.version} · ${report.schemaVersion} · checked ${report.createdAt}${generatedAt ? html` · page generated ${generatedAt}` : null}.
This page is self-contained: it loads nothing from the network. The JSON report is the authoritative record.</footer>`;
}

export function renderReportHtml(input: ReportHtmlInput): string {
  const { report, signals, receipt, generatedAt } = input;
  const duration = report.media.durationSeconds;
  const video = signals?.video ?? null;
  const audio = signals?.audio ?? null;
  const withStills = new Set(selectStills(report.flags, video).shown.map((s) => s.flag.id));
  const receiptSection = renderReceipt(receipt);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${report.verdict} · ${report.media.fileName || 'sidecar-only check'} · Preflight report</title>
<link rel="icon" href="data:,">
<style>${trusted(REPORT_CSS)}</style>
</head>
<body>
<main>
${renderHeader(report)}
<nav class="toc" aria-label="Sections"><a href="#timeline">Timeline</a><a href="#flags">Flags (${report.flags.length})</a><a href="#contact-sheet">Contact sheet</a><a href="#audio">Loudness</a><a href="#gates">Gates</a>${receiptSection ? html`<a href="#receipt">Receipt</a>` : null}</nav>
${section('timeline', 'Timeline', renderTimeline(report.flags, duration))}
${section('flags', `Flags (${report.summary.block} BLOCK, ${report.summary.watch} WATCH)`, renderFlagList(report.flags, withStills))}
${section('contact-sheet', 'Contact sheet', renderContactSheet(report.flags, video))}
${section('audio', 'Loudness and waveform', html`${renderLoudnessChart(audio, duration, loudnessTarget(report.deliveryProfile))}${audio ? renderWaveform(audio, duration) : null}`)}
${section('gates', 'Gates', renderGatesTable(report.gates))}
${receiptSection}
${footer(report, generatedAt)}
</main>
</body>
</html>
`;
  return page.value;
}
