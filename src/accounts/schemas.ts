// Zod schemas of every accounts input and output: shared by the REST door, the MCP door and the OpenAPI document.
// Request fields are snake_case and resources camelCase (docs/api.md "Requests and errors").
import { z } from 'zod';
import { BillingPeriodSchema, UsageEntrySchema } from '../billing/ledger.js';
import { CHECKOUT_PLAN_IDS, PLAN_IDS } from '../billing/plans.js';
import type { AbuseEventRecord, ApiKeyRecord, SpendAlertRecord } from '../store/records.js';
import { CentsInputSchema, WholeMinutesInputSchema } from '../schemas/bounds.js';
import { isReservedWorkspaceId, RESERVED_WORKSPACES } from './ids.js';
import { ScopeSchema } from './scopes.js';

export const WorkspaceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, 'workspace_id: 1 to 100 letters, digits, "_", ".", ":" or "-"')
  .refine((id) => !isReservedWorkspaceId(id), `workspace_id: ${Object.values(RESERVED_WORKSPACES).map((id) => `"${id}"`).join(', ')} are reserved`)
  .describe(`Workspace id; stored workspace keys are pinned to their own workspace whatever is supplied. Reserved: ${Object.values(RESERVED_WORKSPACES).join(', ')}.`);

const ExternalIdSchema = z.string().trim().min(1).max(200);

const ListLimitSchema = z.coerce.number().int().min(1).max(200);
const nullableInt = () => z.number().int().nullable();

// ------------------------------------------------------------------ API keys

export const ApiKeyRecordPublicSchema = z
  .object({
    keyId: z.string(),
    name: z.string(),
    workspaceId: z.string(),
    ownerEmail: z.string().nullable(),
    provisioningId: z.string().nullable(),
    checkoutCustomerId: z.string().nullable(),
    checkoutSubscriptionId: z.string().nullable(),
    tokenPrefix: z.string().describe('The non-secret start of the key (`prv_xxxxxxxx`), to recognise it.'),
    scopes: z.array(z.string()),
    planId: z.string().nullable(),
    includedMinutes: nullableInt(),
    planPriceCents: nullableInt(),
    overageCapCents: nullableInt(),
    active: z.boolean(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .describe('An API key record without its secret (docs/accounts.md "API keys").');
export type ApiKeyRecordPublic = z.infer<typeof ApiKeyRecordPublicSchema>;

export const CreateApiKeyInputSchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  workspace_id: WorkspaceIdSchema.optional().describe('Operators only; default a new workspace. Ignored for workspace keys.'),
  owner_email: z.email().optional(),
  plan_id: z.enum(PLAN_IDS).optional(),
  included_minutes: WholeMinutesInputSchema.optional().describe('Custom included minutes per month, overriding the plan.'),
  plan_price_cents: CentsInputSchema.optional().describe('Custom plan price per month, overriding the plan.'),
  overage_cap_cents: CentsInputSchema.optional().describe('Approved extra-minute spend per month; 0 or omitted blocks at the included minutes.'),
  scopes: z.array(ScopeSchema).min(1).optional().describe('Default: every scope except operator and api_keys:write.'),
});
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInputSchema>;

const RawKeySchema = z.string().describe('The raw API key: shown once, never stored, never shown again.');

export const CreateApiKeyOutputSchema = z.object({ apiKey: RawKeySchema, key: ApiKeyRecordPublicSchema, warning: z.string() });
export type CreateApiKeyOutput = z.infer<typeof CreateApiKeyOutputSchema>;

export const ListApiKeysQuerySchema = z.object({ workspace_id: WorkspaceIdSchema.optional() });
export type ListApiKeysQuery = z.input<typeof ListApiKeysQuerySchema>;

export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeyRecordPublicSchema) });
export const ApiKeyRevokedSchema = z.object({ key: ApiKeyRecordPublicSchema });

// ------------------------------------------------------------------ checkout provisioning

export const ProvisionInputSchema = z.object({
  plan_id: z.enum(CHECKOUT_PLAN_IDS),
  owner_email: z.email(),
  workspace_id: WorkspaceIdSchema.optional(),
  checkout_customer_id: ExternalIdSchema.optional(),
  checkout_subscription_id: ExternalIdSchema.optional(),
  overage_cap_cents: CentsInputSchema.optional(),
  provisioning_id: ExternalIdSchema.optional().describe(
    'Idempotency key. Default `<plan_id>:sub:<subscription>`, else `:cus:<customer>`, else `:ws:<workspace>`, else `:email:<owner_email>`.',
  ),
});
export type ProvisionInput = z.input<typeof ProvisionInputSchema>;

export const ProvisionOutputSchema = z.object({
  apiKey: RawKeySchema.nullable().describe('The raw key on the first successful call only; null on a replay.'),
  key: ApiKeyRecordPublicSchema,
  idempotentReplay: z.boolean(),
  warning: z.string(),
});
export type ProvisionOutput = z.infer<typeof ProvisionOutputSchema>;

export const PAID_CHECKOUT_EVENT_TYPES = ['subscription.paid', 'order.paid'] as const;

/** The body of `POST /v1/webhooks/checkout`; only paid events provision, anything else is acknowledged and ignored. */
export const CheckoutWebhookEventSchema = z.object({
  id: z.string().optional(),
  type: z.string().min(1),
  data: z.unknown().optional(),
});

export const PaidCheckoutDataSchema = z.object({
  plan_id: z.enum(CHECKOUT_PLAN_IDS),
  owner_email: z.email(),
  customer_id: ExternalIdSchema.optional(),
  subscription_id: ExternalIdSchema.optional(),
  workspace_id: WorkspaceIdSchema.optional(),
  overage_cap_cents: CentsInputSchema.optional(),
  provisioning_id: ExternalIdSchema.optional(),
});

