// API keys, checkout provisioning and its signed webhook, usage, margins, abuse events and spend alerts.
import { z } from 'zod';
import {
  AbuseEventListSchema,
  ApiKeyListSchema,
  ApiKeyRevokedSchema,
  CreateApiKeyInputSchema,
  CreateApiKeyOutputSchema,
  ListApiKeysQuerySchema,
  MarginsOutputSchema,
  MarginsQuerySchema,
  ProvisionInputSchema,
  ProvisionOutputSchema,
  SpendAlertListSchema,
  UsageOutputSchema,
  UsageQuerySchema,
  WorkspaceListQuerySchema,
} from '../../src/accounts/schemas.js';
import type { AccountService } from '../../src/accounts/index.js';
import { newRouter, registerRoute, type Authenticator, type RouteGroup } from '../route.js';

export function accountRoutes(accounts: AccountService) {
  return (auth: Authenticator): RouteGroup => {
    const app = newRouter();
    registerRoute(app, auth, {
      method: 'post', path: '/api-keys', tag: 'Accounts', auth: 'api_keys:write', summary: 'Create a workspace API key',
      description: 'The raw key is returned once. Stored workspace keys are pinned to their own workspace, owner, plan economics and overage cap whatever is supplied.',
      body: CreateApiKeyInputSchema,
      responses: { 201: { description: 'Key created', schema: CreateApiKeyOutputSchema } },
    }, async ({ principal, body }) => ({ status: 201, body: await accounts.createApiKey(principal!, body) }));

    registerRoute(app, auth, {
      method: 'get', path: '/api-keys', tag: 'Accounts', auth: 'api_keys:read', summary: 'List API keys (redacted)', query: ListApiKeysQuerySchema,
      responses: { 200: { description: 'Keys', schema: ApiKeyListSchema } },
    }, async ({ principal, query }) => ({ status: 200, body: await accounts.listApiKeys(principal!, query) }));

    registerRoute(app, auth, {
      method: 'delete', path: '/api-keys/{key_id}', tag: 'Accounts', auth: 'api_keys:write', summary: 'Revoke an API key',
      params: z.object({ key_id: z.string().min(1) }),
      responses: { 200: { description: 'Revoked', schema: ApiKeyRevokedSchema } },
    }, async ({ principal, params }) => ({ status: 200, body: await accounts.revokeApiKey(principal!, params.key_id) }));

    registerRoute(app, auth, {
      method: 'post', path: '/checkout/provision-api-key', tag: 'Accounts', auth: 'api_keys:write', summary: 'Provision a key for a checkout',
      description: 'Idempotent by provisioning_id: 201 with the raw key on the first call, 200 with the existing record (no secret) after.',
      body: ProvisionInputSchema,
      responses: { 201: { description: 'Provisioned', schema: ProvisionOutputSchema }, 200: { description: 'Existing provisioning (no secret)', schema: ProvisionOutputSchema } },
    }, async ({ principal, body }) => {
      const out = await accounts.provisionCheckout(principal!, body);
      return { status: out.idempotentReplay ? 200 : 201, body: out };
    });

    // Raw body: the X-Signature HMAC is over the exact bytes received.
    app.post('/webhooks/checkout', async (c) => {
      const raw = new Uint8Array(await c.req.arrayBuffer());
      const result = await accounts.handleCheckoutWebhook(raw, c.req.header('x-signature'));
      return c.json(result.body, result.status);
    });

    registerRoute(app, auth, {
      method: 'get', path: '/usage', tag: 'Usage', auth: 'jobs:read', summary: 'Recent usage ledger entries', query: UsageQuerySchema,
      responses: { 200: { description: 'Ledger entries (workspace keys see their own)', schema: UsageOutputSchema } },
    }, async ({ principal, query }) => ({ status: 200, body: await accounts.listUsage(principal!, query) }));

    registerRoute(app, auth, {
      method: 'get', path: '/usage/margins', tag: 'Usage', auth: 'operator', summary: 'Owner/operator economics', query: MarginsQuerySchema,
      responses: { 200: { description: 'Revenue, COGS and margin per workspace', schema: MarginsOutputSchema } },
    }, async ({ principal, query }) => ({ status: 200, body: await accounts.margins(principal!, query) }));

    registerRoute(app, auth, {
      method: 'get', path: '/abuse-events', tag: 'Usage', auth: 'api_keys:read', summary: 'Abuse events', query: WorkspaceListQuerySchema,
      responses: { 200: { description: 'Abuse events', schema: AbuseEventListSchema } },
    }, async ({ principal, query }) => ({ status: 200, body: await accounts.listAbuseEvents(principal!, query) }));

    registerRoute(app, auth, {
      method: 'get', path: '/spend-alerts', tag: 'Usage', auth: 'api_keys:read', summary: 'Spend alerts', query: WorkspaceListQuerySchema,
      responses: { 200: { description: 'Spend alerts', schema: SpendAlertListSchema } },
    }, async ({ principal, query }) => ({ status: 200, body: await accounts.listSpendAlerts(principal!, query) }));
    return { base: '/v1', routes: app };
  };
}
