// Webhooks: endpoints, signed deliveries with retries, and the schemas the doors publish.
export * from './schemas.js';
export { WebhookService, MAX_ENDPOINTS_PER_WORKSPACE, type WebhookServiceOptions, type WebhookPrincipal } from './service.js';
export { verifySignatureHeader, signatureHeaderValue, DEFAULT_TOLERANCE_SECONDS } from './signature.js';
export { SECRET_PREFIX } from './secrets.js';
export { assertDeliveryUrl, privateNetworksAllowed, ALLOW_PRIVATE_NETWORKS_ENV } from './url-policy.js';
export { RETRY_DELAYS_MS, MAX_ATTEMPTS, ATTEMPT_TIMEOUT_MS } from './schedule.js';
export { jobEventPayload, type FinishedJob } from './payload.js';
export type { WebhookSender } from './send.js';
