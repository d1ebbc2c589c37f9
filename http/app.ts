// The REST door: a Hono app (OpenAPIHono) that mounts one sub-app per resource with app.route(); their routes call
// the same service operations as the MCP tools. One error shape for everything: {"error": {"code", "message",
// "details"}}, with the status of the error code table. /openapi.json is generated from the route schemas.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { EngineError } from '../engine/errors.js';
import { ENGINE_VERSION } from '../engine/check.js';
import { BEARER_CHALLENGE } from '../src/accounts/authorize.js';
import { ServiceError, statusOf } from '../src/errors.js';
import type { OperationalState } from '../src/public/operational.js';
import type { PreflightService, Principal } from '../src/service.js';
import { requireKey, type Env } from './auth.js';
import { errorBody, type Authenticator, type RouteGroup } from './route.js';
import { jobRoutes } from './routes/jobs.js';
import { publicRoutes } from './routes/public.js';
import { uploadRoutes } from './routes/uploads.js';

/** JSON bodies (inline media is capped lower by the service); uploads stream through their own PUT. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

export interface HttpDeps {
  service: PreflightService;
  auth: Authenticator;
  state: () => Promise<OperationalState>;
  /** Further route groups (accounts, usage, webhooks) mounted by the server that owns those services. */
  extraRoutes?: ((auth: Authenticator) => RouteGroup)[];
  /** Handlers of every method at a path, behind the same bearer keys as /v1 (any valid key: the handler checks scopes). */
  mounts?: AuthenticatedMount[];
}

export interface AuthenticatedMount {
  path: string;
  handle(request: Request, principal: Principal): Promise<Response>;
}

function onError(err: Error, c: Context): Response {
  if (err instanceof ServiceError || err instanceof EngineError) {
    if (err.code === 'unauthorized') c.header('WWW-Authenticate', BEARER_CHALLENGE);
    return c.json(errorBody(err.code, err.message, err.details), statusOf(err) as ContentfulStatusCode);
  }
  if (err instanceof ZodError) return c.json(errorBody('invalid_input', err.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')), 400);
  if (err instanceof HTTPException) {
    if (err.status === 413) return c.json(errorBody('body_too_large', 'The request body is too large.'), 413);
    if (err.status === 400) return c.json(errorBody('invalid_json', `The request body is not valid JSON (${err.message}).`), 400);
    return c.json(errorBody('http_error', err.message), err.status);
  }
  process.stderr.write(`preflight http: ${err.stack ?? err.message}\n`);
  return c.json(errorBody('internal_error', 'The server failed to handle this request.'), 500);
}

export function createHttpApp(deps: HttpDeps): OpenAPIHono<Env> {
  const app = new OpenAPIHono<Env>();
  app.onError(onError);
  app.notFound((c) => c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}.`), 404));
  app.use('*', async (c, next) => {
    if (c.req.method === 'PUT' && c.req.path.endsWith('/content')) return next();
    return bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: (ctx) => ctx.json(errorBody('body_too_large', `JSON bodies are limited to ${JSON_BODY_LIMIT} bytes.`), 413) })(c, next);
  });

  const groups = [
    publicRoutes(deps.auth, deps.service, deps.state),
    jobRoutes(deps.auth, deps.service),
    uploadRoutes(deps.auth, deps.service),
    ...(deps.extraRoutes ?? []).map((group) => group(deps.auth)),
  ];
  for (const { base, routes } of groups) app.route(base, routes);
  for (const mount of deps.mounts ?? []) app.all(mount.path, requireKey(deps.auth), (c) => mount.handle(c.req.raw, c.get('principal')));

  app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer', description: 'Workspace API key (prv_…)' });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Preflight API', version: '0.1.0', description: `Deterministic media QC: verdicts, timestamped repairable flags, signed receipts. Engine ${ENGINE_VERSION}.` },
  });
  return app;
}
