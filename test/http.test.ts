// The REST door through real HTTP on loopback ports: `preflight serve` in its own process, real keys, real uploads,
// real webhook receivers. Every target is 127.0.0.1.
import { spawn, execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignatureHeader } from '../src/webhooks/index.js';
import * as fx from './helpers/fixtures.js';
import { uploadFile } from './helpers/http-client.js';
import { apiRequest, BIN, freePort, startServe, type RunningServer } from './helpers/serve.js';

const OPERATOR_KEY = 'op_test_key_0123456789abcdef0123456789abcdef';
const CHECKOUT_SECRET = 'checkout-secret-for-tests';



function startServer(env: Record<string, string>): Promise<RunningServer> {
  return startServe({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'http-test-signing-key-0123456789', ...env }, { args: ['--no-worker'] });
}

const api = apiRequest;

function expectError(r: { status: number; json: { error?: { code?: string; message?: string; details?: unknown } } }, status: number, code?: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(r.json.error).toEqual(expect.objectContaining({ code: code ?? expect.any(String), message: expect.any(String), details: expect.anything() }));
}

let strict: RunningServer;
let open: RunningServer;
let keyA: string;
let keyB: string;
let readOnlyKey: string;

beforeAll(async () => {
  [strict, open] = await Promise.all([
    startServer({ PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: CHECKOUT_SECRET }),
    startServer({ PREFLIGHT_ALLOW_PRIVATE_NETWORKS: '1' }),
  ]);
  const a = await api(strict, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'A', workspace_id: 'ws_a', plan_id: 'creator', owner_email: 'a@example.test' } });
  expect(a.status, a.text).toBe(201);
  keyA = a.json.apiKey;
  const b = await api(strict, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'B', workspace_id: 'ws_b', plan_id: 'creator' } });
  keyB = b.json.apiKey;
  const ro = await api(strict, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'RO', workspace_id: 'ws_a', scopes: ['jobs:read'] } });
  readOnlyKey = ro.json.apiKey;
}, 120_000);

afterAll(() => {
  strict?.proc.kill('SIGTERM');
  open?.proc.kill('SIGTERM');
});

/** Jobs whose findings a test does not read run one cheap gate: the same job path without the text gates' OCR. */
const CHEAP = 'black_frames';

describe('start-up', () => {
  it('refuses to run open: no operator key and no --bootstrap exits 2 with how to start; --bootstrap prints a key once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'preflight-noauth-'));
    const env = { ...process.env, PREFLIGHT_HOME: home, PREFLIGHT_SIGNING_KEY: 'http-test-signing-key-0123456789', PREFLIGHT_OPERATOR_KEY: '' };
    const port = await freePort();
    const refused = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    refused.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((r) => refused.on('exit', r))).toBe(2);
    expect(err).toMatch(/PREFLIGHT_OPERATOR_KEY.*--bootstrap/s);
    const boot = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--bootstrap'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const key: string = await new Promise((r) => boot.stdout!.on('data', (d: Buffer) => {
      const m = /Operator API key \(shown once, store it now\): (\S+)/.exec(d.toString());
      if (m) r(m[1]);
    }));
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`http://127.0.0.1:${port}/v1/api-keys`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    boot.kill('SIGTERM');
  });
});

