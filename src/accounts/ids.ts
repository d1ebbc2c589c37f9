import { randomBytes } from 'node:crypto';

/** `<prefix>_<20 hex>`: the id shape the rest of the service uses. */
export const randomId = (prefix: string): string => `${prefix}_${randomBytes(10).toString('hex')}`;

/**
 * Workspaces the service itself acts in: operator keys, the local door (MCP over stdio, the CLI) and the checkout
 * webhook. No request may name one (any letter case), so no customer key can be made to read what they hold.
 */
export const RESERVED_WORKSPACES = { operator: 'operator', local: 'local', checkout: 'checkout' } as const;

export function isReservedWorkspaceId(id: string): boolean {
  return Object.values(RESERVED_WORKSPACES).some((reserved) => reserved === id.toLowerCase());
}
