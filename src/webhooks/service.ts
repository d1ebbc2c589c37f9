// Webhook endpoints and deliveries (docs/webhooks.md). Workspace keys see and move
// only their own workspace's records; operators act on all. Secrets never leave this module except once at creation.
import type { z } from 'zod';
import { ServiceError } from '../errors.js';
import { newId } from '../ingress/media.js';
import type { JobCallback, Principal } from '../service.js';
import { loadSigningKey } from '../signing-key.js';
import type { Database } from '../storage/database.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../store/records.js';
import { eventTypeOf, jobEventPayload, type FinishedJob } from './payload.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAfter } from './schedule.js';
import {
  CreateWebhookInputSchema,
  DrainDeliveriesQuerySchema,
  ListDeliveriesQuerySchema,
  SIGNATURE_HEADER,
  WEBHOOK_EVENT_TYPES,
  type CreateWebhookInput,
  type DrainDeliveriesQuery,
  type ListDeliveriesQuery,
  type WebhookDeleteResult,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookDrainResult,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from './schemas.js';
import { newSigningSecret, SecretBox, secretPreview } from './secrets.js';
import { attemptPost, type WebhookSender } from './send.js';
import { signatureHeaderValue } from './signature.js';
import { assertDeliveryUrl } from './url-policy.js';
import { publicDelivery, publicEndpoint } from './views.js';

export interface WebhookServiceOptions {
  db: Database;
  send: WebhookSender;
  /** Reads PREFLIGHT_SIGNING_KEY, PREFLIGHT_HOME and PREFLIGHT_ALLOW_PRIVATE_NETWORKS; default process.env. */
  env?: Record<string, string | undefined>;
  /** Data dir holding the signing key file; overrides PREFLIGHT_HOME. */
  home?: string;
  /** Clock, injectable for tests. */
  now?: () => Date;
  attemptTimeoutMs?: number;
}

/** A principal as the doors resolve it (a KeyPrincipal fits); the key id and owner email are recorded on endpoints when known. */
export type WebhookPrincipal = Principal & { keyId?: string | null; ownerEmail?: string | null };

export const MAX_ENDPOINTS_PER_WORKSPACE = 20;
const DRAIN_DEFAULT_LIMIT = 10;
const DRAIN_MAX_LIMIT = 25;
const LIST_DEFAULT_LIMIT = 50;

/** Additional data that binds a sealed callback secret to its job. */
const callbackContext = (jobId: string) => `callback:${jobId}`;

/** A delivery that can never succeed as stored (endpoint gone, secret unreadable): failed without using its retries. */
class UndeliverableError extends Error {}

function parseInput<S extends z.ZodType>(schema: S, input: unknown, code: string): z.infer<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new ServiceError(code, `Invalid input: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}.`, { issues }, 400);
}

export class WebhookService {
  private readonly db: Database;
  private readonly send: WebhookSender;
  private readonly env: Record<string, string | undefined>;
  private readonly home: string | undefined;
  private readonly now: () => Date;
  private readonly attemptTimeoutMs: number;
  private readonly inFlight = new Set<string>();
  private signingKeyCache: Buffer | null = null;
  private secretBoxCache: SecretBox | null = null;

  constructor(options: WebhookServiceOptions) {
    this.db = options.db;
    this.send = options.send;
    this.env = options.env ?? process.env;
    this.home = options.home;
    this.now = options.now ?? (() => new Date());
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  }

  // ------------------------------------------------------------------ secrets

  private signingKey(): Buffer {
    this.signingKeyCache ??= loadSigningKey({ env: this.env, home: this.home }).key;
    return this.signingKeyCache;
  }

  private secretBox(): SecretBox {
    this.secretBoxCache ??= new SecretBox(this.signingKey());
    return this.secretBoxCache;
  }

  /** Seals a job's callback_secret for storage: encrypted, and bound to the job so it signs that job's callback only. */
  sealCallbackSecret(jobId: string, secret: string): string {
    return this.secretBox().encrypt(secret, callbackContext(jobId));
  }

