// `npm run bench -- store`, last part: the queue's throughput on 1 worker against 2. A `preflight serve --no-worker`
// and 1 or 2 `preflight worker --concurrency 1` processes (own data dirs) share a fresh schema on the Postgres server
// and an S3-protocol object store (s3rver); N async jobs (10 s 720p clips, fresh checks) are created over HTTP and
// timed from the first create to the last finished job. Runs alternate 1, 2, 1, 2 workers (the machine's load moves);
// the CPU seconds the worker processes and their ffmpeg children used are printed beside the wall time.
import pg from 'pg';
import { startWorker, type RunningWorker } from '../test/helpers/cluster.js';
import { api, uploadFile } from '../test/helpers/http-client.js';
import { startS3rver } from '../test/helpers/s3rver.js';
import { startServe, type RunningServer } from '../test/helpers/serve.js';
import { until } from '../test/helpers/wait.js';
import { benchClip } from './batch.js';
import { cpuSeconds } from './tree-rss.js';

const OPERATOR_KEY = 'prv_bench_throughput_operator_key_0123456789';
const CLIP_SECONDS = 10;
interface Run {
  workers: number;
  wallSeconds: number;
  cpuSeconds: number;
  failed: number;
}

async function oneRun(url: string, workerCount: number, jobs: number, objectEnv: Record<string, string>): Promise<Run> {
  const schema = `pf_bench_tp_${process.pid}_${workerCount}_${Date.now() % 100_000}`;
  const env = { PREFLIGHT_DATABASE_URL: url, PREFLIGHT_DATABASE_SCHEMA: schema, ...objectEnv, PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'bench-throughput-signing-key-0123' };
  let server: RunningServer | null = null;
  const workers: RunningWorker[] = [];
  try {
    server = await startServe(env, { args: ['--no-worker'] });
    for (let w = 0; w < workerCount; w++) workers.push(await startWorker(env, ['--concurrency', '1']));
    const key = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'bench', workspace_id: 'ws_bench', plan_id: 'network' } })).json.apiKey as string;
    const media = await uploadFile(server, key, await benchClip(0, CLIP_SECONDS));
    const cpuBefore = workers.reduce((sum, w) => sum + cpuSeconds(w.pid, true), 0);
    const start = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < jobs; i++) {
      const created = await api(server, 'POST', '/v1/qc/jobs', { key, body: { upload_id: media, process_async: true, reuse: false }, timeoutMs: 60_000 });
      if (created.status !== 202) throw new Error(`create answered ${created.status}: ${created.text}`);
      ids.push(created.json.jobId as string);
    }
    const statuses = await until(
      'every job to finish',
      async () => {
        const listed = (await api(server!, 'GET', '/v1/qc/jobs?limit=100', { key })).json.jobs as { jobId: string; status: string }[];
        const mine = listed.filter((j) => ids.includes(j.jobId));
        return mine.every((j) => j.status === 'completed' || j.status === 'failed') && mine.length === ids.length && mine.map((j) => j.status);
      },
      30 * 60_000,
      250,
    );
    const wallSeconds = (performance.now() - start) / 1000;
    // Finished jobs' ffmpeg children have been waited for: their CPU is in the workers' figures now.
    const cpu = workers.reduce((sum, w) => sum + cpuSeconds(w.pid, true), 0) - cpuBefore;
    return { workers: workerCount, wallSeconds, cpuSeconds: cpu, failed: statuses.filter((s) => s === 'failed').length };
  } finally {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')));
    server?.proc.kill('SIGTERM');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE`);
    await client.end();
  }
}

export async function throughputBench(url: string | null, jobs = Number(process.env.PREFLIGHT_BENCH_THROUGHPUT_JOBS ?? 8)): Promise<void> {
  if (!url) {
    console.log('throughput: skipped (workers share a Postgres server: set PREFLIGHT_BENCH_DATABASE_URL or PREFLIGHT_TEST_DATABASE_URL)');
    return;
  }
  const s3 = await startS3rver('preflight-bench');
  try {
    console.log(`throughput: ${jobs} async jobs (${CLIP_SECONDS} s 720p, fresh checks) on 1 and on 2 workers (--concurrency 1 each), interleaved`);
    const runs: Run[] = [];
    for (const workers of [1, 2, 1, 2]) {
      const run = await oneRun(url, workers, jobs, s3.env('throughput'));
      runs.push(run);
      console.log(
        `  ${run.workers} worker(s): ${run.wallSeconds.toFixed(1)} s wall, ${((jobs / run.wallSeconds) * 60).toFixed(1)} jobs/min, ` +
          `${(run.cpuSeconds / jobs).toFixed(2)} CPU-s per job${run.failed ? `, ${run.failed} failed` : ''}`,
      );
    }
    const mean = (n: number) => runs.filter((r) => r.workers === n).reduce((sum, r) => sum + r.wallSeconds, 0) / runs.filter((r) => r.workers === n).length;
    console.log(`  2 workers against 1: ${(mean(1) / mean(2)).toFixed(2)}× the throughput (mean wall ${mean(1).toFixed(1)} s → ${mean(2).toFixed(1)} s)`);
  } finally {
    await s3.close();
  }
}
