// Public, unauthenticated: health, engine health, readiness, launch documents, public JSON documents, llms.txt,
// and the receipt verifier. Every body is built from live configuration or the data the code runs on.
import { z } from 'zod';
import { RECEIPT_KEYS_PATH, receiptJsonSchema } from '../../engine/receipt.js';
import { SIDECAR_SCHEMA_NAMES, sidecarJsonSchema } from '../../engine/sidecars/formats/json-schemas.js';
import { costBasis } from '../../src/billing/cost-basis.js';
import { ServiceError } from '../../src/errors.js';
import { boundedJson, jsonLimitBreach, MESSAGE_JSON_LIMITS } from '../../src/schemas/bounded-json.js';
import { PUBLIC_DOCUMENTS, pipelineRecipes } from '../../src/public/documents.js';
import {
  engineHealth,
  launchDoctor,
  launchEvidence,
  launchHandoff,
  launchKit,
  launchStatus,
  launchTargets,
  readiness,
  type OperationalState,
} from '../../src/public/operational.js';
import { sampleReportsIndex } from '../../src/public/samples.js';
import { parseVerifyRequest } from '../../src/receipts.js';
import { ReceiptVerificationSchema as VerificationSchema } from '../../src/schemas/verify-receipt.js';
import type { PreflightService } from '../../src/service.js';
import { newRouter, registerRoute, type Authenticator, type RouteGroup } from '../route.js';

const AnyObject = z.record(z.string(), z.unknown());

export function publicRoutes(auth: Authenticator, service: PreflightService, state: () => Promise<OperationalState>): RouteGroup {
  const app = newRouter();
  const json = (path: string, summary: string, build: (s: OperationalState) => unknown) =>
    registerRoute(app, auth, { method: 'get', path, tag: 'Public', auth: 'public', summary, responses: { 200: { description: summary, schema: AnyObject } } }, async () => ({
      status: 200,
      body: build(await state()),
    }));

  registerRoute(app, auth, { method: 'get', path: '/healthz', tag: 'Public', auth: 'public', summary: 'Liveness', responses: { 200: { description: 'Healthy', schema: z.object({ status: z.literal('ok') }) } } }, () => ({
    status: 200,
    body: { status: 'ok' as const },
  }));
  registerRoute(app, auth, {
    method: 'get', path: '/v1/health/engine', tag: 'Public', auth: 'public', summary: 'Engine status and capabilities',
    responses: { 200: { description: 'ok, degraded or down, with ffmpeg version, filters and gates available', schema: AnyObject } },
  }, async () => ({ status: 200, body: engineHealth(await state()) }));
  json('/v1/readiness', 'Operational configuration status (no secrets)', readiness);
  json('/v1/launch-status', 'Live launch state', launchStatus);
  json('/v1/launch-handoff', 'Launch handoff', launchHandoff);
  json('/v1/launch-doctor', 'Blocker fix plan', launchDoctor);
  json('/v1/launch-evidence', 'Redacted launch evidence', launchEvidence);
  json('/launch-status.json', 'Live launch state (static path)', launchStatus);
  json('/launch-kit.json', 'Launch kit: status, targets, recipes, cost basis', launchKit);
  json('/launch-targets.json', 'Delivery targets', () => launchTargets());
  json('/cost-basis.json', 'Published cost basis', () => costBasis());
  json('/pipeline-handoff.json', 'Pipeline handoff (recipes for every pipeline profile)', () => pipelineRecipes());
  json('/sample-reports/index.json', 'Sample reports index', () => sampleReportsIndex());

  for (const [path, doc] of Object.entries(PUBLIC_DOCUMENTS)) {
    registerRoute(app, auth, {
      method: 'get', path, tag: 'Public', auth: 'public', summary: `Public document ${path}`,
      responses: { 200: { description: path, schema: doc.contentType === 'text/plain' ? z.string() : AnyObject, contentType: doc.contentType } },
    }, () => ({ status: 200, body: doc.contentType === 'text/plain' ? doc.render() : JSON.parse(doc.render()), contentType: doc.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : undefined }));
  }

  // Open, versioned JSON Schemas: the receipt and every sidecar format, at the path their $id names.
  const schemas: [string, () => Record<string, unknown>][] = [
    ['preflight-receipt-1', receiptJsonSchema],
    ...SIDECAR_SCHEMA_NAMES.map((name): [string, () => Record<string, unknown>] => [name, () => sidecarJsonSchema(name)]),
  ];
  for (const [name, build] of schemas) {
    registerRoute(app, auth, {
      method: 'get', path: `/schemas/${name}.json`, tag: 'Public', auth: 'public', summary: `JSON Schema ${name}`,
      responses: { 200: { description: `JSON Schema (draft 2020-12) of ${name}`, schema: AnyObject, contentType: 'application/schema+json' } },
    }, () => ({ status: 200, body: JSON.stringify(build(), null, 2), contentType: 'application/schema+json' }));
  }

  registerRoute(app, auth, {
    method: 'get', path: RECEIPT_KEYS_PATH, tag: 'Public', auth: 'public', summary: 'Receipt public keys (JWKS)',
    description: 'The Ed25519 public keys receipts are signed with (current and retired), as a JWKS document: verify a receipt offline with `preflight verify <receipt> --public-key keys.json`.',
    responses: { 200: { description: 'JWKS: {keys: [{kty: OKP, crv: Ed25519, x, kid, alg: EdDSA, use: sig}]}', schema: AnyObject, contentType: 'application/jwk-set+json' } },
  }, () => ({ status: 200, body: JSON.stringify(service.receiptKeys()), contentType: 'application/jwk-set+json' }));

  registerRoute(app, auth, {
    method: 'post', path: '/v1/public/receipts/verify', tag: 'Public', auth: 'public', summary: 'Verify a receipt',
    description:
      'Body: the receipt JSON, or {receipt, sha256} to also compare a file hash (any other key, or a sha256 that is not 64 hex characters, is a 400). ' +
      "Checks the signatures with this issuer's keys (HMAC and Ed25519), the receipt's consistency, and its coverage: whether its gates include every gate its profile requires. " +
      'Unknown schema values and unknown fields are rejected.',
    body: boundedJson(AnyObject, MESSAGE_JSON_LIMITS),
    responses: { 200: { description: 'Verification result', schema: VerificationSchema } },
  }, async ({ c }) => {
    // The raw JSON, not the validated copy: validation drops an own `__proto__` key, which must be refused instead.
    // A body sent without a JSON content type skips validation, so its limits are checked here too.
    const raw: unknown = await c.req.json().catch(() => undefined);
    const breach = jsonLimitBreach(raw, MESSAGE_JSON_LIMITS);
    if (breach) throw new ServiceError('invalid_input', `The JSON ${breach}.`, {}, 400);
    const { receipt, sha256 } = parseVerifyRequest(raw);
    const r = await service.verifyReceipt(receipt, { fileSha256: sha256 });
    return {
      status: 200,
      body: {
        valid: r.valid, checked: r.checked, authentic: r.authentic, schemaKnown: r.schemaKnown, hashMatches: r.hashMatches, uploadReady: r.uploadReady,
        verdict: r.verdict, reason: r.reason, signatures: r.signatures, keyId: r.keyId, coverage: r.coverage ?? null,
      },
    };
  });
  return { base: '/', routes: app };
}
