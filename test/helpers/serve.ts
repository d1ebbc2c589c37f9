// Real servers on loopback for the door tests: a free port, and `preflight serve` in its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';

/** The repository's bin, from here or from the compiled copy under dist/ (the benchmarks start servers too). */
export const BIN = resolve(import.meta.dirname, import.meta.dirname.split(sep).includes('dist') ? '../../..' : '../..', 'bin/preflight.js');

export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => done(port));
    });
  });
}

export interface RunningServer {
  url: string;
  proc: ChildProcess;
  home: string;
  /** What it wrote on stderr so far. */
  stderr(): string;
}

/**
 * Starts `preflight serve` on a free loopback port and waits until it listens: with a fresh data dir unless `opts.home`
 * names one. `opts.args` may use `{port}` for the chosen port (e.g. `--public-url http://127.0.0.1:{port}`).
 */
export async function startServe(env: Record<string, string>, opts: { args?: string[]; home?: string } = {}): Promise<RunningServer> {
  const port = await freePort();
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'preflight-serve-'));
  const extra = (opts.args ?? []).map((a) => a.replaceAll('{port}', String(port)));
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', String(port), ...extra], {
    env: { ...process.env, PREFLIGHT_HOME: home, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((ready, fail) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('listening on') && ready());
    proc.on('exit', (code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}`, proc, home, stderr: () => stderr };
}

export interface ApiAnswer {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- responses are checked field by field
  text: string;
  headers: Headers;
}

/** One HTTP request to a running server, with an optional bearer key and JSON (or raw) body; the answer parsed when it is JSON. */
export async function apiRequest(server: RunningServer, method: string, path: string, opts: { key?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined || typeof opts.raw === 'string') headers['content-type'] ??= 'application/json';
  const res = await fetch(`${server.url}${path}`, { method, headers, body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)) });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* text body */
  }
  return { status: res.status, json, text, headers: res.headers };
}
