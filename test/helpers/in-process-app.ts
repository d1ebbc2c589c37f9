// The app `preflight serve` runs, built in this process and called with app.request(): for route tests that need no
// socket. The services are the real ones on a fresh data dir; only the listening port is left out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { serveDoors } from '../../entry/serve-doors.js';
import { createHttpApp, type HttpDeps } from '../../http/app.js';
import type { Env } from '../../http/route.js';
import { AccountService } from '../../src/accounts/index.js';
import { policyFromEnv, postJson } from '../../src/ingress/remote.js';
import { PreflightService } from '../../src/service.js';
import { WebhookService } from '../../src/webhooks/index.js';
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
  const service = await PreflightService.open({ home, env });
  const accounts = new AccountService({ db: service.records, env });
  await accounts.ensureOperatorAccess({ operatorKeyFromEnv: env.PREFLIGHT_OPERATOR_KEY, bootstrap: false });
  const webhooks = new WebhookService({ db: service.records, env, home, send: (url, body, headers, o) => postJson(url, body, headers, policyFromEnv(env), o) });
  service.attachWebhooks(webhooks);
  service.attachAccounts(accounts);
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
      await webhooks.stopWorker();
      await service.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
