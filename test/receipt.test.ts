import { execFileSync } from 'node:child_process';
import { createHash, createHmac, createPublicKey, generateKeyPairSync, verify as cryptoVerify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../engine/canonical-json.js';
import { EngineError } from '../engine/errors.js';
import {
  buildReceipt,
  receiptJsonSchema,
  receiptJsonSchemaText,
  receiptVerifyInstructions,
  ReceiptSchema,
  sha256File,
  signedPayload,
  signReceipt,
  writeReceiptSchema,
  type BuildReceiptInput,
  type Receipt,
} from '../engine/receipt.js';
import { keyDocument, parseKeyDocument, publicJwkOf } from '../engine/receipt-ed25519.js';
import { verifyReceipt } from '../engine/receipt-verify.js';
import { loadSigningKey } from '../src/signing-key.js';

const KEY = 'test-signing-key-not-secret';
const FILE_SHA = createHash('sha256').update('the checked file').digest('hex');
const ISSUED_AT = '2026-01-02T03:04:05.000Z';

// Every gate podcast_delivery requires of audio (docs/receipts.md), given out of order.
const PODCAST_GATES = ['loudness', 'format_spec', 'clipping', 'dead_air', 'channel_balance'];
const blockInput: BuildReceiptInput = {
  jobId: 'job_123',
  verdict: 'BLOCK',
  sha256: FILE_SHA,
  profile: 'podcast_delivery',
  gates: PODCAST_GATES,
  blockedGates: ['loudness', 'clipping'],
  issuedAt: ISSUED_AT,
};
const passInput: BuildReceiptInput = { ...blockInput, verdict: 'PASS', blockedGates: [] };

const temporaryDirs: string[] = [];
function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-receipt-'));
  temporaryDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order and writes no whitespace', () => {
    const value = { b: 1, a: { d: [3, { z: true, y: null }], c: 'x' }, list: ['b', 'a'] };
    expect(canonicalJson(value)).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1,"list":["b","a"]}');
  });

  it('drops undefined properties and writes null for undefined array items, like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: 2, f: () => 1 })).toBe('{"b":2}');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
  });

  it('sorts integer-like keys as strings and by UTF-16 code unit', () => {
    expect(canonicalJson({ 2: 'two', 10: 'ten', b: 0 })).toBe('{"10":"ten","2":"two","b":0}');
    // U+1F600 is stored as the surrogate pair D83D DE00, which sorts before U+FF61 by code unit.
    expect(canonicalJson({ '\uFF61': 1, '\u{1F600}': 2, Z: 3, a: 4 })).toBe('{"Z":3,"a":4,"\u{1F600}":2,"\uFF61":1}');
  });

  it('writes numbers and strings as JSON.stringify does', () => {
    expect(canonicalJson([0.1, 1e21, -0, 5e-7, Number.NaN, 'é"\n'])).toBe(JSON.stringify([0.1, 1e21, -0, 5e-7, Number.NaN, 'é"\n']));
    expect(canonicalJson({ at: new Date(ISSUED_AT) })).toBe(`{"at":"${ISSUED_AT}"}`);
  });

  it('throws on circular structures', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(TypeError);
  });
});

