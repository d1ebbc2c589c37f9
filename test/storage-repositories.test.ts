// The repositories behave the same on PGlite and on a real Postgres server: what today's lowdb store offers, by query.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageEntry } from '../src/billing/ledger.js';
import type { JobRecord } from '../src/jobs/record.js';
import { databaseOptions, openDatabase, type Database } from '../src/storage/database.js';
import { migrate } from '../src/storage/migrate.js';
import type { ApiKeyRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from '../src/store/records.js';
import type { UploadRecord } from '../src/uploads.js';
import { describeEachEngine, freshDatabase, POSTGRES_HINT, POSTGRES_URL, postgresEngine } from './helpers/storage-engines.js';
import { jobRecord } from './helpers/storage-records.js';

const usage = (entryId: string, workspaceId: string, minutes: number, period = '2026-11', sha256: string | null = 'abc'): UsageEntry => ({
  entryId,
  workspaceId,
  jobId: `job_${entryId}`,
  sha256,
  billingPeriod: period,
  minutesMetered: minutes,
  mediaMinutes: minutes + 1,
  freeRecheck: false,
  planId: null,
  createdAt: '2026-11-02T10:00:00.000Z',
});

const key = (keyId: string, workspaceId: string, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  keyId,
  name: keyId,
  workspaceId,
  ownerEmail: null,
  provisioningId: null,
  checkoutCustomerId: null,
  checkoutSubscriptionId: null,
  tokenPrefix: 'pf_',
  tokenSha256: `sha-${keyId}`,
  scopes: ['jobs:write'],
  planId: null,
  includedMinutes: null,
  planPriceCents: null,
  overageCapCents: null,
  active: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: null,
  ...over,
});

