// Shared zod schemas of webhook endpoints and deliveries (docs/webhooks.md "Endpoints", "Delivery statuses"): one source
// for service validation, the REST door and OpenAPI.
import { z } from 'zod';
import { WorkspaceIdSchema } from '../accounts/schemas.js';

export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed'] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

export const SIGNATURE_HEADER = 'X-Service-Signature';
/** Public `webhookId` of a job's callback_url delivery, which has no endpoint (stored as null). */
export const CALLBACK_WEBHOOK_ID = 'callback_url';

export const WebhookUrlSchema = z.string().min(1).max(2048).describe('HTTPS URL that receives signed POST deliveries');

export const CreateWebhookInputSchema = z.object({
  url: WebhookUrlSchema,
  event_types: z
    .array(WebhookEventTypeSchema)
    .min(1)
    .optional()
    .describe('Events to deliver; default all (job.completed, job.failed)'),
  workspace_id: WorkspaceIdSchema.optional().describe('Operators only; workspace keys are pinned to their own workspace'),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookInputSchema>;

export const WebhookEndpointSchema = z.object({
  webhookId: z.string(),
  url: z.string(),
  eventTypes: z.array(WebhookEventTypeSchema),
  workspaceId: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  signingSecretPreview: z.string(),
  signingSecret: z.string().optional().describe('Returned once, in the create response; never again'),
  signingSecretStorage: z.enum(['encrypted', 'plaintext']),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointListSchema = z.object({ endpoints: z.array(WebhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;

export const WebhookDeleteResultSchema = z.object({ webhookId: z.string(), deleted: z.literal(true) });
export type WebhookDeleteResult = z.infer<typeof WebhookDeleteResultSchema>;

export const WebhookJobEventPayloadSchema = z.object({
  event: WebhookEventTypeSchema,
  jobId: z.string(),
  status: z.enum(['completed', 'failed']),
  verdict: z.enum(['PASS', 'WATCH', 'BLOCK']).nullable(),
  minutesMetered: z.number().int(),
  reportUrl: z.string().nullable().describe('null when the job failed (it has no report)'),
  statusUrl: z.string(),
  failureReason: z.string().nullable(),
  occurredAt: z.string(),
});
export type WebhookJobEventPayload = z.infer<typeof WebhookJobEventPayloadSchema>;

export const WebhookDeliveryStatusSchema = z.enum(['pending', 'sent', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatusSchema>;

export const WebhookDeliverySchema = z.object({
  deliveryId: z.string(),
  webhookId: z.string().describe(`The endpoint, or "${CALLBACK_WEBHOOK_ID}" for a job's callback_url delivery`),
  eventType: WebhookEventTypeSchema,
  jobId: z.string(),
  workspaceId: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  status: WebhookDeliveryStatusSchema,
  url: z.string(),
  attemptCount: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  signatureHeader: z.literal(SIGNATURE_HEADER),
  signature: z.string().describe('The X-Service-Signature value of the last attempt; empty before the first'),
  payload: WebhookJobEventPayloadSchema,
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = z.object({ deliveries: z.array(WebhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

export const WebhookDrainResultSchema = z.object({ processed: z.number().int(), results: z.array(WebhookDeliverySchema) });
export type WebhookDrainResult = z.infer<typeof WebhookDrainResultSchema>;

export const ListDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  status: WebhookDeliveryStatusSchema.optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuerySchema>;

const DrainLimitSchema = z.number().int().min(1).max(25).describe('1 to 25, default 10.');
export const DrainDeliveriesQuerySchema = z.object({ limit: z.coerce.number().pipe(DrainLimitSchema).optional() });
export type DrainDeliveriesQuery = z.infer<typeof DrainDeliveriesQuerySchema>;
/** The optional body of a drain: `{limit}` as in the query (the body wins when both say). */
export const DrainDeliveriesBodySchema = z.object({ limit: DrainLimitSchema.optional() });
