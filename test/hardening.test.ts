// Hostile input over a real port: numbers out of any sane range, and the service still answering afterwards.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_VERSION } from '../engine/check.js';
import { engineCapabilities } from '../engine/ffmpeg/capabilities.js';
import { startHttpDoor } from '../http/serve.js';
import { AccountService } from '../src/accounts/index.js';
import { maxAiReviewSecondsAtMargin } from '../src/billing/estimate.js';
import { collectOperationalState } from '../src/public/operational.js';
import { PreflightService } from '../src/service.js';
import { QueueWorker } from '../src/worker/index.js';
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

const CHECKOUT_SECRET = 'hardening-checkout-secret';
const SERVE_ENV = {
  PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY,
  PREFLIGHT_SIGNING_KEY: 'hardening-signing-key-0123456789',
  PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: CHECKOUT_SECRET,
  // Loopback receivers for callbacks; every target in this file is 127.0.0.1.
  PREFLIGHT_ALLOW_PRIVATE_NETWORKS: '1',
};

beforeAll(async () => {
  server = await startServe(SERVE_ENV, { args: ['--no-worker'] });
  const created = await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: 'ws_hard', plan_id: 'creator' } });
  expect(created.status, created.text).toBe(201);
  workspaceKey = created.json.apiKey;
}, 60_000);

afterAll(() => {
  server?.proc.kill('SIGKILL');
});

const HUGE = [1e16, 2 ** 53 + 1, 1e308];

async function upload(target: Pick<RunningServer, 'url'>, key: string, file?: string): Promise<string> {
  const bytes = readFileSync(file ?? (await fx.cleanShort()));
  const reserve = await api(target, 'POST', '/v1/uploads', { key, body: { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: bytes.length } });
  expect(reserve.status, reserve.text).toBe(201);
  expect((await fetch(reserve.json.signedPutUrl, { method: 'PUT', body: bytes })).status).toBe(200);
  return reserve.json.uploadId as string;
}

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
  it('never reaches the service through a field the create body does not know', async () => {
    const media = await upload(server, workspaceKey);
    const raw = `{"upload_id":"${media}","idempotency_key":"deep-unknown","process_async":true,"unknown":${'['.repeat(10_000)}1${']'.repeat(10_000)}}`;
    const created = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, raw, headers: { 'content-type': 'application/json' } });
    expect(created.status, created.text).toBe(202);
    const again = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, raw, headers: { 'content-type': 'application/json' } });
    expect(again.status, again.text).toBe(200);
  });

  it('is bounded before it is stored: a deep or huge per_check is refused, every workspace goes on, nothing shown is lost', async () => {
    let own = await startServe(SERVE_ENV, { args: ['--no-worker'] });
    try {
      const keys: string[] = [];
      for (const ws of ['ws_json_a', 'ws_json_b']) keys.push((await api(own, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: ws } })).json.apiKey);
      const shown = await api(own, 'POST', '/v1/qc/jobs', { key: keys[0], body: { upload_id: await upload(own, keys[0]), process_async: true }, timeoutMs: 60_000 });
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
      const other = await api(own, 'POST', '/v1/qc/jobs', { key: keys[1], body: { upload_id: await upload(own, keys[1]), process_async: true } });
      expect(other.status, other.text).toBe(202);

      own.proc.kill('SIGTERM');
      await new Promise((r) => own.proc.on('exit', r));
      own = await startServe(SERVE_ENV, { home: own.home, args: ['--no-worker'] });
      expect((await api(own, 'GET', `/v1/qc/jobs/${shown.json.jobId}`, { key: keys[0] })).json.status).toBe('queued');
      expect((await api(own, 'GET', `/v1/qc/jobs/${other.json.jobId}`, { key: keys[1] })).json.status).toBe('queued');
    } finally {
      own.proc.kill('SIGKILL');
    }
  });
});

const checkout = (event: unknown) => {
  const raw = JSON.stringify(event);
  return api(server, 'POST', '/v1/webhooks/checkout', { raw, headers: { 'content-type': 'application/json', 'x-signature': createHmac('sha256', CHECKOUT_SECRET).update(raw).digest('hex') } });
};