export const KeyDeliverySchema = z
  .object({
    status: z.enum(['sent', 'failed', 'skipped']),
    provider: z.string().nullable(),
    providerMessageId: z.string().nullable(),
    error: z.string().nullable(),
  })
  .describe('How the raw key of a key provisioned by the checkout webhook reached its owner: by email, never in the webhook response.');

export const CheckoutWebhookProvisionedSchema = ProvisionOutputSchema.extend({
  apiKey: z.null(),
  eventType: z.enum(PAID_CHECKOUT_EVENT_TYPES),
  keyDelivery: KeyDeliverySchema.nullable().describe('null on a replay: nothing new to deliver.'),
});
export const CheckoutWebhookIgnoredSchema = z.object({ received: z.literal(true), ignored: z.literal(true), eventType: z.string() });

// ------------------------------------------------------------------ abuse events and spend alerts

export const AbuseEventSchema = z.object({
  eventId: z.string(),
  createdAt: z.iso.datetime(),
  error: z.string().describe('duration_limit_exceeded, upload_size_limit_exceeded, active_jobs_limit_exceeded or usage_limit_exceeded.'),
  message: z.string().nullable(),
  status: z.number().int(),
  workspaceId: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  planId: z.string().nullable(),
  includedMinutes: nullableInt(),
  minutesUsed: nullableInt(),
  requestedMinutes: nullableInt(),
  minutesRemaining: nullableInt(),
  maxDurationMinutes: nullableInt(),
  maxUploadMb: nullableInt(),
  maxActiveJobs: nullableInt(),
});
export type AbuseEvent = z.infer<typeof AbuseEventSchema>;

export const SpendAlertStatusSchema = z.enum(['sent', 'failed', 'skipped']);

export const SpendAlertSchema = z.object({
  alertId: z.string(),
  createdAt: z.iso.datetime(),
  workspaceId: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  planId: z.string().nullable(),
  billingPeriod: z.string().nullable(),
  minutesUsed: nullableInt(),
  includedMinutes: nullableInt(),
  planPriceCents: nullableInt(),
  overageRevenueCents: nullableInt().describe('Billable extra-minute spend at the plan overage rate: the trigger value.'),
  overageRateCentsPerMinute: z.number().nullable(),
  overageCostCents: z.number().nullable().describe('Estimated cost of the extra minutes at the published cost basis; audit context only.'),
  observedTotalCogsCents: z.number().nullable(),
  status: SpendAlertStatusSchema,
  provider: z.string().nullable(),
  providerMessageId: z.string().nullable(),
  error: z.string().nullable(),
});
export type SpendAlert = z.infer<typeof SpendAlertSchema>;

export const WorkspaceListQuerySchema = z.object({
  workspace_id: WorkspaceIdSchema.optional().describe('Operators only; workspace keys see their own workspace.'),
  limit: ListLimitSchema.optional().describe('1 to 200, default 50; newest first.'),
});
export type WorkspaceListQuery = z.input<typeof WorkspaceListQuerySchema>;

export const AbuseEventListSchema = z.object({ abuseEvents: z.array(AbuseEventSchema) });
export const SpendAlertListSchema = z.object({ spendAlerts: z.array(SpendAlertSchema) });

// ------------------------------------------------------------------ usage and margins

export const UsageQuerySchema = z.object({
  limit: ListLimitSchema.optional().describe('1 to 200, default 50; newest first.'),
  billing_period: BillingPeriodSchema.optional().describe('Period of the totals, YYYY-MM; default the current UTC month.'),
});
export type UsageQuery = z.input<typeof UsageQuerySchema>;

export const UsageOutputSchema = z.object({
  entries: z.array(UsageEntrySchema),
  totals: z.object({ billingPeriod: BillingPeriodSchema, minutesMetered: z.number().int().min(0) }),
});
export type UsageOutput = z.infer<typeof UsageOutputSchema>;

export const MarginsQuerySchema = UsageQuerySchema;
export type MarginsQuery = z.input<typeof MarginsQuerySchema>;

const MarginFiguresSchema = z.object({
  revenueCents: z.number().describe('Plan price plus overage revenue of the period.'),
  cogsCents: z.number().describe('Media minutes × the published deterministic cost per media minute.'),
  grossMarginPct: z.number().nullable().describe('(revenue − COGS) / revenue × 100; null without revenue.'),
});

export const WorkspaceMarginSchema = MarginFiguresSchema.extend({
  workspaceId: z.string(),
  planId: z.string(),
  planPriceCents: z.number().int(),
  includedMinutes: z.number().int(),
  minutesMetered: z.number().int(),
  mediaMinutes: z.number().int(),
  overageRevenueCents: z.number().int(),
});
export type WorkspaceMargin = z.infer<typeof WorkspaceMarginSchema>;

export const MarginsOutputSchema = z.object({
  billingPeriod: BillingPeriodSchema,
  costBasisVersion: z.string(),
  cogsCentsPerMediaMinute: z.number(),
  workspaces: z.array(WorkspaceMarginSchema).describe('Highest revenue first, at most `limit`.'),
  totals: MarginFiguresSchema.describe('Every workspace of the period, not only those listed.'),
});
export type MarginsOutput = z.infer<typeof MarginsOutputSchema>;

// Compile-time guards: the public shapes stay in step with the stored records.
const _publicKey = (r: ApiKeyRecord): ApiKeyRecordPublic => r;
const _abuse = (r: AbuseEventRecord): AbuseEvent => r;
const _alert = (r: SpendAlertRecord): SpendAlert => r;
const _abuseBack = (r: AbuseEvent): AbuseEventRecord => r;
const _alertBack = (r: SpendAlert): SpendAlertRecord => r;
