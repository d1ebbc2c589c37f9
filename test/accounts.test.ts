// Accounts on a real store: API keys and scopes, pinning, operator bootstrap, checkout provisioning and its webhook,
// abuse limits, spend alerts, usage and margins.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COST_RATES } from '../src/billing/cost-basis.js';
import { usageAllowance, usageLimitError, type UsageEntry } from '../src/billing/ledger.js';
import { PLANS } from '../src/billing/plans.js';
import {
  AbuseEventSchema,
  AccountService,
  ApiKeyRecordPublicSchema,
  CheckoutWebhookIgnoredSchema,
  CheckoutWebhookProvisionedSchema,
  CreateApiKeyOutputSchema,
  DEFAULT_SCOPES,
  MarginsOutputSchema,
  ProvisionOutputSchema,
  SpendAlertSchema,
  UsageOutputSchema,
  type KeyPrincipal,
  type Mailer,
} from '../src/accounts/index.js';
import type { Database } from '../src/storage/database.js';
import { emptyDatabase, memoryDatabase, storedRecords, storedText } from './helpers/test-database.js';

const KEY_PATTERN = /^prv_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;
const ENV_OPERATOR_KEY = 'env-operator-key-0123456789abcdefghijklmnop';
const WEBHOOK_SECRET = 'whsec_test_secret_for_checkout';

let home: string;
let db: Database;
let clock: Date;

beforeAll(async () => {
  db = await memoryDatabase();
});
afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'preflight-accounts-'));
  await emptyDatabase(db);
  clock = new Date('2026-03-10T12:00:00.000Z');
});

afterEach(async () => {
  rmSync(home, { recursive: true, force: true });
});

interface SentMail {
  to: string;
  subject: string;
  text: string;
}

function fakeMailer(sent: SentMail[], fail?: string): Mailer {
  return {
    provider: 'fake',
    async send(to, subject, text) {
      if (fail) throw new Error(fail);
      sent.push({ to, subject, text });
      return { messageId: `<msg-${sent.length}@test>` };
    },
  };
}

function accounts(options: { env?: NodeJS.ProcessEnv; mailer?: Mailer | null } = {}): AccountService {
  return new AccountService({ db, env: options.env ?? {}, now: () => clock, mailer: options.mailer ?? null });
}


async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

async function operatorOf(service: AccountService): Promise<KeyPrincipal> {
  const { created } = await service.ensureOperatorAccess({ bootstrap: true });
  const principal = (await service.authenticate(created));
  if (!principal) throw new Error('bootstrap key does not authenticate');
  return principal;
}

/** A workspace key created by an operator, and its principal. */
async function workspaceKey(service: AccountService, operator: KeyPrincipal, body: Parameters<AccountService['createApiKey']>[1] = {}) {
  const created = await service.createApiKey(operator, body);
  const principal = (await service.authenticate(created.apiKey));
  if (!principal) throw new Error('new key does not authenticate');
  return { ...created, principal };
}

function usageEntry(workspaceId: string, minutes: number, overrides: Partial<UsageEntry> = {}): UsageEntry {
  return {
    entryId: `use_${Math.random().toString(16).slice(2)}`,
    workspaceId,
    jobId: `job_${Math.random().toString(16).slice(2)}`,
    sha256: null,
    billingPeriod: '2026-03',
    minutesMetered: minutes,
    mediaMinutes: minutes,
    freeRecheck: false,
    planId: null,
    createdAt: clock.toISOString(),
    ...overrides,
  };
}

