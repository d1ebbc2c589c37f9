// The service's receipt rule on real jobs: a complete check signs, a narrowed one does not, and a job stored before
// the rule (report without coverage, PASS receipt of one gate) is held to it when its receipt is fetched.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReceipt, signReceipt, type Receipt } from '../engine/receipt.js';
import { ServiceError } from '../src/errors.js';
import { LOCAL_PRINCIPAL, PreflightService } from '../src/service.js';
import * as fx from './helpers/fixtures.js';

const SECRET = 'receipts-service-signing-key-0123';
const open: PreflightService[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function service() {
  const home = mkdtempSync(join(tmpdir(), 'preflight-receipts-svc-'));
  const svc = await PreflightService.open({ home, env: { PREFLIGHT_SIGNING_KEY: SECRET } as NodeJS.ProcessEnv });
  open.push(svc);
  return { svc, home };
}

async function receiptError(fn: () => Promise<unknown>): Promise<ServiceError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  }
  throw new Error('expected receipt_incomplete_check');
}

describe('the receipt of a job', () => {
  it('exists for a complete check, and not for a narrowed one, whose job says so', async () => {
    const { svc, home } = await service();
    const file = await fx.cleanPodcast();
    const full = (await svc.createJob(LOCAL_PRINCIPAL, { file_path: file })).job;
    expect(full.coverage).toEqual({ complete: true, deliveryProfile: 'podcast_delivery', narrowed: false, missing: [], errored: [], reason: null });
    expect(await svc.getReceipt(LOCAL_PRINCIPAL, full.jobId)).toMatchObject({ verdict: 'PASS', profile: 'podcast_delivery' });

    const narrowed = (await svc.createJob(LOCAL_PRINCIPAL, { file_path: file, checks: 'loudness,clipping' })).job;
    expect(narrowed).toMatchObject({ verdict: 'PASS', minutesMetered: 0, coverage: { complete: false, narrowed: true, missing: ['format_spec', 'dead_air', 'channel_balance'] } });
    expect(existsSync(join(home, 'jobs', narrowed.jobId, 'receipt.json'))).toBe(false);
    const error = await receiptError(() => svc.getReceipt(LOCAL_PRINCIPAL, narrowed.jobId));
    expect(error).toMatchObject({ code: 'receipt_incomplete_check', status: 409 });
    expect(error.message).toMatch(/ran 2 of the 5 gates podcast_delivery requires of audio.*run the full profile to get a receipt/);
  });

  it('holds a job stored before the rule to it: its one-gate PASS receipt is not served', async () => {
    const { svc, home } = await service();
    const file = await fx.cleanPodcast();
    const job = (await svc.createJob(LOCAL_PRINCIPAL, { file_path: file, checks: 'loudness' })).job;
    // Rewrite the job's files as the previous version left them: a report without coverage, a signed PASS receipt.
    const dir = join(home, 'jobs', job.jobId);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Record<string, unknown>;
    delete report.coverage;
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    const complete = buildReceipt({ jobId: job.jobId, verdict: 'PASS', sha256: (report.media as { sha256: string }).sha256, profile: 'podcast_delivery', gates: ['format_spec', 'loudness', 'clipping', 'dead_air', 'channel_balance'], blockedGates: [] }, SECRET);
    const old = { ...complete, gates: ['loudness'] };
    writeFileSync(join(dir, 'receipt.json'), JSON.stringify({ ...old, signature: signReceipt(old as Receipt, SECRET) }));
    const error = await receiptError(() => svc.getReceipt(LOCAL_PRINCIPAL, job.jobId));
    expect(error.code).toBe('receipt_incomplete_check');
    expect(error.message).toMatch(/ran 1 of the 5 gates/);
  });
});
