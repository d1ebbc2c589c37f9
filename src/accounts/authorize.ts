// The one authenticator of both doors: the REST routes (through http/'s middleware) and MCP over HTTP at /mcp
// resolve a request's Authorization header here, so a missing key, a bad key and a missing scope answer the same
// codes everywhere.
import { ServiceError } from '../errors.js';
import type { Principal } from '../service.js';
import { requireScope, type Scope } from './scopes.js';

/** Resolves a bearer key to its principal, or null for a missing, unknown or revoked key (AccountService is one). */
export interface Authenticator {
  authenticate(bearer: string | undefined): Promise<Principal | null>;
}

/** The challenge a 401 carries (RFC 6750 section 3). */
export const BEARER_CHALLENGE = 'Bearer realm="preflight"';

/** The principal of an `Authorization: Bearer <key>` header: 401 unauthorized without a valid key, 403 insufficient_scope without `scope`. */
export async function authorize(auth: Authenticator, authorization: string | undefined, scope?: Scope): Promise<Principal> {
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  const principal = await auth.authenticate(bearer);
  if (!principal) {
    throw new ServiceError('unauthorized', bearer ? 'The API key is not valid.' : 'Send the workspace API key as `Authorization: Bearer <key>`.', {});
  }
  if (scope) requireScope(principal, scope);
  return principal;
}
