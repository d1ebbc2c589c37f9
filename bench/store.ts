// npm run bench -- store [sizes...]: the store under load (issue 15). Seeds 1k, 10k and 100k jobs with their reports
// through the repositories on each engine (PGlite on disk; the Postgres server at PREFLIGHT_BENCH_DATABASE_URL or
// PREFLIGHT_TEST_DATABASE_URL, in a schema of its own dropped afterwards) and prints start-up time, p50/p99 of get job,
// get report, list jobs (limit 100) and create one more job, and the size on disk. Then the same for the old lowdb
// store at 1k and 10k ("before"). Targets: reads p99 < 20 ms and create p99 < 50 ms at 100k, flat from 1k to 100k.
// Last, the queue's throughput on 1 worker against 2 (bench/throughput.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { JobRecord } from '../src/jobs/record.js';
import { openDatabase, type Database } from '../src/storage/database.js';
import { LocalObjectStore } from '../src/storage/object-store.js';
import type { OpenSqlOptions } from '../src/storage/sql.js';
import { Store } from '../src/store/db.js';
import { throughputBench } from './throughput.js';

const WORKSPACES = 20;
const SAMPLES = 200;
const f = (n: number, digits = 2) => n.toFixed(digits);

/** A record of the size today's jobs have (about 2.5 KB of JSON): stages, estimate, ingress, artifacts. */
function benchJob(i: number): JobRecord {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    jobId: `job_bench_${String(i).padStart(7, '0')}`,
    workspaceId: `ws_${i % WORKSPACES}`,
    status: 'completed',
    progressPct: 100,
    stage: null,
    verdict: i % 3 === 0 ? 'WATCH' : 'PASS',
    minutesMetered: 2,
    profile: 'youtube',
    requestedProfile: 'youtube',
    createdAt: at,
    startedAt: at,
    completedAt: at,
    processingDurationMs: 4210,
    failureReason: null,
    stages: ['probe', 'decode', 'loudness', 'video', 'text', 'report', 'artifacts', 'receipt'].map((status, s) => ({ status, progressPct: s * 12, elapsedMs: s * 500, at })),
    engine: 'preflight-qc/0.1.0 ffmpeg 7.1',
    mediaIngress: { kind: 'local_path', bytes: 104857600, sha256: randomBytes(32).toString('hex') } as unknown as JobRecord['mediaIngress'],
    sidecarIngress: null,
    sourceRedacted: false,
    costEstimate: { mediaMinutes: 2, estimatedCostCents: 4, breakdown: { decodeCents: 1, aiReviewCents: 0, storageCents: 1 }, guardrail: 'off', plan: null } as unknown as JobRecord['costEstimate'],
    idempotencyKey: null,
    request: { source: { kind: 'local_path', path: `/srv/media/batch-${i % 97}/episode-${i}.mp4` }, profile: 'youtube' },
    artifacts: (['report.json', 'markers.csv', 'markers.edl', 'report.html', 'receipt.json'] as const).map((file) => ({
      artifact_type: 'report_json' as const,
      file,
      contentType: 'application/json',
      bytes: 4096,
      createdAt: at,
    })),
    summary: { block: 0, watch: i % 3 === 0 ? 1 : 0 },
    sourceUrlSha256: null,
  };
}

const REPORT = JSON.stringify({ verdict: 'PASS', flags: Array.from({ length: 12 }, (_, k) => ({ id: `flag_${k}`, at: k * 1.5, gate: 'loudness', repair: { action: 'normalize', instruction: 'x'.repeat(120) } })) });

interface Timing {
  p50: number;
  p99: number;
}

async function timed(samples: number, run: (k: number) => Promise<unknown> | unknown): Promise<Timing> {
  const ms: number[] = [];
  for (let k = 0; k < samples; k++) {
    const start = performance.now();
    await run(k);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length * 0.5)]!, p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]! };
}

function duBytes(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((sum, name) => sum + duBytes(join(path, name)), 0);
}

interface Row {
  engine: string;
  jobs: number;
  startupMs: number;
  getJob: Timing;
  getReport: Timing;
  list: Timing;
  create: Timing;
  dbMb: number;
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

async function measure(engine: string, db: Database, objects: LocalObjectStore, ids: readonly string[], jobs: number, startupMs: number, dbMb: number): Promise<Row> {
  let created = 0;
  return {
    engine,
    jobs,
    startupMs,
    getJob: await timed(SAMPLES, () => db.jobs.get(pick(ids))),
    getReport: await timed(SAMPLES, async () => {
      const job = await db.jobs.get(pick(ids));
      return objects.get(`jobs/${job!.jobId}/report.json`);
    }),
    list: await timed(SAMPLES, (k) => db.jobs.list({ workspaceId: `ws_${k % WORKSPACES}`, limit: 100 })),
    create: await timed(SAMPLES, async () => {
      const record = { ...benchJob(0), jobId: `job_new_${jobs}_${++created}`, status: 'queued' as const, idempotencyKey: randomBytes(8).toString('hex') };
      await db.jobs.create(record, { key: record.idempotencyKey, requestSha256: null });
    }),
    dbMb,
  };
}

async function seed(db: Database, objects: LocalObjectStore | null, from: number, to: number, ids: string[]): Promise<void> {
  for (let start = from; start < to; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, to - start) }, (_, k) => benchJob(start + k));
    await db.jobs.insertMany(batch);
    if (objects) for (const job of batch) await objects.put(`jobs/${job.jobId}/report.json`, REPORT);
    ids.push(...batch.map((j) => j.jobId));
  }
}

