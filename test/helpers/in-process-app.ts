// The app `preflight serve` runs, built in this process and called with app.request(): for route tests that need no
// socket. The services are the real ones on a fresh data dir; only the listening port is left out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { serveDoors } from '../../entry/serve-doors.js';
import { createHttpApp, type HttpDeps } from '../../http/app.js';
import type { Env } from '../../http/route.js';
import type { AccountService } from '../../src/accounts/index.js';
import type { PreflightService } from '../../src/service.js';
import { openServerServices } from '../../src/worker/services.js';
import type { ApiAnswer } from './serve.js';

export interface InProcessApp {
  app: OpenAPIHono<Env>;
  service: PreflightService;
  accounts: AccountService;
  request(method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiAnswer>;
  close(): Promise<void>;
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** `extend` may add routes or mounts to the served deps (a test's own failing mount, say). */
export async function inProcessApp(env: Record<string, string>, extend: (deps: HttpDeps) => HttpDeps = (d) => d): Promise<InProcessApp> {
  const home = mkdtempSync(join(tmpdir(), 'preflight-app-'));
  const { service, accounts, webhooks } = await openServerServices({ home, env, debug: false });
  await accounts.ensureOperatorAccess({ operatorKeyFromEnv: env.PREFLIGHT_OPERATOR_KEY, bootstrap: false });
  const app = createHttpApp(extend(serveDoors({ service, accounts, webhooks, env })));
  return {
    app,
    service,
    accounts,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await app.request(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      return { status: res.status, json: jsonOrNull(text), text, headers: res.headers };
    },
    async close() {
      await service.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
