// `preflight serve` once its options are read (entry/serve.ts): the services, the operator key, the queue worker and
// the HTTP door.
import { loadConfig } from '../src/config.js';
import { MCP_HTTP_PATH } from '../src/public/mcp-install.js';
import { defaultConcurrency, QueueWorker } from '../src/worker/index.js';
import { openServerServices } from '../src/worker/services.js';
import { startHttpDoor } from '../http/serve.js';
import { serveDoors } from './serve-doors.js';

export interface ServeOptions {
  port: number;
  host: string;
  bootstrap: boolean;
  publicUrl?: string;
  worker: boolean;
  concurrency?: number;
}

/** How long SIGTERM lets running jobs finish before they are handed back to the queue. */
const STOP_GRACE_MS = 30_000;

export async function runServe(opts: ServeOptions): Promise<void> {
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

