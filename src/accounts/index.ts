// Accounts: API keys and scopes, operator bootstrap, checkout provisioning, abuse limits, spend alerts, usage and margins.
export { AccountService, type AccountServiceOptions, type AccountsReadiness } from './account-service.js';
export { abuseLimitViolation, type AbuseCheckInput } from './abuse.js';
export { MIN_OPERATOR_KEY_LENGTH, OPERATOR_WORKSPACE_ID, type OperatorAccessOptions } from './bootstrap.js';
export { checkoutWebhookConfigured, validCheckoutSignature, type CheckoutWebhookResult, type RawBody } from './checkout-webhook.js';
export { DEFAULT_ALERT_FROM, smtpConfigured, smtpMailerFromEnv, type Mailer, type MailOutcome } from './mailer.js';
export { isKeyPrincipal, pinnedWorkspace, type KeyPrincipal } from './principal.js';
export { defaultProvisioningId } from './provisioning.js';
export * from './schemas.js';
export { authorize, BEARER_CHALLENGE, type Authenticator } from './authorize.js';
export { DEFAULT_SCOPES, hasScope, OPERATOR_SCOPE, requireScope, SCOPES, ScopeSchema, type Scope } from './scopes.js';
export type { UsageChange } from './spend-alerts.js';
