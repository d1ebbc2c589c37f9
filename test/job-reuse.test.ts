// Nothing checked twice through the doors: a job whose bytes, file name, sidecars, profile, checks and engine are those
// of an earlier completed job of the same workspace reuses its stored report (no decode). Real `preflight serve` over
// HTTP, a real MCP client over stdio, real media.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from './helpers/fixtures.js';
import { uploadFile } from './helpers/http-client.js';
import { apiRequest as api, startServe, type RunningServer } from './helpers/serve.js';

const OPERATOR_KEY = 'op_test_key_reuse_0123456789abcdef0123456789';
const BIN = resolve(import.meta.dirname, '../bin/preflight.js');

let server: RunningServer;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  server = await startServe({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'reuse-test-signing-key-0123456789' }, { args: ['--no-worker'] });
  keyA = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'A', workspace_id: 'ws_reuse_a', plan_id: 'creator' } })).json.apiKey;
  keyB = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { name: 'B', workspace_id: 'ws_reuse_b', plan_id: 'creator' } })).json.apiKey;
}, 120_000);

afterAll(() => {
  server?.proc.kill('SIGTERM');
});

const upload = (key: string, file: string) => uploadFile(server, key, file);

async function job(key: string, body: Record<string, unknown>) {
  const created = await api(server, 'POST', '/v1/qc/jobs', { key, body });
  expect(created.status, created.text).toBe(201);
  expect(created.json.status).toBe('completed');
  const jobId: string = created.json.jobId;
  const status = (await api(server, 'GET', `/v1/qc/jobs/${jobId}`, { key })).json;
  const events: { event_type: string; detail?: string }[] = (await api(server, 'GET', `/v1/qc/jobs/${jobId}/events`, { key })).json.events;
  const report = (await api(server, 'GET', `/v1/qc/jobs/${jobId}/report`, { key })).json;
  const stages: string[] = status.observability.stages.map((s: { status: string }) => s.status);
  return { jobId, status, events, report, stages };
}

const eventTypes = (events: { event_type: string }[]) => events.map((e) => e.event_type);

