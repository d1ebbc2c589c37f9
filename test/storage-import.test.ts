// Upgrade without loss: a data dir written by today's lowdb store is imported whole into the new store, on both
// engines, with the old file kept as a backup and the import said on stderr.
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/storage/database.js';
import { importLowdb } from '../src/storage/import-lowdb.js';
import { openStorage } from '../src/storage/index.js';
import { LocalObjectStore, openObjectStore } from '../src/storage/object-store.js';
import { Store } from '../src/store/db.js';
import type { ApiKeyRecord, WebhookDeliveryRecord } from '../src/store/records.js';
import { newUploadRecord } from '../src/uploads.js';
import { describeEachEngine } from './helpers/storage-engines.js';
import { jobRecord } from './helpers/storage-records.js';

const key: ApiKeyRecord = {
  keyId: 'key_1',
  name: 'ci',
  workspaceId: 'ws_1',
  ownerEmail: 'a@example.com',
  provisioningId: null,
  checkoutCustomerId: null,
  checkoutSubscriptionId: null,
  tokenPrefix: 'pf_live_ab',
  tokenSha256: 'f'.repeat(64),
  scopes: ['jobs:write', 'jobs:read'],
  planId: 'pro',
  includedMinutes: 600,
  planPriceCents: 4900,
  overageCapCents: null,
  active: true,
  createdAt: '2026-10-01T00:00:00.000Z',
  lastUsedAt: '2026-11-20T00:00:00.000Z',
};

/** A data dir as today's code leaves it: db.json through the lowdb Store, per-job files beside it. */
async function writeOldDataDir(home: string): Promise<void> {
  const store = await Store.open(home);
  const upload = newUploadRecord({ workspaceId: 'ws_1', keyId: 'key_1' }, { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: 4 }).record;
  const delivery: WebhookDeliveryRecord = {
    deliveryId: 'dlv_1', webhookId: 'wh_1', eventType: 'job.completed', jobId: 'job_2', workspaceId: 'ws_1', ownerEmail: null, apiKeyId: 'key_1', status: 'sent', url: 'https://example.com/hook',
    attemptCount: 1, nextAttemptAt: null, lastAttemptAt: '2026-11-20T00:00:01.000Z', sentAt: '2026-11-20T00:00:01.000Z', responseStatus: 200, lastError: null, createdAt: '2026-11-20T00:00:00.000Z',
    signatureHeader: 'X-Service-Signature', signature: 't=1,v1=abc', payload: { jobId: 'job_2' },
  };
  await store.update((d) => {
    d.apiKeys.push(key);
    for (let i = 1; i <= 3; i++) {
      d.jobs.push(jobRecord(`job_${i}`, 'ws_1', { status: i === 3 ? 'queued' : 'completed', idempotencyKey: i === 1 ? 'idem-1' : null, createdAt: `2026-11-2${i}T00:00:00.000Z` }));
    }
    d.idempotency.push({ workspaceId: 'ws_1', key: 'idem-1', jobId: 'job_1', requestSha256: 'r'.repeat(64) });
    d.usage.push({ entryId: 'use_1', workspaceId: 'ws_1', jobId: 'job_1', sha256: 's'.repeat(64), billingPeriod: '2026-11', minutesMetered: 2, mediaMinutes: 2, freeRecheck: false, planId: 'pro', createdAt: '2026-11-21T00:01:00.000Z' });
    d.uploads.push(upload);
    d.webhooks.push({ webhookId: 'wh_1', url: 'https://example.com/hook', eventTypes: ['job.completed'], workspaceId: 'ws_1', ownerEmail: null, apiKeyId: 'key_1', signingSecretPreview: 'whsec_ab', signingSecretEncrypted: 'iv:tag:data', signingSecretStorage: 'encrypted', createdAt: '2026-11-01T00:00:00.000Z' });
    d.deliveries.push(delivery);
    d.abuseEvents.push({ eventId: 'abe_1', createdAt: '2026-11-22T00:00:00.000Z', error: 'usage_limit', message: 'over', status: 429, workspaceId: 'ws_1', ownerEmail: null, planId: 'pro', includedMinutes: 600, minutesUsed: 600, requestedMinutes: 3, minutesRemaining: 0, maxDurationMinutes: null, maxUploadMb: null, maxActiveJobs: 5 });
    d.spendAlerts.push({ alertId: 'alr_1', createdAt: '2026-11-22T00:00:00.000Z', workspaceId: 'ws_1', ownerEmail: 'a@example.com', planId: 'pro', billingPeriod: '2026-11', minutesUsed: 500, includedMinutes: 600, planPriceCents: 4900, overageRevenueCents: 0, overageRateCentsPerMinute: 5, overageCostCents: 0, observedTotalCogsCents: 12, status: 'sent', provider: 'smtp', providerMessageId: 'm1', error: null });
    d.gateVerdicts.push({ importId: 'gvi_1', jobId: 'job_1', workspaceId: 'ws_1', claimedVerdict: 'PASS', blocked: [], skipped: [], perCheck: {}, ourVerdict: 'PASS', disagrees: false, createdAt: '2026-11-21T00:02:00.000Z' });
  });
  store.writeJobFile('job_1', 'report.json', '{"verdict":"PASS"}');
  store.appendJobLine('job_1', 'events.jsonl', { event_type: 'job.created', created_at: '2026-11-21T00:00:00.000Z' });
  store.appendJobLine('job_1', 'events.jsonl', { event_type: 'job.completed', created_at: '2026-11-21T00:01:00.000Z' });
}

