// Checks one hop of a remote fetch before any connection: URL shape, scheme, host name, and every address the name
// resolves to. The addresses checked here are the only ones the request may connect to (see request.ts).
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { forbiddenRange, isForbiddenHostname, normalizeHostname, unbracket } from './address.js';
import { fetchFailed, forbiddenTarget, insecureUrl, invalidUrl } from './errors.js';
import type { RemotePolicy } from './policy.js';

export interface CheckedTarget {
  url: URL;
  /** Host name or IP literal, without IPv6 brackets. */
  hostname: string;
  port: number;
  /** Every address the host resolved to, all checked. */
  addresses: LookupAddress[];
}

type TargetPolicy = Pick<RemotePolicy, 'allowPrivateNetworks' | 'allowHosts'>;

export function parseRemoteUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('it is not an absolute URL');
  }
  if (url.username || url.password) throw invalidUrl('credentials in the URL are not accepted');
  return url;
}

function assertScheme(url: URL, policy: TargetPolicy): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:') {
    if (policy.allowPrivateNetworks) return;
    throw insecureUrl(url.host);
  }
  throw invalidUrl(`only https:// URLs are fetched, not ${url.protocol}`);
}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function isExempt(url: URL, port: number, policy: TargetPolicy): boolean {
  if (policy.allowPrivateNetworks) return true;
  const hostPort = `${normalizeHostname(url.hostname)}:${port}`;
  return (policy.allowHosts ?? []).some((entry) => entry.toLowerCase() === hostPort);
}

function rejectOnAbort(signal: AbortSignal | undefined): Promise<never> | null {
  if (!signal) return null;
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

async function resolveAddresses(hostname: string, host: string, signal?: AbortSignal): Promise<LookupAddress[]> {
  const family = isIP(hostname);
  if (family) return [{ address: hostname, family }];
  // dns.lookup cannot be cancelled; the race only stops us waiting for it.
  const aborted = rejectOnAbort(signal);
  const resolving = lookup(hostname, { all: true, order: 'verbatim' }).catch((err: NodeJS.ErrnoException) => {
    throw fetchFailed(host, err.code ?? 'DNS lookup failed');
  });
  const addresses = await (aborted ? Promise.race([resolving, aborted]) : resolving);
  if (addresses.length === 0) throw fetchFailed(host, 'ENOTFOUND');
  return addresses;
}

function assertPublicAddresses(addresses: LookupAddress[], host: string): void {
  for (const { address } of addresses) {
    const range = forbiddenRange(address);
    if (range) throw forbiddenTarget(host, range);
  }
}

/**
 * The host checks that need no DNS: a reserved name (localhost, metadata, private-use suffixes) or an IP literal
 * outside public unicast is refused. For URLs another program fetches (yt-dlp), where we cannot pin the address.
 */
export function assertPublicHostName(url: URL, policy: TargetPolicy): void {
  if (isExempt(url, effectivePort(url), policy)) return;
  const hostname = unbracket(url.hostname);
  if (isForbiddenHostname(hostname)) throw forbiddenTarget(url.host, 'reserved name');
  const range = isIP(hostname) ? forbiddenRange(hostname) : null;
  if (range) throw forbiddenTarget(url.host, range);
}

/** Scheme, name and address checks of one hop; resolves DNS once, and the result is what the request connects to. */
export async function checkTarget(url: URL, policy: TargetPolicy, signal?: AbortSignal): Promise<CheckedTarget> {
  assertScheme(url, policy);
  const hostname = unbracket(url.hostname);
  const port = effectivePort(url);
  const exempt = isExempt(url, port, policy);
  if (!exempt && isForbiddenHostname(hostname)) throw forbiddenTarget(url.host, 'reserved name');
  const addresses = await resolveAddresses(hostname, url.host, signal);
  if (!exempt) assertPublicAddresses(addresses, url.host);
  return { url, hostname, port, addresses };
}
