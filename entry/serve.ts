// `preflight serve`: the REST door (http/) with accounts, webhooks and the queue worker, and the MCP tools (tools/)
// over Streamable HTTP at /mcp behind the same bearer keys. It never runs open: without an operator key
// (PREFLIGHT_OPERATOR_KEY, or --bootstrap once) it refuses to start.
import { EngineError } from '../engine/errors.js';
import { AccountService } from '../src/accounts/index.js';
import { loadConfig } from '../src/config.js';
import { ServiceError } from '../src/errors.js';
import { policyFromEnv, postJson } from '../src/ingress/remote.js';
import { MCP_HTTP_PATH } from '../src/public/mcp-install.js';
import { PreflightService } from '../src/service.js';
import { WebhookService } from '../src/webhooks/index.js';
import { startHttpDoor } from '../http/serve.js';
import { newCommand, parseCommand, portNumber } from './options.js';
import { serveDoors } from './serve-doors.js';

const DEFAULT_PORT = 8787;

interface ServeOptions {
  port: number;
  host: string;
  bootstrap: boolean;
  publicUrl?: string;
}

function options(): ServeOptions {
  const cmd = newCommand(
    'preflight serve',
    `Serve the REST API (/v1, OpenAPI at /openapi.json), the public documents and receipt verifier, and the agent tools over MCP Streamable HTTP at ${MCP_HTTP_PATH}. ` +
      'Every /v1 route and /mcp need a workspace API key as bearer token (Authorization: Bearer prv_…); the key\'s scopes decide what it may call. ' +
      'Refuses to start without an operator key: set PREFLIGHT_OPERATOR_KEY or pass --bootstrap once.',
  )
    .option('--port <port>', 'port to listen on', portNumber, DEFAULT_PORT)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--bootstrap', 'create an operator key if none exists and print it once', false)
    .option('--public-url <url>', 'base URL clients reach this server at (behind a proxy); used in job, artifact and upload URLs');
  return parseCommand<ServeOptions>(cmd, process.argv.slice(3));
}

async function main(): Promise<void> {
  const opts = options();
  const config = loadConfig();
  const service = await PreflightService.open({ home: config.home, env: config.env });
  const accounts = new AccountService({ db: service.records, env: config.env });
  const access = await accounts.ensureOperatorAccess({ operatorKeyFromEnv: config.env.PREFLIGHT_OPERATOR_KEY, bootstrap: opts.bootstrap });
  const webhooks = new WebhookService({
    db: service.records,
    env: config.env,
    home: config.home,
    send: (url, body, headers, o) => postJson(url, body, headers, policyFromEnv(config.env), o),
  });
  service.attachWebhooks(webhooks);
  service.attachAccounts(accounts);
  const door = await startHttpDoor(serveDoors({ service, accounts, webhooks, env: config.env }), {
    port: opts.port,
    host: opts.host,
    publicUrl: opts.publicUrl,
    restUrls: true,
  });
  webhooks.startWorker();
  // PREFLIGHT_QUEUE_WORKER=off leaves queued jobs for POST /v1/qc/jobs/drain alone (tests, or an external scheduler).
  const stopQueue =
    config.env.PREFLIGHT_QUEUE_WORKER === 'off'
      ? () => {}
      : service.startQueueWorker((err) => process.stderr.write(`preflight serve: drain failed: ${err.message}\n`));
  if (access.created) {
    process.stdout.write(`Operator API key (shown once, store it now): ${access.created}\n`);
  }
  process.stdout.write(`preflight serve: listening on ${door.url} (REST /v1, MCP ${door.url}${MCP_HTTP_PATH}; data dir ${config.home})\n`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    stopQueue();
    await door.close();
    await webhooks.stopWorker();
    await service.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

try {
  await main();
} catch (err) {
  const message = err instanceof ServiceError || err instanceof EngineError ? err.message : (err as Error).message;
  process.stderr.write(`preflight serve: ${message}\n`);
  process.exit(2);
}
