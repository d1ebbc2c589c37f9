// Keeps docs/api.md honest: its endpoint index lists exactly the routes of the generated OpenAPI document (plus the
// checkout webhook, which is registered outside OpenAPI), with the scope each bearer route requires, and every
// `METHOD /path` the document mentions anywhere is a real route.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_IDS } from '../engine/gates/index.js';
import { ReportSchema } from '../engine/report-schema.js';
import { ACCEPTED_PROFILE_NAMES, DELIVERY_PROFILE_IDS } from '../engine/profiles/index.js';
import { serveDoors } from '../entry/serve-doors.js';
import { createHttpApp } from '../http/app.js';
import type { Env } from '../http/route.js';
import type { AccountService } from '../src/accounts/index.js';
import type { PreflightService } from '../src/service.js';
import type { WebhookService } from '../src/webhooks/index.js';
import { openServerServices } from '../src/worker/services.js';

const DOC_PATH = resolve(import.meta.dirname, '../docs/api.md');
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** Routes that are deliberately not part of the OpenAPI document. */
const OUTSIDE_OPENAPI = new Set(['POST /v1/webhooks/checkout', 'POST /mcp']);

interface Operation {
  security?: unknown[];
  'x-required-scope'?: string;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, { enum?: string[]; description?: string }> } }> };
}

interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
}

interface IndexRow {
  route: string;
  auth: string;
}

/** Rows of the endpoint index: `| GET | \`/path\` | auth | success |`. */
function indexRows(markdown: string): IndexRow[] {
  const row = new RegExp(`^\\|\\s*(${METHODS.join('|')})\\s*\\|\\s*\`([^\`]+)\`\\s*\\|\\s*([^|]*?)\\s*\\|`);
  const rows: IndexRow[] = [];
  for (const line of markdown.split('\n')) {
    const m = row.exec(line);
    if (m) rows.push({ route: `${m[1]} ${m[2]}`, auth: m[3] });
  }
  return rows;
}

/** Every `METHOD /path` written anywhere in the document (headings, prose, tables), trailing punctuation removed. */
function mentionedRoutes(markdown: string): string[] {
  const mention = new RegExp(`\\b(${METHODS.join('|')})\`? \`?(/[A-Za-z0-9_{}./-]*)`, 'g');
  return [...markdown.matchAll(mention)].map((m) => `${m[1]} ${m[2].replace(/[.]+$/, '')}`);
}

/** The scope named in an index row's auth column (`jobs:read`, …), or null for routes without a bearer key. */
function scopeOf(auth: string): string | null {
  return /`([a-z_]+:[a-z]+|operator)`/.exec(auth)?.[1] ?? null;
}

let home: string;
let service: PreflightService;
let webhooks: WebhookService;
let spec: OpenApiDocument;
let doc: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'preflight-api-doc-'));
  const env = { PREFLIGHT_SIGNING_KEY: 'api-doc-test-signing-key-0123456789' };
  // The same services and doors as `preflight serve` (entry/serve-doors.ts).
  let accounts: AccountService;
  ({ service, accounts, webhooks } = await openServerServices({ home, env, debug: false }));
  const app: OpenAPIHono<Env> = createHttpApp(serveDoors({ service, accounts, webhooks, env }));
  const res = await app.request('/openapi.json');
  expect(res.status).toBe(200);
  spec = (await res.json()) as OpenApiDocument;
  doc = readFileSync(DOC_PATH, 'utf8');
});

afterAll(async () => {
  await service?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

function openApiRoutes(): Map<string, Operation> {
  const routes = new Map<string, Operation>();
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if ((METHODS as readonly string[]).includes(method.toUpperCase())) routes.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return routes;
}

describe('OpenAPI document', () => {
  it('declares the report with the engine report schema, not an untyped record', () => {
    const ok = spec.paths['/v1/qc/jobs/{job_id}/report'].get as unknown as { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> };
    const schema = ok.responses['200'].content['application/json'].schema as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    const report = ReportSchema.toJSONSchema() as { required: string[] };
    expect(schema.required).toEqual(report.required);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['verdict', 'flags', 'gates', 'coverage', 'usage']));
  });

  it('accepts and lists every profile, delivery profiles included, and names the valid gates of checks', () => {
    for (const path of ['/v1/qc/jobs', '/v1/qc/estimate']) {
      const { profile, checks } = spec.paths[path].post.requestBody!.content['application/json'].schema.properties;
      expect(profile.enum, path).toEqual([...ACCEPTED_PROFILE_NAMES]);
      for (const id of DELIVERY_PROFILE_IDS) expect(profile.enum, path).toContain(id);
      for (const gate of GATE_IDS) expect(checks.description, path).toContain(gate);
    }
  });
});

describe('docs/api.md', () => {
  it('names the OpenAPI document and its version', () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(doc).toContain('/openapi.json');
    expect(doc).toContain(`\`${spec.info.version}\``);
  });

  it('lists every route of the OpenAPI document, and only real routes, once each', () => {
    const documented = indexRows(doc).map((r) => r.route);
    const expected = new Set([...openApiRoutes().keys(), ...OUTSIDE_OPENAPI]);
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.filter((r, i) => documented.indexOf(r) !== i), 'listed twice').toEqual([]);
    expect([...expected].filter((r) => !documented.includes(r)).sort(), 'routes missing from the endpoint index').toEqual([]);
    expect(documented.filter((r) => !expected.has(r)).sort(), 'documented routes that do not exist').toEqual([]);
  });

  it('keeps the checkout webhook outside OpenAPI explicitly', () => {
    for (const route of OUTSIDE_OPENAPI) expect(indexRows(doc).map((r) => r.route)).toContain(route);
  });

  it('gives each route the authentication the code requires', () => {
    const routes = openApiRoutes();
    for (const { route, auth } of indexRows(doc)) {
      const operation = routes.get(route);
      if (!operation) continue; // outside OpenAPI, allow-listed above
      const bearer = (operation.security ?? []).length > 0;
      const scope = scopeOf(auth);
      if (!bearer) {
        expect(scope, `${route} takes no bearer key, but the index names a scope`).toBeNull();
        continue;
      }
      expect(scope, `${route} needs a bearer key: name its scope in the index`).not.toBeNull();
      const required = operation['x-required-scope'];
      if (required !== undefined) expect(scope, route).toBe(required);
    }
  });

  it('mentions only routes that exist', () => {
    const known = new Set([...openApiRoutes().keys(), ...OUTSIDE_OPENAPI, 'GET /openapi.json']);
    const unknown = mentionedRoutes(doc).filter((r) => !known.has(r));
    expect([...new Set(unknown)].sort()).toEqual([]);
  });
});
