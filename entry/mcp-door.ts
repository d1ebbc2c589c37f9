// `preflight mcp` once its options are read (entry/mcp.ts): the service or the remote backend, the agent tools over
// stdio, and the upload port.
import { serveOverStdio } from '../tools/stdio.js';
import { ENGINE_VERSION } from '../engine/check.js';
import { engineCapabilities } from '../engine/ffmpeg/capabilities.js';
import { startHttpDoor, type RunningHttpDoor } from '../http/serve.js';
import { loadConfig, type Config } from '../src/config.js';
import { collectOperationalState } from '../src/public/operational.js';
import { LOCAL_PRINCIPAL, PreflightService } from '../src/service.js';
import { RemoteBackend, remoteConfigFromEnv, type RemoteConfig } from '../tools/remote.js';
import { deferredBackend } from '../tools/deferred-backend.js';
import { createMcpServer, runWaitMsFromEnv } from '../tools/server.js';
import { defaultConcurrency, workerOnDemand } from '../src/worker/index.js';
import { exitStartFailed } from './options.js';

export interface McpOptions {
  uploadPort?: number;
  host: string;
  http?: string;
}

/** How long a closing MCP session lets queued jobs finish before they are handed back (queued for the next start). */
const STOP_GRACE_MS = 5_000;

/** Remote mode: the same tools against a `preflight serve` (no local data dir, no queue worker). */
async function serveRemote(remote: RemoteConfig): Promise<void> {
  if (remote.warning) process.stderr.write(`preflight mcp: ${remote.warning}\n`);
  const server = createMcpServer({ service: new RemoteBackend(remote), principal: LOCAL_PRINCIPAL, runWaitMs: runWaitMsFromEnv(process.env), localFiles: true });
  await serveOverStdio(server, async () => {});
  process.stderr.write(`preflight mcp: remote mode: ${remote.host}; serving over stdio\n`);
}

export async function runMcp(opts: McpOptions): Promise<void> {
  let remote: RemoteConfig | null = null;
  try {
    remote = remoteConfigFromEnv(process.env);
    if (remote && opts.uploadPort !== undefined) throw new Error('--upload-port serves the local data dir and cannot be combined with remote mode (PREFLIGHT_API_URL).');
  } catch (err) {
    exitStartFailed('preflight mcp', err);
  }
  if (remote) return serveRemote(remote);

  const config = loadConfig();
  // The tools answer initialize and tools/list while the store opens, and a call waits for it (tools/deferred-backend.ts).
  // open() locks the data dir before its first wait, so a second server on it exits before it reads a message; a store
  // that fails to open later ends the process with the reason, as it did before serving.
  let worker: ReturnType<typeof workerOnDemand> | null = null;
  const opened = PreflightService.open({ home: config.home, env: config.env }).then(
    (service) => {
      // Queued (process_async) jobs run in a worker in this process, started when the first one is queued.
      worker = workerOnDemand({ service, env: config.env, concurrency: defaultConcurrency() });
      return service;
    },
    (err: unknown) => exitStartFailed('preflight mcp', err),
  );
  const door = opts.uploadPort === undefined ? null : await openUploadDoor(await opened, config, opts.uploadPort, opts.host);
  const server = createMcpServer({ service: deferredBackend(opened), principal: LOCAL_PRINCIPAL, runWaitMs: runWaitMsFromEnv(config.env), localFiles: true });
  await serveOverStdio(server, async () => {
    const service = await opened;
    await door?.close();
    await worker?.stop(STOP_GRACE_MS);
    await service.close();
  });
  const uploads = door ? `; upload port ${door.url} (signed upload PUTs and public documents only)` : '';
  process.stderr.write(`preflight mcp: serving over stdio (data dir ${config.home})${uploads}\n`);
}

/** The upload port: no key can be created here, so no bearer route would ever answer; it serves the public routes and the signed upload PUT. */
async function openUploadDoor(service: PreflightService, config: Config, port: number, host: string): Promise<RunningHttpDoor> {
  try {
    return await startHttpDoor(
      {
        service,
        auth: { authenticate: async () => null },
        state: () => collectOperationalState({ service, env: config.env, version: ENGINE_VERSION, engine: engineCapabilities }),
      },
      { port, host },
    );
  } catch (err) {
    exitStartFailed('preflight mcp', err);
  }
}
