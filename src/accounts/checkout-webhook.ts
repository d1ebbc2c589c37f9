// POST /v1/webhooks/checkout: a paid checkout event, authenticated by `X-Signature` = hex HMAC-SHA256 of the raw body
// with PREFLIGHT_CHECKOUT_WEBHOOK_SECRET, provisions a workspace key idempotently. The raw key goes to the owner by
// email, never into the webhook response: checkout providers keep webhook responses in their logs.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import { jsonLimitBreach, MESSAGE_JSON_LIMITS } from '../schemas/bounded-json.js';
import type { Principal } from '../service.js';
import type { AccountsContext } from './context.js';
import { RESERVED_WORKSPACES } from './ids.js';
import { sendMail, type MailOutcome } from './mailer.js';
import { parseInput } from './parse-input.js';
import { provisionCheckout } from './provisioning.js';
import {
  CheckoutWebhookEventSchema,
  PAID_CHECKOUT_EVENT_TYPES,
  PaidCheckoutDataSchema,
  type CheckoutWebhookIgnoredSchema,
  type CheckoutWebhookProvisionedSchema,
  type ProvisionInput,
} from './schemas.js';

export type CheckoutWebhookResult =
  | { status: 201 | 200; body: z.infer<typeof CheckoutWebhookProvisionedSchema> }
  | { status: 202; body: z.infer<typeof CheckoutWebhookIgnoredSchema> };

/** The webhook acts with operator rights, limited to what a paid event can ask for. */
const CHECKOUT_PRINCIPAL: Principal = { workspaceId: RESERVED_WORKSPACES.checkout, scopes: ['api_keys:write'], operator: true };

export function checkoutWebhookConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.PREFLIGHT_CHECKOUT_WEBHOOK_SECRET);
}

/** The exact bytes received: a string is taken as their UTF-8 decoding. */
export type RawBody = string | Uint8Array;

/** Hex HMAC-SHA256 of the raw body (a `sha256=` prefix is tolerated), compared in constant time. */
export function validCheckoutSignature(secret: string, rawBody: RawBody, signatureHex: string | undefined): boolean {
  const hex = signatureHex?.trim().replace(/^sha256=/i, '') ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

function parseEvent(rawBody: RawBody) {
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'));
  } catch {
    throw new ServiceError('invalid_webhook_payload', 'The checkout webhook body is not JSON.', {}, 400);
  }
  const breach = jsonLimitBreach(json, MESSAGE_JSON_LIMITS);
  if (breach) throw new ServiceError('invalid_webhook_payload', `The checkout webhook body ${breach}.`, {}, 400);
  return parseInput(CheckoutWebhookEventSchema, json, 'invalid_webhook_payload', 'checkout event');
}

function keyDeliveryEmail(apiKey: string, workspaceId: string, planId: string | null): { subject: string; text: string } {
  return {
    subject: 'Your Preflight API key',
    text: [
      `Thank you for your purchase. Your Preflight API key for workspace ${workspaceId} (plan ${planId ?? 'free'}):`,
      '',
      apiKey,
      '',
      'Send it as a bearer token (Authorization: Bearer <key>). Keep it secret: Preflight stores only its hash and cannot show it again.',
    ].join('\n'),
  };
}

export async function handleCheckoutWebhook(ctx: AccountsContext, rawBody: RawBody, signatureHex: string | undefined): Promise<CheckoutWebhookResult> {
  const secret = ctx.env.PREFLIGHT_CHECKOUT_WEBHOOK_SECRET;
  if (!secret) {
    throw new ServiceError('checkout_webhook_unconfigured', 'The checkout webhook is not configured: set PREFLIGHT_CHECKOUT_WEBHOOK_SECRET.', {}, 503);
  }
  if (!validCheckoutSignature(secret, rawBody, signatureHex)) {
    throw new ServiceError('invalid_signature', 'X-Signature must be the hex HMAC-SHA256 of the raw request body with the shared secret.', {}, 401);
  }
  const event = parseEvent(rawBody);
  const eventType = PAID_CHECKOUT_EVENT_TYPES.find((t) => t === event.type);
  if (!eventType) return { status: 202, body: { received: true, ignored: true, eventType: event.type } };

  const data = parseInput(PaidCheckoutDataSchema, event.data, 'invalid_provisioning', 'checkout event data');
  const request: ProvisionInput = {
    plan_id: data.plan_id,
    owner_email: data.owner_email,
    workspace_id: data.workspace_id,
    checkout_customer_id: data.customer_id,
    checkout_subscription_id: data.subscription_id,
    overage_cap_cents: data.overage_cap_cents,
    provisioning_id: data.provisioning_id,
  };
  const provisioned = await provisionCheckout(ctx, CHECKOUT_PRINCIPAL, request);
  if (provisioned.apiKey === null) {
    return { status: 200, body: { ...provisioned, apiKey: null, eventType, keyDelivery: null } };
  }
  const email = keyDeliveryEmail(provisioned.apiKey, provisioned.key.workspaceId, provisioned.key.planId);
  const keyDelivery: MailOutcome = await sendMail(ctx.mailer, provisioned.key.ownerEmail, email.subject, email.text);
  const warning =
    keyDelivery.status === 'sent'
      ? 'The API key was emailed to the owner; it is not shown here.'
      : `The API key could not be emailed to the owner (${keyDelivery.error}); it is not shown here. An operator can create a new key for workspace ${provisioned.key.workspaceId} with POST /v1/api-keys.`;
  return { status: 201, body: { ...provisioned, apiKey: null, eventType, keyDelivery, warning } };
}