describe('accounts', () => {
  it('keep provisioning ids to one workspace: a workspace key cannot claim a customer’s subscription', async () => {
    const attacker = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: 'ws_attacker', scopes: ['api_keys:write', 'api_keys:read'] } })).json.apiKey;
    const claimed = await api(server, 'POST', '/v1/checkout/provision-api-key', { key: attacker, body: { plan_id: 'creator', owner_email: 'a@example.test', checkout_subscription_id: 'sub_victim' } });
    expect(claimed.status, claimed.text).toBe(201);
    expect(claimed.json.key.provisioningId).toBe('ws:ws_attacker:creator:sub:sub_victim');
    const chosen = await api(server, 'POST', '/v1/checkout/provision-api-key', { key: attacker, body: { plan_id: 'creator', owner_email: 'a@example.test', provisioning_id: 'creator:sub:sub_victim2' } });
    expect(chosen.json.key.provisioningId).toBe('ws:ws_attacker:creator:sub:sub_victim2');
    // The real customer's checkout still provisions its own key, in its own workspace.
    const paid = await checkout({ type: 'subscription.paid', data: { plan_id: 'creator', owner_email: 'victim@example.test', subscription_id: 'sub_victim' } });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.json).toMatchObject({ idempotentReplay: false, key: { provisioningId: 'creator:sub:sub_victim' } });
    expect(paid.json.key.workspaceId).not.toBe('ws_attacker');
    const byOperator = await api(server, 'POST', '/v1/checkout/provision-api-key', { key: OPERATOR_KEY, body: { plan_id: 'creator', owner_email: 'victim@example.test', provisioning_id: 'creator:sub:sub_victim2' } });
    expect(byOperator.status).toBe(201);
    // A replay for another workspace is a conflict, not that workspace's record.
    const replay = await api(server, 'POST', '/v1/checkout/provision-api-key', { key: OPERATOR_KEY, body: { plan_id: 'creator', owner_email: 'victim@example.test', checkout_subscription_id: 'sub_victim', workspace_id: 'ws_attacker' } });
    expect(replay.status, replay.text).toBe(409);
    expect(replay.json.error.code).toBe('provisioning_conflict');
    const again = await checkout({ type: 'subscription.paid', data: { plan_id: 'creator', owner_email: 'victim@example.test', subscription_id: 'sub_victim', workspace_id: 'ws_attacker' } });
    expect(again.status).toBe(409);
  });

  it('refuse reserved workspace ids everywhere, the signed checkout webhook included', async () => {
    for (const workspace of ['operator', 'OPERATOR', 'local', 'checkout']) {
      const hook = await checkout({ type: 'order.paid', data: { plan_id: 'studio', owner_email: 'x@example.test', workspace_id: workspace, provisioning_id: `p-${workspace}` } });
      expect(hook.status, hook.text).toBe(400);
      expect(hook.json.error.message).toMatch(/reserved/);
      const key = await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: workspace } });
      expect(key.status).toBe(400);
      const provision = await api(server, 'POST', '/v1/checkout/provision-api-key', { key: OPERATOR_KEY, body: { plan_id: 'studio', owner_email: 'x@example.test', workspace_id: workspace } });
      expect(provision.status).toBe(400);
      const hookEndpoint = await api(server, 'POST', '/v1/webhooks', { key: OPERATOR_KEY, body: { url: 'https://hooks.example.com/in', workspace_id: workspace } });
      expect(hookEndpoint.status).toBe(400);
    }
    const keys = await api(server, 'GET', '/v1/api-keys', { key: OPERATOR_KEY });
    expect(keys.json.keys.filter((k: { workspaceId: string; scopes: string[] }) => k.workspaceId === 'operator' && !k.scopes.includes('operator'))).toEqual([]);
  });

  it('sign callback_url deliveries with the creator’s callback_secret, which the receiver can verify', async () => {
    const received: { body: string; signature: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['x-service-signature']) });
        res.writeHead(204).end();
      });
    });
    const port: number = await new Promise((r) => receiver.listen(0, '127.0.0.1', () => r((receiver.address() as { port: number }).port)));
    try {
      const secret = 'my-own-callback-secret-0123456789abcdef';
      const media = await upload(server, workspaceKey);
      const missing = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, body: { upload_id: media, callback_url: `http://127.0.0.1:${port}/cb` } });
      expect(missing.status).toBe(400);
      expect(missing.json.error.code).toBe('callback_secret_required');
      const job = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, body: { upload_id: media, callback_url: `http://127.0.0.1:${port}/cb`, callback_secret: secret }, timeoutMs: 60_000 });
      expect(job.status, job.text).toBe(201);
      expect(job.text).not.toContain(secret);
      const drained = await api(server, 'POST', '/v1/webhooks/deliveries/drain', { key: workspaceKey, body: { limit: 5 } });
      expect(drained.json.results).toMatchObject([{ webhookId: 'callback_url', status: 'sent', jobId: job.json.jobId }]);
      expect(drained.text).not.toContain(secret);
      const [{ body, signature }] = received;
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature)!;
      expect(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')).toBe(v1);
      expect(JSON.parse(body)).toMatchObject({ event: 'job.completed', jobId: job.json.jobId });
    } finally {
      receiver.close();
    }
  });

  it('answer 409 idempotency_conflict for a reused key with a different request, 200 with the first job for the same', async () => {
    const media = await upload(server, workspaceKey);
    const body = { upload_id: media, idempotency_key: 'render-7', process_async: true, profile: 'generic_creator_video' };
    const first = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, body });
    expect(first.status, first.text).toBe(202);
    const same = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, body: { ...body } });
    expect(same.status).toBe(200);
    expect(same.json.jobId).toBe(first.json.jobId);
    const different = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, body: { ...body, profile: 'shorts' } });
    expect(different.status, different.text).toBe(409);
    expect(different.json.error).toMatchObject({ code: 'idempotency_conflict', details: { idempotencyKey: 'render-7', jobId: first.json.jobId } });
    const found = await api(server, 'GET', '/v1/qc/jobs?idempotency_key=render-7', { key: workspaceKey });
    expect(found.json.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([first.json.jobId]);
  });
});

