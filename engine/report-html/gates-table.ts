// The gates table: every gate with its status, reason and measurements (nested values flattened to key: value).
import type { GateSummary } from '../report.js';
import { flattenEntries } from './format.js';
import { html, type SafeHtml } from './html.js';

function measurementList(measurements: Record<string, unknown>): SafeHtml {
  const entries = flattenEntries(measurements);
  if (entries.length === 0) return html`<span class="muted">—</span>`;
  return html`<ul class="measurements">${entries.map(([k, v]) => html`<li><span class="key-name">${k}:</span> ${v}</li>`)}</ul>`;
}

function gateRow(g: GateSummary): SafeHtml {
  return html`<tr class="status-${g.status}">
<th scope="row">${g.gate}</th>
<td><span class="status status-${g.status}">${g.status}</span>${g.flagCount ? html`<br><span class="muted">${g.flagCount} flag${g.flagCount === 1 ? '' : 's'}</span>` : null}</td>
<td>${g.reason ?? ''}</td>
<td>${measurementList(g.measurements)}</td>
</tr>`;
}

export function renderGatesTable(gates: readonly GateSummary[]): SafeHtml {
  if (gates.length === 0) return html`<p class="muted">No gates ran.</p>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="Gates table, scrolls sideways">
<table class="gates">
<thead><tr><th scope="col">Gate</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Measurements</th></tr></thead>
<tbody>${gates.map(gateRow)}</tbody>
</table>
</div>`;
}
