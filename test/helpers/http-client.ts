// A JSON client for `preflight serve` in tests: every request has a time limit, so a server that hangs fails the test
// instead of hanging the run.
import type { RunningServer } from './serve.js';

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are checked field by field
  json: any;
  text: string;
  headers: Headers;
}

export interface ApiOptions {
  key?: string;
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
  /** Per-request time limit; default 10 s. */
  timeoutMs?: number;
}

export async function api(server: Pick<RunningServer, 'url'>, method: string, path: string, opts: ApiOptions = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* a text body */
  }
  return { status: res.status, json, text, headers: res.headers };
}
