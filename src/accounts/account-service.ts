// The accounts side of the service: keys, bootstrap, checkout provisioning, abuse limits, spend alerts, usage and margins.
// Each method is one operation the doors call; the rules live in the modules it delegates to.
import type { ServiceError } from '../errors.js';
import type { Principal } from '../service.js';
import type { Database } from '../storage/database.js';
import type { AbuseEventRecord, SpendAlertRecord } from '../store/records.js';
import { checkAbuseLimits, listAbuseEvents, recordUsageRefusal, type AbuseCheckInput } from './abuse.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.js';
import { authenticate } from './authenticate.js';
import { ensureOperatorAccess, type OperatorAccessOptions } from './bootstrap.js';
import { checkoutWebhookConfigured, handleCheckoutWebhook, type CheckoutWebhookResult, type RawBody } from './checkout-webhook.js';
import type { AccountsContext } from './context.js';
import { smtpConfigured, smtpMailerFromEnv, type Mailer } from './mailer.js';
import type { KeyPrincipal } from './principal.js';
import { provisionCheckout } from './provisioning.js';
import type {
  AbuseEvent,
  ApiKeyRecordPublic,
  CreateApiKeyInput,
  CreateApiKeyOutput,
  ListApiKeysQuery,
  MarginsOutput,
  MarginsQuery,
  ProvisionInput,
  ProvisionOutput,
  SpendAlert,
  UsageOutput,
  UsageQuery,
  WorkspaceListQuery,
} from './schemas.js';
import { OPERATOR_SCOPE, requireScope, type Scope } from './scopes.js';
import { afterUsage, listSpendAlerts, type UsageChange } from './spend-alerts.js';
import { listUsage, margins } from './usage.js';

export interface AccountServiceOptions {
  db: Database;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  /** Default: SMTP from PREFLIGHT_SMTP_URL, or none. null: never send (alerts are `skipped`). */
  mailer?: Mailer | null;
}

/** Readiness facts without secrets, for `/v1/readiness`. */
export interface AccountsReadiness {
  operatorAuthConfigured: boolean;
  smtpConfigured: boolean;
  checkoutWebhookConfigured: boolean;
}

export class AccountService {
  private readonly ctx: AccountsContext;

  constructor(options: AccountServiceOptions) {
    this.ctx = {
      db: options.db,
      env: options.env,
      now: options.now ?? (() => new Date()),
      mailer: options.mailer === undefined ? smtpMailerFromEnv(options.env) : options.mailer,
      alertsInFlight: new Set(),
    };
  }

  // ------------------------------------------------------------------ authentication

  authenticate(bearer: string | undefined): Promise<KeyPrincipal | null> {
    return authenticate(this.ctx, bearer);
  }

  /** 403 `insufficient_scope` naming the scope. */
  requireScope(principal: Principal, scope: Scope): void {
    requireScope(principal, scope);
  }

  ensureOperatorAccess(options: OperatorAccessOptions): Promise<{ created?: string }> {
    return ensureOperatorAccess(this.ctx, options);
  }

  async readiness(): Promise<AccountsReadiness> {
    return {
      operatorAuthConfigured: (await this.ctx.db.keys.countActiveWithScope(OPERATOR_SCOPE)) > 0,
      smtpConfigured: smtpConfigured(this.ctx.env),
      checkoutWebhookConfigured: checkoutWebhookConfigured(this.ctx.env),
    };
  }

  // ------------------------------------------------------------------ keys and provisioning

  createApiKey(principal: Principal, body?: CreateApiKeyInput): Promise<CreateApiKeyOutput> {
    return createApiKey(this.ctx, principal, body);
  }

  listApiKeys(principal: Principal, query?: ListApiKeysQuery): Promise<{ keys: ApiKeyRecordPublic[] }> {
    return listApiKeys(this.ctx, principal, query);
  }

  revokeApiKey(principal: Principal, keyId: string): Promise<{ key: ApiKeyRecordPublic }> {
    return revokeApiKey(this.ctx, principal, keyId);
  }

  /** Answer 201 when `idempotentReplay` is false, 200 when true. */
  provisionCheckout(principal: Principal, body: ProvisionInput): Promise<ProvisionOutput> {
    return provisionCheckout(this.ctx, principal, body);
  }

  /** No bearer auth: `signatureHex` is the `X-Signature` header, `rawBody` the exact bytes received (best as bytes). */
  handleCheckoutWebhook(rawBody: RawBody, signatureHex: string | undefined): Promise<CheckoutWebhookResult> {
    return handleCheckoutWebhook(this.ctx, rawBody, signatureHex);
  }

  // ------------------------------------------------------------------ limits and alerts

  checkAbuseLimits(principal: Principal, input: AbuseCheckInput): Promise<void> {
    return checkAbuseLimits(this.ctx, principal, input);
  }

  recordUsageRefusal(principal: Principal, error: ServiceError): Promise<AbuseEventRecord> {
    return recordUsageRefusal(this.ctx, principal, error);
  }

  listAbuseEvents(principal: Principal, query?: WorkspaceListQuery): Promise<{ abuseEvents: AbuseEvent[] }> {
    return listAbuseEvents(this.ctx, principal, query);
  }

  afterUsage(principal: Principal, change: UsageChange): Promise<SpendAlertRecord | null> {
    return afterUsage(this.ctx, principal, change);
  }

  listSpendAlerts(principal: Principal, query?: WorkspaceListQuery): Promise<{ spendAlerts: SpendAlert[] }> {
    return listSpendAlerts(this.ctx, principal, query);
  }

  // ------------------------------------------------------------------ usage

  listUsage(principal: Principal, query?: UsageQuery): Promise<UsageOutput> {
    return listUsage(this.ctx, principal, query);
  }

  /** Operators only (403 for workspace keys). */
  margins(principal: Principal, query?: MarginsQuery): Promise<MarginsOutput> {
    return margins(this.ctx, principal, query);
  }
}
