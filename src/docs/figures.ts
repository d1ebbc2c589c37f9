// The figures the docs quote (cost basis, margins per plan, AI-review seconds, input ranges, example answers), rendered
// from the code that uses them. Each is a block between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` in
// a doc; test/docs-figures.test.ts fails when a doc drifts and rewrites them with UPDATE_DOCS=1.
import { marginsOf } from '../accounts/usage.js';
import { COST_BASIS_VERSION, COST_RATES, GROSS_MARGIN_TARGET_PCT } from '../billing/cost-basis.js';
import { deterministicMarginPct, estimateCost } from '../billing/estimate.js';
import { effectiveCentsPerMinute, PLAN_IDS, PLANS } from '../billing/plans.js';
import { NUMERIC_INPUT_RANGES } from '../schemas/bounds.js';
import { MESSAGE_JSON_LIMITS, SIDECAR_JSON_LIMITS, STORED_JSON_LIMITS, type JsonLimits } from '../schemas/bounded-json.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { UsageEntry } from '../billing/ledger.js';

const usd = (value: number, digits = 6) => `${Number(value.toPrecision(digits))} USD`;
const grouped = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

function costBasisTable(): string {
  const r = COST_RATES;
  return [
    '| Figure | Value | Source |',
    '|---|---|---|',
    `| Wall time per media minute | ${r.wallSecondsPerMediaMinute} s | derived from the benchmark |`,
    `| Core time per media minute | ${r.coreSecondsPerMediaMinute} core-s | derived |`,
    `| **Compute per media minute** | **${usd(r.computeUsdPerMediaMinute, 3)}** | derived |`,
    `| **Storage per media minute** | **${usd(r.storageUsdPerMediaMinute, 3)}** | derived |`,
    `| **Egress per media minute** | **${usd(r.egressUsdPerMediaMinute, 3)}** | derived |`,
    `| **Deterministic cost per checked minute** | compute + storage + egress = **${usd(r.deterministicUsdPerMediaMinute, 3)}** | derived |`,
    `| Model review | **${usd(r.modelReviewUsdPerSecond)} per second** (hypothetical; no model runs) | house |`,
    `| Gross-margin target | over ${GROSS_MARGIN_TARGET_PCT} % | product decision |`,
  ].join('\n');
}

function planMargins(): string {
  const margins = PLAN_IDS.map((id) => `${id} ${deterministicMarginPct(PLANS[id]).toFixed(2)} %`).join(', ');
  const free = PLANS.free;
  return [
    `Gross margin of a deterministic-only check, per plan, at basis ${COST_BASIS_VERSION}: ${margins}.`,
    `The free tier's ${free.includedMinutes} minutes cost at most ${free.includedMinutes} × ${usd(COST_RATES.deterministicUsdPerMediaMinute, 3)} ≈ ${usd(free.includedMinutes * COST_RATES.deterministicUsdPerMediaMinute, 2)} a month.`,
  ].join('\n');
}

function aiReviewSeconds(): string {
  const at = (minutes: number) => PLAN_IDS.map((id) => `${id} ${estimateCost({ minutes, plan_id: id }).cost_estimate.maxAiReviewSecondsAtMargin} s`).join(', ');
  return [`For 1 minute: ${at(1)}.`, `For 10 minutes: ${at(10)}.`].join('\n');
}

function planValues(): string {
  return PLAN_IDS.map((id) => `\`${id}\` ${Number((effectiveCentsPerMinute(PLANS[id]) / 100).toPrecision(5))} USD`).join(', ');
}

function numericRanges(): string {
  const rows = Object.entries(NUMERIC_INPUT_RANGES).map(
    ([field, r]) => `| \`${field}\` | ${r.integer ? 'integer' : 'number'} ${grouped(r.min)} to ${grouped(r.max)} |`,
  );
  return ['| Field | Accepted range |', '|---|---|', ...rows].join('\n');
}

function jsonLimits(): string {
  const row = (what: string, l: JsonLimits) => `| ${what} | ${l.maxDepth} | ${grouped(l.maxEntries)} | ${grouped(l.maxBytes)} |`;
  return [
    '| Free-form JSON | Levels deep | Keys and array items | Bytes |',
    '|---|---|---|---|',
    row('`per_check` of a gate-verdict import (stored)', STORED_JSON_LIMITS),
    row('a receipt to verify, a checkout event', MESSAGE_JSON_LIMITS),
    row('a sidecar (`*_json`, `*_base64`, files, URLs)', SIDECAR_JSON_LIMITS),
  ].join('\n');
}

function estimateExample(): string {
  const request = { duration_seconds: 600, profile: 'shorts', plan_id: 'creator', ai_review_seconds: 60 } as const;
  const out = estimateCost(request);
  return ['```json', JSON.stringify({ ...out, explanation: `${out.explanation.slice(0, 60)}…` }), '```', '', `(request: \`${JSON.stringify(request)}\`, from an operator key)`].join('\n');
}

/** An operator's margins answer for one studio workspace with 50 checked minutes in March 2026. */
function marginsExample(): string {
  const key = { workspaceId: 'ws_example', planId: 'studio', includedMinutes: null, planPriceCents: null, active: true, createdAt: '2026-03-01T00:00:00.000Z', scopes: [] } as unknown as ApiKeyRecord;
  const entry = { workspaceId: 'ws_example', billingPeriod: '2026-03', minutesMetered: 50, mediaMinutes: 50 } as UsageEntry;
  const out = marginsOf([entry], [key], '2026-03');
  return ['```json', JSON.stringify(out), '```'].join('\n');
}

/** Blocks by doc (path from the repository root) and name. */
export const DOC_FIGURES: Record<string, Record<string, () => string>> = {
  'docs/billing.md': {
    'cost-basis': costBasisTable,
    'plan-margins': planMargins,
    'ai-review-seconds': aiReviewSeconds,
    'plan-values': planValues,
  },
  'docs/api.md': {
    'numeric-ranges': numericRanges,
    'json-limits': jsonLimits,
    'estimate-example': estimateExample,
  },
  'docs/accounts.md': {
    'margins-example': marginsExample,
  },
};

const BLOCK = /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g;

/** `text` with every generated block of `doc` rendered anew; unknown block names are left for the test to report. */
export function renderDocFigures(doc: string, text: string): string {
  const blocks = DOC_FIGURES[doc] ?? {};
  return text.replace(BLOCK, (whole, name: string) => (blocks[name] ? `<!-- generated:${name} -->\n${blocks[name]()}\n<!-- /generated:${name} -->` : whole));
}

/** Names of the generated blocks present in `text`. */
export function docFigureBlocks(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => m[1]);
}
