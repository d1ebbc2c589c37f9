// Stored records of accounts, limits, alerts and webhooks (docs/accounts.md, docs/webhooks.md). Secrets are never stored in the clear:
// API keys as SHA-256 + prefix, webhook signing secrets encrypted at rest.

export interface ApiKeyRecord {
  keyId: string;
  name: string;
  workspaceId: string;
  ownerEmail: string | null;
  provisioningId: string | null;
  checkoutCustomerId: string | null;
  checkoutSubscriptionId: string | null;
  tokenPrefix: string;
  /** Hex SHA-256 of the raw key; the raw key is returned once at creation. */
  tokenSha256: string;
  scopes: string[];
  planId: string | null;
  includedMinutes: number | null;
  planPriceCents: number | null;
  overageCapCents: number | null;
  active: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AbuseEventRecord {
  eventId: string;
  createdAt: string;
  error: string;
  message: string | null;
  status: number;
  workspaceId: string | null;
  ownerEmail: string | null;
  planId: string | null;
  includedMinutes: number | null;
  minutesUsed: number | null;
  requestedMinutes: number | null;
  minutesRemaining: number | null;
  maxDurationMinutes: number | null;
  maxUploadMb: number | null;
  maxActiveJobs: number | null;
}

export interface SpendAlertRecord {
  alertId: string;
  createdAt: string;
  workspaceId: string | null;
  ownerEmail: string | null;
  planId: string | null;
  billingPeriod: string | null;
  minutesUsed: number | null;
  includedMinutes: number | null;
  planPriceCents: number | null;
  overageRevenueCents: number | null;
  overageRateCentsPerMinute: number | null;
  overageCostCents: number | null;
  observedTotalCogsCents: number | null;
  status: 'sent' | 'failed' | 'skipped';
  provider: string | null;
  providerMessageId: string | null;
  error: string | null;
}

export interface WebhookEndpointRecord {
  webhookId: string;
  url: string;
  eventTypes: string[];
  workspaceId: string | null;
  ownerEmail: string | null;
  apiKeyId: string | null;
  signingSecretPreview: string;
  /** AES-256-GCM ciphertext of the signing secret (iv:tag:data, base64). */
  signingSecretEncrypted: string;
  signingSecretStorage: 'encrypted' | 'plaintext';
  createdAt: string;
}

export interface WebhookDeliveryRecord {
  deliveryId: string;
  /** null for a job's callback_url delivery. */
  webhookId: string | null;
  eventType: string;
  jobId: string;
  workspaceId: string | null;
  ownerEmail: string | null;
  apiKeyId: string | null;
  status: 'pending' | 'sent' | 'failed';
  url: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  sentAt: string | null;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  signatureHeader: 'X-Service-Signature';
  signature: string;
  payload: Record<string, unknown>;
  /** A callback_url delivery's secret as the job's creator gave it, sealed to the job; never shown. */
  callbackSecretSealed?: string;
}

/** A client's own gate verdict imported beside ours: a claim, never our verdict. */
export interface GateVerdictRecord {
  importId: string;
  jobId: string;
  workspaceId: string;
  claimedVerdict: 'SHIP-OK' | 'BLOCK' | 'PASS';
  blocked: string[];
  skipped: string[];
  perCheck: Record<string, unknown>;
  ourVerdict: string | null;
  disagrees: boolean;
  createdAt: string;
}
