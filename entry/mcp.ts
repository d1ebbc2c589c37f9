// `preflight mcp`: the agent tools (tools/) over stdio, against the service in this process or, with PREFLIGHT_API_URL
// and PREFLIGHT_API_KEY, against a remote `preflight serve`. With --upload-port it also opens the upload door (http/)
// so qc_create_upload_url works: signed upload PUTs and the public documents, nothing that needs an API key.
import { serveOverStdio } from '../tools/stdio.js';
import { Option } from 'commander';
import { ENGINE_VERSION } from '../engine/check.js';
import { EngineError } from '../engine/errors.js';
import { engineCapabilities } from '../engine/ffmpeg/capabilities.js';
import { startHttpDoor, type RunningHttpDoor } from '../http/serve.js';
import { loadConfig } from '../src/config.js';
import { ServiceError } from '../src/errors.js';
import { MCP_HTTP_PATH } from '../src/public/mcp-install.js';
import { collectOperationalState } from '../src/public/operational.js';
import { LOCAL_PRINCIPAL, PreflightService } from '../src/service.js';
import { RemoteBackend, remoteConfigFromEnv, type RemoteConfig } from '../tools/remote.js';
import { createMcpServer, runWaitMsFromEnv } from '../tools/server.js';
import { defaultConcurrency, workerOnDemand } from '../src/worker/index.js';
import { newCommand, parseCommand, portNumber } from './options.js';

/** How long a closing MCP session lets queued jobs finish before they are handed back (queued for the next start). */
const STOP_GRACE_MS = 5_000;

interface McpOptions {
  uploadPort?: number;
  host: string;
  http?: string;
}

function options(): McpOptions {
  const cmd = newCommand(
    'preflight mcp',
    'Serve the Preflight agent tools over MCP stdio (for Claude, Cursor, VS Code, Codex: see mcp-install.json). ' +
      'Local mode checks files on this machine; with PREFLIGHT_API_URL and PREFLIGHT_API_KEY set, the same tools call a remote preflight serve. ' +
      `For MCP over HTTP, run preflight serve and connect to its ${MCP_HTTP_PATH}.`,
  )
    .option(
      '--upload-port <port>',
      'also serve signed upload URLs (PUT) and the public documents on this HTTP port, so qc_create_upload_url works (local mode; no /v1 API, no MCP)',
      portNumber,
    )
    .option('--host <host>', 'address of the upload port', '127.0.0.1')
    .addOption(new Option('--http <port>').hideHelp());
  const opts = parseCommand<McpOptions>(cmd, process.argv.slice(3));
  if (opts.http !== undefined) {
    throw new Error(`--http is now --upload-port: it serves upload URLs, not MCP. For MCP over HTTP run \`preflight serve\` and connect to ${MCP_HTTP_PATH}.`);
  }
  return opts;
}

function exitWithError(err: unknown): never {
  const message = err instanceof ServiceError || err instanceof EngineError ? err.message : (err as Error).message;
  process.stderr.write(`preflight mcp: ${message}\n`);
  process.exit(2);
}

/** Remote mode: the same tools against a `preflight serve` (no local data dir, no queue worker). */
async function serveRemote(remote: RemoteConfig): Promise<void> {
  if (remote.warning) process.stderr.write(`preflight mcp: ${remote.warning}\n`);
  const server = createMcpServer({ service: new RemoteBackend(remote), principal: LOCAL_PRINCIPAL, runWaitMs: runWaitMsFromEnv(process.env), localFiles: true });
  await serveOverStdio(server, async () => {});
  process.stderr.write(`preflight mcp: remote mode: ${remote.host}; serving over stdio\n`);
}

async function main(): Promise<void> {
  let opts: McpOptions;
  let remote: RemoteConfig | null = null;
  try {
    opts = options();
    remote = remoteConfigFromEnv(process.env);
    if (remote && opts.uploadPort !== undefined) throw new Error('--upload-port serves the local data dir and cannot be combined with remote mode (PREFLIGHT_API_URL).');
  } catch (err) {
    exitWithError(err);
  }
  if (remote) return serveRemote(remote);

  let service: PreflightService;
  let door: RunningHttpDoor | null = null;
  const config = loadConfig();
  try {
    service = await PreflightService.open({ home: config.home, env: config.env });
    if (opts.uploadPort !== undefined) {
      const svc = service;
      // No key can be created here, so no bearer route would ever answer: the door serves the public routes and the signed upload PUT.
      door = await startHttpDoor(
        {
          service: svc,
          auth: { authenticate: async () => null },
          state: () => collectOperationalState({ service: svc, env: config.env, version: ENGINE_VERSION, engine: engineCapabilities }),
        },
        { port: opts.uploadPort, host: opts.host },
      );
    }
  } catch (err) {
    exitWithError(err);
  }
  const server = createMcpServer({ service, principal: LOCAL_PRINCIPAL, runWaitMs: runWaitMsFromEnv(config.env), localFiles: true });
  // Queued (process_async) jobs run in a worker in this process, started when the first one is queued.
  const worker = workerOnDemand({ service, env: config.env, concurrency: defaultConcurrency() });
  await serveOverStdio(server, async () => {
    await door?.close();
    await worker.stop(STOP_GRACE_MS);
    await service.close();
  });
  const uploads = door ? `; upload port ${door.url} (signed upload PUTs and public documents only)` : '';
  process.stderr.write(`preflight mcp: serving over stdio (data dir ${config.home})${uploads}\n`);
}

await main();
