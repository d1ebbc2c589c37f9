// A JSON client for `preflight serve` in tests: every request has a time limit, so a server that hangs fails the test
// instead of hanging the run.
import { readFile } from 'node:fs/promises';
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

/** Reserves an upload, PUTs the file's bytes to its signed URL, and returns the upload id. */
export async function uploadFile(server: Pick<RunningServer, 'url'>, key: string, file: string): Promise<string> {
  const bytes = await readFile(file);
  const reserve = await api(server, 'POST', '/v1/uploads', { key, body: { filename: 'media.mp4', content_type: 'video/mp4', size_bytes: bytes.length } });
  if (reserve.status !== 201) throw new Error(`upload reservation answered ${reserve.status}: ${reserve.text}`);
  const put = await fetch(reserve.json.signedPutUrl, { method: 'PUT', body: bytes });
  if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}: ${await put.text()}`);
  return reserve.json.uploadId as string;
}
