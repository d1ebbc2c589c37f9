// The principal an API key authenticates as, and workspace pinning (docs/api.md "Workspace pinning").
import type { Principal } from '../service.js';
import type { ApiKeyRecord } from '../store/records.js';
import { OPERATOR_SCOPE } from './scopes.js';

/** A principal resolved from a stored key: a Principal plus what pinning needs to know about its own key. */
export interface KeyPrincipal extends Principal {
  keyId: string;
  ownerEmail: string | null;
  includedMinutes: number | null;
  planPriceCents: number | null;
}

export function principalFromKey(key: ApiKeyRecord): KeyPrincipal {
  return {
    workspaceId: key.workspaceId,
    scopes: [...key.scopes],
    operator: key.scopes.includes(OPERATOR_SCOPE),
    planId: key.planId,
    overageCapCents: key.overageCapCents,
    keyId: key.keyId,
    ownerEmail: key.ownerEmail,
    includedMinutes: key.includedMinutes,
    planPriceCents: key.planPriceCents,
  };
}

export function isKeyPrincipal(principal: Principal): principal is KeyPrincipal {
  return typeof (principal as Partial<KeyPrincipal>).keyId === 'string';
}

/**
 * The workspace a listing is limited to: a workspace key always its own, whatever it asked for; an operator the one
 * it asked for, or every workspace (undefined).
 */
export function pinnedWorkspace(principal: Principal, requested: string | undefined): string | undefined {
  return principal.operator ? requested : principal.workspaceId;
}