describe('public endpoints', () => {
  it('serve health, engine capabilities, readiness without secrets, launch and public documents', async () => {
    expect((await api(strict, 'GET', '/healthz')).json).toEqual({ status: 'ok' });
    const engine = await api(strict, 'GET', '/v1/health/engine');
    expect(engine.json.status).toBe('ok');
    expect(engine.json.capabilities.ffmpeg.version).toEqual(expect.any(String));
    expect(engine.json.capabilities.gatesAvailable).toContain('loudness');
    const ready = await api(strict, 'GET', '/v1/readiness');
    expect(ready.json.ready).toBe(true);
    expect(ready.text).not.toContain(OPERATOR_KEY);
    expect(ready.text).not.toContain('http-test-signing-key');
    for (const path of ['/v1/launch-status', '/v1/launch-handoff', '/v1/launch-doctor', '/v1/launch-evidence', '/agent-manifest.json', '/mcp-install.json', '/pipeline-handoff.json', '/pipeline-recipes.json', '/npo-pipeline-handoff.json', '/launch-targets.json', '/launch-status.json', '/launch-kit.json', '/cost-basis.json', '/sample-reports/index.json']) {
      const r = await api(strict, 'GET', path);
      expect(r.status, path).toBe(200);
      expect(typeof r.json, path).toBe('object');
      expect(r.text, path).not.toContain(OPERATOR_KEY);
    }
    for (const name of ['preflight-receipt-1', 'preflight-manifest-1', 'transcript', 'watchlist', 'expected-script', 'chunk-sidecars']) {
      const schema = await api(strict, 'GET', `/schemas/${name}.json`);
      expect(schema.status, name).toBe(200);
      expect(schema.json.$id).toBe(`https://preflight.dev/schemas/${name}.json`);
    }
    const llms = await api(strict, 'GET', '/llms.txt');
    expect(llms.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(llms.text).toMatch(/^# Preflight/);
  });
});

describe('authentication and errors', () => {
  it('answers 401 without or with a bad key, 403 without the scope, 400 for bad bodies, 404 for unknown routes, one error shape', async () => {
    expectError(await api(strict, 'GET', '/v1/qc/jobs'), 401, 'unauthorized');
    expectError(await api(strict, 'GET', '/v1/qc/jobs', { key: 'prv_nope_nope' }), 401);
    expectError(await api(strict, 'POST', '/v1/qc/jobs', { key: readOnlyKey, body: {} }), 403, 'insufficient_scope');
    expectError(await api(strict, 'POST', '/v1/qc/estimate', { key: keyA, body: { profile: 'bogus' } }), 400, 'invalid_input');
    expectError(await api(strict, 'GET', '/nope'), 404, 'not_found');
    expectError(await api(strict, 'GET', '/v1/usage/margins', { key: keyA }), 403);
    expect((await api(strict, 'GET', '/v1/usage/margins', { key: OPERATOR_KEY })).status).toBe(200);
    expectError(await api(strict, 'POST', '/v1/qc/jobs', { key: keyA, body: { file_path: '/etc/passwd' } }), 400, 'local_paths_not_accepted');
    expectError(await api(strict, 'POST', '/v1/qc/jobs', { key: keyA, raw: JSON.stringify({ media_base64: 'A'.repeat(17 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } }), 413, 'body_too_large');
  });
});

describe('jobs over HTTP', () => {
  let blockJob: string;

  it('estimates, uploads, runs a job and serves its report, events, artifacts, markers, EDL and receipt', async () => {
    const estimate = await api(strict, 'POST', '/v1/qc/estimate', { key: keyA, body: { duration_seconds: 600, plan_id: 'creator' } });
    expect(estimate.json.margin_safe).toBe(true);
    const uploadId = await uploadFile(strict, keyA, await fx.blackInterior());
    const upload = await api(strict, 'GET', `/v1/uploads/${uploadId}`, { key: keyA });
    expect(upload.json).toMatchObject({ status: 'uploaded', workspaceId: 'ws_a' });
    const created = await api(strict, 'POST', '/v1/qc/jobs', { key: keyA, body: { upload_id: uploadId, profile: 'generic_creator_video' } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ status: 'completed', verdict: 'BLOCK', minutesMetered: 1, mediaIngress: { mode: 'signed_upload' } });
    expect(created.json.statusUrl).toBe(`${strict.url}/v1/qc/jobs/${created.json.jobId}`);
    blockJob = created.json.jobId;
    expect((await api(strict, 'GET', `/v1/qc/jobs/${blockJob}`, { key: keyA })).json.status).toBe('completed');
    const report = await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/report`, { key: keyA });
    expect(report.json.flags.find((f: { gate: string }) => f.gate === 'black_frames').timestamp).toBe('00:00:04.000');
    expect((await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/events`, { key: keyA })).json.events.map((e: { event_type: string }) => e.event_type)).toContain('job.completed');
    const artifacts = await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/artifacts`, { key: keyA });
    expect(artifacts.json.artifacts.map((a: { url: string }) => a.url)).toContain(`${strict.url}/v1/qc/jobs/${blockJob}/artifacts/markers`);
    const markers = await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/artifacts/markers`, { key: keyA });
    expect(markers.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(markers.text).toContain('black_frames');
    expect((await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/artifacts/edl`, { key: keyA })).text).toContain('FCM: NON-DROP FRAME');
    const listed = await api(strict, 'GET', '/v1/qc/jobs?limit=5&status=completed', { key: keyA });
    expect(listed.json.jobs.map((j: { jobId: string }) => j.jobId)).toContain(blockJob);

    const receipt = (await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/receipt`, { key: keyA })).json;
    expect(receipt).toMatchObject({ schema: 'preflight-receipt/1', verdict: 'BLOCK' });
    expect(receipt.blocked).toContain('black_frames');
    const verified = await api(strict, 'POST', '/v1/public/receipts/verify', { body: receipt });
    expect(verified.json).toMatchObject({ valid: true, authentic: true });
    const tampered = await api(strict, 'POST', '/v1/public/receipts/verify', { body: { ...receipt, verdict: 'PASS', blocked: [] } });
    expect(tampered.json).toMatchObject({ valid: false, authentic: false });
  });

  it('records a client gate verdict as a claim and never turns BLOCK into PASS', async () => {
    const claim = await api(strict, 'POST', `/v1/qc/jobs/${blockJob}/gate-verdict`, { key: keyA, body: { verdict: 'PASS', blocked: [], per_check: { black_frames: 'ok' } } });
    expect(claim.status).toBe(200);
    expect(claim.json).toMatchObject({ claimedVerdict: 'PASS', verdict: 'BLOCK', disagrees: true });
    expect((await api(strict, 'GET', `/v1/qc/jobs/${blockJob}`, { key: keyA })).json.verdict).toBe('BLOCK');
    expect((await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/receipt`, { key: keyA })).json.verdict).toBe('BLOCK');
    expectError(await api(strict, 'POST', '/v1/qc/jobs/job_missing/gate-verdict', { key: keyA, body: { verdict: 'PASS' } }), 404, 'job_not_found');
  });

  it('keeps workspaces apart: jobs, uploads, drain, usage, keys and idempotency keys', async () => {
    expectError(await api(strict, 'GET', `/v1/qc/jobs/${blockJob}`, { key: keyB }), 404);
    expectError(await api(strict, 'GET', `/v1/qc/jobs/${blockJob}/report`, { key: keyB }), 404);
    expect((await api(strict, 'GET', '/v1/qc/jobs', { key: keyB })).json.jobs).toEqual([]);
    const uploadId = await uploadFile(strict, keyA, await fx.cleanShort());
    expectError(await api(strict, 'GET', `/v1/uploads/${uploadId}`, { key: keyB }), 404);
    expectError(await api(strict, 'POST', '/v1/qc/jobs', { key: keyB, body: { upload_id: uploadId } }), 404, 'upload_not_found');

    const first = await api(strict, 'POST', '/v1/qc/jobs', { key: keyA, body: { upload_id: uploadId, idempotency_key: 'same-key', checks: CHEAP } });
    expect(first.status).toBe(201);
    const replay = await api(strict, 'POST', '/v1/qc/jobs', { key: keyA, body: { upload_id: uploadId, idempotency_key: 'same-key', checks: CHEAP } });
    expect(replay.status).toBe(200);
    expect(replay.json.jobId).toBe(first.json.jobId);
    const bUpload = await uploadFile(strict, keyB, await fx.cleanShort());
    const other = await api(strict, 'POST', '/v1/qc/jobs', { key: keyB, body: { upload_id: bUpload, idempotency_key: 'same-key', checks: CHEAP } });
    expect(other.status).toBe(201);
    expect(other.json.jobId).not.toBe(first.json.jobId);

    const queued = await api(strict, 'POST', '/v1/qc/jobs', { key: keyA, body: { upload_id: uploadId, process_async: true, checks: CHEAP } });
    expect(queued.status).toBe(202);
    expect(queued.json.status).toBe('queued');
    expect((await api(strict, 'POST', '/v1/qc/jobs/drain', { key: keyB, body: {} })).json.processed).toBe(0);
    const drained = await api(strict, 'POST', '/v1/qc/jobs/drain', { key: keyA, body: { limit: 5 } });
    expect(drained.json.processed).toBe(1);
    expect(drained.json.jobs[0]).toMatchObject({ jobId: queued.json.jobId, status: 'completed' });

    const usageB = await api(strict, 'GET', '/v1/usage', { key: keyB });
    expect(JSON.stringify(usageB.json)).not.toContain('ws_a');
    const keysB = await api(strict, 'GET', '/v1/api-keys?workspace_id=ws_a', { key: keyB });
    expect(keysB.json.keys.every((k: { workspaceId: string }) => k.workspaceId === 'ws_b')).toBe(true);
    expect(JSON.stringify(keysB.json)).not.toMatch(/prv_[a-z0-9]+_[A-Za-z0-9_-]{20,}/);
  });

  it('enforces abuse and usage limits with 413 and 429, storing abuse events', async () => {
    const free = (await api(strict, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'free', workspace_id: 'ws_free', plan_id: 'free', included_minutes: 1 } })).json.apiKey;
    const tooLong = await api(strict, 'POST', '/v1/qc/jobs', { key: free, body: { upload_id: 'upl_x', duration_seconds: 4 * 3600 } });
    expectError(tooLong, 413, 'duration_limit_exceeded');
    const bigUpload = await api(strict, 'POST', '/v1/qc/jobs', { key: free, body: { upload_id: 'upl_x', size_bytes: 50 * 1024 ** 3 } });
    expectError(bigUpload, 413, 'upload_size_limit_exceeded');
    const up = await uploadFile(strict, free, await fx.cleanShort());
    expect((await api(strict, 'POST', '/v1/qc/jobs', { key: free, body: { upload_id: up, checks: CHEAP } })).status).toBe(201);
    const up2 = await uploadFile(strict, free, await fx.letterbox());
    expectError(await api(strict, 'POST', '/v1/qc/jobs', { key: free, body: { upload_id: up2 } }), 429, 'usage_limit_exceeded');
    const events = await api(strict, 'GET', '/v1/abuse-events', { key: free });
    expect(events.json.abuseEvents.map((e: { error: string }) => e.error).sort()).toEqual(['duration_limit_exceeded', 'upload_size_limit_exceeded', 'usage_limit_exceeded']);
    expect((await api(strict, 'GET', '/v1/spend-alerts', { key: free })).json.spendAlerts).toEqual([]);

    const busy = (await api(strict, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'busy', workspace_id: 'ws_busy', plan_id: 'free' } })).json.apiKey;
    const media = await uploadFile(strict, busy, await fx.cleanShort());
    for (let i = 0; i < 2; i++) expect((await api(strict, 'POST', '/v1/qc/jobs', { key: busy, body: { upload_id: media, process_async: true, checks: CHEAP } })).status).toBe(202);
    expectError(await api(strict, 'POST', '/v1/qc/jobs', { key: busy, body: { upload_id: media, process_async: true, checks: CHEAP } }), 429, 'active_jobs_limit_exceeded');
  });
});

describe('provisioning', () => {
  it('provisions idempotently and verifies the checkout webhook signature', async () => {
    const body = { plan_id: 'studio', owner_email: 'buyer@example.test', checkout_subscription_id: 'sub_1' };
    const first = await api(strict, 'POST', '/v1/checkout/provision-api-key', { key: OPERATOR_KEY, body });
    expect(first.status, first.text).toBe(201);
    expect(first.json.apiKey).toMatch(/^prv_/);
    const again = await api(strict, 'POST', '/v1/checkout/provision-api-key', { key: OPERATOR_KEY, body });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ apiKey: null, idempotentReplay: true });
    expectError(await api(strict, 'POST', '/v1/checkout/provision-api-key', { key: OPERATOR_KEY, body: { plan_id: 'gold', owner_email: 'x@example.test' } }), 400);
    const event = JSON.stringify({ type: 'subscription.paid', data: { plan_id: 'creator', owner_email: 'web@example.test', subscription_id: 'sub_web' } });
    const signature = createHmac('sha256', CHECKOUT_SECRET).update(event).digest('hex');
    const hook = await api(strict, 'POST', '/v1/webhooks/checkout', { raw: event, headers: { 'x-signature': signature, 'content-type': 'application/json' } });
    expect(hook.status, hook.text).toBe(201);
    expectError(await api(strict, 'POST', '/v1/webhooks/checkout', { raw: event, headers: { 'x-signature': 'bad', 'content-type': 'application/json' } }), 401);
  });
});

describe('remote ingress is SSRF-safe', () => {
  let redirector: Server;
  let redirectorPort: number;
  let ssrfServer: RunningServer;

  beforeAll(async () => {
    // A self-signed HTTPS server on loopback, explicitly allowed, that redirects to a loopback target that is not.
    const dir = mkdtempSync(join(tmpdir(), 'preflight-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-days', '1'], { stdio: 'ignore' });
    redirector = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
      res.writeHead(302, { location: 'https://127.0.0.1:1/secret' });
      res.end();
    }) as unknown as Server;
    redirectorPort = await new Promise((r) => redirector.listen(0, '127.0.0.1', () => r((redirector.address() as { port: number }).port)));
    ssrfServer = await startServer({ PREFLIGHT_REMOTE_ALLOW_HOSTS: `127.0.0.1:${redirectorPort}`, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
  });

  afterAll(() => {
    redirector?.close();
    ssrfServer?.proc.kill('SIGTERM');
  });

  it('refuses http, loopback, metadata, names resolving to loopback and redirects to loopback', async () => {
    const attempts: [string, string][] = [
      ['http://media.example.test/a.mp4', 'remote_url_insecure'],
      ['https://127.0.0.1/a.mp4', 'remote_url_forbidden'],
      ['https://169.254.169.254/latest/meta-data', 'remote_url_forbidden'],
      ['https://localhost/a.mp4', 'remote_url_forbidden'],
      [`https://127.0.0.1:${redirectorPort}/start.mp4`, 'remote_url_forbidden'],
    ];
    for (const [url, code] of attempts) {
      const r = await api(ssrfServer, 'POST', '/v1/qc/jobs', { key: OPERATOR_KEY, body: { signed_url: url } });
      expectError(r, 400, code);
      expect(r.text).not.toContain('/secret');
    }
    const sidecar = await api(ssrfServer, 'POST', '/v1/qc/jobs', { key: OPERATOR_KEY, body: { media_base64: 'AAAA', media_kind: 'video', transcript_url: 'https://127.0.0.1/t.srt' } });
    expectError(sidecar, 400, 'remote_url_forbidden');
    // Queued jobs keep sidecar URLs for the run: they are checked when the job is accepted.
    const media = await uploadFile(ssrfServer, OPERATOR_KEY, await fx.cleanShort());
    const queued = await api(ssrfServer, 'POST', '/v1/qc/jobs', { key: OPERATOR_KEY, body: { upload_id: media, process_async: true, manifest_url: 'https://169.254.169.254/m.json' } });
    expectError(queued, 400, 'remote_url_forbidden');
  });
});

describe('webhooks', () => {
  it('delivers a correctly signed completion, and a retried one after a 500', async () => {
    const received: { body: string; signature: string }[] = [];
    let failNext = true;
    const receiver = createHttpServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['x-service-signature']) });
        res.writeHead(failNext ? 500 : 200);
        failNext = false;
        res.end();
      });
    });
    const port: number = await new Promise((r) => receiver.listen(0, '127.0.0.1', () => r((receiver.address() as { port: number }).port)));
    try {
      const key = (await api(open, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'hooks', workspace_id: 'ws_hooks', plan_id: 'creator' } })).json.apiKey;
      const endpoint = await api(open, 'POST', '/v1/webhooks', { key, body: { url: `http://127.0.0.1:${port}/hook`, event_types: ['job.completed'] } });
      expect(endpoint.status, endpoint.text).toBe(201);
      const secret = endpoint.json.signingSecret as string;
      expect((await api(open, 'GET', '/v1/webhooks', { key })).text).not.toContain(secret);
      const media = await uploadFile(open, key, await fx.cleanShort());
      const job = await api(open, 'POST', '/v1/qc/jobs', { key, body: { upload_id: media, checks: CHEAP } });
      expect(job.status).toBe(201);
      const drained = await api(open, 'POST', '/v1/webhooks/deliveries/drain', { key });
      expect(drained.json.processed).toBe(1);
      const delivery = drained.json.results[0];
      expect(delivery).toMatchObject({ status: 'pending', responseStatus: 500, attemptCount: 1, jobId: job.json.jobId });
      const retried = await api(open, 'POST', `/v1/webhooks/deliveries/${delivery.deliveryId}/retry`, { key });
      expect(retried.json).toMatchObject({ status: 'sent', responseStatus: 200 });
      expect(received).toHaveLength(2);
      const last = received[1];
      expect(verifySignatureHeader(last.signature, last.body, secret)).toBe(true);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(last.signature)!;
      expect(createHmac('sha256', secret).update(`${t}.${last.body}`).digest('hex')).toBe(v1);
      expect(JSON.parse(last.body)).toMatchObject({ event: 'job.completed', jobId: job.json.jobId, verdict: 'PASS' });
      const other = (await api(open, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'other', workspace_id: 'ws_other' } })).json.apiKey;
      expect((await api(open, 'GET', '/v1/webhooks/deliveries', { key: other })).json.deliveries).toEqual([]);
      expectError(await api(open, 'POST', `/v1/webhooks/deliveries/${delivery.deliveryId}/retry`, { key: other }), 404);
    } finally {
      receiver.close();
    }
  });
});


