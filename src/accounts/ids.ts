import { randomBytes } from 'node:crypto';

/** `<prefix>_<20 hex>`: the id shape the rest of the service uses. */
export const randomId = (prefix: string): string => `${prefix}_${randomBytes(10).toString('hex')}`;
