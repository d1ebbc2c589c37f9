// Where deliveries may go. This is the early, synchronous check at registration (and for a job's callback_url); the
// door's poster re-checks resolved addresses and redirects at send time, which no check on the URL text can replace.
import ipaddr from 'ipaddr.js';
import { ServiceError } from '../errors.js';

export const ALLOW_PRIVATE_NETWORKS_ENV = 'PREFLIGHT_ALLOW_PRIVATE_NETWORKS';

export function privateNetworksAllowed(env: Record<string, string | undefined>): boolean {
  return env[ALLOW_PRIVATE_NETWORKS_ENV] === '1';
}

function refuse(url: string, reason: string): never {
  throw new ServiceError('webhook_url_refused', `Webhook URL refused: ${reason}.`, { url, reason }, 400);
}

function isNonPublicHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() !== 'unicast';
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
    if (!allowPrivate && isNonPublicHost(parsed.hostname)) refuse(url, 'loopback, private and link-local hosts are not allowed');
    return parsed;
  }
  if (parsed.protocol === 'http:' && allowPrivate) return parsed;
  return refuse(url, `only https URLs are accepted${allowPrivate ? '' : ` (http needs ${ALLOW_PRIVATE_NETWORKS_ENV}=1, for tests)`}`);
}