  private async secretFor(delivery: WebhookDeliveryRecord): Promise<string> {
    if (delivery.webhookId === null) {
      if (!delivery.callbackSecretSealed) throw new UndeliverableError('the job has no callback_secret to sign with (created before callback secrets)');
      try {
        return this.secretBox().decrypt(delivery.callbackSecretSealed, callbackContext(delivery.jobId));
      } catch {
        throw new UndeliverableError('the callback secret cannot be decrypted (was the signing key changed?)');
      }
    }
    const endpoint = await this.db.webhooks.getEndpoint(delivery.webhookId);
    if (!endpoint) throw new UndeliverableError(`webhook endpoint ${delivery.webhookId} was deleted`);
    try {
      return this.secretBox().decrypt(endpoint.signingSecretEncrypted, endpoint.webhookId);
    } catch {
      throw new UndeliverableError('the signing secret cannot be decrypted (was the signing key changed?); create the endpoint again');
    }
  }

  // ------------------------------------------------------------------ endpoints

  private canSee(principal: Principal, workspaceId: string | null): boolean {
    return principal.operator || workspaceId === principal.workspaceId;
  }

  async createEndpoint(principal: WebhookPrincipal, input: CreateWebhookInput): Promise<WebhookEndpoint> {
    const parsed = parseInput(CreateWebhookInputSchema, input, 'invalid_webhook');
    const url = assertDeliveryUrl(parsed.url, this.env).toString();
    const workspaceId = principal.operator ? (parsed.workspace_id ?? principal.workspaceId) : principal.workspaceId;
    const existing = await this.db.webhooks.countEndpoints(workspaceId);
    if (existing >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw new ServiceError('webhook_limit_reached', `A workspace can have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first.`, { limit: MAX_ENDPOINTS_PER_WORKSPACE }, 409);
    }
    const webhookId = newId('whk');
    const secret = newSigningSecret();
    const record: WebhookEndpointRecord = {
      webhookId,
      url,
      eventTypes: WEBHOOK_EVENT_TYPES.filter((t) => (parsed.event_types ?? WEBHOOK_EVENT_TYPES).includes(t)),
      workspaceId,
      ownerEmail: principal.ownerEmail ?? null,
      apiKeyId: principal.keyId ?? null,
      signingSecretPreview: secretPreview(secret),
      signingSecretEncrypted: this.secretBox().encrypt(secret, webhookId),
      signingSecretStorage: 'encrypted',
      createdAt: this.now().toISOString(),
    };
    await this.db.webhooks.insertEndpoint(record);
    return publicEndpoint(record, secret);
  }

  async listEndpoints(principal: Principal): Promise<WebhookEndpointList> {
    const endpoints = await this.db.webhooks.listEndpoints(principal.operator ? undefined : principal.workspaceId);
    return { endpoints: endpoints.map((w) => publicEndpoint(w)) };
  }

  /** Deletes an endpoint; its pending deliveries fail now rather than retry into the void. */
  async deleteEndpoint(principal: Principal, webhookId: string): Promise<WebhookDeleteResult> {
    const endpoint = await this.db.webhooks.getEndpoint(webhookId);
    if (!endpoint || !this.canSee(principal, endpoint.workspaceId)) {
      throw new ServiceError('webhook_not_found', `No webhook endpoint ${webhookId}.`, { webhookId }, 404);
    }
    await this.db.webhooks.deleteEndpoint(webhookId);
    await this.db.webhooks.failPendingOf(webhookId, 'webhook endpoint deleted', [...this.inFlight]);
    return { webhookId, deleted: true };
  }

  // ------------------------------------------------------------------ deliveries

