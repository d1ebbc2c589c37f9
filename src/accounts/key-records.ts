// Building stored key records and their public (secret-free) form.
import type { ApiKeyRecord } from '../store/records.js';
import { randomId } from './ids.js';
import type { ApiKeyRecordPublic } from './schemas.js';
import { generateApiKey, type NewToken } from './tokens.js';
import type { WorkspaceAccount } from './workspace-account.js';

export const SHOW_ONCE_WARNING =
  'Store this API key now, somewhere secret: it is shown only this once. Preflight keeps only its SHA-256 hash and prefix and cannot show it again.';

export interface NewKeyFields extends WorkspaceAccount {
  name: string;
  scopes: readonly string[];
  provisioningId?: string | null;
  checkoutCustomerId?: string | null;
  checkoutSubscriptionId?: string | null;
}

export function newKeyRecord(fields: NewKeyFields, at: Date, token: Pick<NewToken, 'tokenPrefix' | 'tokenSha256'>): ApiKeyRecord {
  return {
    keyId: randomId('key'),
    name: fields.name,
    workspaceId: fields.workspaceId,
    ownerEmail: fields.ownerEmail,
    provisioningId: fields.provisioningId ?? null,
    checkoutCustomerId: fields.checkoutCustomerId ?? null,
    checkoutSubscriptionId: fields.checkoutSubscriptionId ?? null,
    tokenPrefix: token.tokenPrefix,
    tokenSha256: token.tokenSha256,
    scopes: [...fields.scopes],
    planId: fields.planId,
    includedMinutes: fields.includedMinutes,
    planPriceCents: fields.planPriceCents,
    overageCapCents: fields.overageCapCents,
    active: true,
    createdAt: at.toISOString(),
    lastUsedAt: null,
  };
}

/** A new key with a fresh raw secret: the record to store and the raw value to show once. */
export function issueKey(fields: NewKeyFields, at: Date): { raw: string; record: ApiKeyRecord } {
  const token = generateApiKey();
  return { raw: token.raw, record: newKeyRecord(fields, at, token) };
}

export function toPublicKey(record: ApiKeyRecord): ApiKeyRecordPublic {
  const { tokenSha256: _secretHash, ...rest } = record;
  return { ...rest, scopes: [...rest.scopes] };
}