describeEachEngine('storage repositories', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(engine);
  });
  afterAll(async () => {
    await db?.close();
    await engine.cleanup();
  });

  it('applies each migration once', async () => {
    expect(await migrate(db.sql)).toEqual([]);
    const rows = await db.sql.query<{ version: number }>('SELECT version FROM schema_migrations');
    expect(rows.map((r) => r.version)).toEqual([1]);
  });

  it('creates, reads, lists newest first and filters jobs', async () => {
    await db.jobs.create(jobRecord('job_a', 'ws_1'));
    await db.jobs.create(jobRecord('job_b', 'ws_2', { sourceUrlSha256: 'u1' }));
    await db.jobs.create(jobRecord('job_c', 'ws_1', { status: 'completed' }));
    expect((await db.jobs.get('job_b'))?.sourceUrlSha256).toBe('u1');
    expect(await db.jobs.get('job_none')).toBeNull();
    expect((await db.jobs.list({ workspaceId: 'ws_1', limit: 20 })).map((j) => j.jobId)).toEqual(['job_c', 'job_a']);
    expect((await db.jobs.list({ limit: 2 })).map((j) => j.jobId)).toEqual(['job_c', 'job_b']);
    expect((await db.jobs.list({ status: 'completed', limit: 20 })).map((j) => j.jobId)).toEqual(['job_c']);
    expect((await db.jobs.list({ sourceUrlSha256: 'u1', limit: 20 })).map((j) => j.jobId)).toEqual(['job_b']);
    expect(await db.jobs.countActive('ws_1')).toBe(1);
  });

  it('keeps an idempotency key to one job', async () => {
    const first = await db.jobs.create(jobRecord('job_i1', 'ws_1'), { key: 'k1', requestSha256: 'r1' });
    const second = await db.jobs.create(jobRecord('job_i2', 'ws_1'), { key: 'k1', requestSha256: 'r2' });
    expect(first).toEqual({ created: true, jobId: 'job_i1' });
    expect(second).toEqual({ created: false, jobId: 'job_i1' });
    expect(await db.jobs.get('job_i2')).toBeNull();
    expect(await db.jobs.findIdempotent('ws_1', 'k1')).toEqual({ jobId: 'job_i1', requestSha256: 'r1' });
    expect(await db.jobs.findIdempotent('ws_2', 'k1')).toBeNull();
  });

  it('lets exactly one of many concurrent claims take a queued job', async () => {
    await db.jobs.create(jobRecord('job_claim', 'ws_3'));
    const claims = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((w) => db.jobs.claim('job_claim', w, 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const job = await db.jobs.get('job_claim');
    expect(job?.status).toBe('running');
    expect(job?.startedAt).not.toBeNull();
  });

  it('counts a claim as an attempt, and a hand-back not', async () => {
    await db.jobs.create(jobRecord('job_attempts', 'ws_4'));
    expect((await db.jobs.claim('job_attempts', 'w1', 60_000))).toMatchObject({ attempts: 1, worker: 'w1' });
    expect(await db.jobs.release('job_attempts', 'w2')).toBe(false);
    expect(await db.jobs.release('job_attempts', 'w1')).toBe(true);
    expect(await db.jobs.get('job_attempts')).toMatchObject({ status: 'queued', attempts: 0 });
    // A dead worker's job (lease run out) can be claimed again while it has attempts left, and not after.
    const past = (attempt: number) => new Date(Date.now() - 10_000 + attempt * 100);
    for (let attempt = 1; attempt <= 3; attempt++) expect(await db.jobs.claim('job_attempts', `w_dead${attempt}`, 1, past(attempt))).toMatchObject({ attempts: attempt });
    expect(await db.jobs.claim('job_attempts', 'w_late', 60_000)).toBeNull();
  });

  it('requeues a queued job whose worker died, fails a synchronous one as interrupted, and leaves a live one', async () => {
    await db.jobs.create(jobRecord('job_dead', 'ws_5'));
    await db.jobs.create(jobRecord('job_live', 'ws_5'));
    await db.jobs.create(jobRecord('job_sync', 'ws_5', { request: null }));
    await db.jobs.create(jobRecord('job_spent', 'ws_5', { attempts: 2 }));
    const past = new Date(Date.now() - 10_000);
    for (const id of ['job_dead', 'job_sync', 'job_spent']) await db.jobs.claim(id, 'w_dead', 1, past);
    await db.jobs.claim('job_live', 'w_live', 60_000);
    expect(await db.jobs.renewLease('job_live', 'w_live', 60_000)).toBe(true);
    expect(await db.jobs.renewLease('job_live', 'w_other', 60_000)).toBe(false);
    const recovered = await db.jobs.recover();
    const ids = (jobs: JobRecord[]) => jobs.filter((j) => j.workspaceId === 'ws_5').map((j) => j.jobId).sort();
    expect(ids(recovered.requeued)).toEqual(['job_dead']);
    expect(ids(recovered.failed)).toEqual(['job_spent', 'job_sync']);
    expect(await db.jobs.get('job_dead')).toMatchObject({ status: 'queued', attempts: 1 });
    const sync = await db.jobs.get('job_sync');
    expect([sync?.status, sync?.failureReason, sync?.minutesMetered]).toEqual(['failed', 'interrupted', 0]);
    expect((await db.jobs.get('job_live'))?.status).toBe('running');
    // The queue gave up on a job: a queued one fails as interrupted, a live one is left to its worker.
    expect((await db.jobs.failAbandoned('job_dead'))?.failureReason).toBe('interrupted');
    expect(await db.jobs.failAbandoned('job_live')).toBeNull();
  });

  it('updates a job under a lock and records its events in order', async () => {
    await db.jobs.create(jobRecord('job_u', 'ws_6'));
    await Promise.all(Array.from({ length: 5 }, () => db.jobs.update('job_u', (r) => void (r.progressPct += 10))));
    expect((await db.jobs.get('job_u'))?.progressPct).toBe(50);
    const done = await db.jobs.update('job_u', (r) => {
      r.status = 'completed';
      r.completedAt = '2026-11-03T00:00:00.000Z';
    });
    expect(done?.status).toBe('completed');
    expect((await db.jobs.list({ status: 'completed', workspaceId: 'ws_6', limit: 5 })).map((j) => j.jobId)).toEqual(['job_u']);
    expect(await db.jobs.update('job_missing', () => {})).toBeNull();
    await db.jobs.appendEvent('job_u', { event_type: 'job.created' });
    await db.jobs.appendEvent('job_u', { event_type: 'job.completed', detail: 'x' });
    expect((await db.jobs.events('job_u')).map((e) => e.event_type)).toEqual(['job.created', 'job.completed']);
  });

  it('sums the usage ledger by workspace and period', async () => {
    await db.usage.appendMany([usage('e1', 'ws_u', 3), usage('e2', 'ws_u', 4, '2026-11', 'def'), usage('e3', 'ws_u', 5, '2026-10'), usage('e4', 'ws_v', 7)]);
    expect(await db.usage.minutesUsed('ws_u', '2026-11')).toBe(7);
    expect(await db.usage.mediaMinutes('ws_u', '2026-11')).toBe(9);
    expect(await db.usage.minutesUsed('ws_none', '2026-11')).toBe(0);
    expect((await db.usage.list({ workspaceId: 'ws_u' })).map((e) => e.entryId)).toEqual(['e1', 'e2', 'e3']);
    expect((await db.usage.list({ billingPeriod: '2026-11' })).map((e) => e.entryId)).toEqual(['e1', 'e2', 'e4']);
    expect((await db.usage.forMedia('ws_u', '2026-11', 'def')).map((e) => e.entryId)).toEqual(['e2']);
    expect((await db.usage.latest({ workspaceId: 'ws_u', limit: 2 })).map((e) => e.entryId)).toEqual(['e3', 'e2']);
    expect((await db.usage.latest({ limit: 1 })).map((e) => e.entryId)).toEqual(['e4']);
    expect(await db.usage.totalMinutes({ billingPeriod: '2026-11' })).toBe(14);
    expect(await db.usage.totalMinutes({ billingPeriod: '2026-11', workspaceId: 'ws_v' })).toBe(7);
    await expect(db.usage.append(usage('e1', 'ws_u', 1))).rejects.toThrow();
  });

  it('finds keys by token hash, counts operator keys and revokes', async () => {
    await db.keys.insertMany([key('k1', 'ws_k'), key('k2', 'ws_k', { scopes: ['operator'] }), key('k3', 'ws_l', { scopes: ['operator'] })]);
    expect((await db.keys.findByTokenSha256('sha-k2'))?.keyId).toBe('k2');
    expect(await db.keys.findByTokenSha256('sha-none')).toBeNull();
    expect((await db.keys.list('ws_k')).map((k) => k.keyId)).toEqual(['k1', 'k2']);
    expect(await db.keys.countActiveWithScope('operator')).toBe(2);
    await db.keys.update('k3', (k) => void (k.active = false));
    expect(await db.keys.countActiveWithScope('operator')).toBe(1);
    expect(await db.keys.anyActive()).toBe(true);
    await db.keys.touch('k1', new Date('2026-11-05T00:00:00.000Z'));
    expect((await db.keys.get('k1'))?.lastUsedAt).toBe('2026-11-05T00:00:00.000Z');
    await expect(db.keys.insert(key('k9', 'ws_k', { tokenSha256: 'sha-k1' }))).rejects.toThrow();
    await db.keys.insert(key('k_prov', 'ws_p', { provisioningId: 'prov_1' }));
    expect((await db.keys.findByProvisioningId('prov_1'))?.keyId).toBe('k_prov');
    expect(await db.keys.findByProvisioningId('prov_2')).toBeNull();
    // Two provisionings with one id: the second insert fails, so its caller replays the first key.
    await expect(db.keys.insert(key('k_prov2', 'ws_p', { provisioningId: 'prov_1' }))).rejects.toThrow();
  });

  it('stores uploads and finds the old ones', async () => {
    const upload = (uploadId: string, createdAt: string) =>
      ({ uploadId, filename: 'a.mp4', contentType: 'video/mp4', sizeBytes: 10, workspaceId: 'ws_1', ownerEmail: null, apiKeyId: null, status: 'created', expiresAt: createdAt, storageMode: 'durable_filesystem', objectKey: null, objectUrl: null, tokenSha256: 't', putPath: '/p', bytesReceived: null, sha256: null, createdAt }) as UploadRecord;
    await db.uploads.insertMany([upload('upl_old', '2026-01-01T00:00:00.000Z'), upload('upl_new', '2026-11-01T00:00:00.000Z')]);
    await db.uploads.update('upl_new', (u) => void (u.status = 'uploaded'));
    expect((await db.uploads.get('upl_new'))?.status).toBe('uploaded');
    expect((await db.uploads.createdBefore(new Date('2026-06-01'), 10)).map((u) => u.uploadId)).toEqual(['upl_old']);
    expect(await db.uploads.delete('upl_old')).toBe(true);
    expect(await db.uploads.get('upl_old')).toBeNull();
  });

  it('keeps webhook endpoints and claims each due delivery once', async () => {
    const endpoint = { webhookId: 'wh_1', url: 'https://example.com/h', eventTypes: ['job.completed'], workspaceId: 'ws_w', ownerEmail: null, apiKeyId: null, signingSecretPreview: 'ab', signingSecretEncrypted: 'x', signingSecretStorage: 'encrypted', createdAt: '2026-11-01T00:00:00.000Z' } as WebhookEndpointRecord;
    await db.webhooks.insertEndpoint(endpoint);
    expect(await db.webhooks.countEndpoints('ws_w')).toBe(1);
    expect((await db.webhooks.listEndpoints()).map((w) => w.webhookId)).toEqual(['wh_1']);
    const delivery = (deliveryId: string, webhookId: string | null, url: string): WebhookDeliveryRecord => ({
      deliveryId,
      webhookId,
      eventType: 'job.completed',
      jobId: 'job_w',
      workspaceId: 'ws_w',
      ownerEmail: null,
      apiKeyId: null,
      status: 'pending',
      url,
      attemptCount: 0,
      nextAttemptAt: null,
      lastAttemptAt: null,
      sentAt: null,
      responseStatus: null,
      lastError: null,
      createdAt: '2026-11-01T00:00:00.000Z',
      signatureHeader: 'X-Service-Signature',
      signature: 's',
      payload: { a: 1 },
    });
    await db.webhooks.insertDeliveries([delivery('dl_1', 'wh_1', endpoint.url), delivery('dl_2', null, 'https://cb.example.com/')]);
    expect(await db.webhooks.hasDelivery('job_w', 'job.completed', 'wh_1', endpoint.url)).toBe(true);
    expect(await db.webhooks.hasDelivery('job_w', 'job.completed', null, 'https://cb.example.com/')).toBe(true);
    expect(await db.webhooks.hasDelivery('job_w', 'job.completed', null, 'https://other.example.com/')).toBe(false);
    expect((await db.webhooks.due(new Date(), 10)).map((d) => d.deliveryId)).toEqual(['dl_1', 'dl_2']);
    expect(await db.webhooks.due(new Date(), 10, 'ws_other')).toEqual([]);
    const claims = await Promise.all([1, 2, 3].map(() => db.webhooks.claimDelivery('dl_1', 30_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await db.webhooks.due(new Date(), 10)).map((d) => d.deliveryId)).toEqual(['dl_2']);
    await db.webhooks.updateDelivery('dl_2', (d) => {
      d.status = 'sent';
      d.attemptCount = 1;
    });
    expect((await db.webhooks.listDeliveries({ workspaceId: 'ws_w', limit: 10 })).map((d) => [d.deliveryId, d.status])).toEqual([
      ['dl_2', 'sent'],
      ['dl_1', 'pending'],
    ]);
    expect((await db.webhooks.listDeliveries({ status: 'pending', limit: 10 })).map((d) => d.deliveryId)).toEqual(['dl_1']);
    expect(await db.webhooks.deleteEndpoint('wh_1')).toBe(true);
    expect(await db.webhooks.getEndpoint('wh_1')).toBeNull();
  });

  it('records abuse events, spend alerts and gate verdicts', async () => {
    await db.abuseEvents.insert({ eventId: 'ab1', createdAt: '2026-11-01T00:00:00.000Z', error: 'quota', message: null, status: 429, workspaceId: 'ws_a', ownerEmail: null, planId: null, includedMinutes: null, minutesUsed: null, requestedMinutes: null, minutesRemaining: null, maxDurationMinutes: null, maxUploadMb: null, maxActiveJobs: null });
    expect((await db.abuseEvents.list('ws_a')).map((e) => e.eventId)).toEqual(['ab1']);
    expect(await db.abuseEvents.list('ws_b')).toEqual([]);
    await db.spendAlerts.insert({ alertId: 'al1', createdAt: '2026-11-01T00:00:00.000Z', workspaceId: 'ws_a', ownerEmail: null, planId: null, billingPeriod: '2026-11', minutesUsed: 1, includedMinutes: 1, planPriceCents: null, overageRevenueCents: null, overageRateCentsPerMinute: null, overageCostCents: null, observedTotalCogsCents: null, status: 'sent', provider: null, providerMessageId: null, error: null });
    expect(await db.spendAlerts.alreadyAlerted('ws_a', '2026-11')).toBe(true);
    expect(await db.spendAlerts.alreadyAlerted('ws_a', '2026-12')).toBe(false);
    await db.gateVerdicts.insert({ importId: 'gv1', jobId: 'job_a', workspaceId: 'ws_1', claimedVerdict: 'PASS', blocked: [], skipped: [], perCheck: {}, ourVerdict: 'PASS', disagrees: false, createdAt: '2026-11-01T00:00:00.000Z' });
    expect((await db.gateVerdicts.listForJob('job_a')).map((g) => g.importId)).toEqual(['gv1']);
  });
});

describe('embedded database on disk', () => {
  it('persists under PREFLIGHT_HOME/db and migrates once across restarts', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pf-db-'));
    try {
      const first = await openDatabase(databaseOptions(home, {}));
      await first.jobs.create(jobRecord('job_kept', 'ws_1'));
      await first.close();
      expect(existsSync(join(home, 'db', 'PG_VERSION'))).toBe(true);
      const again = await openDatabase(databaseOptions(home, {}));
      expect((await again.jobs.get('job_kept'))?.workspaceId).toBe('ws_1');
      expect(await migrate(again.sql)).toEqual([]);
      await again.close();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('chooses the Postgres server when PREFLIGHT_DATABASE_URL is set', () => {
    expect(databaseOptions('/h', { PREFLIGHT_DATABASE_URL: 'postgres://u@db/x' })).toEqual({ url: 'postgres://u@db/x' });
    expect(databaseOptions('/h', {})).toEqual({ dir: '/h/db' });
  });
});

describe.skipIf(!POSTGRES_URL)(`a lost database connection${POSTGRES_URL ? '' : ` (skipped: ${POSTGRES_HINT})`}`, () => {
  it('fails the request that met it with store_unavailable, and the next request is served', async () => {
    const engine = postgresEngine(POSTGRES_URL!);
    const db = await openDatabase(await engine.fresh());
    try {
      await db.jobs.create(jobRecord('job_before', 'ws_1'));
      const tag = `victim_${process.pid}_${Date.now()}`;
      // The rejection is caught at once: it can arrive while the terminating query below is still being answered.
      const victim = db.sql
        .transaction(async (tx) => {
          await tx.query(`SELECT pg_sleep(5) /* ${tag} */`);
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      await new Promise((r) => setTimeout(r, 300));
      // Another session ends the busy connection, as a server restart or a network cut would.
      await db.sql.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE $1', [`%${tag}%`]);
      expect(await victim).toMatchObject({ code: 'store_unavailable', status: 503 });
      expect((await db.jobs.get('job_before'))?.jobId).toBe('job_before');
      await db.jobs.create(jobRecord('job_after', 'ws_1'));
      expect((await db.jobs.get('job_after'))?.jobId).toBe('job_after');
    } finally {
      await db.close();
      await engine.cleanup();
    }
  });
});