  /**
   * Records one pending delivery per endpoint of the job's workspace subscribed to the event, and one for the job's
   * callback_url. Idempotent per job, event and target. A callback_url the policy refuses is recorded as failed.
   */
  async enqueueJobEvent(job: FinishedJob, callback?: JobCallback | null): Promise<WebhookDelivery[]> {
    const eventType = eventTypeOf(job);
    const at = this.now();
    const payload = jobEventPayload(job, at);
    const exists = (webhookId: string | null, url: string) => this.db.webhooks.hasDelivery(job.jobId, eventType, webhookId, url);
    const newDelivery = (target: { webhookId: string | null; url: string; ownerEmail: string | null; apiKeyId: string | null; callbackSecretSealed?: string }): WebhookDeliveryRecord => ({
      deliveryId: newId('dlv'),
      ...target,
      eventType,
      jobId: job.jobId,
      workspaceId: job.workspaceId,
      status: 'pending',
      attemptCount: 0,
      nextAttemptAt: at.toISOString(),
      lastAttemptAt: null,
      sentAt: null,
      responseStatus: null,
      lastError: null,
      createdAt: at.toISOString(),
      signatureHeader: SIGNATURE_HEADER,
      signature: '',
      payload: { ...payload },
    });

    const created: WebhookDeliveryRecord[] = [];
    for (const w of await this.db.webhooks.listEndpoints(job.workspaceId)) {
      if (w.eventTypes.includes(eventType) && !(await exists(w.webhookId, w.url))) {
        created.push(newDelivery({ webhookId: w.webhookId, url: w.url, ownerEmail: w.ownerEmail, apiKeyId: w.apiKeyId }));
      }
    }
    if (callback && !(await exists(null, callback.url))) {
      const delivery = newDelivery({ webhookId: null, url: callback.url, ownerEmail: null, apiKeyId: null, callbackSecretSealed: callback.sealedSecret });
      try {
        assertDeliveryUrl(callback.url, this.env);
      } catch (err) {
        Object.assign(delivery, { status: 'failed', nextAttemptAt: null, lastError: (err as Error).message });
      }
      created.push(delivery);
    }
    if (created.length) {
      await this.db.webhooks.insertDeliveries(created);
      for (const d of created) if (d.status === 'pending') await this.deliveryQueued?.(d.deliveryId);
    }
    return created.map(publicDelivery);
  }

  /**
   * Set by the queue (src/worker): a new pending delivery is handed to the webhook-delivery queue, so any worker sends
   * it. Without one, pending deliveries wait for `drain` or a retry.
   */
  private deliveryQueued: ((deliveryId: string) => Promise<unknown>) | null = null;

  attachQueue(onQueued: ((deliveryId: string) => Promise<unknown>) | null): void {
    this.deliveryQueued = onQueued;
  }

  async listDeliveries(principal: Principal, query: ListDeliveriesQuery = {}): Promise<WebhookDeliveryList> {
    const { limit = LIST_DEFAULT_LIMIT, status } = parseInput(ListDeliveriesQuerySchema, query, 'invalid_query');
    const deliveries = await this.db.webhooks.listDeliveries({ workspaceId: principal.operator ? undefined : principal.workspaceId, status, limit });
    return { deliveries: deliveries.map(publicDelivery) };
  }

  /** Sends the caller's due pending deliveries (every workspace's for operators), longest-waiting first. */
  async drain(principal: Principal, query: DrainDeliveriesQuery = {}): Promise<WebhookDrainResult> {
    const { limit = DRAIN_DEFAULT_LIMIT } = parseInput(DrainDeliveriesQuerySchema, query, 'invalid_query');
    const max = Math.min(limit, DRAIN_MAX_LIMIT);
    const candidates = await this.db.webhooks.due(this.now(), max + this.inFlight.size, principal.operator ? undefined : principal.workspaceId);
    const due = candidates.filter((d) => !this.inFlight.has(d.deliveryId)).slice(0, max);
    for (const d of due) this.inFlight.add(d.deliveryId);
    const results = (await Promise.all(due.map((d) => this.attemptIfDue(d.deliveryId)))).filter((r): r is WebhookDelivery => r !== null);
    return { processed: results.length, results };
  }

  /**
   * Sends one delivery if it is still due: the claim pushes its next attempt ahead, so a worker in another process
   * that saw it due too leaves it alone. Null when another worker took it first.
   */
  async attemptIfDue(deliveryId: string): Promise<WebhookDelivery | null> {
    this.inFlight.add(deliveryId);
    try {
      const claimed = await this.db.webhooks.claimDelivery(deliveryId, this.attemptTimeoutMs + 30_000, this.now());
      if (!claimed) {
        this.inFlight.delete(deliveryId);
        return null;
      }
    } catch (err) {
      this.inFlight.delete(deliveryId);
      throw err;
    }
    return this.attemptClaimed(deliveryId);
  }

