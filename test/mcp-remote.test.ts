// MCP remote mode end to end: `preflight serve` on a loopback port, and `preflight mcp` with PREFLIGHT_API_URL and
// PREFLIGHT_API_KEY (and a data dir of its own) driven by a real MCP client over stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../tools/definitions.js';
import * as fx from './helpers/fixtures.js';
import { freePort, startServe } from './helpers/serve.js';

const BIN = resolve(import.meta.dirname, '../bin/preflight.js');
const OPERATOR_KEY = 'op_remote_test_key_0123456789abcdef0123456789';
const work = mkdtempSync(join(tmpdir(), 'preflight-mcp-remote-work-'));


let serverUrl: string;
let serverProc: ChildProcess;
let apiKey: string;
const clients: Client[] = [];

async function startServer(): Promise<void> {
  const server = await startServe({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'remote-test-signing-key-0123456789' });
  serverUrl = server.url;
  serverProc = server.proc;
}

async function api(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${serverUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked field by field
}

interface McpProcess {
  client: Client;
  stderr: () => string;
}

/** `preflight mcp` with the given environment; a fresh data dir each time, never the server's. */
async function connectMcp(env: Record<string, string>): Promise<McpProcess> {
  const client = new Client({ name: 'preflight-remote-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { ...(process.env as Record<string, string>), PREFLIGHT_HOME: mkdtempSync(join(tmpdir(), 'preflight-remote-mcp-')), PREFLIGHT_SIGNING_KEY: '', NODE_ENV: 'production', ...env },
    stderr: 'pipe',
    cwd: '/',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

let remote: McpProcess;

async function call(client: Client, name: string, args: Record<string, unknown> = {}, onprogress?: (p: { progress: number }) => void): Promise<CallToolResult> {
  const options = onprogress ? { onprogress, resetTimeoutOnProgress: true, timeout: 120_000 } : { timeout: 120_000 };
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
}

/** Runs whose findings a test does not read check one cheap gate: the same remote job path without the OCR. */
const CHEAP = 'black_frames';

/** Calls a tool that must succeed, and checks its structuredContent against the tool's own output schema. */
async function ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}, onprogress?: (p: { progress: number }) => void): Promise<T> {
  const result = await call(remote.client, name, args, onprogress);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const parsed = TOOLS.find((t) => t.name === name)!.output.safeParse(result.structuredContent);
  expect(parsed.success, `${name} output: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

async function fails(client: Client, name: string, args: Record<string, unknown>, code: RegExp): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const text = (result.content[0] as { text: string }).text;
  expect(text).toMatch(code);
  return text;
}

async function pollJob(client: Client, jobId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 120; i++) {
    const job = (await call(client, 'qc_get_job', { job_id: jobId })).structuredContent!;
    if (job.status === 'completed' || job.status === 'failed') return job;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** Runs `preflight mcp` to its exit (it must not start serving). */
async function exitOf(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const proc = spawn(process.execPath, [BIN, 'mcp'], { env: { ...process.env, PREFLIGHT_API_URL: '', PREFLIGHT_API_KEY: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => proc.on('exit', done));
  return { code, stderr };
}

beforeAll(async () => {
  await startServer();
  const created = await api('POST', '/v1/api-keys', OPERATOR_KEY, { name: 'remote mcp', workspace_id: 'ws_remote', plan_id: 'creator' });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  apiKey = created.json.apiKey;
  remote = await connectMcp({ PREFLIGHT_API_URL: serverUrl, PREFLIGHT_API_KEY: apiKey });
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  serverProc?.kill('SIGTERM');
});

describe('preflight mcp in remote mode', () => {
  it('says it is in remote mode, naming the host and never the key', () => {
    expect(remote.stderr()).toContain(`remote mode: ${new URL(serverUrl).host}`);
    expect(remote.stderr()).not.toContain(apiKey);
  });

  it('lists the same 15 tools with the same schemas and annotations as local mode', async () => {
    const local = await connectMcp({ PREFLIGHT_API_URL: '', PREFLIGHT_API_KEY: '' });
    const [remoteTools, localTools] = await Promise.all([remote.client.listTools(), local.client.listTools()]);
    expect(remoteTools.tools).toHaveLength(15);
    expect(remoteTools.tools).toEqual(localTools.tools);
    await local.client.close();
  });

  it('runs the repair loop against the server: upload → BLOCK with timestamps → clean file PASS → receipt verifies → re-run meters 0', async () => {
    const defect = await fx.blackInterior();
    const progress: number[] = [];
    const run = await ok<{ job_id: string; status: string; verdict: string; minutes_metered: number; media_ingress: { mode: string }; next_step: string }>(
      'qc_run_local_file',
      { file_path: defect, profile: 'generic_creator_video' },
      (p) => progress.push(p.progress),
    );
    expect(run).toMatchObject({ status: 'completed', verdict: 'BLOCK', minutes_metered: 1, media_ingress: { mode: 'signed_upload' } });
    expect(run.next_step).toContain('qc_get_report');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // The job's own progress came through. The final 100 is sent too (test/remote-progress.test.ts), but the SDK client drops
    // a notification it reads in the same chunk as the result, which a loaded machine can cause whatever the gap.
    expect(progress.at(-1)).toBeGreaterThan(10);

    const report = await ok<{ verdict: string; flags: { gate: string; severity: string; timestamp: string }[]; share_url: string }>('qc_get_report', { job_id: run.job_id });
    expect(report.verdict).toBe('BLOCK');
    expect(report.flags.find((f) => f.gate === 'black_frames')).toMatchObject({ severity: 'BLOCK', timestamp: '00:00:04.000' });
    expect(report.share_url).toBe(`${serverUrl}/v1/qc/jobs/${run.job_id}/report.html`);

    // The job lives on the server, in the key's workspace.
    const listed = await api('GET', '/v1/qc/jobs', apiKey);
    expect(listed.json.jobs.map((j: { jobId: string }) => j.jobId)).toContain(run.job_id);
    expect((await ok<{ jobs: { jobId: string }[] }>('qc_list_jobs', { limit: 5 })).jobs.map((j) => j.jobId)).toContain(run.job_id);

    const job = await ok<{ status: string; progress_pct: number; media_ingress: { sha256: string } }>('qc_get_job', { job_id: run.job_id });
    expect(job).toMatchObject({ status: 'completed', progress_pct: 100 });
    expect(job.media_ingress.sha256).toMatch(/^[0-9a-f]{64}$/);
    const events = await ok<{ events: { event_type: string }[] }>('qc_get_events', { job_id: run.job_id });
    expect(events.events.map((e) => e.event_type)).toEqual(expect.arrayContaining(['job.created', 'job.queued', 'job.started', 'job.completed']));
    const artifacts = await ok<{ artifacts: { artifact_type: string }[] }>('qc_get_artifacts', { job_id: run.job_id });
    expect(artifacts.artifacts.map((a) => a.artifact_type).sort()).toEqual(['markers_avid', 'markers_csv', 'markers_edl', 'markers_fcpxml', 'markers_premiere', 'receipt', 'report_html', 'report_json']);
    const csv = await ok<{ csv: string; rows: number }>('qc_get_marker_csv', { job_id: run.job_id });
    expect(csv.csv).toContain('black_frames');
    expect(csv.rows).toBeGreaterThan(0);
    const blockReceipt = await ok<{ verdict: string; blocked: string[] }>('qc_get_receipt', { job_id: run.job_id });
    expect(blockReceipt).toMatchObject({ verdict: 'BLOCK', blocked: expect.arrayContaining(['black_frames']) });

    // The job resources read through the server too.
    const resource = await remote.client.readResource({ uri: `preflight://jobs/${run.job_id}/report` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).verdict).toBe('BLOCK');
    const markers = await remote.client.readResource({ uri: `preflight://jobs/${run.job_id}/artifacts/markers.csv` });
    expect(markers.contents[0]).toMatchObject({ mimeType: 'text/csv', text: csv.csv });

    const clean = await fx.cleanShort();
    const rerun = await ok<{ job_id: string; verdict: string; minutes_metered: number }>('qc_run_local_file', { file_path: clean, profile: 'generic_creator_video' });
    expect(rerun.verdict).toBe('PASS');
    const receipt = await ok<{ verdict: string; receipt: Record<string, unknown> }>('qc_get_receipt', { job_id: rerun.job_id });
    expect(receipt.verdict).toBe('PASS');
    const verified = await ok<{ valid: boolean; hash_matches: boolean; upload_ready: boolean }>('qc_verify_receipt', { receipt: receipt.receipt, file_path: clean });
    expect(verified).toMatchObject({ valid: true, hash_matches: true, upload_ready: true });
    const signature = String(receipt.receipt.signature);
    const tampered = await ok<{ valid: boolean }>('qc_verify_receipt', { receipt: { ...receipt.receipt, signature: signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0') } });
    expect(tampered.valid).toBe(false);
    const wrongFile = await ok<{ valid: boolean; hash_matches: boolean }>('qc_verify_receipt', { receipt: receipt.receipt, file_path: defect });
    expect(wrongFile).toMatchObject({ valid: false, hash_matches: false });
    // With the server's published key document the receipt is verified in the MCP process itself, offline.
    const keys = (await (await fetch(`${serverUrl}/.well-known/preflight-receipt-keys.json`)).json()) as Record<string, unknown>;
    const offline = await ok('qc_verify_receipt', { receipt: receipt.receipt, file_path: clean, public_keys: keys });
    expect(offline).toMatchObject({ valid: true, upload_ready: true, signatures: { hmac: 'not_checked', ed25519: 'valid' } });
    // A narrowed re-run over REST is a repair step: no receipt (409 receipt_incomplete_check becomes an isError result).
    const narrowed = await ok<{ job_id: string; verdict: string }>('qc_run_local_file', { file_path: defect, checks: 'loudness' });
    expect(narrowed.verdict).toBe('PASS');
    await fails(remote.client, 'qc_get_receipt', { job_id: narrowed.job_id }, /^receipt_incomplete_check: .*run the full profile to get a receipt/);

    const again = await ok<{ minutes_metered: number; verdict: string }>('qc_run_local_file', { file_path: clean, profile: 'generic_creator_video' });
    expect(again).toMatchObject({ minutes_metered: 0, verdict: 'PASS' });
  });

  it('sends local sidecar files inline, and refuses sidecar_dir with a clear error', async () => {
    const transcript = join(work, 'transcript.srt');
    writeFileSync(transcript, '1\n00:00:00,500 --> 00:00:02,000\nHello and welcome.\n');
    const run = await ok<{ status: string; sidecar_ingress: { supplied: string[] } }>('qc_run_local_file', { file_path: await fx.cleanShort(), transcript_path: transcript, checks: CHEAP });
    expect(run).toMatchObject({ status: 'completed', sidecar_ingress: { supplied: ['transcript'] } });
    const manifest = join(work, 'broken-manifest.json');
    writeFileSync(manifest, '{"segments": [ {"start": 0, ');
    await fails(remote.client, 'qc_run_local_file', { file_path: await fx.cleanShort(), manifest_path: manifest }, /invalid_sidecar: .*broken-manifest\.json/);
    await fails(remote.client, 'qc_run_local_file', { file_path: await fx.cleanShort(), sidecar_dir: work }, /^sidecar_dir_unsupported: sidecar_dir is not available in remote mode/);
  });

  it('returns the same job for a repeated idempotency key', async () => {
    const file = await fx.cleanShort();
    const first = await ok<{ job_id: string; idempotent_replay: boolean }>('qc_run_local_file', { file_path: file, idempotency_key: 'remote-render-7', checks: CHEAP });
    const second = await ok<{ job_id: string; idempotent_replay: boolean }>('qc_run_local_file', { file_path: file, idempotency_key: 'remote-render-7', checks: CHEAP });
    expect(first.idempotent_replay).toBe(false);
    expect(second).toMatchObject({ job_id: first.job_id, idempotent_replay: true });
  });

  it('answers bad input with isError and the local-mode message, and keeps serving', async () => {
    await fails(remote.client, 'qc_run_local_file', { file_path: join(work, 'missing.mp4') }, /^file_not_found: No file at .*missing\.mp4/);
    await fails(remote.client, 'qc_run_local_file', { file_path: await fx.cleanShort(), checks: 'black_frames,bogus' }, /^invalid_checks: Unknown check: bogus\. Valid checks: /);
    await fails(remote.client, 'qc_get_report', { job_id: 'job_nope' }, /^job_not_found: /);
    await fails(remote.client, 'qc_get_job', { job_id: '../api-keys' }, /^job_not_found: /);
    expect((await remote.client.listTools()).tools).toHaveLength(15);
    expect((await ok<{ margin_safe: boolean }>('qc_estimate_cost', { duration_seconds: 600, plan_id: 'creator' })).margin_safe).toBe(true);
    expect((await fetch(`${serverUrl}/healthz`)).status).toBe(200);
  });

  it('hands back a job to poll when the run outlasts the wait, for queued and held (inline sidecar) runs', async () => {
    const impatient = await connectMcp({ PREFLIGHT_API_URL: serverUrl, PREFLIGHT_API_KEY: apiKey, PREFLIGHT_MCP_RUN_WAIT_MS: '300' });
    const queued = (await call(impatient.client, 'qc_run_local_file', { file_path: await fx.verticalShort(), checks: CHEAP })).structuredContent as { job_id: string; status: string; next_step: string };
    expect(['queued', 'running']).toContain(queued.status);
    expect(queued.next_step).toContain('poll qc_get_job');
    expect(await pollJob(impatient.client, queued.job_id)).toMatchObject({ status: 'completed' });

    const transcript = join(work, 'held.srt');
    writeFileSync(transcript, '1\n00:00:00,500 --> 00:00:02,000\nHello again.\n');
    const held = (await call(impatient.client, 'qc_run_local_file', { file_path: await fx.verticalShort(), transcript_path: transcript, checks: CHEAP })).structuredContent as { job_id: string; status: string };
    expect(held.status).toBe('running');
    expect(await pollJob(impatient.client, held.job_id)).toMatchObject({ status: 'completed', job: { sidecarIngress: { supplied: ['transcript'] } } });
  });

  it('reports a wrong key as unauthorized and an unreachable server by host, never showing the key', async () => {
    const wrongKey = 'prv_wrong_key_that_must_not_leak_0123456789';
    const intruder = await connectMcp({ PREFLIGHT_API_URL: serverUrl, PREFLIGHT_API_KEY: wrongKey });
    const listText = await fails(intruder.client, 'qc_list_jobs', {}, /^unauthorized: /);
    const runText = await fails(intruder.client, 'qc_run_local_file', { file_path: await fx.cleanShort() }, /^unauthorized: /);
    for (const text of [listText, runText, intruder.stderr()]) expect(text).not.toContain(wrongKey);

    const closedPort = await freePort();
    const lost = await connectMcp({ PREFLIGHT_API_URL: `http://127.0.0.1:${closedPort}`, PREFLIGHT_API_KEY: wrongKey });
    const text = await fails(lost.client, 'qc_get_job', { job_id: 'job_1' }, new RegExp(`^remote_unreachable: Cannot reach the Preflight server at 127\\.0\\.0\\.1:${closedPort}`));
    expect(text).not.toContain(wrongKey);
  });

  it('fails fast with exit 2 when remote mode is half configured or the URL is not http(s)', async () => {
    const onlyUrl = await exitOf({ PREFLIGHT_API_URL: serverUrl });
    expect(onlyUrl.code).toBe(2);
    expect(onlyUrl.stderr).toMatch(/PREFLIGHT_API_URL is set but PREFLIGHT_API_KEY is not/);
    const onlyKey = await exitOf({ PREFLIGHT_API_KEY: 'prv_secret_only_key_0123' });
    expect(onlyKey.code).toBe(2);
    expect(onlyKey.stderr).toMatch(/PREFLIGHT_API_KEY is set but PREFLIGHT_API_URL is not/);
    expect(onlyKey.stderr).not.toContain('prv_secret_only_key_0123');
    const ftp = await exitOf({ PREFLIGHT_API_URL: 'ftp://preflight.example', PREFLIGHT_API_KEY: 'k' });
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toMatch(/must be an http or https URL/);
    const garbage = await exitOf({ PREFLIGHT_API_URL: 'prv_pasted_key_by_mistake', PREFLIGHT_API_KEY: 'k' });
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/not a valid URL/);
    expect(garbage.stderr).not.toContain('prv_pasted_key_by_mistake');
  });
});
