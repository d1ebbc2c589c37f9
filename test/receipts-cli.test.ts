// Receipts through the real CLI: no receipt for a narrowed check (the false PASS it used to sign), verifiers that
// report coverage, and a stranger verifying offline with only the receipt, the file and the issuer's key document.
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
    env: { PREFLIGHT_HOME: issuerHome, PREFLIGHT_SIGNING_KEY: undefined, PREFLIGHT_RECEIPT_KEY: undefined, PREFLIGHT_ALLOW_PRIVATE_NETWORKS: undefined, ...env },
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

describe('verifying offline with only the receipt, the file and the key document', () => {
  it('verifies in another data dir with the JWKS alone, and creates nothing there', async () => {
    const file = await fx.cleanPodcast();
    const issued = await cli(['check', file, '--receipt', path('pass.json')]);
    expect(issued.code).toBe(0);
    const receipt = readJson(path('pass.json'));
    expect(receipt).toMatchObject({ verdict: 'PASS', profile: 'podcast_delivery', issuer: 'preflight', verify: { ed25519: { kid: expect.any(String) } } });
    const keys = await cli(['receipt-keys']);
    expect(keys.code).toBe(0);
    writeFileSync(path('keys.json'), keys.stdout);
    expect(JSON.parse(keys.stdout).keys.map((k: { kid: string }) => k.kid)).toEqual([(receipt.verify as { ed25519: { kid: string } }).ed25519.kid]);

    const stranger = join(work, 'stranger');
    const ok = await cli(['verify', path('pass.json'), '--file', file, '--public-key', path('keys.json')], { PREFLIGHT_HOME: stranger });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^valid: signature authentic \(Ed25519 key \S+ from .*keys\.json\), file hash matches; verdict PASS/);
    expect(ok.stdout).toContain('issuer: preflight');
    expect(ok.stdout).toContain('coverage: complete: every gate podcast_delivery requires for audio ran (5)');
    expect(ok.stdout).toContain('publish: yes');
    expect(existsSync(stranger)).toBe(false);

    const other = await cli(['verify', path('pass.json'), '--file', await fx.audioDefects(), '--public-key', path('keys.json')], { PREFLIGHT_HOME: stranger });
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/^INVALID: receipt is authentic but its sha256 is not the hash of this file/);
  });

  it('says exactly what it needs (exit 2) without a usable key, never INVALID, and creates no key', async () => {
    const stranger = join(work, 'keyless');
    const r = await cli(['verify', path('pass.json')], { PREFLIGHT_HOME: stranger });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^cannot verify: no key to check it with: it needs the issuer's public key \S+ .*Pass the issuer's key document with --public-key keys\.json\./s);
    expect(r.stdout).not.toContain('INVALID');
    expect(existsSync(stranger)).toBe(false);
    const bad = await cli(['verify', path('pass.json'), '--public-key', path('pass.json')], { PREFLIGHT_HOME: stranger });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/The public key document is not usable: not a JWKS key document/);
  });

  it('fails with one changed byte in any signed field, another key, or an unknown schema', async () => {
    const receipt = readJson(path('pass.json'));
    const changes: Record<string, unknown>[] = [
      { jobId: `${receipt.jobId.slice(0, -1)}${receipt.jobId.endsWith('a') ? 'b' : 'a'}` },
      { issuedAt: receipt.issuedAt.replace(/\.(\d)/, (_m, d: string) => `.${(Number(d) + 1) % 10}`) },
      { sha256: `${receipt.sha256.slice(0, -1)}${receipt.sha256.endsWith('0') ? '1' : '0'}` },
      { issuer: 'preflighT' },
      { profile: 'podcast_deliverY' },
      { gates: [...receipt.gates.slice(0, -1), 'loudnesS'] },
      { verdict: 'PASs' },
    ];
    for (const change of changes) {
      writeFileSync(path('changed.json'), JSON.stringify({ ...receipt, ...change }));
      const r = await cli(['verify', path('changed.json'), '--public-key', path('keys.json')], { PREFLIGHT_HOME: join(work, 'stranger') });
      expect(r.code, JSON.stringify(change)).toBe(1);
      expect(r.stdout).toMatch(/^INVALID: /);
    }

    // Another issuer signs the same fields with its own key and claims the first issuer's key id.
    const otherHome = join(work, 'other-issuer');
    await cli(['check', await fx.cleanPodcast(), '--receipt', path('other.json')], { PREFLIGHT_HOME: otherHome });
    const other = readJson(path('other.json'));
    writeFileSync(path('forged.json'), JSON.stringify({ ...other, verify: { ed25519: { ...(other.verify as { ed25519: object }).ed25519, kid: (receipt.verify as { ed25519: { kid: string } }).ed25519.kid } } }));
    for (const forged of ['other.json', 'forged.json']) {
      const r = await cli(['verify', path(forged), '--public-key', path('keys.json')], { PREFLIGHT_HOME: join(work, 'stranger') });
      expect(r.code, forged).toBe(1);
      expect(r.stdout).toMatch(/^INVALID: (Ed25519 signature does not match|signed with Ed25519 key)/);
    }

    writeFileSync(path('schema.json'), JSON.stringify({ ...receipt, schema: 'preflight-receipt/2' }));
    const unknown = await cli(['verify', path('schema.json'), '--public-key', path('keys.json')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('INVALID: unknown receipt schema "preflight-receipt/2"; this verifier accepts preflight-receipt/1');
  });

  it('keeps old receipts verifying after `receipt-keys --rotate`', async () => {
    const rotated = await cli(['receipt-keys', '--rotate']);
    expect(rotated.code).toBe(0);
    expect(rotated.stderr).toMatch(/retired receipt key \S+ \(its public key stays published\); receipts are now signed with \S+/);
    const document = JSON.parse(rotated.stdout) as { keys: { kid: string }[] };
    expect(document.keys).toHaveLength(2);
    writeFileSync(path('keys-rotated.json'), rotated.stdout);
    const stranger = { PREFLIGHT_HOME: join(work, 'stranger') };
    expect((await cli(['verify', path('pass.json'), '--public-key', path('keys-rotated.json')], stranger)).code).toBe(0);
    expect((await cli(['verify', path('pass.json')])).code).toBe(0);

    await cli(['check', await fx.cleanPodcast(), '--receipt', path('after.json')]);
    const after = readJson(path('after.json'));
    expect((after.verify as { ed25519: { kid: string } }).ed25519.kid).toBe(document.keys[0].kid);
    expect((await cli(['verify', path('after.json'), '--public-key', path('keys-rotated.json')], stranger)).code).toBe(0);
    // The document from before the rotation cannot vouch for the new key.
    const stale = await cli(['verify', path('after.json'), '--public-key', path('keys.json')], stranger);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/^INVALID: signed with Ed25519 key \S+, which is not among the 1 public key/);
  });
});
