// One way to declare a REST route: its zod schemas feed validation and the OpenAPI document, its auth says which scope
// it needs, and its handler calls a service operation. Errors leave through the app's single onError.
import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { Authenticator } from '../src/accounts/authorize.js';
import type { Scope } from '../src/accounts/scopes.js';
import type { Principal } from '../src/service.js';
import { requireKey, type Env } from './auth.js';

export type { Authenticator } from '../src/accounts/authorize.js';
export type { Env } from './auth.js';

export interface RouteSpec<B extends z.ZodType | undefined, Q extends z.ZodObject | undefined, P extends z.ZodObject | undefined> {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Scope the bearer key needs; `public` routes take no key. */
  auth: Scope | 'public';
  body?: B;
  query?: Q;
  params?: P;
  /** Response schemas by status; the first is the success status. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface HandlerInput<B, Q, P> {
  c: Context<Env>;
  principal: Principal | null;
  body: B;
  query: Q;
  params: P;
}

export interface HandlerResult {
  status: number;
  body: unknown;
  contentType?: string;
}

const ERROR_STATUSES: Record<number, string> = {
  400: 'Invalid input',
  401: 'Missing or invalid API key',
  403: 'The key lacks the scope',
  404: 'Not found',
};

/** The one error body of the REST door: {"error": {"code", "message", "details"}}. */
export function errorBody(code: string, message: string, details: Record<string, unknown> = {}) {
  return { error: { code, message, details } };
}

/**
 * A resource's sub-app, mounted by the door with app.route(): schema failures answer 400 invalid_input with the
 * issues; every other error bubbles to the door's onError.
 */
export function newRouter(): OpenAPIHono<Env> {
  return new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const issues = result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
      return c.json(errorBody('invalid_input', issues.join('; '), { issues: result.error.issues.map((i) => ({ path: i.path, message: i.message })) }), 400);
    },
  });
}

/** A resource's routes and the path the door mounts them under. */
export interface RouteGroup {
  base: string;
  routes: OpenAPIHono<Env>;
}

export function registerRoute<B extends z.ZodType | undefined, Q extends z.ZodObject | undefined, P extends z.ZodObject | undefined>(
  app: OpenAPIHono<Env>,
  auth: Authenticator,
  spec: RouteSpec<B, Q, P>,
  handler: (input: HandlerInput<Infer<B>, Infer<Q>, Infer<P>>) => Promise<HandlerResult> | HandlerResult,
): void {
  const responses: RouteConfig['responses'] = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    responses[Number(status)] = r.schema
      ? { description: r.description, content: { [r.contentType ?? 'application/json']: { schema: r.schema } } }
      : { description: r.description };
  }
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    if (spec.auth === 'public' && (status === '401' || status === '403')) continue;
    responses[Number(status)] ??= { description };
  }
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(spec.auth === 'public' ? {} : { security: [{ Bearer: [] }], 'x-required-scope': spec.auth }),
    request: {
      ...(spec.body ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.params ? { params: spec.params } : {}),
    },
    responses,
  });
  // Authentication runs before validation so a bad key is a 401 whatever the body.
  const path = spec.path.replace(/\{(\w+)\}/g, ':$1');
  if (spec.auth !== 'public') app.on(spec.method.toUpperCase(), path, requireKey(auth, spec.auth));
  app.openapi(route, (async (c: Context<Env>) => {
    const valid = c.req as unknown as { valid(t: string): unknown };
    const result = await handler({
      c,
      principal: spec.auth === 'public' ? null : c.get('principal'),
      body: (spec.body ? valid.valid('json') : undefined) as Infer<B>,
      query: (spec.query ? valid.valid('query') : undefined) as Infer<Q>,
      params: (spec.params ? valid.valid('param') : undefined) as Infer<P>,
    });
    if (result.contentType && result.contentType !== 'application/json') {
      return c.body(String(result.body), result.status as ContentfulStatusCode, { 'content-type': result.contentType });
    }
    return c.json(result.body as object, result.status as ContentfulStatusCode);
  }) as never);
}