describe('every bearer endpoint of the OpenAPI document', () => {
  it('answers 401 without a key, 403 without its scope, 404 for unknown ids and 400 for a malformed body', async () => {
    const doc = (await api(strict, 'GET', '/openapi.json')).json as { paths: Record<string, Record<string, { security?: unknown; 'x-required-scope'?: string; requestBody?: unknown }>> };
    const jobsRead = (await api(strict, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'jr', workspace_id: 'ws_scopes', scopes: ['jobs:read'] } })).json.apiKey;
    const uploadsOnly = (await api(strict, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'uo', workspace_id: 'ws_scopes', scopes: ['uploads:write'] } })).json.apiKey;
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (!op.security) continue;
        const concrete = path.replace(/\{[a-z_]+\}/g, 'missing_id_123');
        const verb = method.toUpperCase();
        const body = op.requestBody ? {} : undefined;
        expectError(await api(strict, verb, concrete, { body }), 401, 'unauthorized');
        const scope = op['x-required-scope']!;
        expect(scope, `${verb} ${path}`).toMatch(/^[a-z_]+(:[a-z_]+)?$/);
        const lacking = scope === 'jobs:read' ? uploadsOnly : jobsRead;
        expectError(await api(strict, verb, concrete, { key: lacking, body }), 403);
        if (op.requestBody) {
          const bad = await api(strict, verb, concrete, { key: OPERATOR_KEY, raw: '{not json', headers: { 'content-type': 'application/json' } });
          expect([400, 404], `${verb} ${path}: ${bad.text}`).toContain(bad.status);
          expect(bad.json.error.code).toEqual(expect.any(String));
        }
        if (path.includes('{')) {
          const missing = await api(strict, verb, concrete, { key: OPERATOR_KEY, body: op.requestBody ? validBodyFor(path) : undefined });
          expect(missing.status, `${verb} ${path}: ${missing.text}`).toBe(404);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

/** A body that passes validation, so the unknown id is what the route answers about. */
function validBodyFor(path: string): unknown {
  if (path.endsWith('/gate-verdict')) return { verdict: 'PASS' };
  return {};
}
