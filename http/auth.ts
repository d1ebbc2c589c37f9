// Bearer keys as Hono middleware: the one authenticator of src/accounts/authorize.ts, for a route or a mount.
import { createMiddleware } from 'hono/factory';
import { authorize, type Authenticator } from '../src/accounts/authorize.js';
import type { Scope } from '../src/accounts/scopes.js';
import type { Principal } from '../src/service.js';

export type Env = { Variables: { principal: Principal } };

/** Sets the request's principal, or answers 401 (no valid key) / 403 (the key lacks `scope`) through the app's onError. */
export const requireKey = (auth: Authenticator, scope?: Scope) =>
  createMiddleware<Env>(async (c, next) => {
    c.set('principal', await authorize(auth, c.req.header('authorization'), scope));
    await next();
  });