describe('job reuse over REST', () => {
  it('a second job on the same bytes reuses the first one’s report: no decode, same flags, its own usage and receipt', async () => {
    const file = await fx.blackInterior();
    const first = await job(keyA, { upload_id: await upload(keyA, file) });
    expect(first.status.reusedFrom).toBeNull();
    expect(first.stages).toContain('analyse');
    expect(eventTypes(first.events)).not.toContain('report.reused');
    expect(first.report.verdict).toBe('BLOCK');
    expect(first.report.usage).toMatchObject({ minutesMetered: 1, freeRecheck: false });

    const second = await job(keyA, { upload_id: await upload(keyA, file) });
    expect(second.status.reusedFrom).toBe(first.jobId);
    expect(second.events.find((e) => e.event_type === 'report.reused')?.detail).toBe(first.jobId);
    expect(eventTypes(second.events)).not.toContain('stage.analyse');
    expect(second.stages).toEqual(['probe', 'reuse', 'report']);
    expect(JSON.stringify(second.report.flags)).toBe(JSON.stringify(first.report.flags));
    expect(JSON.stringify(second.report.gates)).toBe(JSON.stringify(first.report.gates));
    expect(second.report.usage).toMatchObject({ minutesMetered: 0, freeRecheck: true });
    expect(second.status.minutesMetered).toBe(0);
    expect(second.report.createdAt).not.toBe(first.report.createdAt);

    // A fresh receipt under the new job id, valid on its own.
    const receipt = (await api(server, 'GET', `/v1/qc/jobs/${second.jobId}/receipt`, { key: keyA })).json;
    expect(receipt).toMatchObject({ jobId: second.jobId, verdict: 'BLOCK', sha256: first.report.media.sha256 });
    expect((await api(server, 'POST', '/v1/public/receipts/verify', { body: receipt })).json).toMatchObject({ valid: true, authentic: true });

    // The visual report keeps the first page's charts and contact sheet; only the receipt and check time differ.
    const html1 = (await api(server, 'GET', `/v1/qc/jobs/${first.jobId}/report.html`, { key: keyA })).text;
    const html2 = (await api(server, 'GET', `/v1/qc/jobs/${second.jobId}/report.html`, { key: keyA })).text;
    const sheet = (html: string) => html.slice(html.indexOf('<section id="contact-sheet">'), html.indexOf('<section id="gates">'));
    expect(sheet(html1)).toContain('data:image/png');
    expect(sheet(html2)).toBe(sheet(html1));
    expect(html2).toContain(second.jobId);
    expect(html2).not.toContain(first.jobId);
    expect(html2).toContain(`checked ${second.report.createdAt}`);

    // Markers are issued again under the new job.
    const markers = await api(server, 'GET', `/v1/qc/jobs/${second.jobId}/artifacts/markers`, { key: keyA });
    expect(markers.text).toBe((await api(server, 'GET', `/v1/qc/jobs/${first.jobId}/artifacts/markers`, { key: keyA })).text);

    // reuse: false checks afresh (and is still a free re-check); another workspace never sees this one's reports.
    const forced = await job(keyA, { upload_id: await upload(keyA, file), reuse: false });
    expect(forced.status.reusedFrom).toBeNull();
    expect(forced.stages).toContain('analyse');
    expect(forced.report.usage).toMatchObject({ freeRecheck: true });
    expect(JSON.stringify(forced.report.flags)).toBe(JSON.stringify(first.report.flags));
    const other = await job(keyB, { upload_id: await upload(keyB, file) });
    expect(other.status.reusedFrom).toBeNull();
    expect(other.stages).toContain('analyse');
  }, 240_000);

  it('a different profile, different checks or a different file name is checked afresh', async () => {
    const file = await fx.cleanShort();
    const base = await job(keyA, { upload_id: await upload(keyA, file) });
    const profiled = await job(keyA, { upload_id: await upload(keyA, file), profile: 'video_site_longform' });
    expect(profiled.status.reusedFrom).toBeNull();
    expect(profiled.stages).toContain('analyse');
    const narrowed = await job(keyA, { upload_id: await upload(keyA, file), checks: 'black_frames' });
    expect(narrowed.status.reusedFrom).toBeNull();
    expect(narrowed.stages).toContain('analyse');
    // The same narrowed check again reuses the narrowed one, never the full one.
    expect((await job(keyA, { upload_id: await upload(keyA, file), checks: 'black_frames' })).status.reusedFrom).toBe(narrowed.jobId);
    expect((await job(keyA, { upload_id: await upload(keyA, file) })).status.reusedFrom).toBe(base.jobId);
    // The file name is in the report and its repair commands: the same bytes under another name are checked afresh.
    const still = readFileSync(await fx.stillImage()).toString('base64');
    const inline = (filename: string) => ({ media_base64: still, media_content_type: 'image/png', filename });
    const take1 = await job(keyA, inline('take1.png'));
    expect(take1.status.reusedFrom).toBeNull();
    expect((await job(keyA, inline('take1.png'))).status.reusedFrom).toBe(take1.jobId);
    expect((await job(keyA, inline('take2.png'))).status.reusedFrom).toBeNull();
  }, 240_000);
});

describe('job reuse over MCP', () => {
  it('qc_run_local_file twice on the same file: the second run reuses the first report', async () => {
    const home = mkdtempSync(join(tmpdir(), 'preflight-mcp-reuse-'));
    const client = new Client({ name: 'preflight-reuse-test', version: '1.0.0' });
    const env = { ...process.env, PREFLIGHT_HOME: home, PREFLIGHT_SIGNING_KEY: '', NODE_ENV: 'production' } as Record<string, string>;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, stderr: 'pipe', cwd: '/' }));
    try {
      const run = async (args: Record<string, unknown>) => {
        const result = (await client.callTool({ name: 'qc_run_local_file', arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        return result.structuredContent as { job_id: string; status: string; verdict: string; reused_from: string | null };
      };
      const file = await fx.cleanShort();
      const first = await run({ file_path: file });
      expect(first).toMatchObject({ status: 'completed', reused_from: null });
      const second = await run({ file_path: file });
      expect(second).toMatchObject({ status: 'completed', verdict: first.verdict, reused_from: first.job_id });
      const status = (await client.callTool({ name: 'qc_get_job', arguments: { job_id: second.job_id } })) as CallToolResult;
      const job = (status.structuredContent as { job: { reusedFrom: string; observability: { stages: { status: string }[] } } }).job;
      expect(job.reusedFrom).toBe(first.job_id);
      expect(job.observability.stages.map((s) => s.status)).not.toContain('analyse');
      const events = (await client.callTool({ name: 'qc_get_events', arguments: { job_id: second.job_id } })) as CallToolResult;
      expect(JSON.stringify(events.structuredContent)).toContain('report.reused');
      expect((await run({ file_path: file, reuse: false })).reused_from).toBeNull();
    } finally {
      await client.close();
    }
  }, 240_000);
});
