// Receipts through the REST door of a real `preflight serve`: 409 for a narrowed job, the published key document,
// receipts naming the public URL that a stranger's CLI fetches keys from, and a public verifier that refuses
// malformed requests instead of ignoring them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signReceipt, type Receipt } from '../engine/receipt.js';
import * as fx from './helpers/fixtures.js';
import { apiRequest, BIN, startServe, type RunningServer } from './helpers/serve.js';

const OPERATOR_KEY = 'op_receipts_key_0123456789abcdef0123456789';
const SIGNING_KEY = 'receipts-http-signing-key-0123456789';
const work = mkdtempSync(join(tmpdir(), 'preflight-receipts-http-'));

let server: RunningServer;

beforeAll(async () => {
  server = await startServe({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: SIGNING_KEY }, { args: ['--no-worker', '--public-url', 'http://127.0.0.1:{port}'] });
}, 120_000);

afterAll(() => {
  server?.proc.kill('SIGTERM');
});

const api = (method: string, path: string, opts: { body?: unknown; raw?: string } = {}) => apiRequest(server, method, path, { key: OPERATOR_KEY, ...opts });

async function runJob(file: string, extra: Record<string, unknown> = {}) {
  const bytes = readFileSync(file);
  const reserve = await api('POST', '/v1/uploads', { body: { filename: file.split('/').pop(), content_type: 'application/octet-stream', size_bytes: bytes.length } });
  expect(reserve.status, reserve.text).toBe(201);
  expect((await fetch(reserve.json.signedPutUrl, { method: 'PUT', body: bytes })).status).toBe(200);
  const created = await api('POST', '/v1/qc/jobs', { body: { upload_id: reserve.json.uploadId, ...extra } });
  expect(created.status, created.text).toBe(201);
  return created.json;
}

