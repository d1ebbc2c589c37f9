// Remote ingress against real HTTPS servers on 127.0.0.1 only (self-signed certificate made with openssl at test
// time). Names that must resolve to something other than themselves go through a fake dns.lookup; nothing here ever
// connects to an address other than loopback.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../src/errors.js';
import { assertFetchableUrl, fetchText, fetchToTempFile, policyFromEnv, postJson, type RemotePolicy } from '../src/ingress/remote.js';

const fakeDns = vi.hoisted(() => ({
  answers: new Map<string, Array<{ address: string; family: number }>>(),
  neverAnswers: new Set<string>(),
  calls: [] as string[],
}));

vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async (host: string, options: import('node:dns').LookupAllOptions) => {
    fakeDns.calls.push(host);
    if (fakeDns.neverAnswers.has(host)) return new Promise(() => {});
    return fakeDns.answers.get(host) ?? actual.lookup(host, options);
  };
  return { ...actual, lookup, default: { ...actual, lookup } };
});

const KiB = 1024;
const PAYLOAD = Buffer.from(Array.from({ length: 200 * KiB }, (_, i) => (i * 31) % 251));
const SECRET = 'X-Amz-Signature=deadbeefsecret';

interface Seen {
  method: string;
  path: string;
  host: string | undefined;
  servername: string | false | null | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let privateTmp: string;
const sharedTmpdir = process.env.TMPDIR;
let ca: Buffer;
let server: https.Server;
let plainServer: http.Server;
let port: number;
let plainPort: number;
let seen: Seen[] = [];
let streamedBytes = 0;
let connectionAttempts = 0;
const countConnection = () => connectionAttempts++;

function route(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const path = new URL(req.url ?? '/', 'https://x').pathname;
  switch (path) {
    case '/ok':
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': PAYLOAD.length }).end(PAYLOAD);
      return;
    case '/text':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('\uFEFFhéllo transcript\n');
      return;
    case '/latin1':
      res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.from([0x68, 0xe9, 0xff]));
      return;
    case '/redirect-ok':
      res.writeHead(302, { location: '/ok' }).end();
      return;
    case '/loop':
      res.writeHead(302, { location: '/loop?again=1' }).end();
      return;
    case '/to-loopback-ip':
      res.writeHead(302, { location: `https://127.0.0.1:${port}/ok` }).end();
      return;
    case '/to-http':
      res.writeHead(301, { location: `http://localhost:${plainPort}/ok` }).end();
      return;
    case '/big-declared':
      res.writeHead(200, { 'content-length': 50 * 1024 * KiB }).flushHeaders(); // declares 50 MiB, sends no body
      return;
    case '/big-streamed':
      // Far more than loopback socket buffers hold, so "stopped early" cannot pass by the whole body fitting in them.
      streamWithoutLength(res, BIG_STREAM_BYTES);
      return;
    case '/stall':
      res.writeHead(200, { 'content-length': 1000 }).write('partial');
      return;
    case '/hook':
      res.writeHead(202, { 'content-type': 'text/plain' }).end(`accepted ${body.length}`);
      return;
    case '/hook-redirect':
      res.writeHead(307, { location: '/hook' }).end();
      return;
    default:
      res.writeHead(404).end('not here');
  }
}

/** Chunked (no Content-Length), honouring back-pressure, until `total` bytes or the client goes away. */
const BIG_STREAM_BYTES = 256 * 1024 * KiB;

function streamWithoutLength(res: http.ServerResponse, total: number): void {
  const chunk = Buffer.alloc(16 * KiB, 7);
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const pump = (): void => {
    while (streamedBytes < total && !res.destroyed) {
      streamedBytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

function recordAndRoute(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const servername = (req.socket as TLSSocket).servername;
    seen.push({ method: req.method ?? '', path: req.url ?? '', host: req.headers.host, servername, headers: req.headers, body });
    route(req, res, body);
  });
}

function makeCertificate(dir: string): { key: Buffer; cert: Buffer } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,DNS:pinned.test,IP:127.0.0.1', '-days', '1',
  ], { stdio: 'ignore' });
  return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
}

function listen(s: http.Server | https.Server): Promise<number> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
}

