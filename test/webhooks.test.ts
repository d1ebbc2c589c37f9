// Webhook endpoints and deliveries against a real loopback receiver and a real (embedded) database.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../src/errors.js';
import { policyFromEnv, postJson } from '../src/ingress/remote.js';
import type { Database } from '../src/storage/database.js';
import { JobQueue } from '../src/storage/queue.js';
import { queueDelivery, workDeliveries } from '../src/worker/deliveries.js';
import { emptyDatabase, memoryDatabase, storedText } from './helpers/test-database.js';
import {
  WebhookDeliverySchema,
  WebhookDrainResultSchema,
  WebhookEndpointSchema,
  WebhookService,
  verifySignatureHeader,
  type FinishedJob,
  type WebhookPrincipal,
  type WebhookSender,
} from '../src/webhooks/index.js';

// A fake DNS answer for one name (the rest resolve for real): the DNS-rebinding case of a send-time refusal.
const fakeDns = vi.hoisted(() => ({ answers: new Map<string, Array<{ address: string; family: number }>>() }));
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async (host: string, options: import('node:dns').LookupAllOptions) => fakeDns.answers.get(host) ?? actual.lookup(host, options);
  return { ...actual, lookup, default: { ...actual, lookup } };
});

const SIGNING_KEY = 'test-signing-key-for-webhooks-0123456789';
const TEST_ENV = { PREFLIGHT_SIGNING_KEY: SIGNING_KEY, PREFLIGHT_ALLOW_PRIVATE_NETWORKS: '1' };
const MAX_RECEIVED_BYTES = 64 * 1024;
const CALLBACK_SECRET = 'callback-secret-chosen-by-the-customer-0123';

const A: WebhookPrincipal = { workspaceId: 'ws_a', scopes: ['webhooks:write'], operator: false, keyId: 'key_a', ownerEmail: 'a@example.com' };
const B: WebhookPrincipal = { workspaceId: 'ws_b', scopes: ['webhooks:write'], operator: false, keyId: 'key_b' };
const OPERATOR: WebhookPrincipal = { workspaceId: 'ops', scopes: ['operator'], operator: true };

// ------------------------------------------------------------------ a loopback receiver

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Reply = number | 'hang';

function startReceiver() {
  const received: Received[] = [];
  const replies: Reply[] = [];
  let fallback: Reply = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RECEIVED_BYTES) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = replies.shift() ?? fallback;
      if (reply !== 'hang') res.writeHead(reply, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  return {
    received,
    server,
    url: (path = '/hook') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    reply: (...next: Reply[]) => replies.push(...next),
    always: (reply: Reply) => {
      fallback = reply;
    },
    reset: () => {
      received.length = 0;
      replies.length = 0;
      fallback = 200;
    },
  };
}

const receiver = startReceiver();

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  receiver.server.closeAllConnections();
  await new Promise((resolve) => receiver.server.close(resolve));
});

const fetchPoster: WebhookSender = async (url, body, headers, options) => {
  const res = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: options?.signal });
  return { status: res.status, bodyText: (await res.text()).slice(0, 1000) };
};

// ------------------------------------------------------------------ a service on a temp data dir

const homes: string[] = [];
let db: Database;

beforeAll(async () => {
  db = await memoryDatabase();
});
afterAll(async () => {
  await db.close();
});

afterEach(async () => {
  receiver.reset();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  await emptyDatabase(db);
});

async function setup(options: { env?: Record<string, string>; home?: string; attemptTimeoutMs?: number } = {}) {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'preflight-webhooks-'));
  if (!options.home) homes.push(home);
  const store = db;
  const clock = { now: new Date(Math.floor(Date.now() / 1000) * 1000) };
  const service = new WebhookService({
    db: store,
    env: options.env ?? TEST_ENV,
    home,
    send: fetchPoster,
    now: () => new Date(clock.now),
    attemptTimeoutMs: options.attemptTimeoutMs,
  });
  const advance = (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  return { home, store, service, clock, advance };
}

