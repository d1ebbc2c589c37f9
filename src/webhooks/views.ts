// Public views of the stored records: no ciphertexts, and the callback_url delivery's null webhookId made explicit.
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../store/records.js';
import { CALLBACK_WEBHOOK_ID, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType, type WebhookJobEventPayload } from './schemas.js';

export function publicEndpoint(record: WebhookEndpointRecord, signingSecret?: string): WebhookEndpoint {
  return {
    webhookId: record.webhookId,
    url: record.url,
    eventTypes: record.eventTypes as WebhookEventType[],
    workspaceId: record.workspaceId,
    ownerEmail: record.ownerEmail,
    apiKeyId: record.apiKeyId,
    signingSecretPreview: record.signingSecretPreview,
    ...(signingSecret === undefined ? {} : { signingSecret }),
    signingSecretStorage: record.signingSecretStorage,
    createdAt: record.createdAt,
  };
}

export function publicDelivery(record: WebhookDeliveryRecord): WebhookDelivery {
  return {
    deliveryId: record.deliveryId,
    webhookId: record.webhookId ?? CALLBACK_WEBHOOK_ID,
    eventType: record.eventType as WebhookEventType,
    jobId: record.jobId,
    workspaceId: record.workspaceId,
    ownerEmail: record.ownerEmail,
    apiKeyId: record.apiKeyId,
    status: record.status,
    url: record.url,
    attemptCount: record.attemptCount,
    nextAttemptAt: record.nextAttemptAt,
    lastAttemptAt: record.lastAttemptAt,
    sentAt: record.sentAt,
    responseStatus: record.responseStatus,
    lastError: record.lastError,
    createdAt: record.createdAt,
    signatureHeader: record.signatureHeader,
    signature: record.signature,
    payload: record.payload as WebhookJobEventPayload,
  };
}
