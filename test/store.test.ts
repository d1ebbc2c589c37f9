// The store on a real data dir: an old db.json that is damaged is refused with what to do (never half imported), the
// data-dir lock judged by more than a pid, and owner-only database files.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PreflightService, type Principal } from '../src/service.js';
import { acquireDataDirLock, LOCK_STALE_MS, processStartTicks, type DataDirLock } from '../src/store/lock.js';
import * as fx from './helpers/fixtures.js';

const env = { PREFLIGHT_SIGNING_KEY: 'store-test-signing-key-0123456789' } as NodeJS.ProcessEnv;
const alice: Principal = { workspaceId: 'ws_alice', scopes: ['*'], operator: false };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const newHome = () => mkdtempSync(join(tmpdir(), 'preflight-store-'));

async function openService(home: string): Promise<PreflightService> {
  const svc = await PreflightService.open({ home, env });
  cleanups.push(() => svc.close());
  return svc;
}

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

});

describe('the database files', () => {
  it('are readable by the owner only, whatever the data dir mode', async () => {
    const home = newHome();
    chmodSync(home, 0o755);
    const svc = await openService(home);
    await svc.createJob(alice, { file_path: await fx.clean() });
    expect(statSync(join(home, 'db')).mode & 0o777).toBe(0o700);
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
