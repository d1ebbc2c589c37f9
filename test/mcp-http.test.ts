// MCP over Streamable HTTP: a real `preflight serve` on a loopback port and the SDK's StreamableHTTPClientTransport,
// as a remote agent connects with a URL and a workspace key.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_CATALOGUE } from '../src/tool-catalogue.js';
import * as fx from './helpers/fixtures.js';
import { startServe, type RunningServer } from './helpers/serve.js';

const OPERATOR_KEY = 'op_mcp_http_test_key_0123456789abcdef01234567';

let server: RunningServer;
let writerKey: string;
let readerKey: string;
const clients: Client[] = [];

async function createKey(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${server.url}/v1/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

async function connect(key: string | null): Promise<Client> {
  const client = new Client({ name: 'preflight-http-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number }) => void) =>
  (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...(onprogress ? { onprogress } : {}) })) as CallToolResult;

beforeAll(async () => {
  server = await startServe({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'mcp-http-test-signing-key-0123456789' });
  writerKey = await createKey({ name: 'agent', workspace_id: 'ws_agent', plan_id: 'creator' });
  readerKey = await createKey({ name: 'reader', workspace_id: 'ws_agent', scopes: ['jobs:read', 'reports:read'] });
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  server?.proc.kill('SIGTERM');
});

describe('MCP over Streamable HTTP at /mcp of preflight serve', () => {
  it('answers 401 without a key or with a wrong one, as /v1 does', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    for (const authorization of [undefined, 'Bearer prv_not_a_key_0123456789']) {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(init),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    await expect(connect(null)).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/unauthorized/) });
  });

  it('lists the tools a remote agent can use, with the upload-first repair loop as instructions', async () => {
    const client = await connect(writerKey);
    expect(client.getInstructions()).toMatch(/^1\. qc_run_video: Upload the final export: qc_create_upload_url/);
    expect(client.getInstructions()!.split('\n')).toHaveLength(5);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    // qc_run_local_file reads files of the machine it runs on: the server's, never the remote agent's.
    expect(names.sort()).toEqual(TOOL_CATALOGUE.filter((t) => !t.localFilesOnly).map((t) => t.name).sort());
    expect(names).not.toContain('qc_run_local_file');
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${writerKey}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });

  it('runs a check on an upload: reserve, PUT the bytes, run with progress, read the report and its HTML', async () => {
    const client = await connect(writerKey);
    const bytes = readFileSync(await fx.blackInterior());
    const reserve = await call(client, 'qc_create_upload_url', { filename: 'final.mp4', content_type: 'video/mp4', size_bytes: bytes.length });
    expect(reserve.isError, JSON.stringify(reserve.content)).toBeFalsy();
    const upload = reserve.structuredContent as { upload_id: string; signed_put_url: string };
    expect(upload.signed_put_url.startsWith(`${server.url}/v1/uploads/`)).toBe(true);
    expect((await fetch(upload.signed_put_url, { method: 'PUT', body: bytes })).status).toBe(200);

    const progress: number[] = [];
    const run = await call(client, 'qc_run_video', { upload_id: upload.upload_id, profile: 'generic_creator_video' }, (p) => progress.push(p.progress));
    expect(run.isError, JSON.stringify(run.content)).toBeFalsy();
    const job = run.structuredContent as { job_id: string; status: string; verdict: string; media_ingress: { mode: string } };
    expect(job).toMatchObject({ status: 'completed', verdict: 'BLOCK', media_ingress: { mode: 'signed_upload' } });
    expect(progress.length).toBeGreaterThan(0);

    const report = await call(client, 'qc_get_report', { job_id: job.job_id });
    const body = report.structuredContent as { verdict: string; flags: { gate: string; timestamp: string }[]; share_url: string };
    expect(body.verdict).toBe('BLOCK');
    expect(body.flags.find((f) => f.gate === 'black_frames')?.timestamp).toBe('00:00:04.000');
    expect(body.share_url).toBe(`${server.url}/v1/qc/jobs/${job.job_id}/report.html`);
    const html = await fetch(body.share_url, { headers: { authorization: `Bearer ${writerKey}` } });
    expect(html.status).toBe(200);
    expect(await html.text()).toMatch(/<!DOCTYPE html>/i);

    // Another key of the same workspace reads the job, within its scopes.
    const reader = await connect(readerKey);
    const seen = await call(reader, 'qc_get_job', { job_id: job.job_id });
    expect(seen.structuredContent).toMatchObject({ status: 'completed', verdict: 'BLOCK' });
  });

  it("decides by the key's scopes which tools it may call, and never reads the server's files", async () => {
    const reader = await connect(readerKey);
    const refused = await call(reader, 'qc_run_video', { upload_id: 'upl_0' });
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toBe('insufficient_scope: qc_run_video needs an API key with the jobs:write scope.');
    const upload = await call(reader, 'qc_create_upload_url', { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: 10 });
    expect((upload.content[0] as { text: string }).text).toMatch(/^insufficient_scope: .*uploads:write/);
    const verify = await call(reader, 'qc_verify_receipt', { receipt: { schema: 'preflight-receipt/1' }, file_path: '/etc/passwd' });
    expect(verify.isError).toBe(true);
    expect((verify.content[0] as { text: string }).text).toMatch(/^local_paths_not_accepted: /);
    const recipes = await call(reader, 'qc_get_pipeline_recipes', {});
    expect(recipes.isError).toBeFalsy();
  });
});
