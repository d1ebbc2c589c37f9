// Limits that hold on a real store with the real account rules: the usage allowance is checked again on the measured
// duration (and holds for checks running at once), a re-check of a charged file is free even at the cap, and a
// workspace's plan prices its estimates, jobs, ledger entries and margins alike.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountService, type KeyPrincipal } from '../src/accounts/index.js';
import { PreflightService } from '../src/service.js';
import * as fx from './helpers/fixtures.js';

const env = { PREFLIGHT_SIGNING_KEY: 'limits-test-signing-key-0123456789' } as NodeJS.ProcessEnv;
const opened: PreflightService[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function setUp() {
  const service = await PreflightService.open({ home: mkdtempSync(join(tmpdir(), 'preflight-limits-')), env });
  opened.push(service);
  const accounts = new AccountService({ db: service.records, env: {}, mailer: null });
  service.attachAccounts(accounts);
  const { created } = await accounts.ensureOperatorAccess({ bootstrap: true });
  const operator = (await accounts.authenticate(created))!;
  const keyFor = async (body: Parameters<AccountService['createApiKey']>[1]): Promise<KeyPrincipal> => (await accounts.authenticate((await accounts.createApiKey(operator, body)).apiKey))!;
  return { service, accounts, operator, keyFor };
}

/** 121 s: three checked minutes each. */
const threeMinutes = (hz: number) => fx.podcastOf(121, hz);

describe('the usage allowance', () => {
  it('is checked again on the measured duration: an undeclared long file cannot run past the included minutes', async () => {
    const { service, accounts, keyFor } = await setUp();
    const key = await keyFor({ workspace_id: 'ws_measured', included_minutes: 4 });
    const first = await service.createJob(key, { file_path: await threeMinutes(440) });
    expect(first.job).toMatchObject({ status: 'completed', minutesMetered: 3 });
    // Declared as 1 minute (nothing declared): the pre-check lets it in, the probe measures 3 and 3 + 3 > 4.
    await expect(service.createJob(key, { file_path: await threeMinutes(550) })).rejects.toMatchObject({
      code: 'usage_limit_exceeded',
      status: 429,
      details: expect.objectContaining({ includedMinutes: 4, minutesUsed: 3, requestedMinutes: 3, reason: 'included_minutes_exhausted' }),
    });
    // Declaring less changes nothing.
    await expect(service.createJob(key, { file_path: await threeMinutes(660), duration_seconds: 1 })).rejects.toMatchObject({ code: 'usage_limit_exceeded' });
    expect((await accounts.listUsage(key)).totals.minutesMetered).toBe(3);
    expect((await accounts.listAbuseEvents(key)).abuseEvents.filter((e) => e.error === 'usage_limit_exceeded')).toHaveLength(2);
  });

  it('holds for checks running at the same time', async () => {
    const { service, accounts, keyFor } = await setUp();
    const key = await keyFor({ workspace_id: 'ws_parallel', included_minutes: 4 });
    const results = await Promise.allSettled([service.createJob(key, { file_path: await threeMinutes(440) }), service.createJob(key, { file_path: await threeMinutes(550) })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'usage_limit_exceeded' } });
    expect((await accounts.listUsage(key)).totals.minutesMetered).toBe(3);
  });

  it('holds for queued jobs when they are drained', async () => {
    const { service, accounts, keyFor } = await setUp();
    const key = await keyFor({ workspace_id: 'ws_queued', included_minutes: 4 });
    await service.createJob(key, { file_path: await threeMinutes(440) });
    const { job, queued } = await service.createJob(key, { file_path: await threeMinutes(550), process_async: true });
    expect(queued).toBe(true);
    const drained = await service.drain(key, {});
    expect(drained.jobs[0]).toMatchObject({ jobId: job.jobId, status: 'failed', minutesMetered: 0 });
    expect(drained.jobs[0].failureReason).toMatch(/^usage_limit_exceeded/);
    expect((await accounts.listUsage(key)).totals.minutesMetered).toBe(3);
  });

  it('lets a re-check of a file already charged this month through at the cap, for free', async () => {
    const { service, keyFor } = await setUp();
    const key = await keyFor({ workspace_id: 'ws_recheck', included_minutes: 3 });
    const file = await threeMinutes(440);
    expect((await service.createJob(key, { file_path: file })).job.minutesMetered).toBe(3);
    const again = await service.createJob(key, { file_path: file, duration_seconds: 121 });
    expect(again.job).toMatchObject({ status: 'completed', minutesMetered: 0 });
    await expect(service.createJob(key, { file_path: await threeMinutes(550) })).rejects.toMatchObject({ code: 'usage_limit_exceeded' });
  });
});

describe("a workspace's economics", () => {
  it('price its estimates, job estimates, ledger entries and margins alike, whatever a workspace key asks for', async () => {
    const { service, accounts, operator, keyFor } = await setUp();
    const key = await keyFor({ workspace_id: 'ws_studio', plan_id: 'studio' });
    const own = (await service.estimate(key, { minutes: 1 }));
    expect(own.plan_id).toBe('studio');
    // A workspace key cannot price itself on other terms.
    expect((await service.estimate(key, { minutes: 1, plan_id: 'free', plan_price_cents: 10_000_000, included_minutes: 1 }))).toEqual(own);
    const { job } = await service.createJob(key, { file_path: await fx.clean(), plan_id: 'free', plan_price_cents: 10_000_000, included_minutes: 1 });
    expect(job.costEstimate).toEqual(own.cost_estimate);
    const [entry] = (await accounts.listUsage(key)).entries;
    expect(entry.planId).toBe('studio');
    expect((await accounts.margins(operator)).workspaces.find((w) => w.workspaceId === 'ws_studio')).toMatchObject({ planId: 'studio' });
    // Operators may still price a request on named terms.
    expect((await service.estimate(operator, { minutes: 1, plan_id: 'network' })).plan_id).toBe('network');
  });
});
