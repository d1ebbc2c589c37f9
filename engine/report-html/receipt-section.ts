// The signed receipt, field by field, and how to check it independently of this page.
import { receiptVerifyInstructions, type Receipt } from '../receipt.js';
import { flattenEntries } from './format.js';
import { html, type SafeHtml } from './html.js';

function listOrNone(items: readonly string[]): string {
  return items.length ? items.join(', ') : 'none';
}

/** The receipt's own verify steps when it carries them, else the engine's standard ones. */
function verifySteps(receipt: Receipt): SafeHtml {
  const given = receipt.verify;
  if (typeof given === 'string') return html`<p>${given}</p>`;
  const instructions = given ?? receiptVerifyInstructions();
  const steps = Array.isArray(instructions.steps) ? instructions.steps.map(String) : [];
  const { steps: _steps, ...rest } = instructions;
  return html`${steps.length ? html`<ol class="steps">${steps.map((s) => html`<li>${s}</li>`)}</ol>` : null}
<dl class="kv">${flattenEntries(rest).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

export function renderReceipt(receipt: Receipt | null | undefined): SafeHtml | null {
  if (!receipt) return null;
  const verdictClass = receipt.verdict === 'BLOCK' ? 'sev-block' : 'sev-pass';
  return html`<section id="receipt"><h2>Receipt</h2>
${receipt.summary ? html`<p>${receipt.summary} <span class="muted">(summary is unsigned)</span></p>` : null}
<dl class="kv receipt">
<dt>schema</dt><dd>${receipt.schema}</dd>
<dt>verdict</dt><dd><span class="badge ${verdictClass}">${receipt.verdict}</span></dd>
<dt>sha256</dt><dd class="mono">${receipt.sha256}</dd>
<dt>profile</dt><dd>${receipt.profile}</dd>
<dt>gates</dt><dd>${listOrNone(receipt.gates)}</dd>
<dt>blocked</dt><dd>${listOrNone(receipt.blocked)}</dd>
<dt>jobId</dt><dd class="mono">${receipt.jobId}</dd>
<dt>issuedAt</dt><dd>${receipt.issuedAt}</dd>
<dt>issuer</dt><dd>${receipt.issuer}</dd>
<dt>signature</dt><dd class="mono">${receipt.signature}</dd>
</dl>
<h3>How to verify it</h3>
${verifySteps(receipt)}
</section>`;
}
