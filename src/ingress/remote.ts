// SSRF-safe remote ingress: `signed_url` media, sidecar URLs and outbound webhook POSTs. Every hop is checked (scheme,
// name, every resolved address) before a connection, the socket connects only to the checked addresses, and size and
// time caps cover the whole exchange. Errors name the host only: signed URLs carry secrets in their query string.
// See docs/remote-ingress.md.
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ServiceError } from '../errors.js';
import { readBody, readTruncatedText, saveBody } from './remote/body.js';
import { badStatus, fetchFailed, invalidUrl, notUtf8, timedOut, tooLarge, tooManyRedirects } from './remote/errors.js';
import type { RemotePolicy } from './remote/policy.js';
import { sendRequest } from './remote/request.js';
import { assertPublicHostName, checkTarget, parseRemoteUrl, type CheckedTarget } from './remote/target.js';

export { policyFromEnv, type RemotePolicy } from './remote/policy.js';

export interface RemoteFile {
  path: string;
  bytes: number;
  sha256: string;
  contentType: string | null;
  /** Deletes the temporary directory; safe to call twice. */
  cleanup(): void;
}

/** Webhook receivers answer with a short acknowledgement; we keep only this much of it for the delivery record. */
const POST_RESPONSE_TEXT_LIMIT = 16 * 1024;
/** Sidecars are read into memory: whatever the policy says, a text body never exceeds this. */
export const TEXT_MAX_BYTES = 64 * 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The host of the hop in progress, so errors raised by Node name it. */
interface HopContext {
  host: string;
}

/** Node error codes (ECONNREFUSED, CERT_HAS_EXPIRED, …) are safe to show; free-form messages may quote the URL. */
function safeReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'network error';
}

/**
 * Runs `work` under one deadline for the whole exchange (DNS, redirects, body) and turns every failure into a
 * ServiceError that names the host only. A cancellation by the caller is rethrown as the caller's abort reason.
 */
async function underDeadline<T>(policy: RemotePolicy, callerSignal: AbortSignal | undefined, work: (signal: AbortSignal, hop: HopContext) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('remote ingress deadline')), policy.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([deadline.signal, callerSignal]) : deadline.signal;
  const hop: HopContext = { host: 'the remote host' };
  try {
    return await work(signal, hop);
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    if (deadline.signal.aborted) throw timedOut(hop.host, policy.timeoutMs);
    if (callerSignal?.aborted) throw callerSignal.reason;
    throw fetchFailed(hop.host, safeReason(err));
  } finally {
    clearTimeout(timer);
  }
}

async function checkHop(raw: string, policy: RemotePolicy, signal: AbortSignal, hop: HopContext): Promise<CheckedTarget> {
  const url = parseRemoteUrl(raw);
  hop.host = url.host;
  return checkTarget(url, policy, signal);
}

function redirectTarget(response: IncomingMessage, from: URL): string | null {
  const status = response.statusCode ?? 0;
  if (!REDIRECT_STATUSES.has(status)) return null;
  const location = response.headers.location;
  if (!location) throw badStatus(from.host, status);
  try {
    return new URL(location, from).toString();
  } catch {
    throw invalidUrl(`${from.host} redirected to something that is not a URL`);
  }
}

function assertAcceptable(response: IncomingMessage, target: CheckedTarget, policy: RemotePolicy): void {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    response.destroy();
    throw badStatus(target.url.host, status);
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > policy.maxBytes) {
    response.destroy();
    throw tooLarge(target.url.host, policy.maxBytes);
  }
}

/** GET with manual redirects: every hop is checked again before it is contacted. Resolves with a 2xx response within the size cap. */
async function openFollowingRedirects(raw: string, policy: RemotePolicy, signal: AbortSignal, hop: HopContext): Promise<{ response: IncomingMessage; target: CheckedTarget }> {
  let next = raw;
  for (let redirects = 0; ; redirects++) {
    const target = await checkHop(next, policy, signal, hop);
    const response = await sendRequest(target, { method: 'GET', signal, ca: policy.ca });
    const location = redirectTarget(response, target.url);
    if (location === null) {
      assertAcceptable(response, target, policy);
      return { response, target };
    }
    response.destroy();
    if (redirects >= policy.maxRedirects) throw tooManyRedirects(target.url.host, policy.maxRedirects);
    next = location;
  }
}