describe('buildReceipt', () => {
  it('builds a BLOCK receipt listing the blocked gates, sorted', () => {
    const receipt = buildReceipt(blockInput, KEY);
    expect(receipt).toMatchObject({
      schema: 'preflight-receipt/1',
      verdict: 'BLOCK',
      sha256: FILE_SHA,
      profile: 'podcast_delivery',
      gates: ['channel_balance', 'clipping', 'dead_air', 'format_spec', 'loudness'],
      blocked: ['clipping', 'loudness'],
      jobId: 'job_123',
      issuedAt: ISSUED_AT,
      issuer: 'preflight',
    });
    expect(receipt.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(receipt.summary).toContain('BLOCK');
    expect(receipt.summary).toContain('clipping, loudness');
    expect(ReceiptSchema.parse(receipt)).toEqual(receipt);
  });

  it('turns WATCH into PASS with no blocked gates', () => {
    const receipt = buildReceipt({ ...passInput, verdict: 'WATCH' }, KEY);
    expect(receipt.verdict).toBe('PASS');
    expect(receipt.blocked).toEqual([]);
    expect(receipt.summary?.startsWith('PASS')).toBe(true);
    expect(verifyReceipt(receipt, KEY)).toMatchObject({ valid: true, verdict: 'PASS', uploadReady: true });
  });

  it('says how to verify: steps, public verifier, CLI and the key document', () => {
    const verify = buildReceipt(passInput, KEY).verify as Record<string, unknown>;
    expect(Array.isArray(verify.steps)).toBe(true);
    expect(JSON.stringify(verify.steps)).toContain('/.well-known/preflight-receipt-keys.json');
    expect(verify.publicVerifier).toBe('POST /v1/public/receipts/verify');
    expect(verify.cli).toBe('preflight verify <receipt.json> --file <media> [--public-key keys.json]');
    expect(verify.ed25519).toBeUndefined();
  });

  it('takes the issuer, a Date for issuedAt, and defaults issuedAt to now', () => {
    const dated = buildReceipt({ ...passInput, issuer: 'acme-qc', issuedAt: new Date(ISSUED_AT) }, KEY);
    expect(dated).toMatchObject({ issuer: 'acme-qc', issuedAt: ISSUED_AT });
    const now = buildReceipt({ ...passInput, issuedAt: undefined }, KEY);
    expect(Math.abs(Date.parse(now.issuedAt) - Date.now())).toBeLessThan(5000);
  });

  it('refuses inconsistent or malformed input', () => {
    expect(() => buildReceipt({ ...passInput, blockedGates: ['loudness'] }, KEY)).toThrow(EngineError);
    expect(() => buildReceipt({ ...blockInput, blockedGates: [] }, KEY)).toThrow(EngineError);
    expect(() => buildReceipt({ ...blockInput, blockedGates: ['not_checked'] }, KEY)).toThrow(/not among the checked gates/);
    expect(() => buildReceipt({ ...passInput, sha256: 'abc' }, KEY)).toThrow(/sha256/);
    expect(() => buildReceipt(passInput, '')).toThrow(EngineError);
  });

  it('refuses a receipt for a check that did not run the whole profile, PASS or BLOCK', () => {
    for (const gates of [['loudness'], [], PODCAST_GATES.slice(1), ['format_spec']]) {
      for (const input of [passInput, { ...blockInput, blockedGates: gates.slice(0, 1) }]) {
        if (input.verdict === 'BLOCK' && gates.length === 0) continue;
        expect(() => buildReceipt({ ...input, gates }, KEY), JSON.stringify(gates)).toThrow(/run the full profile to get a receipt/);
      }
    }
    expect(() => buildReceipt({ ...passInput, profile: 'not_a_profile' }, KEY)).toThrow(/not a delivery profile/);
    // With the media known the requirement is exact: the podcast gates do not cover a video with sound.
    expect(() => buildReceipt({ ...passInput, profile: 'video_site_longform', media: 'video' }, KEY)).toThrow(/missing: black_frames/);
    expect(buildReceipt({ ...passInput, media: 'audio' }, KEY).verdict).toBe('PASS');
  });
});

describe('signing', () => {
  it('signs exactly the documented fields, in canonical order', () => {
    const receipt = buildReceipt(blockInput, KEY);
    const payload = signedPayload(receipt);
    expect(Object.keys(JSON.parse(payload))).toEqual(['blocked', 'gates', 'issuedAt', 'issuer', 'jobId', 'profile', 'schema', 'sha256', 'verdict']);
  });

  it('matches an independent implementation (hand-built canonical text + createHmac)', () => {
    const receipt = buildReceipt(blockInput, KEY);
    const canonical =
      '{"blocked":["clipping","loudness"],"gates":["channel_balance","clipping","dead_air","format_spec","loudness"],' +
      `"issuedAt":"${ISSUED_AT}","issuer":"preflight","jobId":"job_123","profile":"podcast_delivery",` +
      `"schema":"preflight-receipt/1","sha256":"${FILE_SHA}","verdict":"BLOCK"}`;
    expect(signedPayload(receipt)).toBe(canonical);
    const expected = `sha256=${createHmac('sha256', Buffer.from(KEY, 'utf8')).update(canonical).digest('hex')}`;
    expect(receipt.signature).toBe(expected);
    expect(signReceipt(receipt, KEY)).toBe(expected);
  });

  it('uses a string key as its UTF-8 bytes and a Buffer as is', () => {
    const receipt = buildReceipt(passInput, KEY);
    expect(signReceipt(receipt, Buffer.from(KEY, 'utf8'))).toBe(receipt.signature);
    expect(signReceipt(receipt, 'clé')).toBe(signReceipt(receipt, Buffer.from([0x63, 0x6c, 0xc3, 0xa9])));
  });

  it('ignores signature, summary and verify when signing', () => {
    const receipt = buildReceipt(passInput, KEY);
    const altered = { ...receipt, signature: `sha256=${'0'.repeat(64)}`, summary: 'anything', verify: 'anything' };
    expect(signReceipt(altered, KEY)).toBe(receipt.signature);
  });
});

describe('verifyReceipt', () => {
  it('accepts an untouched receipt (round trip, also through JSON text)', () => {
    const receipt = buildReceipt(blockInput, KEY);
    const result = verifyReceipt(JSON.parse(JSON.stringify(receipt)), KEY);
    expect(result).toMatchObject({ valid: true, checked: true, authentic: true, schemaKnown: true, hashMatches: null, reason: null, verdict: 'BLOCK', uploadReady: false });
    expect(result.signatures).toEqual({ hmac: 'valid', ed25519: 'absent' });
    expect(result.signed).toEqual({
      schema: 'preflight-receipt/1',
      verdict: 'BLOCK',
      sha256: FILE_SHA,
      profile: 'podcast_delivery',
      gates: ['channel_balance', 'clipping', 'dead_air', 'format_spec', 'loudness'],
      blocked: ['clipping', 'loudness'],
      jobId: 'job_123',
      issuedAt: ISSUED_AT,
      issuer: 'preflight',
    });
  });

  const alterations: [string, (r: Receipt) => Receipt][] = [
    ['verdict', (r) => ({ ...r, verdict: 'PASS', blocked: [] })],
    ['sha256', (r) => ({ ...r, sha256: 'f'.repeat(64) })],
    ['profile', (r) => ({ ...r, profile: 'broadcast_r128' })],
    ['gates', (r) => ({ ...r, gates: [...r.gates, 'zz_extra'] })],
    ['blocked', (r) => ({ ...r, blocked: ['loudness'] })],
    ['jobId', (r) => ({ ...r, jobId: 'job_124' })],
    ['issuedAt', (r) => ({ ...r, issuedAt: '2026-01-02T03:04:06.000Z' })],
    ['issuer', (r) => ({ ...r, issuer: 'someone-else' })],
  ];
  it.each(alterations)('rejects a receipt whose %s was changed', (_field, alter) => {
    const result = verifyReceipt(alter(buildReceipt(blockInput, KEY)), KEY);
    expect(result).toMatchObject({ valid: false, authentic: false, schemaKnown: true, uploadReady: false });
    expect(result.verdict).toBeUndefined();
    expect(result.reason).toMatch(/signature does not match/);
  });

  it('rejects a signature with any one hex digit changed', () => {
    const receipt = buildReceipt(blockInput, KEY);
    const hex = receipt.signature.slice('sha256='.length);
    for (let i = 0; i < hex.length; i += 1) {
      const digit = hex[i] === '0' ? '1' : '0';
      const signature = `sha256=${hex.slice(0, i)}${digit}${hex.slice(i + 1)}`;
      expect(verifyReceipt({ ...receipt, signature }, KEY).authentic).toBe(false);
    }
  });

  it('rejects malformed signatures without throwing', () => {
    const receipt = buildReceipt(blockInput, KEY);
    for (const signature of [receipt.signature.slice(0, -1), `${receipt.signature}0`, receipt.signature.toUpperCase(), receipt.signature.slice(7), '', 42]) {
      const result = verifyReceipt({ ...receipt, signature }, KEY);
      expect(result).toMatchObject({ valid: false, authentic: false, schemaKnown: true });
      expect(result.reason).toMatch(/malformed receipt: signature/);
    }
  });

  it('is not affected by summary or verify (unsigned)', () => {
    const receipt = buildReceipt(blockInput, KEY);
    expect(verifyReceipt({ ...receipt, summary: 'PASS: all good, publish it', verify: { steps: [] } }, KEY).valid).toBe(true);
    const { summary: _summary, verify: _verify, ...bare } = receipt;
    expect(verifyReceipt(bare, KEY).valid).toBe(true);
    expect(verifyReceipt({ ...receipt, summary: 'PASS' }, KEY).verdict).toBe('BLOCK');
  });

  it('fails with the wrong key, and says it could not check without one', () => {
    const receipt = buildReceipt(passInput, KEY);
    expect(verifyReceipt(receipt, `${KEY}x`)).toMatchObject({ valid: false, checked: true, authentic: false, uploadReady: false });
    const unchecked = verifyReceipt(receipt, '');
    expect(unchecked).toMatchObject({ valid: false, checked: false, authentic: false, uploadReady: false });
    expect(unchecked.reason).toMatch(/no key to check it with: it has no Ed25519 signature/);
  });

  it.each(['preflight-receipt/2', 'other-receipt/1', 'PREFLIGHT-RECEIPT/1', ''])('rejects the unknown schema %j', (schema) => {
    const receipt = { ...buildReceipt(passInput, KEY), schema };
    const result = verifyReceipt({ ...receipt, signature: signReceipt(receipt as unknown as Receipt, KEY) }, KEY);
    expect(result).toMatchObject({ valid: false, authentic: false, schemaKnown: false, uploadReady: false });
    expect(result.reason).toBe(`unknown receipt schema "${schema}"; this verifier accepts preflight-receipt/1`);
  });

  it('rejects a missing schema and malformed shapes', () => {
    const { schema: _schema, ...noSchema } = buildReceipt(passInput, KEY);
    expect(verifyReceipt(noSchema, KEY)).toMatchObject({ valid: false, schemaKnown: false });
    expect(verifyReceipt(noSchema, KEY).reason).toMatch(/no string "schema" field/);
    const receipt = buildReceipt(passInput, KEY);
    expect(verifyReceipt({ ...receipt, verdict: 'WATCH' }, KEY).reason).toMatch(/^malformed receipt: verdict/);
    expect(verifyReceipt({ ...receipt, gates: 'loudness' }, KEY).reason).toMatch(/^malformed receipt: gates/);
    expect(verifyReceipt({ ...receipt, issuedAt: 'yesterday' }, KEY).reason).toMatch(/^malformed receipt: issuedAt/);
    expect(verifyReceipt({ ...receipt, extra: true }, KEY).reason).toBe('malformed receipt: unknown field "extra"');
  });

  it('refuses an own __proto__ key, as JSON.parse makes it, even with a matching signature', () => {
    const receipt = buildReceipt(passInput, KEY);
    const text = JSON.stringify(receipt).replace(/^\{/, '{"__proto__":{"verdict":"PASS"},');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed)).toContain('__proto__');
    const result = verifyReceipt(parsed, KEY);
    expect(result).toMatchObject({ valid: false, authentic: false, schemaKnown: true, uploadReady: false });
    expect(result.reason).toBe('malformed receipt: unknown field "__proto__"');
  });

  it('refuses a PASS receipt with blocked gates, or a BLOCK receipt without, even when signed', () => {
    const pass = buildReceipt(passInput, KEY);
    const passBlocked = { ...pass, blocked: ['loudness'] };
    const signedPassBlocked = { ...passBlocked, signature: signReceipt(passBlocked, KEY) };
    const result = verifyReceipt(signedPassBlocked, KEY);
    expect(result).toMatchObject({ valid: false, authentic: false, uploadReady: false });
    expect(result.reason).toMatch(/^malformed receipt: blocked: a PASS receipt cannot list blocked gates \(loudness\)/);
    const block = buildReceipt(blockInput, KEY);
    const blockEmpty = { ...block, blocked: [] };
    expect(verifyReceipt({ ...blockEmpty, signature: signReceipt(blockEmpty, KEY) }, KEY).reason).toMatch(/a BLOCK receipt must name at least one blocked gate/);
  });

  it('never throws on hostile input', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    for (const input of [null, undefined, 'receipt', 42, [], {}, hostile]) {
      const result = verifyReceipt(input, KEY);
      expect(result.valid).toBe(false);
      expect(typeof result.reason).toBe('string');
    }
    const receipt = buildReceipt(passInput, KEY);
    expect(verifyReceipt(receipt, undefined as unknown as string).valid).toBe(false);
    expect(verifyReceipt(receipt, KEY, null as unknown as undefined).valid).toBe(true);
  });

  it('reports whether the file hash matches', () => {
    const receipt = buildReceipt(passInput, KEY);
    expect(verifyReceipt(receipt, KEY, { fileSha256: FILE_SHA })).toMatchObject({ valid: true, hashMatches: true, uploadReady: true });
    expect(verifyReceipt(receipt, KEY, { fileSha256: ` ${FILE_SHA.toUpperCase()}\n` }).hashMatches).toBe(true);
    const other = verifyReceipt(receipt, KEY, { fileSha256: 'a'.repeat(64) });
    expect(other).toMatchObject({ valid: false, authentic: true, hashMatches: false, uploadReady: false });
    expect(other.reason).toMatch(/not the hash of this file/);
  });

  it.each([42, null, true, ['a'.repeat(64)], { sha256: FILE_SHA }, 'abc', 'g'.repeat(64), ''])('refuses the file hash %j given beside the receipt, never ignores it', (fileSha256) => {
    const result = verifyReceipt(buildReceipt(passInput, KEY), KEY, { fileSha256 });
    expect(result).toMatchObject({ valid: false, uploadReady: false, hashMatches: null });
    expect(result.reason).toMatch(/file hash given beside the receipt is not a SHA-256/);
  });

  it('reports coverage and refuses to call an incomplete PASS receipt upload-ready, whenever it was signed', () => {
    // Built by hand, as a receipt from before the coverage rule: signed, PASS, one gate.
    const partial = { schema: 'preflight-receipt/1', verdict: 'PASS', sha256: FILE_SHA, profile: 'video_site_longform', gates: ['loudness'], blocked: [], jobId: 'local_old', issuedAt: ISSUED_AT, issuer: 'preflight' } as const;
    const old = { ...partial, signature: signReceipt(partial as unknown as Receipt, KEY), summary: 'PASS on video_site_longform: upload-ready' };
    const result = verifyReceipt(old, KEY, { fileSha256: FILE_SHA });
    expect(result).toMatchObject({ valid: true, authentic: true, verdict: 'PASS', hashMatches: true, uploadReady: false });
    expect(result.coverage).toMatchObject({ profile: 'video_site_longform', complete: false, judgedFrom: 'gates' });
    expect(result.coverage?.missing).toEqual(expect.arrayContaining(['format_spec', 'clipping']));
    expect(result.coverage?.reason).toMatch(/run the full profile to get a receipt/);
    const empty = { ...partial, gates: [] };
    expect(verifyReceipt({ ...empty, signature: signReceipt(empty as unknown as Receipt, KEY) }, KEY)).toMatchObject({ valid: true, uploadReady: false });

    const complete = verifyReceipt(buildReceipt(passInput, KEY), KEY);
    // Audio and video with sound need the same five gates of podcast_delivery: the receipt alone cannot tell them apart.
    expect(complete.coverage).toMatchObject({ complete: true, media: null, judgedFrom: 'gates', missing: [] });
    expect(verifyReceipt(buildReceipt(passInput, KEY), KEY, { mediaShape: 'audio' }).coverage).toMatchObject({ complete: true, media: 'audio', judgedFrom: 'file' });
    // The file's media fixes the requirement: podcast_delivery is not met by a video without sound.
    const silent = verifyReceipt(buildReceipt(passInput, KEY), KEY, { mediaShape: 'silent_video' });
    expect(silent).toMatchObject({ valid: true, uploadReady: false, coverage: { complete: false, judgedFrom: 'file', media: 'silent_video' } });
    expect(silent.coverage?.reason).toMatch(/podcast_delivery is for media with sound/);
  });
});

