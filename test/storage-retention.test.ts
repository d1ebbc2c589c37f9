// Retention removes old reports, artifacts, events and media, keeps job records, the usage ledger and receipts, and
// runs as a scheduled queue job.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/storage/database.js';
import type { OpenSqlOptions } from '../src/storage/sql.js';
import { openObjectStore, type ObjectStore } from '../src/storage/object-store.js';
import { JobQueue, QUEUES } from '../src/storage/queue.js';
import { DEFAULT_RETENTION_DAYS, RETENTION_CRON, retentionDays, runRetention, scheduleRetention } from '../src/storage/retention.js';
import type { UploadRecord } from '../src/uploads.js';
import { describeEachEngine } from './helpers/storage-engines.js';
import { jobRecord } from './helpers/storage-records.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-25T12:00:00.000Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

const artifacts = (at: string) =>
  (['report.json', 'markers.csv', 'receipt.json', 'report.html'] as const).map((file) => ({
    artifact_type: file === 'receipt.json' ? ('receipt' as const) : ('report_json' as const),
    file,
    contentType: 'application/json',
    bytes: 2,
    createdAt: at,
  }));

describeEachEngine('retention', (engine) => {
  let db: Database;
  let options: OpenSqlOptions;
  let objects: ObjectStore;
  let home: string;
  beforeAll(async () => {
    options = await engine.fresh();
    db = await openDatabase(options);
    home = mkdtempSync(join(tmpdir(), 'pf-retention-'));
    objects = openObjectStore(home, {});
  });
  afterAll(async () => {
    await db?.close();
    await engine.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  it('removes what is older than the age and keeps records, ledger and receipts', async () => {
    for (const [jobId, days] of [
      ['job_old', 120],
      ['job_new', 10],
    ] as const) {
      await db.jobs.create(jobRecord(jobId, 'ws_r', { status: 'completed', createdAt: ago(days), completedAt: ago(days), artifacts: artifacts(ago(days)) }));
      for (const a of artifacts(ago(days))) await objects.put(`jobs/${jobId}/${a.file}`, '{}');
      await db.jobs.appendEvent(jobId, { event_type: 'job.completed', created_at: ago(days) });
    }
    await db.usage.append({ entryId: 'use_old', workspaceId: 'ws_r', jobId: 'job_old', sha256: null, billingPeriod: '2026-07', minutesMetered: 3, mediaMinutes: 3, freeRecheck: false, planId: null, createdAt: ago(120) });
    const upload = (uploadId: string, createdAt: string) =>
      ({ uploadId, filename: 'a.mp4', contentType: 'video/mp4', sizeBytes: 2, workspaceId: 'ws_r', ownerEmail: null, apiKeyId: null, status: 'uploaded', expiresAt: createdAt, storageMode: 'durable_filesystem', objectKey: null, objectUrl: null, tokenSha256: 't', putPath: '/p', bytesReceived: 2, sha256: null, createdAt }) as UploadRecord;
    await db.uploads.insertMany([upload('upl_old', ago(100)), upload('upl_new', ago(1))]);
    await objects.put('uploads/upl_old/media.mp4', 'xx');
    await objects.put('uploads/upl_new/media.mp4', 'xx');

    const removed = await runRetention(db, objects, { maxAgeDays: DEFAULT_RETENTION_DAYS, now: NOW });
    expect(removed).toEqual({ jobs: 1, objects: 4, events: 1, uploads: 1 });

    const keys = [];
    for await (const o of objects.list('')) keys.push(o.key);
    expect(keys.sort()).toEqual([
      'jobs/job_new/markers.csv',
      'jobs/job_new/receipt.json',
      'jobs/job_new/report.html',
      'jobs/job_new/report.json',
      'jobs/job_old/receipt.json',
      'uploads/upl_new/media.mp4',
    ]);
    const old = await db.jobs.get('job_old');
    expect(old?.status).toBe('completed');
    expect(old?.artifacts.map((a) => a.file)).toEqual(['receipt.json']);
    expect(await db.jobs.events('job_old')).toEqual([]);
    expect(await db.jobs.events('job_new')).toHaveLength(1);
    expect(await db.usage.minutesUsed('ws_r', '2026-07')).toBe(3);
    expect(await db.uploads.get('upl_old')).toBeNull();
    expect(await db.uploads.get('upl_new')).not.toBeNull();
    // A second run finds nothing more to do.
    expect(await runRetention(db, objects, { maxAgeDays: DEFAULT_RETENTION_DAYS, now: NOW })).toEqual({ jobs: 0, objects: 0, events: 0, uploads: 0 });
  });

  it('is scheduled daily on the queue and run by a worker', async () => {
    const queue = await JobQueue.start({ sql: db.sql, url: options.url ?? null, schema: engine.extraSchema('retention'), pollingIntervalSeconds: 0.5 });
    try {
      await scheduleRetention(queue, db, objects, 5);
      const schedules = await queue.boss.getSchedules();
      expect(schedules.map((s) => [s.name, s.cron])).toEqual([[QUEUES.retention, RETENTION_CRON]]);
      // The day's run, sent now instead of waiting for 03:17: the 10-day-old job's objects go at 5 days.
      const id = await queue.send(QUEUES.retention, {});
      const end = Date.now() + 20_000;
      while ((await queue.boss.getJobById(QUEUES.retention, id))?.state !== 'completed') {
        if (Date.now() > end) throw new Error('retention job did not complete');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await db.jobs.get('job_new'))?.artifacts.map((a) => a.file)).toEqual(['receipt.json']);
    } finally {
      await queue.stop(2_000);
    }
  });
});

describe('retention age', () => {
  it('is 90 days unless PREFLIGHT_RETENTION_DAYS says otherwise', () => {
    expect(retentionDays({})).toBe(90);
    expect(retentionDays({ PREFLIGHT_RETENTION_DAYS: '30' })).toBe(30);
    expect(() => retentionDays({ PREFLIGHT_RETENTION_DAYS: '0' })).toThrow(/1 to 3650/);
    expect(() => retentionDays({ PREFLIGHT_RETENTION_DAYS: '1.5' })).toThrow(/whole number/);
  });
});
