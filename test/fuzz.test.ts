// A seeded fuzzer over a real port: it walks /openapi.json and sends every operation boundary and malformed values
// (numbers at 0, −1, 2^53+1, 1e308; NaN-like strings; deep and large JSON; wrong types; missing required fields; no
// key; another workspace's key), each request under a time limit. No answer may be a 5xx, none may hang, and the
// server must still be alive and healthy at the end.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ApiAnswer } from './helpers/http-client.js';
import { startServe, type RunningServer } from './helpers/serve.js';

const OPERATOR_KEY = 'op_fuzz_key_0123456789abcdef0123456789abcdef';
const CHECKOUT_SECRET = 'fuzz-checkout-secret';
const REQUEST_LIMIT_MS = 5_000;
const SEED = 0x5eed_2026;

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const deepText = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
const deepObject = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as unknown;
const wideObject = (keys: number) => Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));

/** Values every field gets, whatever its type. */
const BOUNDARY_VALUES: unknown[] = [
  0, -1, 1, 2 ** 53 + 1, -(2 ** 53 + 1), 1e308, -1e308, 1.5, 'NaN', 'Infinity', '-Infinity', '1e999', '0x10', '', ' ',
  'x'.repeat(5_000), true, false, null, [], {}, [1, 'a', null], deepObject(200), wideObject(5_000), '../../etc/passwd',
  'https://127.0.0.1/', '\u0000', '💥'.repeat(100),
];

/** Query and path values (strings on the wire). */
const STRING_VALUES = ['0', '-1', '9007199254740993', '1e308', 'NaN', 'Infinity', '', 'x'.repeat(3_000), '%00', '../x', 'null', '[]', '{}', 'operator'];

/** Whole bodies, raw. */
const RAW_BODIES = ['{', '[]', 'null', '"text"', '12', deepText(10_000), `{"unknown_field":${deepText(10_000)},"idempotency_key":"fuzz"}`, JSON.stringify(wideObject(50_000)), JSON.stringify({ a: 'x'.repeat(2 * 1024 * 1024) })];

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
}

interface Operation {
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: { name: string; in: 'query' | 'path' | 'header' }[];
}

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

let server: RunningServer;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  server = await startServe({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'fuzz-signing-key-0123456789', PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: CHECKOUT_SECRET }, { args: ['--no-worker'] });
  const all = ['jobs:read', 'jobs:write', 'reports:read', 'uploads:write', 'webhooks:write', 'api_keys:read', 'api_keys:write'];
  keyA = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: 'ws_fuzz_a', scopes: all } })).json.apiKey;
  keyB = (await api(server, 'POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: 'ws_fuzz_b', scopes: all } })).json.apiKey;
}, 60_000);

afterAll(() => {
  server?.proc.kill('SIGKILL');
});

