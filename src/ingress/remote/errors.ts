// The errors of remote ingress. Messages name the host (never the URL: signed URLs carry secrets in the query) and
// never a local path.
import { ServiceError } from '../../errors.js';

export function invalidUrl(why: string): ServiceError {
  return new ServiceError('remote_url_invalid', `The remote URL is not usable: ${why}.`, {}, 400);
}

export function insecureUrl(host: string): ServiceError {
  return new ServiceError('remote_url_insecure', `Refusing plain http:// for ${host}: remote URLs must use https://.`, { host }, 400);
}

export function forbiddenTarget(host: string, range: string): ServiceError {
  return new ServiceError(
    'remote_url_forbidden',
    `Refusing to fetch from ${host}: it is or resolves to a non-public address (${range}). Remote URLs must point at public hosts.`,
    { host, range },
    400,
  );
}

export function tooLarge(host: string, maxBytes: number): ServiceError {
  return new ServiceError('remote_too_large', `The response from ${host} is larger than the ${maxBytes}-byte limit for remote files.`, { host, maxBytes }, 413);
}

export function timedOut(host: string, timeoutMs: number): ServiceError {
  return new ServiceError('remote_timeout', `Fetching from ${host} took longer than ${timeoutMs} ms.`, { host, timeoutMs }, 504);
}

export function badStatus(host: string, status: number): ServiceError {
  return new ServiceError('remote_fetch_failed', `${host} answered HTTP ${status}.`, { host, status }, 502);
}

/** `reason` is a Node error code such as ECONNREFUSED or CERT_HAS_EXPIRED, never a free-form message. */
export function fetchFailed(host: string, reason: string): ServiceError {
  return new ServiceError('remote_fetch_failed', `Could not fetch from ${host} (${reason}).`, { host, reason }, 502);
}

export function tooManyRedirects(host: string, maxRedirects: number): ServiceError {
  return new ServiceError('remote_too_many_redirects', `${host} redirected more than ${maxRedirects} times.`, { host, maxRedirects }, 502);
}

export function notUtf8(host: string): ServiceError {
  return new ServiceError('remote_not_utf8', `The file from ${host} is not valid UTF-8 text.`, { host }, 422);
}
