// The store on a real data dir: failed writes undone and confined to their own request, damaged files refused with
// what to do, the data-dir lock judged by more than a pid, and owner-only files.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PreflightService, type Principal } from '../src/service.js';
import { acquireDataDirLock, LOCK_STALE_MS, processStartTicks, type DataDirLock } from '../src/store/lock.js';
import { Store } from '../src/store/db.js';
import type { JobRecord } from '../src/jobs/record.js';
import * as fx from './helpers/fixtures.js';

const env = { PREFLIGHT_SIGNING_KEY: 'store-test-signing-key-0123456789' } as NodeJS.ProcessEnv;
const alice: Principal = { workspaceId: 'ws_alice', scopes: ['*'], operator: false };
const bob: Principal = { workspaceId: 'ws_bob', scopes: ['*'], operator: false };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const newHome = () => mkdtempSync(join(tmpdir(), 'preflight-store-'));
const deep = (levels: number) => JSON.parse('{"a":'.repeat(levels) + '1' + '}'.repeat(levels)) as Record<string, unknown>;

function gateVerdict(importId: string, perCheck: Record<string, unknown>) {
  return { importId, jobId: 'job_x', workspaceId: 'ws_x', claimedVerdict: 'PASS' as const, blocked: [], skipped: [], perCheck, ourVerdict: null, disagrees: false, createdAt: new Date().toISOString() };
}

/** Makes every write of the store fail (its file is a directory), until the returned function undoes it. */
function breakStoreFile(home: string): () => void {
  const path = join(home, 'db.json');
  renameSync(path, `${path}.aside`);
  mkdirSync(path);
  return () => {
    rmdirSync(path);
    renameSync(`${path}.aside`, path);
  };
}

async function openService(home: string): Promise<PreflightService> {
  const svc = await PreflightService.open({ home, env });
  cleanups.push(() => svc.close());
  return svc;
}

describe('a store write that fails', () => {
  it('fails its own change only: undone in memory, never on disk, and the next write of anyone succeeds', async () => {
    const home = newHome();
    const store = await Store.open(home);
    await store.update((d) => d.gateVerdicts.push(gateVerdict('gvi_ok', { a: 1 })));
    // A value JSON cannot write (nested far deeper than JSON.stringify's stack): the write that carries it fails.
    const poisoned = store.update((d) => d.gateVerdicts.push(gateVerdict('gvi_deep', deep(20_000))));
    await expect(poisoned).rejects.toMatchObject({ code: 'store_write_failed', status: 503 });
    expect(store.data.gateVerdicts.map((g) => g.importId)).toEqual(['gvi_ok']);
    await store.update((d) => d.gateVerdicts.push(gateVerdict('gvi_next', { b: 2 })));
    const onDisk = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8'));
    expect(onDisk.gateVerdicts.map((g: { importId: string }) => g.importId)).toEqual(['gvi_ok', 'gvi_next']);
  });

  it('puts memory back to what is on disk when the disk refuses, keeping live records live', async () => {
    const home = newHome();
    const store = await Store.open(home);
    const job = { jobId: 'job_live', workspaceId: 'ws_a', status: 'queued' } as unknown as JobRecord;
    await store.update((d) => d.jobs.push(job));
    const repair = breakStoreFile(home);
    const changes = [
      store.update(() => {
        job.status = 'running';
      }),
      store.update((d) => d.gateVerdicts.push(gateVerdict('gvi_lost', {}))),
    ];
    for (const change of changes) await expect(change).rejects.toMatchObject({ code: 'store_write_failed' });
    expect(job.status).toBe('queued');
    expect(store.data.jobs[0]).toBe(job);
    expect(store.data.gateVerdicts).toEqual([]);
    repair();
    await store.update(() => {
      job.status = 'completed';
    });
    const reopened = await Store.open(home);
    expect(reopened.data.jobs).toMatchObject([{ jobId: 'job_live', status: 'completed' }]);
    expect(reopened.data.gateVerdicts).toEqual([]);
  });

  it('fails a running check with 503 and never leaves an unhandled rejection from its progress writes', async () => {
    const home = newHome();
    const svc = await openService(home);
    const file = await fx.clean();
    let repair: (() => void) | null = null;
    const ctx = {
      progress: (pct: number) => {
        if (pct > 0 && !repair) repair = breakStoreFile(home);
      },
    };
    await expect(svc.createJob(alice, { file_path: file }, ctx)).rejects.toMatchObject({ code: 'store_write_failed', status: 503 });
    (repair as (() => void) | null)?.();
    // The service goes on: another workspace's check runs and is stored.
    const { job } = await svc.createJob(bob, { file_path: file });
    expect(job.status).toBe('completed');
    await svc.close();
    const reopened = await openService(home);
    expect(reopened.getJob(bob, job.jobId).status).toBe('completed');
  });
});

