// `preflight worker`: takes queued jobs and webhook deliveries from the queue of the database it shares with
// `preflight serve --no-worker` (PREFLIGHT_DATABASE_URL) and runs them, up to --concurrency at once. SIGTERM (or
// SIGINT) lets the running jobs finish for --grace seconds and hands the rest back to the queue; a second signal hands
// them back at once. A worker killed outright (kill -9) leaves its jobs to their lease: another worker runs them.
import { loadConfig } from '../config.js';
import { defaultConcurrency, QueueWorker } from '../worker/index.js';
import { openServerServices } from '../worker/services.js';
import { EXIT } from './exit.js';

export interface WorkerFlags {
  concurrency?: number;
  publicUrl?: string;
  grace: number;
}

export async function workerCommand(flags: WorkerFlags): Promise<number> {
  const config = loadConfig();
  const { service, webhooks } = await openServerServices(config);
  // Job URLs in webhook payloads and the issuer in receipts are the API's, as `serve --public-url` makes them.
  if (flags.publicUrl) service.attachHttp(flags.publicUrl, { restUrls: true, issuer: flags.publicUrl });
  const concurrency = flags.concurrency ?? defaultConcurrency();
  let worker: QueueWorker;
  try {
    worker = await QueueWorker.start({ service, webhooks, env: config.env, concurrency });
  } catch (err) {
    await service.close();
    throw err;
  }
  const where = service.embedded ? `the embedded database in ${config.home} (set PREFLIGHT_DATABASE_URL to share jobs with other processes)` : 'the Postgres server at PREFLIGHT_DATABASE_URL';
  process.stdout.write(`preflight worker: working, up to ${concurrency} job(s) at once, on ${where}\n`);

  return new Promise<number>((done) => {
    let signals = 0;
    const stop = () => {
      if (++signals > 1) {
        process.stderr.write('preflight worker: handing the running jobs back now\n');
        void service.handBack();
        return;
      }
      process.stderr.write(`preflight worker: stopping; running jobs get ${flags.grace} s to finish, then go back to the queue\n`);
      void worker
        .stop(flags.grace * 1000)
        .then(() => service.close())
        .then(
          () => done(EXIT.ok),
          (err: Error) => {
            process.stderr.write(`preflight worker: ${err.message}\n`);
            done(EXIT.error);
          },
        );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