function finishedJob(overrides: Partial<FinishedJob> = {}): FinishedJob {
  const jobId = overrides.jobId ?? 'job_0001';
  return {
    jobId,
    workspaceId: 'ws_a',
    status: 'completed',
    verdict: 'BLOCK',
    minutesMetered: 2,
    reportUrl: `https://preflight.example/v1/qc/jobs/${jobId}/report`,
    statusUrl: `https://preflight.example/v1/qc/jobs/${jobId}`,
    failureReason: null,
    completedAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function parseHeader(header: string): { t: number; v1: string } {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  return { t: Number(parts.t), v1: parts.v1 };
}

function independentHmac(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

// ------------------------------------------------------------------ tests

describe('webhook deliveries', () => {
  it('delivers a job.completed event signed with the endpoint secret', async () => {
    const { service, clock } = await setup();
    const endpoint = await service.createEndpoint(A, { url: receiver.url() });
    expect(WebhookEndpointSchema.parse(endpoint)).toEqual(endpoint);
    expect(endpoint).toMatchObject({ eventTypes: ['job.completed', 'job.failed'], workspaceId: 'ws_a', apiKeyId: 'key_a', ownerEmail: 'a@example.com', signingSecretStorage: 'encrypted' });

    const [queued] = await service.enqueueJobEvent(finishedJob());
    expect(queued).toMatchObject({ status: 'pending', attemptCount: 0, signature: '', webhookId: endpoint.webhookId, eventType: 'job.completed' });

    const drained = await service.drain(A);
    expect(WebhookDrainResultSchema.parse(drained)).toEqual(drained);
    expect(drained.processed).toBe(1);
    const [sent] = drained.results;
    expect(sent).toMatchObject({ status: 'sent', attemptCount: 1, responseStatus: 200, lastError: null, nextAttemptAt: null, sentAt: clock.now.toISOString() });

    expect(receiver.received).toHaveLength(1);
    const { headers, body, path } = receiver.received[0];
    expect(path).toBe('/hook');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-service-event']).toBe('job.completed');
    expect(headers['x-service-delivery']).toBe(sent.deliveryId);
    const header = headers['x-service-signature'] as string;
    expect(header).toBe(sent.signature);

    const secret = endpoint.signingSecret as string;
    expect(verifySignatureHeader(header, body, secret)).toBe(true);
    const { t, v1 } = parseHeader(header);
    expect(t).toBe(Math.floor(clock.now.getTime() / 1000));
    expect(v1).toBe(independentHmac(secret, t, body));

    expect(verifySignatureHeader(header, body.replace('BLOCK', 'PASS'), secret)).toBe(false);
    expect(verifySignatureHeader(header, body, `${secret}x`)).toBe(false);
    expect(verifySignatureHeader(header, body, secret, 300, t + 301)).toBe(false);
    expect(verifySignatureHeader('t=abc,v1=00', body, secret)).toBe(false);

    expect(JSON.parse(body)).toEqual({
      event: 'job.completed',
      jobId: 'job_0001',
      status: 'completed',
      verdict: 'BLOCK',
      minutesMetered: 2,
      reportUrl: 'https://preflight.example/v1/qc/jobs/job_0001/report',
      statusUrl: 'https://preflight.example/v1/qc/jobs/job_0001',
      failureReason: null,
      occurredAt: '2030-01-01T00:00:00.000Z',
    });
    expect(WebhookDeliverySchema.parse(sent).payload).toEqual(JSON.parse(body));
  });

  it('retries after a 500: the first attempt records the status and a retry in 10 s, the next one is sent', async () => {
    const { service, clock, advance } = await setup();
    const endpoint = await service.createEndpoint(A, { url: receiver.url() });
    receiver.reply(500, 200);
    await service.enqueueJobEvent(finishedJob());

    const [first] = (await service.drain(A)).results;
    expect(first).toMatchObject({ status: 'pending', attemptCount: 1, responseStatus: 500, sentAt: null, lastAttemptAt: clock.now.toISOString() });
    expect(first.lastError).toBe('receiver answered HTTP 500: ok');
    expect(Date.parse(first.nextAttemptAt as string) - clock.now.getTime()).toBe(10_000);

    expect((await service.drain(A)).processed).toBe(0);
    advance(10_000);
    const [second] = (await service.drain(A)).results;
    expect(second).toMatchObject({ status: 'sent', attemptCount: 2, responseStatus: 200, lastError: null });
    expect(second.signature).not.toBe(first.signature);

    expect(receiver.received).toHaveLength(2);
    const secret = endpoint.signingSecret as string;
    for (const { headers, body } of receiver.received) expect(verifySignatureHeader(headers['x-service-signature'] as string, body, secret)).toBe(true);
    expect(receiver.received[0].body).toBe(receiver.received[1].body);
  });

  it('retryDelivery attempts a pending delivery at once, before its backoff is due', async () => {
    const { service } = await setup();
    await service.createEndpoint(A, { url: receiver.url() });
    receiver.reply(500, 200);
    await service.enqueueJobEvent(finishedJob());
    const [failedOnce] = (await service.drain(A)).results;

    const retried = await service.retryDelivery(A, failedOnce.deliveryId);
    expect(retried).toMatchObject({ status: 'sent', attemptCount: 2, responseStatus: 200 });
    expect((await refusal(service.retryDelivery(A, failedOnce.deliveryId))).code).toBe('delivery_already_sent');
  });

  it('gives up after 6 attempts with backoff 10 s, 60 s, 5 min, 30 min, 2 h', async () => {
    const { service, clock, advance } = await setup();
    await service.createEndpoint(A, { url: receiver.url() });
    receiver.always(500);
    await service.enqueueJobEvent(finishedJob());

    const delays: number[] = [];
    let last;
    for (let attempt = 1; attempt <= 6; attempt++) {
      [last] = (await service.drain(A)).results;
      expect(last.attemptCount).toBe(attempt);
      if (last.status === 'failed') break;
      const delay = Date.parse(last.nextAttemptAt as string) - clock.now.getTime();
      delays.push(delay);
      advance(delay - 1);
      expect((await service.drain(A)).processed).toBe(0);
      advance(1);
    }
    expect(delays).toEqual([10_000, 60_000, 300_000, 1_800_000, 7_200_000]);
    expect(last).toMatchObject({ status: 'failed', attemptCount: 6, nextAttemptAt: null, responseStatus: 500 });
    expect(receiver.received).toHaveLength(6);

    advance(24 * 3600_000);
    expect((await service.drain(A)).processed).toBe(0);
    expect((await service.listDeliveries(A, { status: 'failed' })).deliveries).toHaveLength(1);

    receiver.always(200);
    const manual = await service.retryDelivery(A, (last as { deliveryId: string }).deliveryId);
    expect(manual).toMatchObject({ status: 'sent', attemptCount: 7 });
  });

  it('records timeouts and network errors as failed attempts without a response status', async () => {
    const { service } = await setup({ attemptTimeoutMs: 300 });
    await service.createEndpoint(A, { url: receiver.url('/slow') });
    receiver.reply('hang');
    await service.enqueueJobEvent(finishedJob());
    const [timedOut] = (await service.drain(A)).results;
    expect(timedOut).toMatchObject({ status: 'pending', attemptCount: 1, responseStatus: null });
    expect(timedOut.lastError).toMatch(/timed out after 300 ms/);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
    await new Promise((resolve) => closed.close(resolve));
    await service.enqueueJobEvent(finishedJob({ jobId: 'job_0002' }), { url: deadUrl, sealedSecret: service.sealCallbackSecret('job_0002', CALLBACK_SECRET) });
    const refused = (await service.drain(A)).results.find((d) => d.url === deadUrl);
    expect(refused).toMatchObject({ status: 'pending', attemptCount: 1, responseStatus: null });
    expect(refused?.lastError).toEqual(expect.any(String));
  });

  it('delivers only subscribed events, once per job and target', async () => {
    const { service } = await setup();
    const failedOnly = await service.createEndpoint(A, { url: receiver.url('/failed'), event_types: ['job.failed'] });
    await service.createEndpoint(A, { url: receiver.url('/all') });
    await service.createEndpoint(B, { url: receiver.url('/b') });

    const completed = await service.enqueueJobEvent(finishedJob());
    expect(completed.map((d) => d.url)).toEqual([receiver.url('/all')]);
    expect(await service.enqueueJobEvent(finishedJob())).toEqual([]);

    const failed = await service.enqueueJobEvent(
      finishedJob({ jobId: 'job_0003', status: 'failed', verdict: null, minutesMetered: 0, failureReason: 'decode_failed: no video stream' }),
    );
    expect(failed.map((d) => d.webhookId).sort()).toEqual([failedOnly.webhookId, completed[0].webhookId].sort());
    expect(failed[0].payload).toMatchObject({ event: 'job.failed', status: 'failed', reportUrl: null, failureReason: 'decode_failed: no video stream' });

    await expect(service.enqueueJobEvent(finishedJob({ jobId: 'job_0004', status: 'running' }))).rejects.toMatchObject({ code: 'job_not_finished' });
  });

  it('fails an endpoint’s pending deliveries when the endpoint is deleted', async () => {
    const { service } = await setup();
    const endpoint = await service.createEndpoint(A, { url: receiver.url() });
    const [pending] = await service.enqueueJobEvent(finishedJob());
    expect(await service.deleteEndpoint(A, endpoint.webhookId)).toEqual({ webhookId: endpoint.webhookId, deleted: true });
    expect((await service.listEndpoints(A)).endpoints).toEqual([]);
    const [after] = (await service.listDeliveries(A)).deliveries;
    expect(after).toMatchObject({ deliveryId: pending.deliveryId, status: 'failed', lastError: 'webhook endpoint deleted' });
    expect((await service.drain(A)).processed).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it('sends deliveries through the queue, and queues a failed attempt again for its retry time', async () => {
    const home = mkdtempSync(join(tmpdir(), 'preflight-webhooks-'));
    homes.push(home);
    const service = new WebhookService({ db, env: TEST_ENV, home, send: fetchPoster });
    const queue = await JobQueue.start({ sql: db.sql, schema: 'pgboss_webhooks', pollingIntervalSeconds: 0.5 });
    try {
      workDeliveries(queue, service, 2);
      await service.createEndpoint(A, { url: receiver.url() });
      receiver.reply(503);
      const [failing] = await service.enqueueJobEvent(finishedJob({ jobId: 'job_q503' }));
      const [sent] = await service.enqueueJobEvent(finishedJob({ jobId: 'job_q200' }));
      const state = async (id: string) => (await service.listDeliveries(OPERATOR)).deliveries.find((d) => d.deliveryId === id);
      await vi.waitFor(async () => expect(await state(sent.deliveryId)).toMatchObject({ status: 'sent', attemptCount: 1 }), { timeout: 10_000, interval: 50 });
      await vi.waitFor(async () => expect(await state(failing.deliveryId)).toMatchObject({ status: 'pending', attemptCount: 1 }), { timeout: 10_000, interval: 50 });
      // Its next attempt waits in the queue for the time the retry schedule gave it (10 s after a first failure).
      const next = new Date((await db.webhooks.getDelivery(failing.deliveryId))!.nextAttemptAt!).getTime();
      const waiting = await vi.waitFor(async () => {
        const [row] = await db.sql.query<{ start_after: Date }>(`SELECT start_after FROM pgboss_webhooks.job WHERE name = 'webhook-delivery' AND state = 'created' AND singleton_key = $1`, [failing.deliveryId]);
        expect(row).toBeDefined();
        return row!;
      });
      expect(Math.abs(new Date(waiting.start_after).getTime() - next)).toBeLessThan(1000);
      // Queuing it again while that job waits adds nothing.
      expect(await queueDelivery(queue, failing.deliveryId)).toBeNull();
    } finally {
      await queue.stop(5_000);
    }
    expect(receiver.received).toHaveLength(2);
  });
});

describe('workspace pinning', () => {
  it('keeps workspace B away from A’s endpoints and deliveries', async () => {
    const { service } = await setup();
    const endpointA = await service.createEndpoint(A, { url: receiver.url('/a') });
    const [deliveryA] = await service.enqueueJobEvent(finishedJob());

    expect((await service.listEndpoints(B)).endpoints).toEqual([]);
    expect((await service.listDeliveries(B)).deliveries).toEqual([]);
    expect(await service.drain(B)).toEqual({ processed: 0, results: [] });
    const retry = await refusal(service.retryDelivery(B, deliveryA.deliveryId));
    expect([retry.code, retry.status]).toEqual(['delivery_not_found', 404]);
    const del = await refusal(service.deleteEndpoint(B, endpointA.webhookId));
    expect([del.code, del.status]).toEqual(['webhook_not_found', 404]);
    expect(receiver.received).toHaveLength(0);
    expect((await service.listDeliveries(A)).deliveries[0]).toMatchObject({ status: 'pending', attemptCount: 0 });

    const smuggled = await service.createEndpoint(B, { url: receiver.url('/b'), workspace_id: 'ws_a' });
    expect(smuggled.workspaceId).toBe('ws_b');
    await service.enqueueJobEvent(finishedJob({ jobId: 'job_0005' }));
    expect((await service.listDeliveries(B)).deliveries).toEqual([]);

    const forA = await service.createEndpoint(OPERATOR, { url: receiver.url('/ops'), workspace_id: 'ws_a' });
    expect(forA.workspaceId).toBe('ws_a');
    expect((await service.listEndpoints(A)).endpoints.map((e) => e.webhookId).sort()).toEqual([endpointA.webhookId, forA.webhookId].sort());
    expect((await service.listEndpoints(OPERATOR)).endpoints).toHaveLength(3);

    const drained = await service.drain(A, { limit: 25 });
    expect(drained.processed).toBe(2);
    expect(drained.results.every((d) => d.workspaceId === 'ws_a' && d.status === 'sent')).toBe(true);
  });
});

describe('signing secrets', () => {
  it('shows the secret once and stores it only encrypted', async () => {
    const { service } = await setup();
    const endpoint = await service.createEndpoint(A, { url: receiver.url() });
    const secret = endpoint.signingSecret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(endpoint.signingSecretPreview).toBe(`${secret.slice(0, 10)}…`);

    const listed = (await service.listEndpoints(A)).endpoints[0];
    expect(listed).not.toHaveProperty('signingSecret');
    expect(listed.signingSecretPreview).toBe(endpoint.signingSecretPreview);

    await service.enqueueJobEvent(finishedJob());
    await service.drain(A);
    const dbText = await storedText(db);
    expect(dbText).not.toContain(secret);
    expect(dbText).not.toContain(secret.slice('whsec_'.length));
    const [stored] = await db.webhooks.listEndpoints();
    expect(stored!.signingSecretStorage).toBe('encrypted');
    expect(stored!.signingSecretEncrypted).toMatch(/^[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*$/);
    expect(JSON.stringify((await service.listDeliveries(A)))).not.toContain(secret.slice('whsec_'.length));
  });

  it('signs after a restart with the same key, and fails the delivery (not retries) when the key changed', async () => {
    const first = await setup();
    const endpoint = await first.service.createEndpoint(A, { url: receiver.url() });
    await first.service.enqueueJobEvent(finishedJob());
    await first.service.enqueueJobEvent(finishedJob({ jobId: 'job_0006' }));

    const reopened = await setup({ home: first.home });
    const [sent] = (await reopened.service.drain(A, { limit: 1 })).results;
    expect(sent.status).toBe('sent');
    const { headers, body } = receiver.received[0];
    expect(verifySignatureHeader(headers['x-service-signature'] as string, body, endpoint.signingSecret as string)).toBe(true);

    const rekeyed = await setup({ home: first.home, env: { ...TEST_ENV, PREFLIGHT_SIGNING_KEY: 'another-key' } });
    const [undeliverable] = (await rekeyed.service.drain(A)).results;
    expect(undeliverable).toMatchObject({ status: 'failed', attemptCount: 0 });
    expect(undeliverable.lastError).toMatch(/cannot be decrypted/);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('callback_url deliveries', () => {
  it('are signed with the callback_secret the job creator chose, so the receiver can verify them', async () => {
    const { service, store } = await setup();
    const sealedSecret = service.sealCallbackSecret('job_0001', CALLBACK_SECRET);
    expect(sealedSecret).not.toContain(CALLBACK_SECRET);
    const [callback] = await service.enqueueJobEvent(finishedJob(), { url: receiver.url('/callback'), sealedSecret });
    expect(callback).toMatchObject({ webhookId: 'callback_url', url: receiver.url('/callback'), workspaceId: 'ws_a', status: 'pending' });
    expect(JSON.stringify(callback)).not.toContain(sealedSecret);

    const [sent] = (await service.drain(A)).results;
    expect(sent.status).toBe('sent');
    const { headers, body, path } = receiver.received[0];
    expect(path).toBe('/callback');
    const header = headers['x-service-signature'] as string;
    expect(verifySignatureHeader(header, body, CALLBACK_SECRET)).toBe(true);
    const { t, v1 } = parseHeader(header);
    expect(v1).toBe(independentHmac(CALLBACK_SECRET, t, body));
    expect(await storedText(store)).not.toContain(CALLBACK_SECRET);
  });

  it('cannot be signed with a secret sealed for another job, and fail without one', async () => {
    const { service } = await setup();
    const [swapped] = await service.enqueueJobEvent(finishedJob({ jobId: 'job_0002' }), { url: receiver.url('/callback'), sealedSecret: service.sealCallbackSecret('job_0001', CALLBACK_SECRET) });
    const [failed] = (await service.drain(A)).results;
    expect(failed).toMatchObject({ deliveryId: swapped.deliveryId, status: 'failed', attemptCount: 0 });
    expect(failed.lastError).toMatch(/callback secret cannot be decrypted/);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('a delivery refused at send time', () => {
  it('becomes failed at once instead of retrying, when the resolved address is not allowed', async () => {
    // The real SSRF-safe poster, and a name that resolved to a public address when it was registered but to a
    // loopback one now (DNS rebinding): the URL text passes, the address does not.
    fakeDns.answers.set('hooks.rebinding.example', [{ address: '127.0.0.1', family: 4 }]);
    try {
      const home = mkdtempSync(join(tmpdir(), 'preflight-webhooks-'));
      homes.push(home);
      const strictEnv = { PREFLIGHT_SIGNING_KEY: SIGNING_KEY };
      const service = new WebhookService({ db, env: strictEnv, home, send: (url, body, headers, o) => postJson(url, body, headers, policyFromEnv(strictEnv), o) });
      const url = 'https://hooks.rebinding.example/callback';
      await service.enqueueJobEvent(finishedJob(), { url, sealedSecret: service.sealCallbackSecret('job_0001', CALLBACK_SECRET) });
      await service.createEndpoint(A, { url: 'https://hooks.rebinding.example/endpoint' });
      await service.enqueueJobEvent(finishedJob({ jobId: 'job_0003' }));
      const results = (await service.drain(A)).results;
      expect(results).toHaveLength(2);
      for (const delivery of results) {
        expect(delivery).toMatchObject({ status: 'failed', attemptCount: 1, nextAttemptAt: null, responseStatus: null });
        expect(delivery.lastError).toMatch(/remote_url_forbidden: .*non-public address/);
      }
    } finally {
      fakeDns.answers.clear();
    }
  });
});

describe('delivery URL policy', () => {
  const strictEnv = { PREFLIGHT_SIGNING_KEY: SIGNING_KEY };

  it('refuses http:// and private hosts without PREFLIGHT_ALLOW_PRIVATE_NETWORKS=1', async () => {
    const { service } = await setup({ env: strictEnv });
    for (const url of ['http://hooks.example.com/in', receiver.url(), 'https://127.0.0.1/in', 'https://[::1]/in', 'https://169.254.169.254/latest', 'https://10.0.0.8/in', 'https://localhost/in', 'https://metadata.google.internal/', 'https://[::ffff:127.0.0.1]/in', 'ftp://hooks.example.com/', 'https://user:pw@hooks.example.com/', 'not a url']) {
      const err = await refusal(service.createEndpoint(A, { url }));
      expect([url, err.code, err.status]).toEqual([url, 'webhook_url_refused', 400]);
    }
    expect((await service.createEndpoint(A, { url: 'https://hooks.example.com/in' })).url).toBe('https://hooks.example.com/in');
    expect((await service.listEndpoints(A)).endpoints).toHaveLength(1);

    const queued = await service.enqueueJobEvent(finishedJob({ jobId: 'job_0007' }), { url: receiver.url('/callback'), sealedSecret: service.sealCallbackSecret('job_0007', CALLBACK_SECRET) });
    const callback = queued.find((d) => d.webhookId === 'callback_url');
    expect(callback).toMatchObject({ status: 'failed', url: receiver.url('/callback'), attemptCount: 0 });
    expect(callback?.lastError).toMatch(/only https/);
  });

  it('allows http:// on loopback with the flag, and validates the input', async () => {
    const { service } = await setup();
    expect((await service.createEndpoint(A, { url: receiver.url() })).url).toBe(receiver.url());
    const err = await refusal(service.createEndpoint(A, { url: receiver.url(), event_types: ['job.started' as 'job.failed'] }));
    expect([err.code, err.status]).toEqual(['invalid_webhook', 400]);
  });
});
