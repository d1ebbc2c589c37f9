// Remote mode of `preflight mcp`: PREFLIGHT_API_URL and PREFLIGHT_API_KEY, both or neither.
export interface RemoteConfig {
  /** Origin and path prefix, without a trailing slash: REST paths are appended to it. */
  apiUrl: string;
  apiKey: string;
  /** host[:port], the only part of the configuration ever logged or put in an error. */
  host: string;
  /** Set when the key would travel unencrypted. */
  warning: string | null;
}

export class RemoteConfigError extends Error {}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** null means local mode. The URL is never echoed back: a key pasted into the wrong variable must not reach a log. */
export function remoteConfigFromEnv(env: NodeJS.ProcessEnv): RemoteConfig | null {
  const url = env.PREFLIGHT_API_URL?.trim() || undefined;
  const key = env.PREFLIGHT_API_KEY?.trim() || undefined;
  if (!url && !key) return null;
  if (!url) {
    throw new RemoteConfigError('PREFLIGHT_API_KEY is set but PREFLIGHT_API_URL is not: remote mode needs both (the server URL, e.g. https://preflight.example.com), local mode neither.');
  }
  if (!key) {
    throw new RemoteConfigError('PREFLIGHT_API_URL is set but PREFLIGHT_API_KEY is not: remote mode needs both (a workspace API key of that server), local mode neither.');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RemoteConfigError('PREFLIGHT_API_URL is not a valid URL: expected http(s)://host[:port][/path].');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new RemoteConfigError(`PREFLIGHT_API_URL must be an http or https URL, not ${parsed.protocol}.`);
  }
  if (parsed.username || parsed.password) throw new RemoteConfigError('PREFLIGHT_API_URL must not carry credentials: put the key in PREFLIGHT_API_KEY.');
  if (parsed.search || parsed.hash) throw new RemoteConfigError('PREFLIGHT_API_URL must not have a query or fragment: give the server base URL.');
  const plainRemote = parsed.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname);
  return {
    apiUrl: `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`,
    apiKey: key,
    host: parsed.host,
    warning: plainRemote ? `PREFLIGHT_API_URL uses plain http to ${parsed.host}: the API key and media travel unencrypted; use https.` : null,
  };
}
