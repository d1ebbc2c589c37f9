// `preflight serve [--port N] [--host H] [--bootstrap]`: the REST door with accounts, webhooks and the queue worker.
// It never runs open: without an operator key (PREFLIGHT_OPERATOR_KEY, or --bootstrap once) it refuses to start.
import { parseArgs } from 'node:util';
import { ENGINE_VERSION } from '../engine/check.js';
import { EngineError } from '../engine/errors.js';
import { engineCapabilities } from '../engine/ffmpeg/capabilities.js';
import { AccountService } from '../src/accounts/index.js';
import { loadConfig } from '../src/config.js';
import { ServiceError } from '../src/errors.js';
import { policyFromEnv, postJson } from '../src/ingress/remote.js';
import { collectOperationalState } from '../src/public/operational.js';
import { PreflightService } from '../src/service.js';
import { WebhookService } from '../src/webhooks/index.js';
import { accountRoutes } from './routes/accounts.js';
import { webhookRoutes } from './routes/webhooks.js';
import { startHttpDoor } from './serve.js';

const DEFAULT_PORT = 8787;

function options() {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, bootstrap: { type: 'boolean', default: false }, 'public-url': { type: 'string' } },
    strict: true,
  });
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port needs a port number (0-65535), got "${values.port}"`);
  return { port, host: values.host, bootstrap: values.bootstrap, publicUrl: values['public-url'] };
}

async function main(): Promise<void> {
  const opts = options();
  const config = loadConfig();
  const service = await PreflightService.open({ home: config.home, env: config.env });
  const accounts = new AccountService({ store: service.records, env: config.env });
  const access = await accounts.ensureOperatorAccess({ operatorKeyFromEnv: config.env.PREFLIGHT_OPERATOR_KEY, bootstrap: opts.bootstrap });
  const webhooks = new WebhookService({
    store: service.records,
    env: config.env,
    home: config.home,
    send: (url, body, headers, o) => postJson(url, body, headers, policyFromEnv(config.env), o),
  });
  service.attachWebhooks(webhooks);
  service.attachAccounts(accounts);
  const door = await startHttpDoor(
    {
      service,
      auth: accounts,
      state: () =>
        collectOperationalState({
          service,
          env: config.env,
          version: ENGINE_VERSION,
          engine: engineCapabilities,
          operatorActive: () => accounts.readiness().operatorAuthConfigured,
        }),
      extraRoutes: [accountRoutes(accounts), webhookRoutes(webhooks)],
    },
    { port: opts.port, host: opts.host, publicUrl: opts.publicUrl, restUrls: true },
  );
  webhooks.startWorker();
  // PREFLIGHT_QUEUE_WORKER=off leaves queued jobs for POST /v1/qc/jobs/drain alone (tests, or an external scheduler).
  const stopQueue =
    config.env.PREFLIGHT_QUEUE_WORKER === 'off'
      ? () => {}
      : service.startQueueWorker((err) => process.stderr.write(`preflight serve: drain failed: ${err.message}\n`));
  if (access.created) {
    process.stdout.write(`Operator API key (shown once, store it now): ${access.created}\n`);
  }
  process.stdout.write(`preflight serve: listening on ${door.url} (data dir ${config.home})\n`);
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
