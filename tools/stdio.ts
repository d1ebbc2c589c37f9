// `preflight mcp`: the MCP server over stdio. stdout carries protocol only; every log goes to stderr.
import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { EngineError } from '../engine/errors.js';
import { loadConfig } from '../src/config.js';
import { ServiceError } from '../src/errors.js';
import { LOCAL_PRINCIPAL, PreflightService } from '../src/service.js';
import { startHttpDoor, type RunningHttpDoor } from '../http/serve.js';
import { createMcpServer } from './server.js';
import { RemoteBackend, remoteConfigFromEnv, type RemoteConfig } from './remote.js';
import { ENGINE_VERSION } from '../engine/check.js';
import { engineCapabilities } from '../engine/ffmpeg/capabilities.js';
import { collectOperationalState } from '../src/public/operational.js';

// Anything that calls console.log would corrupt the protocol stream.
// eslint-disable-next-line no-console -- rebinding it to stderr is the point
console.log = (...args: unknown[]) => console.error(...args);

/** How long a run tool waits before handing back a running job to poll: well inside a client's 60 s default. */
const RUN_WAIT_MS = 45_000;

function options(): { httpPort: number | null; host: string } {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { http: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } },
    strict: true,
  });
  if (values.http === undefined) return { httpPort: null, host: values.host };
  const port = Number(values.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--http needs a port number (0-65535), got "${values.http}"`);
  return { httpPort: port, host: values.host };
}

function exitWithError(err: unknown): never {
  const message = err instanceof ServiceError || err instanceof EngineError ? err.message : (err as Error).message;
  process.stderr.write(`preflight mcp: ${message}\n`);
  process.exit(2);
}

const runWaitMs = () => Number(process.env.PREFLIGHT_MCP_RUN_WAIT_MS) || RUN_WAIT_MS;

/** Connects the server to stdio and exits cleanly (after `cleanup`) when stdin closes or on SIGINT/SIGTERM. */
async function serveOverStdio(server: McpServer, cleanup: () => Promise<void>): Promise<void> {
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => {});
    await cleanup();
    process.exit(0);
  };
  // The SDK's stdio transport does not end on stdin EOF (SDK issue #2002): exit ourselves.
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(transport);
}

/** Remote mode: the same tools against a `preflight serve` (no local data dir, no queue worker). */
async function serveRemote(remote: RemoteConfig): Promise<void> {
  if (remote.warning) process.stderr.write(`preflight mcp: ${remote.warning}\n`);
  const server = createMcpServer({ service: new RemoteBackend(remote), principal: LOCAL_PRINCIPAL, runWaitMs: runWaitMs() });
  await serveOverStdio(server, async () => {});
  process.stderr.write(`preflight mcp: remote mode: ${remote.host}; serving over stdio\n`);
}

export async function main(): Promise<void> {
  let remote: RemoteConfig | null = null;
  try {
    remote = remoteConfigFromEnv(process.env);
    if (remote && options().httpPort !== null) throw new Error('--http serves the local data dir and cannot be combined with remote mode (PREFLIGHT_API_URL).');
  } catch (err) {
    exitWithError(err);
  }
  if (remote) return serveRemote(remote);

  let service: PreflightService;
  let door: RunningHttpDoor | null = null;
  try {
    const opts = options();
    const config = loadConfig();
    service = await PreflightService.open({ home: config.home, env: config.env });
    if (opts.httpPort !== null) {
      const svc = service;
      // The local door serves the public routes and the signed upload PUT; bearer routes need `preflight serve` and its keys.
      door = await startHttpDoor(
        {
          service: svc,
          auth: { authenticate: () => null },
          state: () => collectOperationalState({ service: svc, env: config.env, version: ENGINE_VERSION, engine: engineCapabilities }),
        },
        { port: opts.httpPort, host: opts.host },
      );
    }
  } catch (err) {
    exitWithError(err);
  }
  const server = createMcpServer({ service, principal: LOCAL_PRINCIPAL, runWaitMs: runWaitMs() });
  // Queued (process_async) jobs are drained in the background.
  const stopQueue = service.startQueueWorker((err) => process.stderr.write(`preflight mcp: drain failed: ${err.message}\n`));
  await serveOverStdio(server, async () => {
    stopQueue();
    await door?.close();
    await service.close();
  });
  process.stderr.write(`preflight mcp: serving over stdio (data dir ${loadConfig().home})${door ? `; HTTP door at ${door.url}` : ''}\n`);
}

await main();
