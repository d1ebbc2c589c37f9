// Hostile input over a real port: numbers out of any sane range, and the service still answering afterwards.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxAiReviewSecondsAtMargin } from '../src/billing/estimate.js';
import { COST_RATES } from '../src/billing/cost-basis.js';
import { MAX_AI_REVIEW_SECONDS, MAX_CENTS, MAX_DURATION_SECONDS, MAX_MINUTES } from '../src/schemas/bounds.js';
import * as fx from './helpers/fixtures.js';
import { api } from './helpers/http-client.js';
import { startServe, type RunningServer } from './helpers/serve.js';

const OPERATOR_KEY = 'op_hardening_key_0123456789abcdef0123456789';
/** Every request must answer within this: the hang of issue 11 never answered at all. */
const REQUEST_LIMIT_MS = 5_000;

let server: RunningServer;
let workspaceKey: string;

beforeAll(async () => {
  server = await startServe({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'hardening-signing-key-0123456789', PREFLIGHT_QUEUE_WORKER: 'off' });
  const created = await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: 'ws_hard', plan_id: 'creator' } });
  expect(created.status, created.text).toBe(201);
  workspaceKey = created.json.apiKey;
}, 60_000);

afterAll(() => {
  server?.proc.kill('SIGKILL');
});

const HUGE = [1e16, 2 ** 53 + 1, 1e308];

describe('numbers beyond any sane range', () => {
  it('are refused with 400 on the estimate, in time, and the server keeps answering', async () => {
    const bodies: Record<string, unknown>[] = [
      ...HUGE.map((n) => ({ minutes: n })),
      ...HUGE.map((n) => ({ duration_seconds: n })),
      ...HUGE.map((n) => ({ ai_review_seconds: n })),
      ...HUGE.map((n) => ({ plan_price_cents: n })),
      ...HUGE.map((n) => ({ included_minutes: n })),
      { minutes: MAX_MINUTES + 1 },
      { duration_seconds: MAX_DURATION_SECONDS + 1 },
      { ai_review_seconds: MAX_AI_REVIEW_SECONDS + 1 },
      { plan_price_cents: MAX_CENTS + 1 },
      { minutes: -1 },
    ];
    for (const body of bodies) {
      for (const key of [workspaceKey, OPERATOR_KEY]) {
        const r = await api(server, 'POST', '/v1/qc/estimate', { key, body, timeoutMs: REQUEST_LIMIT_MS });
        expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
        expect(r.json.error.code).toBe('invalid_input');
      }
    }
    expect((await api(server, 'GET', '/healthz', { timeoutMs: REQUEST_LIMIT_MS })).status).toBe(200);
  });

  it('are refused with 400 on job create, declared duration and size included', async () => {
    const bodies: Record<string, unknown>[] = [
      ...HUGE.map((n) => ({ upload_id: 'upl_none', duration_seconds: n })),
      ...HUGE.map((n) => ({ upload_id: 'upl_none', size_bytes: n })),
      ...HUGE.map((n) => ({ upload_id: 'upl_none', ai_review_seconds: n })),
      ...HUGE.map((n) => ({ upload_id: 'upl_none', plan_price_cents: n, included_minutes: 1 })),
    ];
    for (const body of bodies) {
      for (const key of [workspaceKey, OPERATOR_KEY]) {
        const r = await api(server, 'POST', '/v1/qc/jobs', { key, body, timeoutMs: REQUEST_LIMIT_MS });
        expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
        expect(r.json.error.code).toBe('invalid_input');
      }
    }
    const r = await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { overage_cap_cents: 1e308 }, timeoutMs: REQUEST_LIMIT_MS });
    expect(r.status).toBe(400);
    expect((await api(server, 'GET', '/healthz', { timeoutMs: REQUEST_LIMIT_MS })).status).toBe(200);
  });

  it('at the top of every range still prices in time', async () => {
    const r = await api(server, 'POST', '/v1/qc/estimate', {
      key: OPERATOR_KEY,
      body: { minutes: MAX_MINUTES, plan_price_cents: MAX_CENTS, included_minutes: 1, ai_review_seconds: MAX_AI_REVIEW_SECONDS, cost_guardrail: 'off' },
      timeoutMs: REQUEST_LIMIT_MS,
    });
    expect(r.status, r.text).toBe(200);
    expect(Number.isSafeInteger(r.json.cost_estimate.maxAiReviewSecondsAtMargin)).toBe(true);
  });
});

