// Scopes of API keys (SPEC.md "Authentication"; the full list and the defaults are our decisions, see docs/accounts.md).
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import type { Principal } from '../service.js';

export const SCOPES = [
  'jobs:read',
  'jobs:write',
  'reports:read',
  'uploads:write',
  'webhooks:write',
  'api_keys:read',
  'api_keys:write',
  'operator',
] as const;

export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

export const OPERATOR_SCOPE = 'operator' satisfies Scope;

/** Scopes of a key created without `scopes`: everything a customer integration needs, but no key minting and no operator power. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'operator' && s !== 'api_keys:write');

/** Operators (and the local principal's `*`) hold every scope. */
export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.operator || principal.scopes.includes('*') || principal.scopes.includes(scope);
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (hasScope(principal, scope)) return;
  throw new ServiceError('insufficient_scope', `This API key lacks the scope "${scope}".`, { requiredScope: scope }, 403);
}
