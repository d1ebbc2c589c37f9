// `preflight serve`: the REST door (http/) with accounts, webhooks and the queue worker, and the MCP tools (tools/)
// over Streamable HTTP at /mcp behind the same bearer keys. It never runs open: without an operator key
// (PREFLIGHT_OPERATOR_KEY, or --bootstrap once) it refuses to start.
// Only the command line is read here: --help and a bad option answer before the server's code loads.
import { MCP_HTTP_PATH } from '../src/public/mcp-install.js';
import { parseConcurrency } from '../src/worker/concurrency.js';
import type { ServeOptions } from './serve-door.js';
import { exitStartFailed, newCommand, parseCommand, portNumber } from './options.js';

const DEFAULT_PORT = 8787;

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

try {
  const opts = options();
  const { runServe } = await import('./serve-door.js');
  await runServe(opts);
} catch (err) {
  exitStartFailed('preflight serve', err);
}
