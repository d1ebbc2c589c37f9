// What `preflight serve` puts behind one port, composed once: the REST door with the accounts and webhook routes, and
// the MCP tools over HTTP at /mcp behind the same bearer keys. entry/serve.ts listens with it; tests call it in process.
import { ENGINE_VERSION } from '../engine/check.js';
import { engineCapabilities } from '../engine/ffmpeg/capabilities.js';
import type { AccountService } from '../src/accounts/index.js';
import { MCP_HTTP_PATH } from '../src/public/mcp-install.js';
import { collectOperationalState } from '../src/public/operational.js';
import type { PreflightService } from '../src/service.js';
import type { WebhookService } from '../src/webhooks/index.js';
import type { HttpDeps } from '../http/app.js';
import { accountRoutes } from '../http/routes/accounts.js';
import { webhookRoutes } from '../http/routes/webhooks.js';
import { mcpOverHttp } from '../tools/http.js';
import { runWaitMsFromEnv } from '../tools/server.js';

export interface ServeServices {
  service: PreflightService;
  accounts: AccountService;
  webhooks: WebhookService;
  env: NodeJS.ProcessEnv;
}

export function serveDoors({ service, accounts, webhooks, env }: ServeServices): HttpDeps {
  return {
    service,
    auth: accounts,
    state: () =>
      collectOperationalState({
        service,
        env,
        version: ENGINE_VERSION,
        engine: engineCapabilities,
        operatorActive: async () => (await accounts.readiness()).operatorAuthConfigured,
      }),
    extraRoutes: [accountRoutes(accounts), webhookRoutes(webhooks)],
    mounts: [{ path: MCP_HTTP_PATH, handle: mcpOverHttp({ service, runWaitMs: runWaitMsFromEnv(env) }) }],
  };
}