beforeAll(async () => {
  privateTmp = mkdtempSync(join(tmpdir(), 'remote-ingress-test-'));
  process.env.TMPDIR = privateTmp; // os.tmpdir() reads it on every call: our temp files land where only this file looks
  const certDir = join(privateTmp, 'cert');
  mkdirSync(certDir);
  const { key, cert } = makeCertificate(certDir);
  ca = cert;
  server = https.createServer({ key, cert }, recordAndRoute);
  plainServer = http.createServer(recordAndRoute);
  [port, plainPort] = await Promise.all([listen(server), listen(plainServer)]);
  subscribe('http.client.request.start', countConnection);
  subscribe('net.client.socket', countConnection);
});

afterAll(async () => {
  unsubscribe('http.client.request.start', countConnection);
  unsubscribe('net.client.socket', countConnection);
  for (const s of [server, plainServer]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  if (sharedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = sharedTmpdir;
  rmSync(privateTmp, { recursive: true, force: true });
});

beforeEach(() => {
  seen = [];
  streamedBytes = 0;
  connectionAttempts = 0;
  fakeDns.calls = [];
  fakeDns.answers.clear();
  fakeDns.neverAnswers.clear();
});

function leftovers(): string[] {
  return readdirSync(privateTmp).filter((name) => name.startsWith('preflight-remote-'));
}

afterEach(() => {
  expect(leftovers()).toEqual([]);
});

const strict: RemotePolicy = { allowPrivateNetworks: false, maxBytes: 1024 * KiB, timeoutMs: 5000, maxRedirects: 3, ca: undefined };
const permissive = (): RemotePolicy => ({ ...strict, allowPrivateNetworks: true, ca });
const local = (path: string) => `https://localhost:${port}${path}`;

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

async function expectCode(promise: Promise<unknown>, code: string, status: number): Promise<ServiceError> {
  const err = await rejection(promise);
  expect({ code: err.code, status: err.status, message: err.message }).toMatchObject({ code, status });
  return err;
}

/** Nothing a caller may not see: the query of a signed URL, the path, our temp directory. */
function expectNothingExposed(err: ServiceError, ...hidden: string[]): void {
  const shown = JSON.stringify({ message: err.message, details: err.details });
  for (const text of ['deadbeefsecret', 'X-Amz-Signature', privateTmp, ...hidden]) expect(shown).not.toContain(text);
}

describe('target checks (no request is sent)', () => {
  it('refuses http:// unless private networks are allowed', async () => {
    const err = await expectCode(assertFetchableUrl(`http://example.com/a.mp4?${SECRET}`, strict), 'remote_url_insecure', 400);
    expect(err.message).toContain('example.com');
    expectNothingExposed(err, 'a.mp4');
    expect(fakeDns.calls).toEqual([]);
    await expect(assertFetchableUrl(`http://localhost:${plainPort}/ok`, permissive())).resolves.toBeInstanceOf(URL);
  });

  it('refuses the metadata address without DNS or any connection attempt', async () => {
    const err = await expectCode(assertFetchableUrl(`https://169.254.169.254/latest/meta-data?${SECRET}`, strict), 'remote_url_forbidden', 400);
    expect(err.message).toContain('169.254.169.254');
    expectNothingExposed(err, 'meta-data');
    await expectCode(fetchToTempFile(`https://169.254.169.254/latest/meta-data?${SECRET}`, strict), 'remote_url_forbidden', 400);
    await expectCode(postJson('https://169.254.169.254/latest/meta-data', '{}', {}, strict), 'remote_url_forbidden', 400);
    expect(connectionAttempts).toBe(0);
    expect(fakeDns.calls).toEqual([]);
  });

  it.each([
    'https://127.0.0.1/',
    'https://127.1.2.3:8443/',
    'https://2130706433/', // 127.0.0.1 written as one number
    'https://0.0.0.0/',
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://169.254.1.1/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://240.0.0.1/',
    'https://[::1]/',
    'https://[::]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:169.254.169.254]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::127.0.0.1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[2002:7f00:1::]/',
    'https://[fe80::1]/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[ff02::1]/',
  ])('refuses the literal address in %s', async (url) => {
    await expectCode(fetchToTempFile(url, strict), 'remote_url_forbidden', 400);
    expect(connectionAttempts).toBe(0);
    expect(fakeDns.calls).toEqual([]);
  });

  it.each(['https://localhost/', 'https://LOCALHOST./', 'https://api.localhost/', 'https://metadata.google.internal/computeMetadata/v1/', 'https://printer.local/'])(
    'refuses the reserved name in %s before DNS',
    async (url) => {
      await expectCode(assertFetchableUrl(url, strict), 'remote_url_forbidden', 400);
      expect(fakeDns.calls).toEqual([]);
    },
  );

  it('refuses a name that resolves to loopback, or to any private address among public ones', async () => {
    fakeDns.answers.set('loopback.test', [{ address: '127.0.0.1', family: 4 }]);
    fakeDns.answers.set('mixed.test', [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
    fakeDns.answers.set('mapped.test', [{ address: '::ffff:192.168.0.1', family: 6 }]);
    for (const host of ['loopback.test', 'mixed.test', 'mapped.test']) {
      const err = await expectCode(assertFetchableUrl(`https://${host}/x?${SECRET}`, strict), 'remote_url_forbidden', 400);
      expect(err.message).toContain(host);
      expectNothingExposed(err);
    }
    expect(connectionAttempts).toBe(0);
  });

  it('accepts a name that resolves only to public addresses, and public literals', async () => {
    fakeDns.answers.set('public.test', [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    await expect(assertFetchableUrl('https://public.test/a.mp4', strict)).resolves.toHaveProperty('hostname', 'public.test');
    await expect(assertFetchableUrl('https://8.8.8.8/', strict)).resolves.toBeInstanceOf(URL);
    await expect(assertFetchableUrl('https://[2606:4700::1111]/', strict)).resolves.toBeInstanceOf(URL);
    expect(connectionAttempts).toBe(0);
  });

  it('refuses URLs that are not absolute https URLs or that carry credentials', async () => {
    await expectCode(assertFetchableUrl('not a url', strict), 'remote_url_invalid', 400);
    await expectCode(assertFetchableUrl('ftp://files.example.com/a', strict), 'remote_url_invalid', 400);
    const err = await expectCode(assertFetchableUrl('https://user:hunter2@example.com/', strict), 'remote_url_invalid', 400);
    expectNothingExposed(err, 'hunter2');
  });

  it('reports a name that does not resolve as a fetch failure', async () => {
    fakeDns.answers.set('nowhere.test', []);
    await expectCode(assertFetchableUrl('https://nowhere.test/', strict), 'remote_fetch_failed', 502);
  });
});

describe('fetchToTempFile', () => {
  it('refuses the loopback server itself under the default policy, without contacting it', async () => {
    await expectCode(fetchToTempFile(local('/ok'), { ...strict, ca }), 'remote_url_forbidden', 400);
    await expectCode(fetchToTempFile(`https://127.0.0.1:${port}/ok`, { ...strict, ca }), 'remote_url_forbidden', 400);
    expect(seen).toEqual([]);
    expect(connectionAttempts).toBe(0);
  });

  it('downloads to a private temp file with the right sha256, and cleanup removes it', async () => {
    const file = await fetchToTempFile(local(`/ok?${SECRET}`), permissive(), { filenameHint: '../../evil name.mp4' });
    expect(file.bytes).toBe(PAYLOAD.length);
    expect(file.sha256).toBe(createHash('sha256').update(PAYLOAD).digest('hex'));
    expect(file.contentType).toBe('video/mp4');
    expect(readFileSync(file.path).equals(PAYLOAD)).toBe(true);
    expect(file.path.startsWith(join(privateTmp, 'preflight-remote-'))).toBe(true);
    expect(file.path.endsWith('evil_name.mp4')).toBe(true);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    file.cleanup();
    file.cleanup();
    expect(existsSync(file.path)).toBe(false);
  });

  it('connects to the address it checked, keeping the host name for SNI and Host', async () => {
    fakeDns.answers.set('pinned.test', [{ address: '127.0.0.1', family: 4 }]);
    const file = await fetchToTempFile(`https://pinned.test:${port}/ok`, permissive());
    file.cleanup();
    // The system resolver has never heard of pinned.test: the socket can only have used the one checked answer.
    expect(fakeDns.calls).toEqual(['pinned.test']);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ host: `pinned.test:${port}`, servername: 'pinned.test' });
  });

  it('follows a redirect, checking the next hop again', async () => {
    const file = await fetchToTempFile(local('/redirect-ok'), permissive());
    expect(file.bytes).toBe(PAYLOAD.length);
    file.cleanup();
    expect(seen.map((s) => s.path)).toEqual(['/redirect-ok', '/ok']);
  });

  it('refuses a redirect from an allowed host to a forbidden one', async () => {
    const policy: RemotePolicy = { ...strict, ca, allowHosts: [`localhost:${port}`] };
    const err = await expectCode(fetchToTempFile(local('/to-loopback-ip'), policy), 'remote_url_forbidden', 400);
    expect(err.message).toContain('127.0.0.1');
    expect(seen.map((s) => s.path)).toEqual(['/to-loopback-ip']);
  });

  it('refuses a redirect down to plain http', async () => {
    const policy: RemotePolicy = { ...strict, ca, allowHosts: [`localhost:${port}`, `localhost:${plainPort}`] };
    await expectCode(fetchToTempFile(local('/to-http'), policy), 'remote_url_insecure', 400);
    expect(seen.map((s) => s.path)).toEqual(['/to-http']);
  });

  it('allowHosts is exact: another port of the same host stays forbidden', async () => {
    await expectCode(fetchToTempFile(local('/ok'), { ...strict, ca, allowHosts: [`localhost:${port + 1}`] }), 'remote_url_forbidden', 400);
    const file = await fetchToTempFile(local('/ok'), { ...strict, ca, allowHosts: [`localhost:${port}`] });
    file.cleanup();
    expect(seen).toHaveLength(1);
  });

  it('caps a redirect loop at maxRedirects', async () => {
    await expectCode(fetchToTempFile(local('/loop'), permissive()), 'remote_too_many_redirects', 502);
    expect(seen).toHaveLength(4); // the first request and 3 redirects
  });

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const started = Date.now();
    const err = await expectCode(fetchToTempFile(local('/big-declared'), { ...permissive(), maxBytes: 64 * KiB }), 'remote_too_large', 413);
    expect(err.details).toMatchObject({ maxBytes: 64 * KiB });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('aborts a chunked body that streams past the cap and deletes the partial file', async () => {
    await expectCode(fetchToTempFile(local('/big-streamed'), { ...permissive(), maxBytes: 64 * KiB }), 'remote_too_large', 413);
    expect(streamedBytes).toBeLessThan(BIG_STREAM_BYTES);
  });

  it('times out the whole exchange and deletes the partial file', async () => {
    const started = Date.now();
    const err = await expectCode(fetchToTempFile(local(`/stall?${SECRET}`), { ...permissive(), timeoutMs: 300 }), 'remote_timeout', 504);
    expect(Date.now() - started).toBeLessThan(3000);
    expectNothingExposed(err, '/stall');
  });

  it('the deadline covers a DNS lookup that never answers', async () => {
    fakeDns.neverAnswers.add('slow.test');
    await expectCode(fetchToTempFile('https://slow.test/a.mp4', { ...strict, timeoutMs: 200 }), 'remote_timeout', 504);
  });

  it('turns a 404 into remote_fetch_failed with the status and nothing else', async () => {
    const err = await expectCode(fetchToTempFile(local(`/missing/file.mp4?${SECRET}`), permissive()), 'remote_fetch_failed', 502);
    expect(err.details).toMatchObject({ status: 404, host: `localhost:${port}` });
    expectNothingExposed(err, '/missing', 'file.mp4');
  });

  it('reports a TLS failure by its code only', async () => {
    const err = await expectCode(fetchToTempFile(local('/ok'), { ...permissive(), ca: undefined }), 'remote_fetch_failed', 502);
    expect(err.details.reason).toMatch(/^[A-Z0-9_]+$/);
  });

  it('a caller abort stops the download and leaves nothing behind', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 100);
    await expect(fetchToTempFile(local('/stall'), permissive(), { signal: controller.signal })).rejects.toThrow('job cancelled');
  });
});

describe('fetchText', () => {
  it('reads UTF-8 text and drops a BOM', async () => {
    await expect(fetchText(local('/text'), permissive())).resolves.toEqual({ text: 'héllo transcript\n', contentType: 'text/plain; charset=utf-8' });
  });

  it('refuses bytes that are not UTF-8, and bodies over the cap', async () => {
    await expectCode(fetchText(local('/latin1'), permissive()), 'remote_not_utf8', 422);
    await expectCode(fetchText(local('/big-streamed'), { ...permissive(), maxBytes: 32 * KiB }), 'remote_too_large', 413);
  });

  it('applies the same target checks', async () => {
    await expectCode(fetchText(local('/text'), { ...strict, ca }), 'remote_url_forbidden', 400);
    expect(seen).toEqual([]);
  });
});

describe('postJson', () => {
  const payload = JSON.stringify({ event: 'job.completed', jobId: 'job_1' });

  it('delivers to a loopback receiver when private networks are allowed', async () => {
    const result = await postJson(local('/hook'), payload, { 'X-Service-Signature': 't=1,v1=abc' }, permissive());
    expect(result).toEqual({ status: 202, bodyText: `accepted ${payload.length}` });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/hook', body: payload });
    expect(seen[0].headers).toMatchObject({ 'content-type': 'application/json', 'x-service-signature': 't=1,v1=abc' });
  });

  it('works over plain http on loopback when private networks are allowed', async () => {
    const result = await postJson(`http://127.0.0.1:${plainPort}/hook`, payload, {}, permissive());
    expect(result.status).toBe(202);
  });

  it('never follows a redirect', async () => {
    const result = await postJson(local('/hook-redirect'), payload, {}, permissive());
    expect(result.status).toBe(307);
    expect(seen.map((s) => s.path)).toEqual(['/hook-redirect']);
  });

  it('is bounded by the policy timeout and by the caller signal', async () => {
    await expectCode(postJson(local('/stall'), payload, {}, { ...permissive(), timeoutMs: 200 }), 'remote_timeout', 504);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('attempt timed out')), 100);
    await expect(postJson(local('/stall'), payload, {}, permissive(), { signal: controller.signal })).rejects.toThrow('attempt timed out');
  });

  it('refuses loopback and plain http under the default policy without contacting the receiver', async () => {
    await expectCode(postJson(local('/hook'), payload, {}, { ...strict, ca }), 'remote_url_forbidden', 400);
    await expectCode(postJson(`http://127.0.0.1:${plainPort}/hook`, payload, {}, strict), 'remote_url_insecure', 400);
    expect(seen).toEqual([]);
    expect(connectionAttempts).toBe(0);
  });
});