describe('API keys', () => {
  it('shows the raw key once and stores only its SHA-256 and prefix', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const created = await service.createApiKey(operator, { name: 'CI', owner_email: 'owner@example.com', plan_id: 'creator' });

    expect(CreateApiKeyOutputSchema.parse(created)).toEqual(created);
    expect(created.apiKey).toMatch(KEY_PATTERN);
    expect(created.warning).toMatch(/shown only this once/);
    expect(created.key).not.toHaveProperty('tokenSha256');
    expect(created.key.tokenPrefix).toBe(created.apiKey.slice(0, 12));
    expect(created.key.workspaceId).toMatch(/^ws_[0-9a-f]{20}$/);
    expect(created.key.scopes).toEqual([...DEFAULT_SCOPES]);
    expect(created.key.scopes).not.toContain('operator');
    expect(created.key.scopes).not.toContain('api_keys:write');

    const text = (await storedText(db));
    expect(text).not.toContain(created.apiKey);
    expect(text).not.toContain(created.apiKey.slice(13));
    const stored = (await storedRecords(db)).apiKeys.find((k) => k.keyId === created.key.keyId);
    expect(stored?.tokenSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(text).toContain(stored!.tokenSha256);
    expect(text).toContain(created.key.tokenPrefix);

    const listed = (await service.listApiKeys(operator, { workspace_id: created.key.workspaceId })).keys;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('tokenSha256');
    expect(JSON.stringify(listed)).not.toContain(stored!.tokenSha256);
    expect(ApiKeyRecordPublicSchema.parse(listed[0])).toEqual(listed[0]);
  });

  it('authenticates an active key, with or without the Bearer scheme, and nothing else', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const { apiKey, key } = await service.createApiKey(operator, { plan_id: 'studio', overage_cap_cents: 500 });

    const principal = (await service.authenticate(apiKey));
    expect(principal).toMatchObject({ workspaceId: key.workspaceId, operator: false, planId: 'studio', overageCapCents: 500, keyId: key.keyId });
    expect((await service.authenticate(`Bearer ${apiKey}`))?.keyId).toBe(key.keyId);

    const wrongSecret = `${apiKey.slice(0, 13)}${'A'.repeat(43)}`;
    for (const bad of [undefined, '', 'Bearer ', 'nonsense', wrongSecret, `${apiKey}x`]) expect((await service.authenticate(bad))).toBeNull();

    await service.revokeApiKey(operator, key.keyId);
    expect((await service.authenticate(apiKey))).toBeNull();
    expect((await service.listApiKeys(operator, { workspace_id: key.workspaceId })).keys[0].active).toBe(false);
  });

  it('records lastUsedAt at most once a minute', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const { apiKey, key } = await service.createApiKey(operator, {});
    const lastUsed = async () => (await storedRecords(db)).apiKeys.find((k) => k.keyId === key.keyId)?.lastUsedAt;

    await service.authenticate(apiKey);
    expect(await lastUsed()).toBe('2026-03-10T12:00:00.000Z');
    clock = new Date('2026-03-10T12:00:59.000Z');
    await service.authenticate(apiKey);
    expect(await lastUsed()).toBe('2026-03-10T12:00:00.000Z');
    clock = new Date('2026-03-10T12:01:00.000Z');
    await service.authenticate(apiKey);
    expect(await lastUsed()).toBe('2026-03-10T12:01:00.000Z');
  });

  it('answers 403 insufficient_scope naming the missing scope', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const { principal } = await workspaceKey(service, operator, { scopes: ['jobs:read'] });

    expect(await rejection(service.listApiKeys(principal))).toMatchObject({ code: 'insufficient_scope', status: 403, details: { requiredScope: 'api_keys:read' } });
    expect(await rejection(service.createApiKey(principal, {}))).toMatchObject({ code: 'insufficient_scope', status: 403, message: expect.stringContaining('api_keys:write') });
    expect(await rejection(service.listAbuseEvents(principal))).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(await rejection(service.listSpendAlerts(principal))).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(thrown(() => service.requireScope(principal, 'uploads:write'))).toMatchObject({ details: { requiredScope: 'uploads:write' } });
    expect(() => service.requireScope(operator, 'uploads:write')).not.toThrow();
  });

  it('rejects an invalid key request with 400 naming the field', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const error = await rejection(service.createApiKey(operator, { scopes: ['everything' as never], owner_email: 'not-an-email' }));
    expect(error).toMatchObject({ code: 'invalid_api_key_request', status: 400 });
    expect((error as Error).message).toMatch(/scopes\.0/);
    expect((error as Error).message).toMatch(/owner_email/);
  });
});

describe('workspace pinning', () => {
  async function setUp() {
    const service = accounts();
    const operator = await operatorOf(service);
    const a = await workspaceKey(service, operator, {
      owner_email: 'a@example.com',
      plan_id: 'creator',
      overage_cap_cents: 1000,
      scopes: ['api_keys:read', 'api_keys:write', 'jobs:read'],
    });
    const b = await workspaceKey(service, operator, { owner_email: 'b@example.com', plan_id: 'studio', scopes: ['api_keys:read', 'api_keys:write'] });
    return { service, operator, a, b };
  }

  it('forces keys a workspace key creates into its own workspace, owner, plan economics and cap', async () => {
    const { service, a, b } = await setUp();
    const { key } = await service.createApiKey(a.principal, {
      workspace_id: b.key.workspaceId,
      owner_email: 'mallory@example.com',
      plan_id: 'network',
      included_minutes: 1_000_000,
      plan_price_cents: 1,
      overage_cap_cents: 999_999,
    });
    expect(key).toMatchObject({
      workspaceId: a.key.workspaceId,
      ownerEmail: 'a@example.com',
      planId: 'creator',
      includedMinutes: null,
      planPriceCents: null,
      overageCapCents: 1000,
    });
    // Its default scopes are the defaults it holds itself.
    expect(key.scopes).toEqual(['jobs:read', 'api_keys:read']);
  });

  it('never lets a workspace key grant scopes it lacks, or operator', async () => {
    const { service, a } = await setUp();
    expect(await rejection(service.createApiKey(a.principal, { scopes: ['operator'] }))).toMatchObject({ code: 'scope_not_grantable', status: 403 });
    expect(await rejection(service.createApiKey(a.principal, { scopes: ['jobs:read', 'jobs:write'] }))).toMatchObject({
      code: 'scope_not_grantable',
      details: { refusedScopes: ['jobs:write'] },
    });
    const narrower = await service.createApiKey(a.principal, { scopes: ['jobs:read'] });
    expect(narrower.key.scopes).toEqual(['jobs:read']);
  });

  it("lists only the workspace's own keys, whatever workspace_id it asks for", async () => {
    const { service, operator, a, b } = await setUp();
    const own = (await service.listApiKeys(a.principal, { workspace_id: b.key.workspaceId })).keys;
    expect(own.map((k) => k.keyId)).toEqual([a.key.keyId]);

    const all = (await service.listApiKeys(operator)).keys;
    expect(all.map((k) => k.workspaceId)).toEqual(expect.arrayContaining(['operator', a.key.workspaceId, b.key.workspaceId]));
    expect((await service.listApiKeys(operator, { workspace_id: b.key.workspaceId })).keys.map((k) => k.keyId)).toEqual([b.key.keyId]);
  });

  it("cannot revoke another workspace's key; the last operator key stays", async () => {
    const { service, operator, a, b } = await setUp();
    expect(await rejection(service.revokeApiKey(a.principal, b.key.keyId))).toMatchObject({ code: 'api_key_not_found', status: 404 });
    expect(await service.authenticate(b.apiKey)).toMatchObject({ workspaceId: b.key.workspaceId, keyId: b.key.keyId });
    expect(await rejection(service.revokeApiKey(operator, operator.keyId))).toMatchObject({ code: 'last_operator_key', status: 409 });

    const second = await service.createApiKey(operator, { scopes: ['operator'] });
    expect((await service.authenticate(second.apiKey))?.operator).toBe(true);
    await service.revokeApiKey(operator, operator.keyId);
    expect((await service.authenticate(second.apiKey))?.operator).toBe(true);
  });

  it('lets an operator add a key to an existing workspace on its terms', async () => {
    const { service, operator, a } = await setUp();
    const { key } = await service.createApiKey(operator, { workspace_id: a.key.workspaceId });
    expect(key).toMatchObject({ workspaceId: a.key.workspaceId, ownerEmail: 'a@example.com', planId: 'creator', overageCapCents: 1000 });
  });
});