describe('Ed25519 signatures', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicJwkOf(privateKey);
  const signer = { kid: jwk.kid, privateKey };
  const other = generateKeyPairSync('ed25519').privateKey;
  const otherJwk = publicJwkOf(other);
  const keys = { publicKeys: [jwk] };
  const signed = () => buildReceipt(passInput, { hmac: KEY, ed25519: signer });

  it('signs the text the HMAC signs, names its key by RFC 7638 thumbprint, and leaves the HMAC as it was', () => {
    const receipt = signed();
    const proof = (receipt.verify as { ed25519: { kid: string; signature: string } }).ed25519;
    expect(proof.kid).toBe(jwk.kid);
    expect(proof.signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    expect(cryptoVerify(null, Buffer.from(signedPayload(receipt)), publicKey, Buffer.from(proof.signature, 'base64url'))).toBe(true);
    // RFC 7638 computed here from its words: SHA-256 over the required members in lexicographic order.
    expect(jwk.kid).toBe(createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: jwk.x })).digest('base64url'));
    expect(receipt.signature).toBe(buildReceipt(passInput, KEY).signature);
  });

  it('verifies with the public key alone', () => {
    const result = verifyReceipt(JSON.parse(JSON.stringify(signed())), keys);
    expect(result).toMatchObject({ valid: true, checked: true, authentic: true, uploadReady: true, keyId: jwk.kid, signatures: { hmac: 'not_checked', ed25519: 'valid' } });
    expect(verifyReceipt(signed(), { hmac: KEY, publicKeys: [otherJwk, jwk] }).signatures).toEqual({ hmac: 'valid', ed25519: 'valid' });
  });

  const oneByte = (value: string): string => {
    const i = value.length - 1;
    const replacement = /[0-9a-e]/.test(value[i]) ? String.fromCharCode(value.charCodeAt(i) + 1) : value[i] === 'f' ? 'e' : value[i] === 'Z' ? 'Y' : 'a';
    return value.slice(0, i) + replacement;
  };
  it.each(['blocked', 'gates', 'issuedAt', 'issuer', 'jobId', 'profile', 'schema', 'sha256', 'verdict'])('fails when one byte of %s changes', (field) => {
    const receipt = buildReceipt(blockInput, { hmac: KEY, ed25519: signer }) as unknown as Record<string, unknown>;
    const value = receipt[field];
    const changed = Array.isArray(value) ? [oneByte(value[0] as string), ...value.slice(1)] : oneByte(value as string);
    const result = verifyReceipt({ ...receipt, [field]: changed }, keys);
    expect(result).toMatchObject({ valid: false, authentic: false, uploadReady: false });
    expect(result.verdict).toBeUndefined();
  });

  it('fails when one character of the Ed25519 signature changes, including a non-canonical base64url spelling', () => {
    const receipt = signed();
    const proof = (receipt.verify as { ed25519: { kid: string; signature: string } }).ed25519;
    for (let i = 0; i < proof.signature.length; i += 5) {
      const c = proof.signature[i] === 'A' ? 'B' : 'A';
      const signature = proof.signature.slice(0, i) + c + proof.signature.slice(i + 1);
      expect(verifyReceipt({ ...receipt, verify: { ...(receipt.verify as object), ed25519: { ...proof, signature } } }, keys).authentic).toBe(false);
    }
    // The last character carries 4 unused bits: another letter decoding to the same bytes is still refused.
    const last = proof.signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = [...alphabet].find((c) => c !== last && alphabet.indexOf(c) >> 4 === alphabet.indexOf(last) >> 4)!;
    const spelled = proof.signature.slice(0, -1) + twin;
    expect(Buffer.from(spelled, 'base64url').equals(Buffer.from(proof.signature, 'base64url'))).toBe(true);
    expect(verifyReceipt({ ...receipt, verify: { ed25519: { ...proof, signature: spelled } } }, keys).authentic).toBe(false);
  });

  it('fails for a receipt signed by another key, whatever kid it claims', () => {
    const forged = buildReceipt(passInput, { hmac: 'attacker-secret', ed25519: { kid: otherJwk.kid, privateKey: other } });
    const result = verifyReceipt(forged, keys);
    expect(result).toMatchObject({ valid: false, checked: true, authentic: false, uploadReady: false, signatures: { ed25519: 'unknown_key' } });
    expect(result.reason).toMatch(/not among the 1 public key/);
    const lying = buildReceipt(passInput, { hmac: 'attacker-secret', ed25519: { kid: jwk.kid, privateKey: other } });
    expect(verifyReceipt(lying, keys)).toMatchObject({ valid: false, authentic: false, signatures: { ed25519: 'invalid' } });
  });

  it('fails for an unknown schema before looking at any signature', () => {
    const receipt = { ...signed(), schema: 'preflight-receipt/2' };
    expect(verifyReceipt(receipt, keys)).toMatchObject({ valid: false, schemaKnown: false, signatures: { ed25519: 'not_checked' } });
  });

  it('says which key it needs when it has none, instead of calling the receipt invalid', () => {
    const result = verifyReceipt(signed(), {});
    expect(result).toMatchObject({ valid: false, checked: false, authentic: false, keyId: jwk.kid });
    expect(result.reason).toBe(`no key to check it with: it needs the issuer's public key ${jwk.kid} (the issuer's key document, printed by preflight receipt-keys)`);
  });

  it('reads key documents: other key types are ignored, a kid that is not the thumbprint is refused', () => {
    const document = keyDocument([jwk]);
    expect(parseKeyDocument(JSON.parse(JSON.stringify({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }, ...document.keys] }))).keys).toEqual([jwk]);
    expect(() => parseKeyDocument({ keys: [{ ...jwk, kid: otherJwk.kid }] })).toThrow(/no Ed25519 key/);
    expect(() => parseKeyDocument({ keys: 'none' })).toThrow(/not a JWKS/);
    expect(() => parseKeyDocument([jwk])).toThrow(/not a JWKS/);
  });
});

