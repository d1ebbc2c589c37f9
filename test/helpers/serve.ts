// Real servers on loopback for the door tests: a free port, and `preflight serve` in its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/preflight.js');

export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => done(port));
    });
  });
}

export interface RunningServer {
  url: string;
  proc: ChildProcess;
  home: string;
}

/** Starts `preflight serve` on a free loopback port (with a fresh data dir unless given one) and waits until it listens. */
export async function startServe(env: Record<string, string>, home = mkdtempSync(join(tmpdir(), 'preflight-serve-'))): Promise<RunningServer> {
  const port = await freePort();
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], {
    env: { ...process.env, PREFLIGHT_HOME: home, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((ready, fail) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('listening on') && ready());
    proc.on('exit', (code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}`, proc, home };
}