async function cli(args: string[], env: Record<string, string | undefined>) {
  const r = await execa('node', [BIN, ...args], { reject: false, timeout: 60_000, env: { PREFLIGHT_SIGNING_KEY: undefined, PREFLIGHT_ALLOW_PRIVATE_NETWORKS: undefined, ...env }, extendEnv: true, stdin: 'ignore' });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

let passReceipt: Receipt & Record<string, unknown>;

describe('receipts over REST', () => {
  it('answers 409 receipt_incomplete_check for a narrowed job, which says it is not complete and signs nothing', async () => {
    const job = await runJob(await fx.blackInterior(), { checks: 'loudness' });
    expect(job).toMatchObject({ status: 'completed', verdict: 'PASS', coverage: { complete: false, narrowed: true, deliveryProfile: 'video_site_longform' } });
    expect(job.coverage.missing).toContain('black_frames');
    const receipt = await api('GET', `/v1/qc/jobs/${job.jobId}/receipt`);
    expect(receipt.status).toBe(409);
    expect(receipt.json.error).toMatchObject({ code: 'receipt_incomplete_check', details: { jobId: job.jobId, coverage: { complete: false } } });
    expect(receipt.json.error.message).toMatch(/has no receipt: this check ran 1 of the 12 gates .*run the full profile to get a receipt\. Re-running the full profile on the same file is free within the month\./);
    const artifacts = await api('GET', `/v1/qc/jobs/${job.jobId}/artifacts`);
    expect(artifacts.json.artifacts.map((a: { artifact_type: string }) => a.artifact_type)).not.toContain('receipt');
    const events = await api('GET', `/v1/qc/jobs/${job.jobId}/events`);
    expect(events.json.events.map((e: { event_type: string }) => e.event_type)).toContain('receipt.withheld');
  });

  it('signs a full check naming its public URL as issuer, with both signatures, and verifies it', async () => {
    const job = await runJob(await fx.cleanPodcast());
    expect(job).toMatchObject({ verdict: 'PASS', coverage: { complete: true, narrowed: false, missing: [], errored: [] } });
    const receipt = await api('GET', `/v1/qc/jobs/${job.jobId}/receipt`);
    expect(receipt.status).toBe(200);
    passReceipt = receipt.json;
    expect(passReceipt).toMatchObject({ verdict: 'PASS', issuer: server.url, verify: { ed25519: { kid: expect.any(String) } } });
    const verified = await api('POST', '/v1/public/receipts/verify', { body: passReceipt });
    expect(verified.json).toMatchObject({ valid: true, checked: true, authentic: true, uploadReady: true, signatures: { hmac: 'valid', ed25519: 'valid' }, coverage: { complete: true, profile: 'podcast_delivery' } });
  });

  it('publishes its public keys at /.well-known/preflight-receipt-keys.json, the document `preflight receipt-keys` prints', async () => {
    const res = await api('GET', '/.well-known/preflight-receipt-keys.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    expect(res.json.keys).toEqual([expect.objectContaining({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: (passReceipt.verify as { ed25519: { kid: string } }).ed25519.kid })]);
    expect(res.text).not.toMatch(/PRIVATE|"d"/);
    const printed = await cli(['receipt-keys'], { PREFLIGHT_HOME: server.home });
    expect(JSON.parse(printed.stdout)).toEqual(res.json);
  });

  it("lets a stranger's CLI verify with the keys fetched from the issuer URL, and says what it needs when it may not fetch", async () => {
    writeFileSync(join(work, 'pass.json'), JSON.stringify(passReceipt));
    const stranger = join(work, 'stranger');
    const fetched = await cli(['verify', join(work, 'pass.json'), '--file', await fx.cleanPodcast()], { PREFLIGHT_HOME: stranger, PREFLIGHT_ALLOW_PRIVATE_NETWORKS: '1' });
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toContain(`from ${server.url}/.well-known/preflight-receipt-keys.json), file hash matches; verdict PASS`);
    expect(fetched.stdout).toContain('publish: yes');
    // A plain-http loopback issuer is refused unless the private-network switch is on.
    const refused = await cli(['verify', join(work, 'pass.json')], { PREFLIGHT_HOME: stranger });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Could not fetch the issuer's public keys from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/preflight-receipt-keys\.json: .*--public-key keys\.json/);
  });
});

describe('the public verifier refuses what it cannot vouch for', () => {
  const verify = (body: unknown) => api('POST', '/v1/public/receipts/verify', { body });
  const raw = (text: string) => api('POST', '/v1/public/receipts/verify', { raw: text });

  it.each([42, null, ['x'], 'not-a-hash', 'a'.repeat(63), 'g'.repeat(64)])('refuses the sha256 %j beside the receipt with 400', async (sha256) => {
    const res = await verify({ receipt: passReceipt, sha256 });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/sha256 must be the SHA-256/) });
  });

  it('refuses unknown keys beside the receipt, an own __proto__ included, and a receipt that is not an object', async () => {
    const extra = await verify({ receipt: passReceipt, sha256: passReceipt.sha256, publish: true });
    expect(extra.status).toBe(400);
    expect(extra.json.error.message).toMatch(/Unknown field beside the receipt: "publish"/);
    const proto = await raw(`{"__proto__":{"admin":true},"receipt":${JSON.stringify(passReceipt)}}`);
    expect(proto.status).toBe(400);
    expect(proto.json.error.message).toMatch(/Unknown field beside the receipt: "__proto__"/);
    expect((await verify({ receipt: 'PASS' })).status).toBe(400);
  });

  it('calls a receipt with an own __proto__ key malformed, even when it is otherwise genuine', async () => {
    const res = await raw(JSON.stringify(passReceipt).replace(/^\{/, '{"__proto__":{"verdict":"PASS"},'));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ valid: false, authentic: false, uploadReady: false, reason: 'malformed receipt: unknown field "__proto__"' });
    expect((await verify({ ...passReceipt, extra: 1 })).json.reason).toBe('malformed receipt: unknown field "extra"');
  });

  it('never calls valid a PASS receipt with blocked gates, even signed with this issuer\'s secret', async () => {
    const { verify: _v, summary: _s, ...fields } = passReceipt;
    const blocked = { ...fields, blocked: ['loudness'] };
    const res = await verify({ ...blocked, signature: signReceipt(blocked as unknown as Receipt, SIGNING_KEY) });
    expect(res.json).toMatchObject({ valid: false, uploadReady: false });
    expect(res.json.reason).toMatch(/a PASS receipt cannot list blocked gates \(loudness\)/);
  });

  it('reports coverage for a receipt signed before the rule: authentic, not publishable', async () => {
    const fields = { schema: 'preflight-receipt/1', verdict: 'PASS', sha256: passReceipt.sha256, profile: 'video_site_longform', gates: ['loudness'], blocked: [], jobId: 'job_before', issuedAt: '2026-01-01T00:00:00.000Z', issuer: 'preflight' } as const;
    const old = { ...fields, signature: signReceipt(fields as unknown as Receipt, SIGNING_KEY) };
    const res = await verify({ receipt: old, sha256: passReceipt.sha256 });
    expect(res.json).toMatchObject({ valid: true, authentic: true, hashMatches: true, uploadReady: false, signatures: { hmac: 'valid', ed25519: 'absent' }, coverage: { complete: false, judgedFrom: 'gates' } });
    expect(res.json.coverage.reason).toMatch(/run the full profile to get a receipt/);
  });

  it('rejects a receipt of another issuer and an unknown schema', async () => {
    const other = join(work, 'other.json');
    expect((await cli(['check', await fx.cleanPodcast(), '--receipt', other], { PREFLIGHT_HOME: join(work, 'other-home') })).code).toBe(0);
    const foreign = await verify(JSON.parse(readFileSync(other, 'utf8')));
    expect(foreign.json).toMatchObject({ valid: false, checked: true, authentic: false, uploadReady: false });
    const unknown = await verify({ ...passReceipt, schema: 'preflight-receipt/2' });
    expect(unknown.json).toMatchObject({ valid: false, schemaKnown: false, reason: 'unknown receipt schema "preflight-receipt/2"; this verifier accepts preflight-receipt/1' });
  });
});