describe('operator bootstrap', () => {
  it('refuses to start with no key, no PREFLIGHT_OPERATOR_KEY and no --bootstrap', async () => {
    const error = await rejection(accounts().ensureOperatorAccess({ bootstrap: false }));
    expect(error).toMatchObject({ code: 'no_auth_configured' });
    expect((error as Error).message).toMatch(/PREFLIGHT_OPERATOR_KEY/);
    expect((error as Error).message).toMatch(/--bootstrap/);
  });

  it('registers PREFLIGHT_OPERATOR_KEY by its hash and accepts it', async () => {
    const service = accounts();
    expect(await service.ensureOperatorAccess({ operatorKeyFromEnv: ENV_OPERATOR_KEY, bootstrap: false })).toEqual({});
    expect(await service.ensureOperatorAccess({ operatorKeyFromEnv: ENV_OPERATOR_KEY, bootstrap: false })).toEqual({});
    expect((await storedRecords(db)).apiKeys).toHaveLength(1);
    expect((await storedText(db))).not.toContain(ENV_OPERATOR_KEY);
    expect((await storedText(db))).not.toContain(ENV_OPERATOR_KEY.slice(0, 12));
    expect((await service.authenticate(`Bearer ${ENV_OPERATOR_KEY}`))).toMatchObject({ operator: true, workspaceId: 'operator' });
    expect((await service.readiness())).toMatchObject({ operatorAuthConfigured: true });

    // A changed environment key retires the previous one.
    const rotated = `${ENV_OPERATOR_KEY}-rotated`;
    await service.ensureOperatorAccess({ operatorKeyFromEnv: rotated, bootstrap: false });
    expect((await service.authenticate(ENV_OPERATOR_KEY))).toBeNull();
    expect((await service.authenticate(rotated))?.operator).toBe(true);
  });

  it('refuses a PREFLIGHT_OPERATOR_KEY shorter than 32 characters', async () => {
    expect(await rejection(accounts().ensureOperatorAccess({ operatorKeyFromEnv: 'short', bootstrap: false }))).toMatchObject({ code: 'invalid_operator_key' });
  });

  it('--bootstrap creates an operator key once and returns it once', async () => {
    const service = accounts();
    const first = await service.ensureOperatorAccess({ bootstrap: true });
    expect(first.created).toMatch(KEY_PATTERN);
    expect((await service.authenticate(first.created))).toMatchObject({ operator: true });
    expect((await storedText(db))).not.toContain(first.created);

    expect(await service.ensureOperatorAccess({ bootstrap: true })).toEqual({});
    expect(await service.ensureOperatorAccess({ bootstrap: false })).toEqual({});
    expect((await storedRecords(db)).apiKeys).toHaveLength(1);
  });

  it('starts without either when a key is already stored', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    await service.createApiKey(operator, {});
    // A fresh process on the same data dir.
    const reopened = new AccountService({ db, env: {}, mailer: null });
    expect(await reopened.ensureOperatorAccess({ bootstrap: false })).toEqual({});
  });
});