describe('maxAiReviewSecondsAtMargin', () => {
  const rate = COST_RATES.modelReviewUsdPerSecond;
  const fits = (budget: number, base: number, seconds: number) => base + seconds * rate <= budget + 1e-12;

  it('is the largest whole second that fits, for budgets across the whole input range', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 2000; i++) {
      const budget = random() * 10 ** Math.floor(random() * 12);
      const base = random() * budget * 1.2;
      const max = maxAiReviewSecondsAtMargin(budget, base);
      expect(Number.isSafeInteger(max)).toBe(true);
      if (max > 0) expect(fits(budget, base, max), `${budget} ${base} ${max}`).toBe(true);
      expect(fits(budget, base, max + 1), `${budget} ${base} ${max + 1}`).toBe(false);
    }
  });
});

describe('free-form JSON', () => {
  it('is bounded before it is stored: a deep or huge per_check is refused, every workspace goes on, nothing shown is lost', async () => {
    const env = { PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'hardening-signing-key-0123456789', PREFLIGHT_QUEUE_WORKER: 'off' };
    let own = await startServe(env);
    try {
      const keys: string[] = [];
      for (const ws of ['ws_json_a', 'ws_json_b']) keys.push((await api(own, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: ws } })).json.apiKey);
      const upload = async (key: string) => {
        const bytes = readFileSync(await fx.clean());
        const reserve = await api(own, 'POST', '/v1/uploads', { key, body: { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: bytes.length } });
        expect((await fetch(reserve.json.signedPutUrl, { method: 'PUT', body: bytes })).status).toBe(200);
        return reserve.json.uploadId as string;
      };
      const shown = await api(own, 'POST', '/v1/qc/jobs', { key: keys[0], body: { upload_id: await upload(keys[0]), process_async: true }, timeoutMs: 60_000 });
      expect(shown.status, shown.text).toBe(202);

      const deepText = `{"verdict":"PASS","per_check":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
      const deep = await api(own, 'POST', `/v1/qc/jobs/${shown.json.jobId}/gate-verdict`, { key: keys[0], raw: deepText, headers: { 'content-type': 'application/json' } });
      expect(deep.status, deep.text).toBe(400);
      expect(deep.json.error.message).toMatch(/nested deeper than 16 levels/);
      const huge = { verdict: 'PASS', per_check: { blob: 'x'.repeat(15 * 1024 * 1024) } };
      for (let i = 0; i < 4; i++) {
        const r = await api(own, 'POST', `/v1/qc/jobs/${shown.json.jobId}/gate-verdict`, { key: keys[0], body: huge });
        expect(r.status).toBe(400);
        expect(r.json.error.message).toMatch(/larger than 65536 bytes/);
      }
      const fine = await api(own, 'POST', `/v1/qc/jobs/${shown.json.jobId}/gate-verdict`, { key: keys[0], body: { verdict: 'PASS', per_check: { loudness: { ok: true } } } });
      expect(fine.status, fine.text).toBe(200);
      const other = await api(own, 'POST', '/v1/qc/jobs', { key: keys[1], body: { upload_id: await upload(keys[1]), process_async: true } });
      expect(other.status, other.text).toBe(202);
      expect(statSync(`${own.home}/db.json`).size).toBeLessThan(100_000);

      own.proc.kill('SIGTERM');
      await new Promise((r) => own.proc.on('exit', r));
      own = await startServe(env, own.home);
      expect((await api(own, 'GET', `/v1/qc/jobs/${shown.json.jobId}`, { key: keys[0] })).json.status).toBe('queued');
      expect((await api(own, 'GET', `/v1/qc/jobs/${other.json.jobId}`, { key: keys[1] })).json.status).toBe('queued');
    } finally {
      own.proc.kill('SIGKILL');
    }
  });
});
