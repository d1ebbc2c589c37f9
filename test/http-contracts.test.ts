// One authenticator, one error table: the REST routes and the MCP mount answer a missing key, a bad key and a missing
// scope alike; engine failures get their real status (503 no ffmpeg, 504 a time limit, 400 only bad input); and
// docs/api.md lists each code with the status the code table gives it, and the artifacts of the artifact table.
// In process, through app.request().
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../engine/errors.js';
import { ERROR_STATUS, ServiceError } from '../src/errors.js';
import { ARTIFACTS } from '../src/jobs/artifact-table.js';
import { inProcessApp, type InProcessApp } from './helpers/in-process-app.js';

const OPERATOR_KEY = 'prv_operator_http_errors_0123456789abcdef';
const THROWS = '/test/throws/:code';

let door: InProcessApp;
let readOnlyKey: string;

beforeAll(async () => {
  door = await inProcessApp({ PREFLIGHT_OPERATOR_KEY: OPERATOR_KEY, PREFLIGHT_SIGNING_KEY: 'http-errors-test-signing-key-0123' }, (deps) => ({
    ...deps,
    mounts: [
      ...(deps.mounts ?? []),
      {
        path: THROWS,
        handle: async (request) => {
          throw new EngineError(new URL(request.url).pathname.split('/').pop()!, 'thrown by the test mount', { from: 'test' });
        },
      },
    ],
  }));
  const key = await door.request('POST', '/v1/api-keys', { key: OPERATOR_KEY, body: { workspace_id: 'ws_errors', scopes: ['jobs:read'] } });
  expect(key.status, key.text).toBe(201);
  readOnlyKey = key.json.apiKey;
});

afterAll(() => door?.close());

describe('one authenticator for both doors', () => {
  it('answers 401 unauthorized with the bearer challenge on a route and on /mcp alike', async () => {
    for (const path of ['/v1/qc/jobs', '/mcp']) {
      for (const key of [undefined, 'prv_nope_nope']) {
        const r = await door.request(path === '/mcp' ? 'POST' : 'GET', path, { key, body: path === '/mcp' ? {} : undefined });
        expect(r.status, `${path} ${key}`).toBe(401);
        expect(r.json.error.code).toBe('unauthorized');
        expect(r.headers.get('www-authenticate')).toBe('Bearer realm="preflight"');
      }
    }
  });

  it('answers a missing scope the same way at the route and inside the operation', async () => {
    const route = await door.request('POST', '/v1/qc/jobs', { key: readOnlyKey, body: {} });
    expect(route.status).toBe(403);
    expect(route.json.error).toEqual({ code: 'insufficient_scope', message: 'This API key lacks the scope "jobs:write".', details: { requiredScope: 'jobs:write' } });
    const margins = await door.request('GET', '/v1/usage/margins', { key: readOnlyKey });
    expect(margins.json.error.details).toEqual({ requiredScope: 'operator' });
  });
});

describe('engine errors over HTTP', () => {
  it.each([
    ['ffmpeg_unavailable', 503],
    ['ocr_unavailable', 503],
    ['timeout', 504],
    ['unsupported_media', 400],
    ['invalid_profile', 400],
    ['cancelled', 499],
  ])('answers %s with %i', async (code, status) => {
    const r = await door.request('GET', `/test/throws/${code}`, { key: readOnlyKey });
    expect(r.status).toBe(status);
    expect(r.json.error).toEqual({ code, message: 'thrown by the test mount', details: { from: 'test' } });
  });

  it('gives a ServiceError the status of its code unless it names one', () => {
    expect(new ServiceError('job_not_found', 'x').status).toBe(404);
    expect(new ServiceError('remote_error', 'x', {}, 418).status).toBe(418);
    expect(new ServiceError('not_in_the_table', 'x').status).toBe(400);
  });
});

describe('docs/api.md "Error codes"', () => {
  it('lists each code with the status of the code table', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../docs/api.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Error codes'), doc.indexOf('## Limits'));
    const rows = [...section.matchAll(/^\| (\d{3}) \| (.+) \|$/gm)];
    expect(rows.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const [, status, codes] of rows) {
      // Parentheses explain a code with field names, which are not codes.
      for (const [, code] of codes.replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+)`/g)) {
        if (ERROR_STATUS.get(code) !== Number(status) && code !== 'http_error') wrong.push(`${code}: docs ${status}, table ${ERROR_STATUS.get(code)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the REST sub-apps, mounted with app.route()', () => {
  it('serves an OpenAPI 3.1 document (version 0.1.0) that covers the endpoints', async () => {
    const doc = (await door.request('GET', '/openapi.json')).json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0');
    for (const path of ['/v1/qc/estimate', '/v1/qc/jobs', '/v1/qc/jobs/drain', '/v1/qc/jobs/{job_id}', '/v1/qc/jobs/{job_id}/report', '/v1/qc/jobs/{job_id}/events', '/v1/qc/jobs/{job_id}/artifacts', '/v1/qc/jobs/{job_id}/artifacts/markers', '/v1/qc/jobs/{job_id}/receipt', '/v1/qc/jobs/{job_id}/gate-verdict', '/v1/uploads', '/v1/uploads/{upload_id}', '/v1/uploads/{upload_id}/content', '/v1/usage', '/v1/usage/margins', '/v1/abuse-events', '/v1/spend-alerts', '/v1/api-keys', '/v1/checkout/provision-api-key', '/v1/webhooks', '/v1/webhooks/deliveries', '/v1/public/receipts/verify', '/healthz', '/v1/health/engine', '/v1/readiness']) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(doc.components.securitySchemes.Bearer.scheme).toBe('bearer');
  });

  it('answers unknown routes 404 and bad bodies 400 in the one error shape', async () => {
    expect((await door.request('GET', '/nope')).json.error).toEqual({ code: 'not_found', message: 'No route for GET /nope.', details: {} });
    const bad = await door.request('POST', '/v1/qc/estimate', { key: readOnlyKey, body: { profile: 'bogus' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'invalid_input', details: { issues: [expect.objectContaining({ path: ['profile'] })] } });
  });
});

describe('the artifact table', () => {
  it('is the table docs/api.md lists, and every artifact has its REST route', async () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../docs/api.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| `([^`]+)` \| `([^`]+)` \| `([^`]+)`/gm)].map(([, kind, file, contentType, restPath]) => ({ kind, file, contentType, restPath }));
    expect(rows).toEqual(ARTIFACTS.map(({ kind, file, contentType, restPath }) => ({ kind, file, contentType, restPath })));
    const spec = (await door.request('GET', '/openapi.json')).json as { paths: Record<string, { get?: unknown }> };
    for (const a of ARTIFACTS) expect(spec.paths[`/v1/qc/jobs/{job_id}/${a.restPath}`]?.get, a.file).toBeDefined();
  });
});
