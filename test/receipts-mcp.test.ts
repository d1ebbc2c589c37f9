// Receipts through a real MCP client over stdio: a narrowed re-run is a repair step (not upload-ready, and
// qc_get_receipt is an isError result), and qc_verify_receipt reports coverage, takes a key document for another
// issuer's receipt and refuses what it cannot vouch for.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../tools/definitions.js';
import * as fx from './helpers/fixtures.js';

const BIN = resolve(import.meta.dirname, '../bin/preflight.js');
const home = mkdtempSync(join(tmpdir(), 'preflight-receipts-mcp-'));
const work = mkdtempSync(join(tmpdir(), 'preflight-receipts-mcp-work-'));

let client: Client;

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
}

async function ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const parsed = TOOLS.find((t) => t.name === name)!.output.safeParse(result.structuredContent);
  expect(parsed.success, `${name} output: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  return result.structuredContent as T;
}

async function fails(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

beforeAll(async () => {
  client = new Client({ name: 'preflight-receipts-test', version: '1.0.0' });
  const env = { ...process.env, PREFLIGHT_HOME: home, PREFLIGHT_SIGNING_KEY: '', PREFLIGHT_RECEIPT_KEY: '', NODE_ENV: 'production' } as Record<string, string>;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, stderr: 'pipe', cwd: '/' }));
});

afterAll(async () => {
  await client?.close();
});

describe('receipts over MCP', () => {
  it('a checks=loudness re-run of a blocking file is a repair step: never upload-ready, and its receipt is an isError result', async () => {
    const file = await fx.blackInterior();
    const run = await ok<{ job_id: string; verdict: string; summary: string; next_step: string }>('qc_run_local_file', { file_path: file, checks: 'loudness' });
    expect(run.verdict).toBe('PASS');
    expect(run.summary).not.toMatch(/^PASS: Upload-ready/);
    expect(run.summary).toMatch(/^PASS on the gates that ran, but not upload-ready and no receipt: this check ran 1 of the 12 gates video_site_longform requires of video with sound .*run the full profile to get a receipt \(1 checked minute metered\)\.$/);
    expect(run.next_step).toMatch(/run the full profile \(no narrowed checks\) on the final file, free for the same file within the month/);
    const report = await ok<{ upload_ready: boolean; upload_readiness: string }>('qc_get_report', { job_id: run.job_id });
    expect(report.upload_ready).toBe(false);
    expect(report.upload_readiness).toMatch(/run the full profile to get a receipt/);
    const text = await fails('qc_get_receipt', { job_id: run.job_id });
    expect(text).toMatch(/^receipt_incomplete_check: Job \S+ has no receipt: this check ran 1 of the 12 gates video_site_longform requires of video with sound/);
    expect(text).toContain('run the full profile to get a receipt');
  });

  it('a full run has a receipt that verifies, with coverage, and the file fixes its media', async () => {
    const file = await fx.cleanPodcast();
    const run = await ok<{ job_id: string; verdict: string; summary: string }>('qc_run_local_file', { file_path: file });
    expect(run.summary).toMatch(/^PASS: Upload-ready\./);
    const { receipt } = await ok<{ receipt: Record<string, unknown> }>('qc_get_receipt', { job_id: run.job_id });
    const verified = await ok<Record<string, unknown>>('qc_verify_receipt', { receipt, file_path: file });
    expect(verified).toMatchObject({
      valid: true,
      checked: true,
      upload_ready: true,
      hash_matches: true,
      signatures: { hmac: 'valid', ed25519: 'valid' },
      coverage: { complete: true, judgedFrom: 'file', media: 'audio', profile: 'podcast_delivery' },
    });
    // An own __proto__ key survives the MCP door and is refused, not silently dropped.
    const withProto = JSON.parse(JSON.stringify(receipt).replace(/^\{/, '{"__proto__":{"verdict":"PASS"},')) as Record<string, unknown>;
    expect(await ok('qc_verify_receipt', { receipt: withProto })).toMatchObject({ valid: false, reason: 'malformed receipt: unknown field "__proto__"' });
    expect(await fails('qc_verify_receipt', { receipt, sha256: 'not-a-hash' })).toMatch(/sha256 must be 64 hexadecimal characters/);
  });

  it("verifies another issuer's receipt with its key document, and refuses it without", async () => {
    const otherHome = join(work, 'other');
    const env = { ...process.env, PREFLIGHT_HOME: otherHome, PREFLIGHT_SIGNING_KEY: '', PREFLIGHT_RECEIPT_KEY: '' };
    const file = await fx.cleanPodcast();
    expect((await execa('node', [BIN, 'check', file, '--receipt', join(work, 'other.json')], { env, reject: false })).exitCode).toBe(0);
    const keys = JSON.parse((await execa('node', [BIN, 'receipt-keys'], { env })).stdout) as Record<string, unknown>;
    const receipt = JSON.parse(readFileSync(join(work, 'other.json'), 'utf8')) as Record<string, unknown>;
    expect(await ok('qc_verify_receipt', { receipt, public_keys: keys, file_path: file })).toMatchObject({ valid: true, upload_ready: true, signatures: { ed25519: 'valid', hmac: 'not_checked' } });
    expect(await ok('qc_verify_receipt', { receipt })).toMatchObject({ valid: false, upload_ready: false, signatures: { ed25519: 'unknown_key' } });
    expect(await fails('qc_verify_receipt', { receipt, public_keys: { keys: [] } })).toMatch(/^invalid_public_keys: /);
  });
});