  /** Makes a pending or failed delivery due now and attempts it once, right away. */
  async retryDelivery(principal: Principal, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.db.webhooks.getDelivery(deliveryId);
    if (!delivery || !this.canSee(principal, delivery.workspaceId)) {
      throw new ServiceError('delivery_not_found', `No webhook delivery ${deliveryId}.`, { deliveryId }, 404);
    }
    if (delivery.status === 'sent') throw new ServiceError('delivery_already_sent', `Delivery ${deliveryId} was already sent at ${delivery.sentAt}.`, { deliveryId }, 409);
    if (this.inFlight.has(deliveryId)) throw new ServiceError('delivery_in_flight', `Delivery ${deliveryId} is being attempted now; list it again shortly.`, { deliveryId }, 409);
    this.inFlight.add(deliveryId);
    try {
      await this.updateDelivery(deliveryId, (d) => {
        d.status = 'pending';
        d.nextAttemptAt = this.now().toISOString();
      });
    } catch (err) {
      this.inFlight.delete(deliveryId);
      throw err;
    }
    return this.attemptClaimed(deliveryId);
  }

  // ------------------------------------------------------------------ queue

  /**
   * A delivery the queue handed out: attempted if it is due. Resolves with when it is due next if it is still pending
   * (an attempt failed with retries left, or another worker is attempting it), so the queue can hand it out again
   * then; null when it is sent, failed for good, or gone.
   */
  async deliverQueued(deliveryId: string): Promise<Date | null> {
    await this.attemptIfDue(deliveryId);
    const delivery = await this.db.webhooks.getDelivery(deliveryId);
    return delivery?.status === 'pending' && delivery.nextAttemptAt ? new Date(delivery.nextAttemptAt) : null;
  }

  /** Pending deliveries that were due before `before`: the ones whose queue job was lost, queued again by workers. */
  async overdue(before: Date, limit = 500): Promise<string[]> {
    return (await this.db.webhooks.due(before, limit)).map((d) => d.deliveryId);
  }

  // ------------------------------------------------------------------ one attempt

  private async updateDelivery(deliveryId: string, mutate: (d: WebhookDeliveryRecord) => void): Promise<WebhookDeliveryRecord> {
    const found = await this.db.webhooks.updateDelivery(deliveryId, mutate);
    if (!found) throw new ServiceError('delivery_not_found', `No webhook delivery ${deliveryId}.`, { deliveryId }, 404);
    return found;
  }

  /**
   * Signs with a fresh timestamp, posts, and records the outcome and the signature sent. The caller has put the id in
   * `inFlight` (synchronously, so the worker and a manual retry never send the same delivery twice); this releases it.
   */
  private async attemptClaimed(deliveryId: string): Promise<WebhookDelivery> {
    try {
      const delivery = await this.db.webhooks.getDelivery(deliveryId);
      if (!delivery) throw new ServiceError('delivery_not_found', `No webhook delivery ${deliveryId}.`, { deliveryId }, 404);
      const startedAt = this.now();
      let secret: string;
      try {
        secret = await this.secretFor(delivery);
      } catch (err) {
        if (!(err instanceof UndeliverableError)) throw err;
        return publicDelivery(
          await this.updateDelivery(deliveryId, (d) => {
            Object.assign(d, { status: 'failed', nextAttemptAt: null, lastAttemptAt: startedAt.toISOString(), lastError: err.message });
          }),
        );
      }
      const body = JSON.stringify(delivery.payload);
      const signature = signatureHeaderValue(body, secret, Math.floor(startedAt.getTime() / 1000));
      // Lower-case names, so a poster that sets its own content-type never ends up with two differently cased copies.
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'preflight-webhooks/1',
        [SIGNATURE_HEADER.toLowerCase()]: signature,
        'x-service-event': delivery.eventType,
        'x-service-delivery': delivery.deliveryId,
      };
      const outcome = await attemptPost(this.send, delivery.url, body, headers, this.attemptTimeoutMs);
      const endedAt = this.now();
      const updated = await this.updateDelivery(deliveryId, (d) => {
        d.attemptCount += 1;
        d.lastAttemptAt = startedAt.toISOString();
        d.signature = signature;
        d.responseStatus = outcome.status;
        if (outcome.ok) {
          Object.assign(d, { status: 'sent', sentAt: endedAt.toISOString(), nextAttemptAt: null, lastError: null });
          return;
        }
        const next = outcome.permanent ? null : nextAttemptAfter(d.attemptCount, endedAt);
        Object.assign(d, { status: next ? 'pending' : 'failed', nextAttemptAt: next?.toISOString() ?? null, lastError: outcome.error });
      });
      return publicDelivery(updated);
    } finally {
      this.inFlight.delete(deliveryId);
    }
  }
}
