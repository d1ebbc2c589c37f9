// Every flag as a card: what, when, how to fix it, how to verify the fix, and its key evidence.
import type { Flag } from '../types.js';
import { flattenEntries } from './format.js';
import { html, type SafeHtml } from './html.js';

/** Evidence values shown per flag; the JSON report has them all. */
const EVIDENCE_ENTRIES = 14;

/** Repair text quotes commands in backticks: show them as code (only when the backticks pair up). */
export function withCodeSpans(text: string): SafeHtml {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return html`${text}`;
  return html`${parts.map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}`;
}

function evidenceList(evidence: Record<string, unknown>): SafeHtml {
  const entries = flattenEntries(evidence, { arrayItems: 8, entries: EVIDENCE_ENTRIES });
  if (entries.length === 0) return html``;
  return html`<details class="evidence" open><summary>Key evidence</summary><dl class="kv">${entries.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl></details>`;
}

function flagCard(flag: Flag, hasStill: boolean): SafeHtml {
  const sev = flag.severity.toLowerCase();
  const span = flag.end > flag.start ? html` – ${flag.end.toFixed(3)} s` : null;
  return html`<article class="flag sev-${sev}" id="flag-${flag.id}">
<header><span class="badge sev-${sev}">${flag.severity}</span> <strong class="flag-id">${flag.id}</strong> <span class="gate">${flag.gate}</span></header>
<p class="when"><span title="timestamp">${flag.timestamp}</span> · <span title="SMPTE timecode">TC ${flag.timecode}</span> · frame ${flag.frame} · ${flag.start.toFixed(3)} s${span}${hasStill ? html` · <a href="#still-${flag.id}">still</a>` : null}</p>
<p class="summary">${flag.summary}</p>
<dl class="repair">
<dt>Repair</dt><dd>${withCodeSpans(flag.repair.instruction)}</dd>
<dt>Verify</dt><dd>${withCodeSpans(flag.repair.verify)}</dd>
<dt>Reachable</dt><dd>${flag.repair.reachable ? 'yes' : 'no: needs the source or a re-render, not an edit of this file'} <span class="muted">(action ${flag.repair.action})</span></dd>
</dl>
${evidenceList(flag.evidence)}
</article>`;
}

export function renderFlagList(flags: readonly Flag[], flagsWithStills: ReadonlySet<string>): SafeHtml {
  if (flags.length === 0) return html`<p class="muted">No flags.</p>`;
  return html`<div class="flags">${flags.map((f) => flagCard(f, flagsWithStills.has(f.id)))}</div>`;
}