describe('smaller holes', () => {
  it('an empty upload PUT is 400 empty_body and the upload stays open', async () => {
    const reserve = await api(server, 'POST', '/v1/uploads', { key: workspaceKey, body: { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: 10 } });
    const put = await fetch(reserve.json.signedPutUrl, { method: 'PUT', body: new Uint8Array(0), headers: { 'content-length': '0' } });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { error: { code: string } }).error.code).toBe('empty_body');
    expect((await api(server, 'GET', `/v1/uploads/${reserve.json.uploadId}`, { key: workspaceKey })).json).toMatchObject({ status: 'created', bytesReceived: null });
  });

  it('a refused upload PUT (wrong token, past its reservation, a second one) stores nothing and leaves its connection serving', async () => {
    // One socket for every PUT: a refused body is read to its end rather than cut off, so the client can reuse it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const put = (url: string, body: Uint8Array) =>
      new Promise<{ status: number; text: string; socket: Socket }>((done, fail) => {
        const req = httpRequest(url, { method: 'PUT', agent, headers: { 'content-length': body.length } }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => done({ status: res.statusCode!, text, socket: req.socket! }));
        });
        req.on('error', fail);
        req.end(body);
      });
    try {
      const reserve = await api(server, 'POST', '/v1/uploads', { key: workspaceKey, body: { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: 1000 } });
      const wrong = await put(reserve.json.signedPutUrl.replace(/token=.*/, 'token=guess'), new Uint8Array(1024 ** 2));
      expect(wrong.status, wrong.text).toBe(404);
      const over = await put(reserve.json.signedPutUrl, new Uint8Array(1024 ** 2));
      expect(over.status, over.text).toBe(413);
      expect(over.socket).toBe(wrong.socket);
      expect(JSON.parse(over.text).error.code).toBe('upload_too_large');
      expect((await api(server, 'GET', `/v1/uploads/${reserve.json.uploadId}`, { key: workspaceKey })).json).toMatchObject({ status: 'created', bytesReceived: null });
      const fits = await put(reserve.json.signedPutUrl, new Uint8Array(1000).fill(7));
      expect(fits.status, fits.text).toBe(200);
      expect(fits.socket).toBe(over.socket);
      expect((await api(server, 'GET', `/v1/uploads/${reserve.json.uploadId}`, { key: workspaceKey })).json).toMatchObject({ status: 'uploaded', bytesReceived: 1000 });
      const second = await put(reserve.json.signedPutUrl, new Uint8Array(1024 ** 2));
      expect(second.status, second.text).toBe(409);
      expect(second.socket).toBe(over.socket);
    } finally {
      agent.destroy();
    }
  });

  it('uploads record the key and owner that reserved them', async () => {
    const owned = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: 'ws_owned', owner_email: 'owner@example.test' } })).json;
    const reserve = await api(server, 'POST', '/v1/uploads', { key: owned.apiKey, body: { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: 10 } });
    expect(reserve.json).toMatchObject({ workspaceId: 'ws_owned', ownerEmail: 'owner@example.test', apiKeyId: owned.key.keyId });
  });

  it('the delivery drain accepts only a valid body, with limit 1 to 25', async () => {
    const path = '/v1/webhooks/deliveries/drain';
    for (const bad of [{ limit: 0 }, { limit: 26 }, { limit: 1000 }, { limit: 'all' }, { limit: 1.5 }, [1], 'drain']) {
      const r = await api(server, 'POST', path, { key: workspaceKey, body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await api(server, 'POST', `${path}?limit=100`, { key: workspaceKey })).status).toBe(400);
    for (const good of [{ limit: 1 }, { limit: 25 }, {}]) expect((await api(server, 'POST', path, { key: workspaceKey, body: good })).status).toBe(200);
    expect((await api(server, 'POST', path, { key: workspaceKey })).status).toBe(200);
  });

  it('lists jobs by source_url: only those created from exactly that URL', async () => {
    const bytes = readFileSync(await fx.cleanShort());
    const files = createServer((_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(bytes));
    const port: number = await new Promise((r) => files.listen(0, '127.0.0.1', () => r((files.address() as { port: number }).port)));
    try {
      const url = `http://127.0.0.1:${port}/render.mp4?sig=secret-signature`;
      const created = await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, body: { signed_url: url }, timeoutMs: 60_000 });
      expect(created.status, created.text).toBe(201);
      await api(server, 'POST', '/v1/qc/jobs', { key: workspaceKey, body: { signed_url: `${url}-other` }, timeoutMs: 60_000 });
      const listed = await api(server, 'GET', `/v1/qc/jobs?source_url=${encodeURIComponent(url)}`, { key: workspaceKey });
      expect(listed.json.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([created.json.jobId]);
      expect(listed.text).not.toContain('secret-signature');
      expect((await api(server, 'GET', `/v1/qc/jobs?source_url=${encodeURIComponent(`http://127.0.0.1:${port}/elsewhere.mp4`)}`, { key: workspaceKey })).json.jobs).toEqual([]);
      // Every byte the embedded database keeps on disk (uncompressed pages: short strings are stored as they are).
      const stored = readdirSync(join(server.home, 'db'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
        .join('');
      expect(stored).toContain(created.json.jobId);
      expect(stored).not.toContain('secret-signature');
    } finally {
      files.close();
    }
  });

  it('public operational documents show configuration state, not business figures', async () => {
    for (const path of ['/v1/readiness', '/v1/launch-status', '/v1/launch-doctor', '/v1/launch-evidence', '/launch-status.json', '/launch-kit.json', '/sample-reports/index.json']) {
      const r = await api(server, 'GET', path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).not.toMatch(/"(jobs|apiKeys|webhookDeliveries|completedJobs|lastCompletedAt|pending|queued|total)"\s*:/);
      expect(r.text, path).not.toMatch(/API key\(s\) stored|\d+ pending/);
    }
    const evidence = await api(server, 'GET', '/v1/launch-evidence');
    expect(evidence.json.configuration).toMatchObject({ operatorAuthConfigured: true, checkoutWebhookConfigured: true, signingKeySource: 'env' });
  });
});

describe('async creates', () => {
  it('answer 202 whatever the background worker did with the job meanwhile', async () => {
    const service = await PreflightService.open({ home: mkdtempSync(join(tmpdir(), 'preflight-async-')), env: { PREFLIGHT_SIGNING_KEY: 'async-signing-key-0123456789' } });
    const accounts = new AccountService({ db: service.records, env: {}, mailer: null });
    const { created: operatorKey } = await accounts.ensureOperatorAccess({ bootstrap: true });
    const door = await startHttpDoor(
      { service, auth: accounts, state: () => collectOperationalState({ service, env: {}, version: ENGINE_VERSION, engine: engineCapabilities }) },
      { port: 0, restUrls: true },
    );
    // The in-process queue worker takes each queued job as soon as it is sent.
    const worker = await QueueWorker.start({ service, env: {}, concurrency: 2, retention: false });
    try {
      const media = await upload(door, operatorKey!);
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => api(door, 'POST', '/v1/qc/jobs', { key: operatorKey, body: { upload_id: media, process_async: true }, timeoutMs: 60_000 })),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    } finally {
      await door.close();
      await worker.stop(0);
      await service.close();
    }
  });
});