describeEachEngine('lowdb import', (engine) => {
  let db: Database;
  let home: string;
  const lines: string[] = [];
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'pf-import-'));
    await writeOldDataDir(home);
    db = await openDatabase(await engine.fresh());
  });
  afterAll(async () => {
    await db?.close();
    await engine.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  it('imports every collection, keeps the old file as a backup and says so', async () => {
    const result = await importLowdb(home, db, new LocalObjectStore(home), (l) => lines.push(l));
    expect(result?.counts).toEqual({ apiKeys: 1, jobs: 3, idempotency: 1, events: 2, usage: 1, uploads: 1, webhooks: 1, deliveries: 1, abuseEvents: 1, spendAlerts: 1, gateVerdicts: 1 });
    expect(existsSync(join(home, 'db.json'))).toBe(false);
    expect(existsSync(result!.backup)).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('imported the old store');
    expect(lines[0]).toContain(result!.backup);

    expect(await db.keys.findByTokenSha256('f'.repeat(64))).toEqual(key);
    expect((await db.jobs.list({ workspaceId: 'ws_1', limit: 10 })).map((j) => j.jobId)).toEqual(['job_3', 'job_2', 'job_1']);
    expect(await db.jobs.countActive('ws_1')).toBe(1);
    expect(await db.jobs.findIdempotent('ws_1', 'idem-1')).toEqual({ jobId: 'job_1', requestSha256: 'r'.repeat(64) });
    expect((await db.jobs.events('job_1')).map((e) => e.event_type)).toEqual(['job.created', 'job.completed']);
    expect(await db.usage.minutesUsed('ws_1', '2026-11')).toBe(2);
    expect((await db.webhooks.listEndpoints('ws_1')).map((w) => w.webhookId)).toEqual(['wh_1']);
    expect((await db.webhooks.getDelivery('dlv_1'))?.payload).toEqual({ jobId: 'job_2' });
    expect((await db.abuseEvents.list('ws_1')).map((e) => e.eventId)).toEqual(['abe_1']);
    expect(await db.spendAlerts.alreadyAlerted('ws_1', '2026-11')).toBe(true);
    expect((await db.gateVerdicts.listForJob('job_1')).map((g) => g.importId)).toEqual(['gvi_1']);
    // The local object store is the data dir: the report is where it was.
    expect((await new LocalObjectStore(home).get('jobs/job_1/report.json'))?.toString()).toBe('{"verdict":"PASS"}');
  });

  it('does nothing on the next start', async () => {
    expect(await importLowdb(home, db, new LocalObjectStore(home), (l) => lines.push(l))).toBeNull();
    expect(lines).toHaveLength(1);
  });
});

describeEachEngine('lowdb import into a separate object store', (engine) => {
  it('copies the files, and a start that stopped before renaming the file does not import twice', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pf-import2-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'pf-objects2-'));
    const db = await openDatabase(await engine.fresh());
    try {
      await writeOldDataDir(home);
      const objects = openObjectStore(elsewhere, {});
      const first = await importLowdb(home, db, objects, () => {});
      expect(first?.counts.objects).toBe(2);
      expect((await objects.get('jobs/job_1/report.json'))?.toString()).toBe('{"verdict":"PASS"}');
      // Put the file back as if the rename had not happened: the same content is recognised, nothing doubles.
      renameSync(first!.backup, join(home, 'db.json'));
      const again = await importLowdb(home, db, objects, () => {});
      expect(again?.counts.jobs).toBe(3);
      expect((await db.jobs.list({ limit: 10 })).length).toBe(3);
      expect(readdirSync(home).filter((f) => f.startsWith('db.json.imported-'))).toHaveLength(1);
    } finally {
      await db.close();
      await engine.cleanup();
      rmSync(home, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('start-up over an old data dir', () => {
  it('openStorage opens the embedded database in PREFLIGHT_HOME/db and imports db.json once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pf-open-'));
    const lines: string[] = [];
    try {
      await writeOldDataDir(home);
      const first = await openStorage(home, {}, (l) => lines.push(l));
      expect(first.imported?.counts.jobs).toBe(3);
      expect(first.objects.mode).toBe('durable_filesystem');
      await first.db.close();
      const again = await openStorage(home, {}, (l) => lines.push(l));
      expect(again.imported).toBeNull();
      expect((await again.db.jobs.list({ limit: 10 })).map((j) => j.jobId)).toEqual(['job_3', 'job_2', 'job_1']);
      await again.db.close();
      expect(existsSync(join(home, 'db', 'PG_VERSION'))).toBe(true);
      expect(lines).toHaveLength(1);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