describe('a damaged store', () => {
  const cases: [string, string, RegExp][] = [
    ['truncated', '{"version":1,"jobs":[{"jobId":"job_1",', /not valid JSON .*truncated/],
    ['empty', '', /it is empty/],
    ['an empty object', '{}', /"version" is missing, expected 1/],
    ['a list where records belong', '{"version":1,"jobs":"job_1"}', /"jobs" is not a list/],
    ['a record of the wrong type', '{"version":1,"apiKeys":[{"keyId":7}]}', /apiKeys\[0\] is not a record with a string "keyId"/],
  ];
  for (const [what, text, problem] of cases) {
    it(`is refused when ${what}, naming the file and what to do, and left as it was`, async () => {
      const home = newHome();
      writeFileSync(join(home, 'db.json'), text);
      const failure = PreflightService.open({ home, env });
      await expect(failure).rejects.toMatchObject({ code: 'store_damaged' });
      const message = ((await failure.catch((e: Error) => e)) as Error).message;
      expect(message).toContain(join(home, 'db.json'));
      expect(message).toMatch(problem);
      expect(message).toMatch(/Restore .* from a backup, or move it aside/);
      expect(readFileSync(join(home, 'db.json'), 'utf8')).toBe(text);
      // The lock was released: once repaired, the data dir opens.
      writeFileSync(join(home, 'db.json'), '{"version":1}');
      await openService(home);
    });
  }

  it('is refused when db.json is missing but job folders exist, rather than starting empty over them', async () => {
    const home = newHome();
    const svc = await openService(home);
    await svc.createJob(alice, { file_path: await fx.clean() });
    await svc.close();
    renameSync(join(home, 'db.json'), join(home, 'db.json.lost'));
    await expect(PreflightService.open({ home, env })).rejects.toMatchObject({ code: 'store_missing', message: expect.stringMatching(/missing, but 1 job folder\(s\) exist/) });
  });
});

describe('store files', () => {
  it('hold key hashes and emails readable by the owner only, whatever the directory mode', async () => {
    const home = newHome();
    chmodSync(home, 0o755);
    writeFileSync(join(home, 'db.json'), '{"version":1}', { mode: 0o644 });
    const store = await Store.open(home);
    expect(statSync(join(home, 'db.json')).mode & 0o777).toBe(0o600);
    await store.update((d) => d.gateVerdicts.push(gateVerdict('gvi_1', {})));
    expect(statSync(join(home, 'db.json')).mode & 0o777).toBe(0o600);
  });
});

describe('the data-dir lock', () => {
  const held: DataDirLock[] = [];
  afterEach(() => held.splice(0).forEach((l) => l.release()));
  const writeLock = (home: string, owner: Record<string, unknown>) => writeFileSync(join(home, 'preflight.lock'), JSON.stringify(owner));

  it('is taken over from an unrelated live process that happens to have the recorded pid', async () => {
    const home = newHome();
    // A live process of this host whose start time differs from the one recorded: the pid was reused.
    const sleeper = spawn('sleep', ['30']);
    cleanups.push(() => sleeper.kill());
    writeLock(home, { pid: sleeper.pid, pidStartTicks: '1', hostname: hostname(), token: 'old', acquiredAt: new Date().toISOString() });
    expect(processStartTicks(sleeper.pid!)).not.toBe('1');
    held.push(acquireDataDirLock(home));
  });

  it('is taken over when its owner has not refreshed it, wherever the owner ran', () => {
    const home = newHome();
    writeLock(home, { pid: 1, pidStartTicks: null, hostname: 'another-host', token: 'old', acquiredAt: new Date().toISOString() });
    expect(() => acquireDataDirLock(home)).toThrow(/pid 1 on another-host/);
    const old = new Date(Date.now() - LOCK_STALE_MS - 5_000);
    utimesSync(join(home, 'preflight.lock'), old, old);
    held.push(acquireDataDirLock(home));
  });

  it('holds against a live owner, and is released by its own token only', async () => {
    const home = newHome();
    const child = spawn(process.execPath, ['-e', `import('${join(import.meta.dirname, '../dist/src/store/lock.js')}').then((m) => { m.acquireDataDirLock(${JSON.stringify(home)}); console.log('locked'); setInterval(() => {}, 1000); })`], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => child.kill());
    await new Promise<void>((ready) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && ready()));
    expect(() => acquireDataDirLock(home)).toThrow(/Another Preflight process \(pid \d+ on /);
    child.kill();
    await new Promise((r) => child.on('exit', r));
    held.push(acquireDataDirLock(home));
  });
});
