// Where deliveries may go. This is the early, synchronous check at registration (and for a job's callback_url); the
// door's poster re-checks resolved addresses and redirects at send time, which no check on the URL text can replace.
import { isIP } from 'node:net';
import { ServiceError } from '../errors.js';
import { forbiddenRange, isForbiddenHostname, unbracket } from '../ingress/remote/address.js';

export const ALLOW_PRIVATE_NETWORKS_ENV = 'PREFLIGHT_ALLOW_PRIVATE_NETWORKS';

export function privateNetworksAllowed(env: Record<string, string | undefined>): boolean {
  return env[ALLOW_PRIVATE_NETWORKS_ENV] === '1';
}

/** The URL's query and credentials may be secrets: errors name the host only. */
function refuse(url: string, reason: string): never {
  let host: string | null = null;
  try {
    host = new URL(url).host;
  } catch {
    /* not a URL: name nothing */
  }
  throw new ServiceError('webhook_url_refused', `Webhook URL refused: ${reason}.`, { host, reason }, 400);
}

/** Same judgement as remote ingress: loopback/metadata/private-use names, and IP literals outside public unicast. */
function isNonPublicHost(hostname: string): boolean {
  const host = unbracket(hostname);
  return isForbiddenHostname(host) || (isIP(host) !== 0 && forbiddenRange(host) !== null);
}

/** Throws `webhook_url_refused` (400) unless `url` is an https URL of a public host (any http(s) URL when private networks are allowed). */
export function assertDeliveryUrl(url: string, env: Record<string, string | undefined>): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(url, 'not an absolute URL');
  }
  if (parsed.username || parsed.password) refuse(url, 'credentials in the URL would be stored and listed in the clear');
  const allowPrivate = privateNetworksAllowed(env);
  if (parsed.protocol === 'https:') {
    if (!allowPrivate && isNonPublicHost(parsed.hostname)) refuse(url, 'loopback, private, link-local and metadata hosts are not allowed');
    return parsed;
  }
  if (parsed.protocol === 'http:' && allowPrivate) return parsed;
  return refuse(url, `only https URLs are accepted${allowPrivate ? '' : ` (http needs ${ALLOW_PRIVATE_NETWORKS_ENV}=1, for tests)`}`);
}
