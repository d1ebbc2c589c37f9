// Scopes of API keys (docs/accounts.md "Scopes": the full list and the defaults are our decisions).
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

/**
 * Scopes a new key gets. Operators grant anything (default DEFAULT_SCOPES). A workspace key never grants `operator`
 * nor a scope it does not hold itself: asking for one is a 403; its default is DEFAULT_SCOPES limited to what it holds.
 */
export function grantScopes(principal: Principal, requested: readonly Scope[] | undefined): Scope[] {
  if (principal.operator) return [...new Set(requested ?? DEFAULT_SCOPES)];
  const grantable = SCOPES.filter((s) => s !== OPERATOR_SCOPE && hasScope(principal, s));
  if (!requested) return DEFAULT_SCOPES.filter((s) => grantable.includes(s));
  const refused = requested.filter((s) => !grantable.includes(s));
  if (refused.length) {
    throw new ServiceError(
      'scope_not_grantable',
      `A workspace key can only grant scopes it holds itself, never operator; refused: ${refused.join(', ')}.`,
      { refusedScopes: refused },
      403,
    );
  }
  return [...new Set(requested)];
}
