// The issuer's Ed25519 receipt keys: created once (0600), from the environment, never logged, rotated with the old
// public keys kept, and never created or changed by verifying.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { keyDocument, publicJwkOf } from '../engine/receipt-ed25519.js';
import { buildReceipt, type BuildReceiptInput } from '../engine/receipt.js';
import { loadReceiptSigningKey, readPublishedKeys, receiptKeyDocument, rotateReceiptKey } from '../src/receipt-keys.js';
import { checkReceipt } from '../src/receipts.js';

const input: BuildReceiptInput = {
  jobId: 'job_keys',
  verdict: 'PASS',
  sha256: 'a'.repeat(64),
  profile: 'podcast_delivery',
  gates: ['format_spec', 'loudness', 'clipping', 'dead_air', 'channel_balance'],
  blockedGates: [],
};

const dirs: string[] = [];
function temporaryHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-keys-'));
  dirs.push(dir);
  return join(dir, 'home');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function signWith(home: string, env: Record<string, string> = {}) {
  return buildReceipt(input, { hmac: 'hmac-secret', ed25519: loadReceiptSigningKey({ home, env }) });
}

describe('the receipt signing key', () => {
  it('is created on first use in a 0600 file in a 0700 data dir, then reused', () => {
    const home = temporaryHome();
    const first = loadReceiptSigningKey({ home, env: {} });
    const path = join(home, 'receipt-keys.json');
    expect(first).toMatchObject({ source: 'file', path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(loadReceiptSigningKey({ home, env: {} }).kid).toBe(first.kid);
    expect(readdirSync(home)).toEqual(['receipt-keys.json']);
  });

  it('is never shown when the loaded key is serialised or logged', () => {
    const home = temporaryHome();
    const loaded = loadReceiptSigningKey({ home, env: {} });
    const pem = (JSON.parse(readFileSync(join(home, 'receipt-keys.json'), 'utf8')) as { keys: { privateKey: string }[] }).keys[0].privateKey;
    expect(pem).toMatch(/BEGIN PRIVATE KEY/);
    const body = pem.split('\n')[1];
    expect(JSON.stringify(loaded)).not.toContain(body);
    expect(Object.keys(loaded)).not.toContain('privateKey');
    expect(JSON.stringify(receiptKeyDocument({ home, env: {} }))).not.toContain(body);
  });

  it('comes from PREFLIGHT_RECEIPT_KEY (PEM or base64 DER) without touching the data dir', () => {
    const home = temporaryHome();
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const der = (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64');
    const kid = publicJwkOf(privateKey).kid;
    expect(loadReceiptSigningKey({ home, env: { PREFLIGHT_RECEIPT_KEY: pem } })).toMatchObject({ source: 'env', kid });
    expect(loadReceiptSigningKey({ home, env: { PREFLIGHT_RECEIPT_KEY: der } }).kid).toBe(kid);
    expect(existsSync(home)).toBe(false);
    expect(receiptKeyDocument({ home, env: { PREFLIGHT_RECEIPT_KEY: pem } })).toEqual(keyDocument([publicJwkOf(privateKey)]));
  });

  it('refuses a PREFLIGHT_RECEIPT_KEY that is not an Ed25519 private key, naming the variable and not the value', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(() => loadReceiptSigningKey({ env: { PREFLIGHT_RECEIPT_KEY: rsa } })).toThrow(/PREFLIGHT_RECEIPT_KEY is a rsa key; receipts are signed with Ed25519/);
    try {
      loadReceiptSigningKey({ env: { PREFLIGHT_RECEIPT_KEY: 'not-a-key-secret-value' } });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toMatch(/PREFLIGHT_RECEIPT_KEY is not a PKCS#8 private key/);
      expect((err as Error).message).not.toContain('secret-value');
    }
  });

  it('refuses a damaged keyring with what to do, instead of silently making a new key', () => {
    const home = temporaryHome();
    loadReceiptSigningKey({ home, env: {} });
    writeFileSync(join(home, 'receipt-keys.json'), '{"format": "something else"}');
    expect(() => loadReceiptSigningKey({ home, env: {} })).toThrow(/unreadable.*restore it from a backup/);
  });

  it('is the same key when two processes create it at the same moment', async () => {
    const home = temporaryHome();
    const module = resolve(import.meta.dirname, '../dist/src/receipt-keys.js');
    const script = `const { loadReceiptSigningKey } = await import(${JSON.stringify(module)}); process.stdout.write(loadReceiptSigningKey({ home: ${JSON.stringify(home)}, env: {} }).kid);`;
    const run = () => promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const results = await Promise.all([run(), run(), run()]);
    expect(new Set(results.map((r) => r.stdout)).size).toBe(1);
    expect(readPublishedKeys({ home, env: {} })).toHaveLength(1);
  });
});

describe('rotation', () => {
  it('signs with a new key, keeps the old public key published, and old receipts keep verifying offline', async () => {
    const home = temporaryHome();
    const old = signWith(home);
    const oldKid = loadReceiptSigningKey({ home, env: {} }).kid;
    const rotation = rotateReceiptKey({ home, env: {} });
    expect(rotation).toMatchObject({ retired: oldKid, active: expect.any(String), next: null });
    expect(rotation.active).not.toBe(oldKid);
    const document = receiptKeyDocument({ home, env: {} });
    expect(document.keys.map((k) => k.kid)).toEqual([rotation.active, oldKid]);
    const stored = JSON.parse(readFileSync(join(home, 'receipt-keys.json'), 'utf8')) as { keys: { kid: string; privateKey?: string; retiredAt: string | null }[] };
    expect(stored.keys.find((k) => k.kid === oldKid)).toMatchObject({ retiredAt: expect.any(String) });
    expect(stored.keys.find((k) => k.kid === oldKid)?.privateKey).toBeUndefined();
    expect(statSync(join(home, 'receipt-keys.json')).mode & 0o777).toBe(0o600);

    const fresh = signWith(home);
    expect((fresh.verify as { ed25519: { kid: string } }).ed25519.kid).toBe(rotation.active);
    for (const receipt of [old, fresh]) {
      expect(await checkReceipt(receipt, { publicKeys: JSON.parse(JSON.stringify(document)) })).toMatchObject({ valid: true, uploadReady: true, keySource: 'given' });
    }
    // The document from before the rotation does not know the new key.
    const before = keyDocument([document.keys[1]]);
    expect(await checkReceipt(fresh, { publicKeys: before })).toMatchObject({ valid: false, checked: true, signatures: { ed25519: 'unknown_key' } });
  });

  it('records an environment key as retired; after the variable changes, both keys stay published', async () => {
    const home = temporaryHome();
    const pem = (k: ReturnType<typeof generateKeyPairSync>['privateKey']) => k.export({ format: 'pem', type: 'pkcs8' }) as string;
    const first = generateKeyPairSync('ed25519').privateKey;
    const second = generateKeyPairSync('ed25519').privateKey;
    const old = signWith(home, { PREFLIGHT_RECEIPT_KEY: pem(first) });
    const rotation = rotateReceiptKey({ home, env: { PREFLIGHT_RECEIPT_KEY: pem(first) } });
    expect(rotation).toMatchObject({ retired: publicJwkOf(first).kid, active: null, next: expect.stringContaining('Set PREFLIGHT_RECEIPT_KEY to a new Ed25519 private key') });
    const document = receiptKeyDocument({ home, env: { PREFLIGHT_RECEIPT_KEY: pem(second) } });
    expect(document.keys.map((k) => k.kid)).toEqual([publicJwkOf(second).kid, publicJwkOf(first).kid]);
    expect(await checkReceipt(old, { publicKeys: document })).toMatchObject({ valid: true });
  });
  it('makes a file key when the variable is unset after an environment key was retired, keeping the old one published', () => {
    const home = temporaryHome();
    const first = generateKeyPairSync('ed25519').privateKey;
    rotateReceiptKey({ home, env: { PREFLIGHT_RECEIPT_KEY: first.export({ format: 'pem', type: 'pkcs8' }) as string } });
    const fileKey = loadReceiptSigningKey({ home, env: {} });
    expect(fileKey).toMatchObject({ source: 'file' });
    expect(readPublishedKeys({ home, env: {} })?.map((k) => k.kid)).toEqual([fileKey.kid, publicJwkOf(first).kid]);
  });

  it('refuses to change the keys while another change holds the lock, saying what to do', () => {
    const home = temporaryHome();
    loadReceiptSigningKey({ home, env: {} });
    writeFileSync(join(home, 'receipt-keys.json.lock'), '12345');
    expect(() => rotateReceiptKey({ home, env: {} })).toThrow(/Another process is changing the receipt keys .*delete that file if none is running/);
    rmSync(join(home, 'receipt-keys.json.lock'));
    expect(rotateReceiptKey({ home, env: {} }).active).toEqual(expect.any(String));
  });
});

describe('verifying never creates or changes a key', () => {
  it('leaves a data dir without keys as it was, and says which key it needs', async () => {
    const issuer = temporaryHome();
    const receipt = signWith(issuer);
    const elsewhere = temporaryHome();
    const result = await checkReceipt(receipt, { home: elsewhere, env: {} });
    expect(result).toMatchObject({ valid: false, checked: false, keySource: 'none' });
    expect(result.reason).toContain((receipt.verify as { ed25519: { kid: string } }).ed25519.kid);
    expect(existsSync(elsewhere)).toBe(false);
    expect(readPublishedKeys({ home: elsewhere, env: {} })).toBeNull();
  });

  it("checks its own receipts with its own keys in the issuer's data dir: both signatures on the issuer's verifier", async () => {
    const home = temporaryHome();
    const receipt = buildReceipt(input, { hmac: 'hmac-secret', ed25519: loadReceiptSigningKey({ home, env: {} }) });
    const before = readFileSync(join(home, 'receipt-keys.json'), 'utf8');
    const env = { PREFLIGHT_SIGNING_KEY: 'hmac-secret' };
    expect(await checkReceipt(receipt, { home, env })).toMatchObject({ valid: true, keySource: 'local', signatures: { hmac: 'not_checked', ed25519: 'valid' } });
    const result = await checkReceipt(receipt, { home, env, issuerSide: true });
    expect(result).toMatchObject({ valid: true, keySource: 'local', signatures: { hmac: 'valid', ed25519: 'valid' } });
    // A changed HMAC secret fails the issuer's verifier, not the public-key check meant for everyone else.
    expect(await checkReceipt(receipt, { home, env: { PREFLIGHT_SIGNING_KEY: 'another-secret' }, issuerSide: true })).toMatchObject({ valid: false, signatures: { hmac: 'invalid' } });
    expect(await checkReceipt(receipt, { home, env: { PREFLIGHT_SIGNING_KEY: 'another-secret' } })).toMatchObject({ valid: true });
    expect(readFileSync(join(home, 'receipt-keys.json'), 'utf8')).toBe(before);
    expect(existsSync(join(home, 'signing-key'))).toBe(false);
  });
});