describe('checkout provisioning', () => {
  it('provisions once (201 with the key) and replays without the secret (200)', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const body = { plan_id: 'creator', owner_email: 'buyer@example.com', checkout_subscription_id: 'sub_123', checkout_customer_id: 'cus_9' } as const;

    const first = await service.provisionCheckout(operator, body);
    expect(ProvisionOutputSchema.parse(first)).toEqual(first);
    expect(first.idempotentReplay).toBe(false);
    expect(first.apiKey).toMatch(KEY_PATTERN);
    expect(first.key).toMatchObject({
      provisioningId: 'creator:sub:sub_123',
      ownerEmail: 'buyer@example.com',
      planId: 'creator',
      includedMinutes: PLANS.creator.includedMinutes,
      planPriceCents: PLANS.creator.priceCents,
      overageCapCents: null,
      checkoutSubscriptionId: 'sub_123',
      checkoutCustomerId: 'cus_9',
    });
    expect((await service.authenticate(first.apiKey!))?.workspaceId).toBe(first.key.workspaceId);

    const again = await service.provisionCheckout(operator, { ...body, plan_price_cents: 1 } as never);
    expect(again).toMatchObject({ apiKey: null, idempotentReplay: true, key: { keyId: first.key.keyId } });
    expect(again.warning).toMatch(/replay/i);
    expect((await storedRecords(db)).apiKeys.filter((k) => k.provisioningId === 'creator:sub:sub_123')).toHaveLength(1);
  });

  it('answers 400 invalid_provisioning naming an invalid plan or a missing owner email', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const badPlan = await rejection(service.provisionCheckout(operator, { plan_id: 'stress_99_5000', owner_email: 'x@example.com' } as never));
    expect(badPlan).toMatchObject({ code: 'invalid_provisioning', status: 400, message: expect.stringContaining('plan_id') });
    const noEmail = await rejection(service.provisionCheckout(operator, { plan_id: 'studio' } as never));
    expect(noEmail).toMatchObject({ code: 'invalid_provisioning', status: 400, message: expect.stringContaining('owner_email') });
  });

  it('needs api_keys:write and pins workspace keys', async () => {
    const service = accounts();
    const operator = await operatorOf(service);
    const reader = await workspaceKey(service, operator, { scopes: ['api_keys:read'] });
    expect(await rejection(service.provisionCheckout(reader.principal, { plan_id: 'creator', owner_email: 'x@example.com' }))).toMatchObject({ status: 403 });

    const writer = await workspaceKey(service, operator, { plan_id: 'creator', owner_email: 'w@example.com', scopes: ['api_keys:write', 'jobs:read'] });
    const out = await service.provisionCheckout(writer.principal, { plan_id: 'network', owner_email: 'other@example.com', workspace_id: 'ws_someone_else', overage_cap_cents: 50_000 });
    expect(out.key).toMatchObject({ workspaceId: writer.key.workspaceId, ownerEmail: 'w@example.com', planId: 'creator', overageCapCents: null, scopes: ['jobs:read'] });

    // A provisioning id another workspace holds is neither replayed nor reused: a workspace key's ids live in its own
    // namespace, and replaying an id for another workspace is a conflict.
    const foreign = await service.provisionCheckout(operator, { plan_id: 'studio', owner_email: 'z@example.com', provisioning_id: 'shared-id' });
    expect(foreign.idempotentReplay).toBe(false);
    const own = await service.provisionCheckout(writer.principal, { plan_id: 'studio', owner_email: 'z@example.com', provisioning_id: 'shared-id' });
    expect(own).toMatchObject({ idempotentReplay: false, key: { workspaceId: writer.key.workspaceId, provisioningId: `ws:${writer.key.workspaceId}:shared-id` } });
    expect(await rejection(service.provisionCheckout(operator, { plan_id: 'studio', owner_email: 'z@example.com', provisioning_id: 'shared-id', workspace_id: writer.key.workspaceId }))).toMatchObject({
      code: 'provisioning_conflict',
      status: 409,
    });
  });
});

