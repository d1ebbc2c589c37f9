// The page header: the verdict in colour with its upload-readiness sentence, and what was checked against what.
import { uploadReadiness, type Report } from '../report.js';
import { durationText } from './format.js';
import { html, type SafeHtml } from './html.js';

function fact(label: string, value: string | SafeHtml): SafeHtml {
  return html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
}

export function renderHeader(report: Report): SafeHtml {
  const m = report.media;
  const profile = report.requestedProfile && report.requestedProfile !== report.profile ? `${report.profile} (requested ${report.requestedProfile})` : report.profile;
  const size = m.video ? `${m.video.displayWidth}×${m.video.displayHeight}` : null;
  return html`<header class="verdict-header verdict-${report.verdict.toLowerCase()}">
<p class="eyebrow">Preflight QC report</p>
<h1><span class="verdict">${report.verdict}</span> <span class="file-name">${m.fileName || '(no media file)'}</span></h1>
<p class="readiness">${uploadReadiness(report).sentence}</p>
<p class="counts"><span class="count sev-block${report.summary.block ? '' : ' none'}">${report.summary.block} BLOCK</span> <span class="count sev-watch${report.summary.watch ? '' : ' none'}">${report.summary.watch} WATCH</span> <span class="muted">${report.summary.gatesRun} gates run, ${report.summary.gatesSkipped} skipped, ${report.summary.gatesErrored} errored</span></p>
</header>
<dl class="facts">
${fact('Kind', size ? `${m.kind}, ${size}` : m.kind)}
${fact('Duration', durationText(m.durationSeconds))}
${fact('Profile', profile)}
${fact('Delivery profile', report.deliveryProfile)}
${fact('Engine', `preflight ${report.engine.version}, profiles ${report.engine.profilesVersion}, ffmpeg ${report.engine.ffmpeg.version}`)}
${fact('SHA-256', html`<span class="mono">${m.sha256 || '—'}</span>`)}
</dl>
${report.warnings.length ? html`<ul class="warnings">${report.warnings.map((w) => html`<li>${w}</li>`)}</ul>` : null}`;
}