describe('fuzzing every operation of /openapi.json', () => {
  it('never answers 5xx, never hangs, and leaves the server alive and healthy', async () => {
    const doc = (await api(server, 'GET', '/openapi.json')).json as OpenApi;
    const random = seeded(SEED);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const resolve = (schema: Schema | undefined): Schema | undefined =>
      schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;

    // Ids that exist, in workspace A: another workspace's key must not reach them.
    const reserved = (await api(server, 'POST', '/v1/uploads', { key: keyA, body: { filename: 'a.mp4', content_type: 'video/mp4', size_bytes: 100 } })).json;
    expect((await fetch(reserved.signedPutUrl, { method: 'PUT', body: 'x'.repeat(100) })).status).toBe(200);
    const uploadA = reserved.uploadId as string;
    const jobA = (await api(server, 'POST', '/v1/qc/jobs', { key: keyA, body: { upload_id: uploadA, process_async: true } })).json.jobId as string;
    const webhookA = (await api(server, 'POST', '/v1/webhooks', { key: keyA, body: { url: 'https://hooks.example.com/in' } })).json.webhookId as string;
    const realIds: Record<string, string> = { upload_id: uploadA, webhook_id: webhookA, job_id: jobA, key_id: 'key_missing', delivery_id: 'dlv_missing' };

    const failures: string[] = [];
    let sent = 0;
    const send = async (label: string, method: string, path: string, opts: Parameters<typeof api>[3] = {}): Promise<ApiAnswer | null> => {
      sent++;
      try {
        const answer = await api(server, method, path, { ...opts, timeoutMs: REQUEST_LIMIT_MS });
        if (answer.status >= 500) failures.push(`${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
        return answer;
      } catch (err) {
        failures.push(`${label}: no answer within ${REQUEST_LIMIT_MS} ms (${(err as Error).name})`);
        return null;
      }
    };

    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(operations)) {
        const method = verb.toUpperCase();
        const bearer = (op.security ?? []).length > 0;
        const concrete = template.replace(/\{(\w+)\}/g, (_m, name: string) => realIds[name] ?? 'missing');
        const label = `${method} ${template}`;
        const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
        const validish = bodySchema ? {} : undefined;

        if (bearer) {
          const anonymous = await send(`${label} without a key`, method, concrete, { body: validish });
          if (anonymous && anonymous.status !== 401) failures.push(`${label} without a key: ${anonymous.status}`);
          await send(`${label} with another workspace's key`, method, concrete, { key: keyB, body: validish });
        }
        const key = bearer ? keyA : undefined;

        for (const param of op.parameters ?? []) {
          for (const value of [...STRING_VALUES, pick(STRING_VALUES) + pick(STRING_VALUES)]) {
            if (param.in === 'path') {
              const path = template.replace(`{${param.name}}`, encodeURIComponent(value)).replace(/\{(\w+)\}/g, (_m, name: string) => realIds[name] ?? 'missing');
              await send(`${label} ${param.name}=${value.slice(0, 20)}`, method, path, { key, body: validish });
            } else if (param.in === 'query') {
              await send(`${label} ?${param.name}=${value.slice(0, 20)}`, method, `${concrete}?${param.name}=${encodeURIComponent(value)}`, { key, body: validish });
            }
          }
        }

        if (!op.requestBody) continue;
        await send(`${label} with no body`, method, concrete, { key });
        for (const raw of RAW_BODIES) {
          await send(`${label} raw ${raw.slice(0, 16)}…`, method, concrete, { key, raw, headers: { 'content-type': 'application/json' } });
        }
        const properties = Object.keys(bodySchema?.properties ?? {});
        for (const property of properties) {
          for (const value of [...BOUNDARY_VALUES, random() * 10 ** Math.floor(random() * 20) * (random() < 0.5 ? -1 : 1)]) {
            await send(`${label} ${property}=${JSON.stringify(value)?.slice(0, 24)}`, method, concrete, { key, body: { [property]: value } });
          }
        }
      }
    }

    // The checkout webhook is outside OpenAPI: unsigned, wrongly signed and signed-but-malformed bodies.
    const sign = (raw: string) => createHmac('sha256', CHECKOUT_SECRET).update(raw).digest('hex');
    for (const raw of [...RAW_BODIES, `{"type":"order.paid","data":${deepText(5_000)}}`, JSON.stringify({ type: 'order.paid', data: { plan_id: 'studio', owner_email: 'a@b.c', overage_cap_cents: 1e308 } })]) {
      await send('POST /v1/webhooks/checkout unsigned', 'POST', '/v1/webhooks/checkout', { raw, headers: { 'content-type': 'application/json' } });
      await send('POST /v1/webhooks/checkout signed', 'POST', '/v1/webhooks/checkout', { raw, headers: { 'content-type': 'application/json', 'x-signature': sign(raw) } });
    }

    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1_000);
    expect(server.proc.exitCode).toBeNull();
    expect((await api(server, 'GET', '/healthz', { timeoutMs: REQUEST_LIMIT_MS })).status).toBe(200);
  });
});