describe('checkout webhook', () => {
  const sign = (body: string, secret = WEBHOOK_SECRET) => createHmac('sha256', secret).update(body).digest('hex');
  const paid = JSON.stringify({
    id: 'evt_1',
    type: 'subscription.paid',
    data: { plan_id: 'studio', owner_email: 'buyer@example.com', customer_id: 'cus_1', subscription_id: 'sub_1' },
  });

  it('answers 503 when no secret is configured', async () => {
    expect(await rejection(accounts().handleCheckoutWebhook(paid, sign(paid)))).toMatchObject({ code: 'checkout_webhook_unconfigured', status: 503 });
  });

  it('answers 401 to a missing or wrong signature and provisions nothing', async () => {
    const service = accounts({ env: { PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    for (const signature of [undefined, '', 'zz', sign(paid, 'another-secret'), sign(`${paid} `)]) {
      expect(await rejection(service.handleCheckoutWebhook(paid, signature))).toMatchObject({ code: 'invalid_signature', status: 401 });
    }
    expect((await storedRecords(db)).apiKeys).toHaveLength(0);
  });

  it('provisions a paid event once, emails the key to the owner, and replays with 200', async () => {
    const sent: SentMail[] = [];
    const service = accounts({ env: { PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: WEBHOOK_SECRET }, mailer: fakeMailer(sent) });

    const first = await service.handleCheckoutWebhook(paid, sign(paid));
    expect(first.status).toBe(201);
    expect(CheckoutWebhookProvisionedSchema.parse(first.body)).toEqual(first.body);
    expect(first.body).toMatchObject({
      apiKey: null,
      idempotentReplay: false,
      eventType: 'subscription.paid',
      keyDelivery: { status: 'sent', provider: 'fake', providerMessageId: '<msg-1@test>' },
      key: { provisioningId: 'studio:sub:sub_1', planId: 'studio', planPriceCents: 29900, includedMinutes: 10000, ownerEmail: 'buyer@example.com' },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe('buyer@example.com');
    const emailedKey = sent[0].text.match(/prv_[0-9a-f]{8}_[A-Za-z0-9_-]{43}/)?.[0];
    expect((await service.authenticate(emailedKey))?.planId).toBe('studio');

    const again = await service.handleCheckoutWebhook(paid, `sha256=${sign(paid)}`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ apiKey: null, idempotentReplay: true, keyDelivery: null });
    expect(sent).toHaveLength(1);
    expect((await storedRecords(db)).apiKeys).toHaveLength(1);
  });

  it('verifies the signature over raw bytes', async () => {
    const service = accounts({ env: { PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    const bytes = Buffer.from(paid.replace('cus_1', 'cus_bjørn'), 'utf8');
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(bytes).digest('hex');
    expect(await service.handleCheckoutWebhook(bytes, signature)).toMatchObject({ status: 201, body: { key: { checkoutCustomerId: 'cus_bjørn' } } });
  });

  it('records a skipped key delivery without SMTP', async () => {
    const service = accounts({ env: { PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    const order = JSON.stringify({ type: 'order.paid', data: { plan_id: 'creator', owner_email: 'o@example.com', customer_id: 'cus_2' } });
    const result = await service.handleCheckoutWebhook(order, sign(order));
    expect(result).toMatchObject({ status: 201, body: { keyDelivery: { status: 'skipped', provider: null }, key: { provisioningId: 'creator:cus:cus_2' } } });
    expect((result.body as { warning: string }).warning).toMatch(/POST \/v1\/api-keys/);
  });

  it('acknowledges other event types with 202, and refuses a malformed paid event with 400', async () => {
    const service = accounts({ env: { PREFLIGHT_CHECKOUT_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    const refund = JSON.stringify({ type: 'order.refunded', data: {} });
    const ignored = await service.handleCheckoutWebhook(refund, sign(refund));
    expect(ignored).toEqual({ status: 202, body: { received: true, ignored: true, eventType: 'order.refunded' } });
    expect(CheckoutWebhookIgnoredSchema.parse(ignored.body)).toEqual(ignored.body);

    const notJson = '{oops';
    expect(await rejection(service.handleCheckoutWebhook(notJson, sign(notJson)))).toMatchObject({ code: 'invalid_webhook_payload', status: 400 });
    const noEmail = JSON.stringify({ type: 'order.paid', data: { plan_id: 'creator' } });
    expect(await rejection(service.handleCheckoutWebhook(noEmail, sign(noEmail)))).toMatchObject({ code: 'invalid_provisioning', status: 400 });
    expect((await storedRecords(db)).apiKeys).toHaveLength(0);
  });
});

describe('abuse limits', () => {
  async function creatorKey() {
    const service = accounts();
    const operator = await operatorOf(service);
    const creator = await workspaceKey(service, operator, { plan_id: 'creator', owner_email: 'c@example.com', scopes: ['jobs:write', 'api_keys:read'] });
    return { service, operator, creator };
  }

  it('refuses a duration over the plan limit with 413 and stores the event', async () => {
    const { service, creator } = await creatorKey();
    await expect(service.checkAbuseLimits(creator.principal, { durationSeconds: 120 * 60, activeJobs: 0 })).resolves.toBeUndefined();
    const error = await rejection(service.checkAbuseLimits(creator.principal, { durationSeconds: 120 * 60 + 1, activeJobs: 0 }));
    expect(error).toMatchObject({ code: 'duration_limit_exceeded', status: 413 });
    const [event] = (await service.listAbuseEvents(creator.principal)).abuseEvents;
    expect(AbuseEventSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      error: 'duration_limit_exceeded',
      status: 413,
      workspaceId: creator.key.workspaceId,
      ownerEmail: 'c@example.com',
      planId: 'creator',
      requestedMinutes: 121,
      maxDurationMinutes: 120,
      maxUploadMb: 8192,
      maxActiveJobs: 3,
    });
  });

  it('refuses an upload over the plan limit with 413 and stores the event', async () => {
    const { service, creator } = await creatorKey();
    const limitBytes = 8192 * 1024 * 1024;
    await expect(service.checkAbuseLimits(creator.principal, { sizeBytes: limitBytes, activeJobs: 0 })).resolves.toBeUndefined();
    expect(await rejection(service.checkAbuseLimits(creator.principal, { sizeBytes: limitBytes + 1, activeJobs: 0 }))).toMatchObject({
      code: 'upload_size_limit_exceeded',
      status: 413,
    });
    expect((await storedRecords(db)).abuseEvents.map((e) => e.error)).toEqual(['upload_size_limit_exceeded']);
  });

  it('refuses a job beyond the active-job limit with 429 and stores the event', async () => {
    const { service, creator } = await creatorKey();
    await expect(service.checkAbuseLimits(creator.principal, { activeJobs: 2 })).resolves.toBeUndefined();
    expect(await rejection(service.checkAbuseLimits(creator.principal, { activeJobs: 3 }))).toMatchObject({ code: 'active_jobs_limit_exceeded', status: 429 });
    expect((await storedRecords(db)).abuseEvents).toHaveLength(1);
    expect((await storedRecords(db)).abuseEvents[0]).toMatchObject({ error: 'active_jobs_limit_exceeded', status: 429, maxActiveJobs: 3 });
  });

  it('does not limit operators; free-tier workspaces get the free limits', async () => {
    const { service, operator } = await creatorKey();
    await expect(service.checkAbuseLimits(operator, { durationSeconds: 100 * 3600, sizeBytes: 1e12, activeJobs: 99 })).resolves.toBeUndefined();
    const free = await workspaceKey(service, operator, {});
    expect(await rejection(service.checkAbuseLimits(free.principal, { durationSeconds: 61 * 60, activeJobs: 0 }))).toMatchObject({
      details: { planId: 'free', maxDurationMinutes: 60 },
    });
  });

  it('stores a usage refusal with its plan and minute context', async () => {
    const { service, creator } = await creatorKey();
    const plan = PLANS.creator;
    const allowance = usageAllowance({ plan, used: 2990, requested: 15, overageCapCents: 0 });
    const refusal = usageLimitError(allowance, { planId: plan.id, includedMinutes: plan.includedMinutes, minutesUsed: 2990, requestedMinutes: 15 });
    const event = await service.recordUsageRefusal(creator.principal, refusal);
    expect(event).toMatchObject({
      error: 'usage_limit_exceeded',
      status: 429,
      planId: 'creator',
      includedMinutes: 3000,
      minutesUsed: 2990,
      requestedMinutes: 15,
      minutesRemaining: 10,
      workspaceId: creator.key.workspaceId,
    });
  });

  it("lists only the workspace's own events, newest first, limit at most 200", async () => {
    const { service, operator, creator } = await creatorKey();
    const other = await workspaceKey(service, operator, { plan_id: 'studio', scopes: ['api_keys:read'] });
    await rejection(service.checkAbuseLimits(creator.principal, { activeJobs: 3 }));
    await rejection(service.checkAbuseLimits(creator.principal, { durationSeconds: 1e6, activeJobs: 0 }));
    await rejection(service.checkAbuseLimits(other.principal, { activeJobs: 5 }));

    expect((await service.listAbuseEvents(creator.principal, { workspace_id: other.key.workspaceId })).abuseEvents.map((e) => e.error)).toEqual([
      'duration_limit_exceeded',
      'active_jobs_limit_exceeded',
    ]);
    expect((await service.listAbuseEvents(operator)).abuseEvents).toHaveLength(3);
    expect((await service.listAbuseEvents(operator, { workspace_id: other.key.workspaceId, limit: 1 })).abuseEvents).toHaveLength(1);
    expect((await service.listAbuseEvents(operator, { limit: '2' as never })).abuseEvents).toHaveLength(2);
    expect(await rejection(service.listAbuseEvents(operator, { limit: 201 }))).toMatchObject({ code: 'invalid_query', status: 400 });
  });
});

describe('spend alerts', () => {
  // Creator: 9900 ¢ a month, 3000 minutes included, 3.3 ¢ per extra minute: 3000 extra minutes reach 9900 ¢.
  const period = '2026-03';
  const crossing = { minutesBefore: 5999, minutesAfter: 6000, billingPeriod: period };

  async function creatorAccount(mailer: Mailer | null) {
    const service = accounts({ mailer });
    const operator = await operatorOf(service);
    const creator = await workspaceKey(service, operator, { plan_id: 'creator', owner_email: 'c@example.com', scopes: ['api_keys:read'] });
    return { service, operator, creator };
  }

  it('sends the alert through nodemailer to a real SMTP server when PREFLIGHT_SMTP_URL is set', async () => {
    const { createServer } = await import('node:net');
    const mails: string[] = [];
    // A minimal SMTP server on loopback: enough of RFC 5321 for one message.
    const smtp = createServer((socket) => {
      let data = false;
      let message = '';
      socket.write('220 test ESMTP\r\n');
      socket.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\r\n')) {
          if (data) {
            if (line === '.') {
              data = false;
              mails.push(message);
              socket.write('250 2.0.0 queued as test-1\r\n');
            } else message += `${line}\n`;
            continue;
          }
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
          else if (verb === 'MAIL' || verb === 'RCPT') socket.write('250 OK\r\n');
          else if (verb === 'DATA') {
            data = true;
            socket.write('354 go ahead\r\n');
          } else if (verb === 'QUIT') socket.end('221 bye\r\n');
          else if (line) socket.write('250 OK\r\n');
        }
      });
    });
    const port: number = await new Promise((r) => smtp.listen(0, '127.0.0.1', () => r((smtp.address() as { port: number }).port)));
    try {
      // No mailer given: the service builds its nodemailer transport from the environment.
      const service = new AccountService({ db, env: { PREFLIGHT_SMTP_URL: `smtp://127.0.0.1:${port}`, PREFLIGHT_ALERT_FROM: 'alerts@example.test' }, now: () => clock });
      const operator = await operatorOf(service);
      const creator = await workspaceKey(service, operator, { plan_id: 'creator', owner_email: 'owner@example.test', scopes: ['api_keys:read'] });
      await db.usage.append(usageEntry(creator.key.workspaceId, 6000));
      const alert = await service.afterUsage(creator.principal, crossing);
      expect(alert).toMatchObject({ status: 'sent', provider: 'smtp', ownerEmail: 'owner@example.test' });
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain('To: owner@example.test');
    } finally {
      smtp.close();
    }
  });

  it('records one skipped alert without SMTP when overage crosses 100 % of the plan price', async () => {
    const { service, creator } = await creatorAccount(null);
    await db.usage.append(usageEntry(creator.key.workspaceId, 6000));
    expect(await service.afterUsage(creator.principal, { minutesBefore: 5000, minutesAfter: 5999, billingPeriod: period })).toBeNull();

    const alert = await service.afterUsage(creator.principal, crossing);
    expect(alert).not.toBeNull();
    expect(SpendAlertSchema.parse(alert)).toEqual(alert);
    expect(alert).toMatchObject({
      status: 'skipped',
      provider: null,
      providerMessageId: null,
      workspaceId: creator.key.workspaceId,
      ownerEmail: 'c@example.com',
      planId: 'creator',
      billingPeriod: period,
      minutesUsed: 6000,
      includedMinutes: 3000,
      planPriceCents: 9900,
      overageRevenueCents: 9900,
      overageRateCentsPerMinute: 3.3,
    });
    expect(alert!.overageCostCents).toBeCloseTo(3000 * COST_RATES.deterministicUsdPerMediaMinute * 100, 4);
    expect(alert!.observedTotalCogsCents).toBeCloseTo(6000 * COST_RATES.deterministicUsdPerMediaMinute * 100, 4);

    expect(await service.afterUsage(creator.principal, crossing)).toBeNull();
    expect(await service.afterUsage(creator.principal, { minutesBefore: 6000, minutesAfter: 9000, billingPeriod: period })).toBeNull();
    expect((await service.listSpendAlerts(creator.principal)).spendAlerts).toHaveLength(1);

    // A new period may alert again.
    expect(await service.afterUsage(creator.principal, { ...crossing, billingPeriod: '2026-04' })).toMatchObject({ billingPeriod: '2026-04' });
  });

  it('sends the alert through the mailer', async () => {
    const sent: SentMail[] = [];
    const { service, creator } = await creatorAccount(fakeMailer(sent));
    const alert = await service.afterUsage(creator.principal, crossing);
    expect(alert).toMatchObject({ status: 'sent', provider: 'fake', providerMessageId: '<msg-1@test>', error: null });
    expect(sent).toEqual([{ to: 'c@example.com', subject: expect.stringContaining('spend alert'), text: expect.stringContaining('99.00 USD') }]);
  });

  it('records a failed alert when the mailer throws, and does not retry it', async () => {
    const { service, creator } = await creatorAccount(fakeMailer([], 'connect ECONNREFUSED 127.0.0.1:25'));
    const alert = await service.afterUsage(creator.principal, crossing);
    expect(alert).toMatchObject({ status: 'failed', provider: 'fake', error: 'connect ECONNREFUSED 127.0.0.1:25' });
    expect(await service.afterUsage(creator.principal, crossing)).toBeNull();
  });

  it('builds the SMTP mailer from PREFLIGHT_SMTP_URL: skipped when unset, failed when the server is unreachable', async () => {
    const unset = new AccountService({ db, env: {}, now: () => clock });
    expect((await unset.readiness()).smtpConfigured).toBe(false);
    const operator = await operatorOf(unset);
    const creator = await workspaceKey(unset, operator, { plan_id: 'creator', owner_email: 'c@example.com' });
    expect(await unset.afterUsage(creator.principal, crossing)).toMatchObject({ status: 'skipped', provider: null });

    const env = { PREFLIGHT_SMTP_URL: 'smtp://127.0.0.1:1', PREFLIGHT_ALERT_FROM: 'alerts@example.com' };
    const smtp = new AccountService({ db, env, now: () => clock });
    expect((await smtp.readiness()).smtpConfigured).toBe(true);
    const alert = await smtp.afterUsage(creator.principal, { ...crossing, billingPeriod: '2026-04' });
    expect(alert).toMatchObject({ status: 'failed', provider: 'smtp', providerMessageId: null, error: expect.stringMatching(/ECONNREFUSED|connect/i) });

    expect(() => new AccountService({ db, env: { PREFLIGHT_SMTP_URL: 'mail.example.com' } })).toThrow(/smtp:\/\//);
  });

  it('sends one alert when two usages cross at once', async () => {
    const sent: SentMail[] = [];
    const { service, creator } = await creatorAccount(fakeMailer(sent));
    const both = await Promise.all([service.afterUsage(creator.principal, crossing), service.afterUsage(creator.principal, { ...crossing, minutesAfter: 6100 })]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect((await storedRecords(db)).spendAlerts).toHaveLength(1);
  });

  it('never alerts a plan without a price, and pins the list', async () => {
    const { service, operator, creator } = await creatorAccount(null);
    const free = await workspaceKey(service, operator, { scopes: ['api_keys:read'] });
    expect(await service.afterUsage(free.principal, { minutesBefore: 0, minutesAfter: 1_000_000, billingPeriod: period })).toBeNull();
    await service.afterUsage(creator.principal, crossing);
    expect((await service.listSpendAlerts(free.principal, { workspace_id: creator.key.workspaceId })).spendAlerts).toEqual([]);
    expect((await service.listSpendAlerts(operator)).spendAlerts).toHaveLength(1);
  });
});

describe('usage and margins', () => {
  async function seeded() {
    const service = accounts();
    const operator = await operatorOf(service);
    const creator = await workspaceKey(service, operator, { plan_id: 'creator', scopes: ['jobs:read'] });
    const studio = await workspaceKey(service, operator, { plan_id: 'studio', scopes: ['jobs:read'] });
    await db.usage.append(usageEntry(creator.key.workspaceId, 100));
    await db.usage.append(usageEntry(creator.key.workspaceId, 0, { mediaMinutes: 20, freeRecheck: true }));
    await db.usage.append(usageEntry(studio.key.workspaceId, 50));
    await db.usage.append(usageEntry(creator.key.workspaceId, 7, { billingPeriod: '2026-02' }));
    return { service, operator, creator, studio };
  }

  it('lists usage pinned to the workspace, all of it for operators', async () => {
    const { service, operator, creator } = await seeded();
    const own = (await service.listUsage(creator.principal));
    expect(UsageOutputSchema.parse(own)).toEqual(own);
    expect(own.entries).toHaveLength(3);
    expect(own.entries.every((e) => e.workspaceId === creator.key.workspaceId)).toBe(true);
    expect(own.entries[0].billingPeriod).toBe('2026-02');
    expect(own.totals).toEqual({ billingPeriod: '2026-03', minutesMetered: 100 });
    expect((await service.listUsage(creator.principal, { billing_period: '2026-02' })).totals.minutesMetered).toBe(7);
    expect((await service.listUsage(creator.principal, { limit: 1 })).entries).toHaveLength(1);

    const all = (await service.listUsage(operator));
    expect(all.entries).toHaveLength(4);
    expect(all.totals.minutesMetered).toBe(150);
  });

  it('refuses margins to workspace keys with 403', async () => {
    const { service, creator } = await seeded();
    expect(await rejection(service.margins(creator.principal))).toMatchObject({ code: 'insufficient_scope', status: 403, details: { requiredScope: 'operator' } });
  });

  it('gives operators revenue, COGS and gross margin per workspace', async () => {
    const { service, operator, creator, studio } = await seeded();
    const out = (await service.margins(operator, { billing_period: '2026-03' }));
    expect(MarginsOutputSchema.parse(out)).toEqual(out);
    const cogsPerMinute = COST_RATES.deterministicUsdPerMediaMinute * 100;

    const creatorRow = out.workspaces.find((w) => w.workspaceId === creator.key.workspaceId)!;
    expect(creatorRow).toMatchObject({ planId: 'creator', minutesMetered: 100, mediaMinutes: 120, overageRevenueCents: 0, revenueCents: 9900 });
    expect(creatorRow.cogsCents).toBeCloseTo(120 * cogsPerMinute, 3);
    expect(creatorRow.grossMarginPct).toBeCloseTo((1 - (120 * cogsPerMinute) / 9900) * 100, 2);

    const studioRow = out.workspaces.find((w) => w.workspaceId === studio.key.workspaceId)!;
    expect(studioRow).toMatchObject({ planId: 'studio', revenueCents: 29900, mediaMinutes: 50 });
    expect(out.workspaces[0].workspaceId).toBe(studio.key.workspaceId);

    expect(out.totals.revenueCents).toBe(9900 + 29900);
    expect(out.totals.cogsCents).toBeCloseTo(170 * cogsPerMinute, 3);
    expect(out.totals.grossMarginPct).toBeGreaterThan(95);
    expect((await service.margins(operator, { billing_period: '2026-03', limit: 1 })).workspaces).toHaveLength(1);
  });
});
