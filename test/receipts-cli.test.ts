// Receipts through the real CLI: no receipt for a narrowed check (the false PASS it used to sign), and a verifier
// that reports coverage.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { signReceipt, type Receipt } from '../engine/receipt.js';
import * as fx from './helpers/fixtures.js';

const BIN = resolve(import.meta.dirname, '../bin/preflight.js');
const work = mkdtempSync(join(tmpdir(), 'preflight-receipts-cli-'));
const issuerHome = join(work, 'issuer');

async function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const r = await execa('node', [BIN, ...args], {
    reject: false,
    timeout: 120_000,
    env: { PREFLIGHT_HOME: issuerHome, PREFLIGHT_SIGNING_KEY: undefined, ...env },
    extendEnv: true,
    stdin: 'ignore',
  });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const path = (name: string) => join(work, name);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Receipt & Record<string, unknown>;

describe('no receipt for a check that did not run its whole profile', () => {
  it('reproduces the false PASS: a BLOCK file, then a narrowed --checks loudness --receipt, exits 2 and writes nothing', async () => {
    const file = await fx.blackInterior();
    const full = await cli(['check', file, '--receipt', path('full.json')]);
    expect(full.code).toBe(1);
    expect(full.stdout).toMatch(/^BLOCK/);
    expect(readJson(path('full.json'))).toMatchObject({ verdict: 'BLOCK', blocked: ['black_frames'], profile: 'video_site_longform' });

    const narrowed = await cli(['check', file, '--checks', 'loudness', '--receipt', path('narrowed.json')]);
    expect(narrowed.code).toBe(2);
    expect(narrowed.stdout).toMatch(/^PASS/);
    expect(narrowed.stdout).toContain('Not upload-ready yet: PASS on the gates that ran');
    expect(narrowed.stdout).not.toContain('Upload-ready.');
    expect(narrowed.stderr).toMatch(/No receipt: this check ran 1 of the 12 gates video_site_longform requires of video with sound \(missing: black_frames,/);
    expect(narrowed.stderr).toContain('run the full profile to get a receipt');
    expect(existsSync(path('narrowed.json'))).toBe(false);

    // Without --receipt the narrowed check is an ordinary repair step: its verdict, exit 0.
    expect((await cli(['check', file, '--checks', 'loudness'])).code).toBe(0);
  });

  it('signs no PASS with `gates: []` for a watchlist check without a watchlist', async () => {
    const r = await cli(['check', await fx.blackInterior(), '--checks', 'pronunciation_watchlist', '--receipt', path('watchlist.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ran 0 of the 12 gates/);
    expect(existsSync(path('watchlist.json'))).toBe(false);
  });

  it('refuses to call a receipt from before the rule publishable: valid signature, INCOMPLETE coverage, exit 1', async () => {
    const file = await fx.blackInterior();
    const sha256 = (readJson(path('full.json')) as Receipt).sha256;
    const secret = 'old-receipt-signing-key-0123456789';
    const fields = { schema: 'preflight-receipt/1', verdict: 'PASS', sha256, profile: 'video_site_longform', gates: ['loudness'], blocked: [], jobId: 'local_old', issuedAt: '2026-01-01T00:00:00.000Z', issuer: 'preflight' } as const;
    const old = { ...fields, signature: signReceipt(fields as unknown as Receipt, secret), summary: 'PASS on video_site_longform: upload-ready' };
    writeFileSync(path('old.json'), JSON.stringify(old));
    const r = await cli(['verify', path('old.json'), '--file', file], { PREFLIGHT_SIGNING_KEY: secret, PREFLIGHT_HOME: join(work, 'old-home') });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^valid: signature authentic \(HMAC with this data dir's secret\), file hash matches; verdict PASS/);
    expect(r.stdout).toMatch(/coverage: INCOMPLETE for video with sound: the receipt lists 1 of the 12 gates/);
    expect(r.stdout).toContain('publish: no');
    const json = JSON.parse((await cli(['verify', path('old.json'), '--file', file, '--json'], { PREFLIGHT_SIGNING_KEY: secret, PREFLIGHT_HOME: join(work, 'old-home') })).stdout);
    expect(json).toMatchObject({ valid: true, uploadReady: false, coverage: { complete: false, judgedFrom: 'file', media: 'video' } });
  });
});
