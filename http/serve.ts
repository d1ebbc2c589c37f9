// Starts the HTTP door on a real port (loopback by default) and tells the service where clients reach it.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createHttpApp, type HttpDeps } from './app.js';

export interface RunningHttpDoor {
  url: string;
  close(): Promise<void>;
}

export function startHttpDoor(deps: HttpDeps, opts: { port: number; host?: string; publicUrl?: string; restUrls?: boolean }): Promise<RunningHttpDoor> {
  const host = opts.host ?? '127.0.0.1';
  const app = createHttpApp(deps);
  return new Promise((resolve, reject) => {
    let server: ServerType;
    try {
      server = serve({ fetch: app.fetch, port: opts.port, hostname: host }, (info: AddressInfo) => {
        const shownHost = host.includes(':') ? `[${host}]` : host;
        const url = opts.publicUrl ?? `http://${shownHost}:${info.port}`;
        deps.service.attachHttp(url, { restUrls: opts.restUrls, issuer: opts.publicUrl });
        resolve({
          url,
          close: () =>
            new Promise<void>((done) => {
              deps.service.attachHttp(null);
              server.close(() => done());
            }),
        });
      });
      server.on('error', reject);
      // Uploads and synchronous checks may take longer than Node's default 5-minute request timeout.
      (server as unknown as { requestTimeout: number }).requestTimeout = 0;
    } catch (err) {
      reject(err);
    }
  });
}