async function dbSizeMb(db: Database, options: OpenSqlOptions): Promise<number> {
  if (options.dir) return duBytes(options.dir) / 1e6;
  const [row] = await db.sql.query<{ bytes: string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [options.schema],
  );
  return Number(row!.bytes) / 1e6;
}

async function engineBench(engine: string, options: OpenSqlOptions, sizes: number[], objects: LocalObjectStore, reportIds: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  let db = await openDatabase(options);
  const ids: string[] = [];
  try {
    for (const size of sizes) {
      // The reports are written once (the first engine) and read by both: they do not depend on the engine.
      const needReports = reportIds.length < size;
      const before = ids.length;
      process.stderr.write(`${engine}: seeding ${before} → ${size} jobs ...\n`);
      await seed(db, needReports ? objects : null, before, size, ids);
      if (needReports) reportIds.push(...ids.slice(reportIds.length));
      await db.close();
      const start = performance.now();
      db = await openDatabase(options);
      await db.jobs.get(ids[0]!);
      const startupMs = performance.now() - start;
      const row = await measure(engine, db, objects, ids, size, startupMs, await dbSizeMb(db, options));
      rows.push(row);
      printRow(row);
    }
  } finally {
    await db.close();
  }
  return rows;
}

function printRow(r: Row): void {
  const t = (x: Timing) => `${f(x.p50)}/${f(x.p99)}`;
  console.log(
    `${r.engine.padEnd(8)} ${String(r.jobs).padStart(7)} jobs: start-up ${f(r.startupMs, 0)} ms; p50/p99 ms: get job ${t(r.getJob)}, get report ${t(r.getReport)}, list 100 ${t(r.list)}, create ${t(r.create)}; database ${f(r.dbMb, 1)} MB`,
  );
}

async function lowdbBench(sizes: number[]): Promise<void> {
  for (const size of sizes) {
    const home = mkdtempSync(join(tmpdir(), 'pf-bench-lowdb-'));
    try {
      let store = await Store.open(home);
      const jobs = Array.from({ length: size }, (_, i) => benchJob(i));
      await store.update((d) => void d.jobs.push(...jobs));
      for (const job of jobs) store.writeJobFile(job.jobId, 'report.json', REPORT);
      const start = performance.now();
      store = await Store.open(home);
      const startupMs = performance.now() - start;
      const ids = jobs.map((j) => j.jobId);
      let created = 0;
      const row: Row = {
        engine: 'lowdb',
        jobs: size,
        startupMs,
        getJob: await timed(SAMPLES, () => {
          const id = pick(ids);
          return store.data.jobs.find((j) => j.jobId === id);
        }),
        getReport: await timed(SAMPLES, () => {
          const id = pick(ids);
          const job = store.data.jobs.find((j) => j.jobId === id);
          return store.readJobFile(job!.jobId, 'report.json');
        }),
        list: await timed(SAMPLES, (k) =>
          store.data.jobs
            .filter((j) => j.workspaceId === `ws_${k % WORKSPACES}`)
            .slice(-100)
            .reverse(),
        ),
        // Every create rewrites the whole file: fewer samples, or this alone would take minutes at 10k.
        create: await timed(size > 5000 ? 30 : SAMPLES, () => store.update((d) => void d.jobs.push({ ...benchJob(0), jobId: `job_new_${++created}`, status: 'queued' }))),
        dbMb: statSync(join(home, 'db.json')).size / 1e6,
      };
      printRow(row);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
}

/** `npm run bench -- store [sizes...]`; `npm run bench -- store throughput` runs the throughput part alone. */
export async function storeBench(args: string[]): Promise<void> {
  const url = process.env.PREFLIGHT_BENCH_DATABASE_URL?.trim() || process.env.PREFLIGHT_TEST_DATABASE_URL?.trim() || null;
  if (args[0] === 'throughput') return throughputBench(url);
  const sizes = args.length ? args.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [1000, 10_000, 100_000];
  const work = mkdtempSync(join(tmpdir(), 'pf-bench-store-'));
  const objects = new LocalObjectStore(join(work, 'objects'));
  const reportIds: string[] = [];
  const schema = `pf_bench_${process.pid}`;
  try {
    console.log('store benchmark (issue 15): reads p99 < 20 ms and create p99 < 50 ms at 100k jobs, flat from 1k to 100k');
    await engineBench('pglite', { dir: join(work, 'db') }, sizes, objects, reportIds);
    if (url) await engineBench('postgres', { url, schema }, sizes, objects, reportIds);
    else console.log('postgres: skipped (set PREFLIGHT_BENCH_DATABASE_URL or PREFLIGHT_TEST_DATABASE_URL)');
    console.log(`objects: ${f(duBytes(join(work, 'objects')) / 1e6, 1)} MB of reports for ${reportIds.length} jobs`);
    console.log('before (lowdb db.json, today):');
    await lowdbBench(sizes.filter((n) => n <= 10_000));
    await throughputBench(url);
  } finally {
    if (url) {
      const pg = await openDatabase({ url, maxConnections: 1 });
      await pg.sql.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pg.close();
    }
    rmSync(work, { recursive: true, force: true });
  }
}