describe('the SPEC HMAC recipe, recomputed here from its words', () => {
  // "Canonicalise: JSON with object keys sorted ascending, recursively, no insignificant whitespace." Written anew
  // here, with no code of the project's, so that a change there cannot hide a change in what is signed.
  function canonicalFromSpec(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonicalFromSpec).join(',')}]`;
    if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalFromSpec((value as Record<string, unknown>)[k])}`).join(',')}}`;
    }
    return JSON.stringify(value);
  }
  function specSignature(receipt: Record<string, unknown>, key: string): string {
    // "Take the receipt object and remove signature, summary and verify."
    const { signature: _s, summary: _m, verify: _v, ...rest } = receipt;
    return `sha256=${createHmac('sha256', key).update(canonicalFromSpec(rest)).digest('hex')}`;
  }

  it('still matches for receipts carrying the Ed25519 signature, PASS and BLOCK', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const ed25519 = { kid: publicJwkOf(privateKey).kid, privateKey };
    for (const input of [passInput, blockInput]) {
      const receipt = buildReceipt(input, { hmac: KEY, ed25519 }) as unknown as Record<string, unknown>;
      expect((receipt.verify as Record<string, unknown>).ed25519).toBeDefined();
      expect(specSignature(receipt, KEY)).toBe(receipt.signature);
      // "Signed fields, in canonical order": exactly the nine.
      const { signature: _s, summary: _m, verify: _v, ...rest } = receipt;
      expect(Object.keys(rest).sort()).toEqual(['blocked', 'gates', 'issuedAt', 'issuer', 'jobId', 'profile', 'schema', 'sha256', 'verdict']);
    }
  });
});

describe('sha256File', () => {
  it('reads the file in pieces and matches createHash over its bytes', async () => {
    const dir = temporaryDir();
    const small = join(dir, 'small.txt');
    writeFileSync(small, 'hello');
    expect(await sha256File(small)).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    const empty = join(dir, 'empty.bin');
    writeFileSync(empty, '');
    expect(await sha256File(empty)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // Bytes that differ along the file, over several reads and a last partial one: a piece hashed twice, left out or
    // hashed with the previous read's tail would change the digest.
    const large = join(dir, 'large.bin');
    const bytes = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, i) => (i * 31 + (i >> 20)) % 251));
    writeFileSync(large, bytes);
    expect(await sha256File(large)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('rejects for a missing file', async () => {
    await expect(sha256File(join(temporaryDir(), 'missing'))).rejects.toThrow(/ENOENT/);
  });
});

describe('loadSigningKey', () => {
  it('creates a 0600 key file in a 0700 PREFLIGHT_HOME on first use and reuses it', () => {
    const home = join(temporaryDir(), 'nested', '.preflight');
    const first = loadSigningKey({ env: { PREFLIGHT_HOME: home } });
    const path = join(home, 'signing-key');
    expect(first.source).toBe('file');
    expect(first.path).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64}$/);
    expect(first.key.equals(Buffer.from(text, 'utf8'))).toBe(true);
    const second = loadSigningKey({ env: { PREFLIGHT_HOME: home } });
    expect(second.key.equals(first.key)).toBe(true);
  });

  it('lets PREFLIGHT_SIGNING_KEY override the key file', () => {
    const home = temporaryDir();
    const fileKey = loadSigningKey({ env: { PREFLIGHT_HOME: home } }).key;
    const fromEnv = loadSigningKey({ env: { PREFLIGHT_HOME: home, PREFLIGHT_SIGNING_KEY: 'from-env' } });
    expect(fromEnv.source).toBe('env');
    expect(fromEnv.key.equals(Buffer.from('from-env', 'utf8'))).toBe(true);
    expect(fromEnv.key.equals(fileKey)).toBe(false);
    const untouched = join(temporaryDir(), 'unused');
    loadSigningKey({ env: { PREFLIGHT_SIGNING_KEY: 'from-env' }, home: untouched });
    expect(existsSync(untouched)).toBe(false);
  });

  it('ignores an empty PREFLIGHT_SIGNING_KEY and prefers the home option over PREFLIGHT_HOME', () => {
    const envHome = temporaryDir();
    const optionHome = temporaryDir();
    const loaded = loadSigningKey({ env: { PREFLIGHT_HOME: envHome, PREFLIGHT_SIGNING_KEY: '' }, home: optionHome });
    expect(loaded).toMatchObject({ source: 'file', path: join(optionHome, 'signing-key') });
    expect(existsSync(join(envHome, 'signing-key'))).toBe(false);
  });

  it('never shows the key when the result is serialised', () => {
    const loaded = loadSigningKey({ env: { PREFLIGHT_SIGNING_KEY: 'very-secret-value' } });
    expect(JSON.stringify(loaded)).not.toContain('very-secret');
    expect(JSON.stringify(loaded)).not.toContain('key"');
  });

  it('refuses an empty key file', () => {
    const home = temporaryDir();
    writeFileSync(join(home, 'signing-key'), '\n', { mode: 0o600 });
    expect(() => loadSigningKey({ env: { PREFLIGHT_HOME: home } })).toThrow(/empty/);
  });

  it('signs receipts that verify with the same loaded key', () => {
    const { key } = loadSigningKey({ env: { PREFLIGHT_HOME: temporaryDir() } });
    expect(verifyReceipt(buildReceipt(passInput, key), key).valid).toBe(true);
  });
});

describe('receipt JSON Schema', () => {
  const committedPath = resolve(import.meta.dirname, '../docs/receipt.schema.json');

  it('describes preflight-receipt/1 as draft 2020-12 with its $id', () => {
    const schema = receiptJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('https://preflight.dev/schemas/preflight-receipt-1.json');
    expect(schema.title).toMatch(/preflight-receipt\/1/);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['schema', 'verdict', 'sha256', 'profile', 'gates', 'blocked', 'jobId', 'issuedAt', 'issuer', 'signature']);
  });

  it('matches the committed docs/receipt.schema.json', () => {
    if (process.env.UPDATE_DOCS === '1') writeReceiptSchema(committedPath);
    const committed = existsSync(committedPath) ? readFileSync(committedPath, 'utf8') : '';
    expect(committed, 'docs/receipt.schema.json is stale: regenerate it with UPDATE_DOCS=1 npx vitest run test/receipt.test.ts').toBe(
      receiptJsonSchemaText(),
    );
  });
});

describe('docs/receipts.md', () => {
  const docs = readFileSync(resolve(import.meta.dirname, '../docs/receipts.md'), 'utf8');
  const fenced = (language: string) => {
    const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(docs);
    if (!match) throw new Error(`no ${language} block in docs/receipts.md`);
    return match[1];
  };

  it('shows an example receipt that verifies with the example key document alone, and with the example HMAC key', () => {
    const example = JSON.parse(fenced('json')) as Receipt;
    const keys = parseKeyDocument(JSON.parse(fenced('jwks'))).keys;
    expect(verifyReceipt(example, { publicKeys: keys })).toMatchObject({ valid: true, verdict: 'BLOCK', signatures: { ed25519: 'valid', hmac: 'not_checked' }, coverage: { complete: true } });
    expect(verifyReceipt(example, 'example-key-do-not-use')).toMatchObject({ valid: true, signatures: { hmac: 'valid' } });
    expect(example.verify).toMatchObject(receiptVerifyInstructions());
    expect(docs).toContain(signedPayload(example));
  });

  it('has a node:crypto-only verifier that runs and agrees', () => {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', fenced('js')], { encoding: 'utf8' });
    expect(output.trim()).toBe('authentic: blocked by loudness');
  });
});
