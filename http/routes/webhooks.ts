// Webhook endpoints and deliveries (paths and bodies: docs/api.md). Workspace keys see, retry and drain only their own.
import { z } from 'zod';
import {
  CreateWebhookInputSchema,
  DrainDeliveriesBodySchema,
  DrainDeliveriesQuerySchema,
  ListDeliveriesQuerySchema,
  WebhookDeleteResultSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookDrainResultSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  type WebhookService,
} from '../../src/webhooks/index.js';
import { newRouter, registerRoute, type Authenticator, type RouteGroup } from '../route.js';

export function webhookRoutes(webhooks: WebhookService) {
  return (auth: Authenticator): RouteGroup => {
    const app = newRouter();
    registerRoute(app, auth, {
      method: 'post', path: '/', tag: 'Webhooks', auth: 'webhooks:write', summary: 'Create a webhook endpoint',
      description: 'Event types job.completed and job.failed. The signing secret is returned once; deliveries carry X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">.',
      body: CreateWebhookInputSchema,
      responses: { 201: { description: 'The endpoint with its signing secret (shown once)', schema: WebhookEndpointSchema } },
    }, async ({ principal, body }) => ({ status: 201, body: await webhooks.createEndpoint(principal!, body) }));

    registerRoute(app, auth, {
      method: 'get', path: '/', tag: 'Webhooks', auth: 'webhooks:write', summary: 'List webhook endpoints',
      responses: { 200: { description: 'Endpoints (secret previews only)', schema: WebhookEndpointListSchema } },
    }, async ({ principal }) => ({ status: 200, body: await webhooks.listEndpoints(principal!) }));

    registerRoute(app, auth, {
      method: 'delete', path: '/{webhook_id}', tag: 'Webhooks', auth: 'webhooks:write', summary: 'Delete a webhook endpoint',
      params: z.object({ webhook_id: z.string().min(1) }),
      responses: { 200: { description: 'Deleted', schema: WebhookDeleteResultSchema } },
    }, async ({ principal, params }) => ({ status: 200, body: await webhooks.deleteEndpoint(principal!, params.webhook_id) }));

    registerRoute(app, auth, {
      method: 'get', path: '/deliveries', tag: 'Webhooks', auth: 'webhooks:write', summary: 'List webhook deliveries',
      query: ListDeliveriesQuerySchema,
      responses: { 200: { description: 'Deliveries, newest first', schema: WebhookDeliveryListSchema } },
    }, async ({ principal, query }) => ({ status: 200, body: await webhooks.listDeliveries(principal!, query) }));

    registerRoute(app, auth, {
      method: 'post', path: '/deliveries/{delivery_id}/retry', tag: 'Webhooks', auth: 'webhooks:write', summary: 'Retry a delivery now',
      params: z.object({ delivery_id: z.string().min(1) }),
      responses: { 200: { description: 'The delivery after the attempt', schema: WebhookDeliverySchema } },
    }, async ({ principal, params }) => ({ status: 200, body: await webhooks.retryDelivery(principal!, params.delivery_id) }));

    registerRoute(app, auth, {
      method: 'post', path: '/deliveries/drain', tag: 'Webhooks', auth: 'webhooks:write', summary: 'Send due deliveries now',
      query: DrainDeliveriesQuerySchema,
      body: DrainDeliveriesBodySchema,
      responses: { 200: { description: 'Deliveries processed', schema: WebhookDrainResultSchema } },
    }, async ({ principal, query, body }) => ({ status: 200, body: await webhooks.drain(principal!, { limit: body.limit ?? query.limit }) }));
    return { base: '/v1/webhooks', routes: app };
  };
}