function contentTypeOf(response: IncomingMessage): string | null {
  return response.headers['content-type'] ?? null;
}

async function makeTempDir(): Promise<{ dir: string; cleanup(): void }> {
  const dir = await mkdtemp(join(tmpdir(), 'preflight-remote-'));
  let removed = false;
  return {
    dir,
    cleanup: () => {
      if (removed) return;
      removed = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A harmless file name (extension kept, for tools that look at it) from the hint or the last URL path segment. */
function tempFileName(hint: string | undefined, url: URL): string {
  const candidate = hint ?? url.pathname.split('/').pop() ?? '';
  const safe = basename(candidate).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '').slice(-100);
  return safe || 'remote.bin';
}

/** A URL another program will fetch (a platform URL for yt-dlp): refused when its host is reserved or not public. */
export function assertPublicUrlHost(raw: string, policy: RemotePolicy): void {
  assertPublicHostName(parseRemoteUrl(raw), policy);
}

/** Scheme, host name and DNS checks of a URL without sending any request; resolves with the parsed URL. */
export async function assertFetchableUrl(url: string, policy: RemotePolicy): Promise<URL> {
  return underDeadline(policy, undefined, async (signal, hop) => (await checkHop(url, policy, signal, hop)).url);
}

/** Downloads to `os.tmpdir()/preflight-remote-*` (mode 0600). Nothing is left on disk when this rejects. */
export async function fetchToTempFile(url: string, policy: RemotePolicy, opts: { signal?: AbortSignal; filenameHint?: string } = {}): Promise<RemoteFile> {
  return underDeadline(policy, opts.signal, async (signal, hop) => {
    const { response, target } = await openFollowingRedirects(url, policy, signal, hop);
    const temp = await makeTempDir().catch((err: unknown) => {
      response.destroy();
      throw err;
    });
    try {
      const path = join(temp.dir, tempFileName(opts.filenameHint, target.url));
      const { bytes, sha256 } = await saveBody(response, path, policy.maxBytes, hop.host, signal);
      return { path, bytes, sha256, contentType: contentTypeOf(response), cleanup: temp.cleanup };
    } catch (err) {
      temp.cleanup();
      throw err;
    }
  });
}

/**
 * Fetches a UTF-8 text sidecar (a leading BOM is dropped); bytes that are not UTF-8 are refused, not replaced.
 * The cap is the policy's maxBytes or TEXT_MAX_BYTES, whichever is smaller.
 */
export async function fetchText(url: string, policy: RemotePolicy, opts: { signal?: AbortSignal } = {}): Promise<{ text: string; contentType: string | null }> {
  const textPolicy = { ...policy, maxBytes: Math.min(policy.maxBytes, TEXT_MAX_BYTES) };
  return underDeadline(textPolicy, opts.signal, async (signal, hop) => {
    const { response } = await openFollowingRedirects(url, textPolicy, signal, hop);
    const body = await readBody(response, textPolicy.maxBytes, hop.host, signal);
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), contentType: contentTypeOf(response) };
    } catch {
      throw notUtf8(hop.host);
    }
  });
}

/**
 * POSTs a JSON body (webhooks, callback_url) after the same target checks. A redirect is never followed: its 3xx
 * status is returned like any other, so a receiver cannot bounce the signed delivery to an internal address.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: RemotePolicy,
  opts: { signal?: AbortSignal } = {},
): Promise<{ status: number; bodyText: string }> {
  return underDeadline(policy, opts.signal, async (signal, hop) => {
    const target = await checkHop(url, policy, signal, hop);
    const response = await sendRequest(target, {
      method: 'POST',
      signal,
      ca: policy.ca,
      headers: { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) },
      body,
    });
    const bodyText = await readTruncatedText(response, Math.min(POST_RESPONSE_TEXT_LIMIT, policy.maxBytes), signal);
    return { status: response.statusCode ?? 0, bodyText };
  });
}
