// `preflight serve`: the REST door (http/) with accounts, webhooks and the queue worker, and the MCP tools (tools/)
// over Streamable HTTP at /mcp behind the same bearer keys. It never runs open: without an operator key
// (PREFLIGHT_OPERATOR_KEY, or --bootstrap once) it refuses to start.
import { EngineError } from '../engine/errors.js';
import { loadConfig } from '../src/config.js';
import { ServiceError } from '../src/errors.js';
import { MCP_HTTP_PATH } from '../src/public/mcp-install.js';
import { defaultConcurrency, parseConcurrency, QueueWorker } from '../src/worker/index.js';
import { openServerServices } from '../src/worker/services.js';
import { startHttpDoor } from '../http/serve.js';
import { newCommand, parseCommand, portNumber } from './options.js';
import { serveDoors } from './serve-doors.js';

const DEFAULT_PORT = 8787;

interface ServeOptions {
  port: number;
  host: string;
  bootstrap: boolean;
  publicUrl?: string;
  worker: boolean;
  concurrency?: number;
}

function options(): ServeOptions {
  const cmd = newCommand(
    'preflight serve',
    `Serve the REST API (/v1, OpenAPI at /openapi.json), the public documents and receipt verifier, and the agent tools over MCP Streamable HTTP at ${MCP_HTTP_PATH}. ` +
      'Every /v1 route and /mcp need a workspace API key as bearer token (Authorization: Bearer prv_…); the key\'s scopes decide what it may call. ' +
      'Queued jobs (process_async) and webhook deliveries are run by a worker in this process, as `preflight worker` runs them. ' +
      'Refuses to start without an operator key: set PREFLIGHT_OPERATOR_KEY or pass --bootstrap once.',
  )
    .option('--port <port>', 'port to listen on', portNumber, DEFAULT_PORT)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--bootstrap', 'create an operator key if none exists and print it once', false)
    .option('--public-url <url>', 'base URL clients reach this server at (behind a proxy); used in job, artifact and upload URLs')
    .option(
      '--no-worker',
      'run no worker here: queued jobs and deliveries wait for `preflight worker` processes on the same PREFLIGHT_DATABASE_URL (on the embedded database, for POST /v1/qc/jobs/drain)',
    )
    .option('--concurrency <n>', 'queued jobs the in-process worker runs at once (default: from the cores and free memory)', parseConcurrency);
  return parseCommand<ServeOptions>(cmd, process.argv.slice(3));
}

/** How long SIGTERM lets running jobs finish before they are handed back to the queue. */
const STOP_GRACE_MS = 30_000;

async function main(): Promise<void> {
  const opts = options();
  const config = loadConfig();
  const { service, accounts, webhooks } = await openServerServices(config);
  const access = await accounts.ensureOperatorAccess({ operatorKeyFromEnv: config.env.PREFLIGHT_OPERATOR_KEY, bootstrap: opts.bootstrap });
  // The queue is there before the door opens, so no job is queued without it. An embedded database has no other
  // process to work its queue: with --no-worker it has none, and queued jobs wait for a drain.
  const worker =
    opts.worker || !service.embedded
      ? await QueueWorker.start({ service, webhooks, env: config.env, concurrency: opts.concurrency ?? defaultConcurrency(), work: opts.worker })
      : null;
  const door = await startHttpDoor(serveDoors({ service, accounts, webhooks, env: config.env }), {
    port: opts.port,
    host: opts.host,
    publicUrl: opts.publicUrl,
    restUrls: true,
  });
  if (access.created) {
    process.stdout.write(`Operator API key (shown once, store it now): ${access.created}\n`);
  }
  const mode = opts.worker ? 'worker in process' : 'no worker: jobs wait for `preflight worker`';
  process.stdout.write(`preflight serve: listening on ${door.url} (REST /v1, MCP ${door.url}${MCP_HTTP_PATH}; data dir ${config.home}; ${mode})\n`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await door.close();
    await worker?.stop(STOP_GRACE_MS);
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