describe('policyFromEnv', () => {
  it('has safe defaults', () => {
    expect(policyFromEnv({})).toEqual({ allowPrivateNetworks: false, maxBytes: 4096 * 1024 * 1024, timeoutMs: 900_000, maxRedirects: 3 });
  });

  it('reads the operator settings', () => {
    const policy = policyFromEnv({
      PREFLIGHT_ALLOW_PRIVATE_NETWORKS: '1',
      PREFLIGHT_REMOTE_MAX_MB: '0.5',
      PREFLIGHT_REMOTE_TIMEOUT_MS: '2500',
      PREFLIGHT_REMOTE_MAX_REDIRECTS: '0',
      PREFLIGHT_REMOTE_ALLOW_HOSTS: 'Files.LAN:8443, [fd00::5]:443',
    });
    expect(policy).toEqual({ allowPrivateNetworks: true, maxBytes: 512 * KiB, timeoutMs: 2500, maxRedirects: 0, allowHosts: ['files.lan:8443', '[fd00::5]:443'] });
  });

  it('refuses invalid settings', () => {
    expect(() => policyFromEnv({ PREFLIGHT_REMOTE_MAX_MB: 'lots' })).toThrow(/PREFLIGHT_REMOTE_MAX_MB/);
    expect(() => policyFromEnv({ PREFLIGHT_ALLOW_PRIVATE_NETWORKS: 'true' })).toThrow(/PREFLIGHT_ALLOW_PRIVATE_NETWORKS: must be 1/);
    expect(() => policyFromEnv({ PREFLIGHT_REMOTE_ALLOW_HOSTS: 'files.lan' })).toThrow(/host:port/);
  });
});
