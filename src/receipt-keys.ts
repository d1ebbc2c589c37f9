// The issuer's Ed25519 receipt keys: the private key that signs (PREFLIGHT_RECEIPT_KEY, or the keyring file under the
// data dir, created on first use with mode 0600), and the public keys it publishes, retired ones included, so a
// receipt keeps verifying after a rotation. The engine signs with whatever key it is given; this decides which.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Ed25519PublicJwkSchema, keyDocument, publicJwkOf, type Ed25519PublicJwk, type Ed25519SigningKey, type ReceiptKeyDocument } from '../engine/receipt-ed25519.js';
import { ServiceError } from './errors.js';
import { preflightHome } from './signing-key.js';

export const RECEIPT_KEY_ENV = 'PREFLIGHT_RECEIPT_KEY';
export const RECEIPT_KEYRING_FILE = 'receipt-keys.json';
const KEYRING_FORMAT = 'preflight-receipt-keyring/1';

const KeyringEntrySchema = z.object({
  kid: z.string(),
  createdAt: z.string(),
  /** Set when the key stopped signing; its public key stays published. */
  retiredAt: z.string().nullable(),
  publicJwk: Ed25519PublicJwkSchema,
  /** PKCS#8 PEM of the active key of a file keyring; dropped when the key is retired. */
  privateKey: z.string().optional(),
});
const KeyringSchema = z.object({ format: z.literal(KEYRING_FORMAT), keys: z.array(KeyringEntrySchema) });
type Keyring = z.infer<typeof KeyringSchema>;
type KeyringEntry = z.infer<typeof KeyringEntrySchema>;

export interface KeyOptions {
  env?: Record<string, string | undefined>;
  home?: string;
}

export interface LoadedReceiptKey extends Ed25519SigningKey {
  readonly source: 'env' | 'file';
  readonly path?: string;
}

const keyringPath = (options: KeyOptions): string => join(preflightHome(options.env ?? process.env, options.home), RECEIPT_KEYRING_FILE);

function invalidKeyring(path: string, why: string): ServiceError {
  return new ServiceError('receipt_keys_invalid', `The receipt keyring ${path} is unreadable (${why}); restore it from a backup: its public keys verify the receipts already issued.`, { path });
}

/** The keyring on disk, or null when there is none. Never creates anything. */
function readKeyring(path: string): Keyring | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw invalidKeyring(path, (err as NodeJS.ErrnoException).code ?? 'read error');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidKeyring(path, 'not JSON');
  }
  const parsed = KeyringSchema.safeParse(value);
  if (!parsed.success) throw invalidKeyring(path, `not a ${KEYRING_FORMAT} document`);
  return parsed.data;
}

function keyringText(keyring: Keyring): string {
  return `${JSON.stringify(keyring, null, 2)}\n`;
}

function ensureDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(dir, 0o700);
}

/** Writes beside the target, 0600, then moves it into place: a reader sees the old file or the new one, whole. */
function writeAtomically(path: string, text: string, replace: boolean): boolean {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
  chmodSync(temporary, 0o600);
  try {
    if (replace) renameSync(temporary, path);
    else linkSync(temporary, path);
    return true;
  } catch (err) {
    if (!replace && (err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temporary, { force: true });
  }
}

function newEntry(): KeyringEntry {
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicJwkOf(privateKey);
  return {
    kid: publicJwk.kid,
    createdAt: new Date().toISOString(),
    retiredAt: null,
    publicJwk,
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
  };
}

function parsePrivateKey(text: string, what: string): KeyObject {
  let key: KeyObject;
  try {
    key = text.includes('-----BEGIN') ? createPrivateKey(text) : createPrivateKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'pkcs8' });
  } catch {
    throw new ServiceError('receipt_key_invalid', `${what} is not a PKCS#8 private key (PEM, or base64 of its DER bytes).`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ServiceError('receipt_key_invalid', `${what} is a ${key.asymmetricKeyType} key; receipts are signed with Ed25519.`);
  return key;
}

function withHiddenKey(privateKey: KeyObject, source: LoadedReceiptKey['source'], path?: string): LoadedReceiptKey {
  const kid = publicJwkOf(privateKey).kid;
  const loaded = path === undefined ? { kid, source } : { kid, source, path };
  return Object.defineProperty(loaded, 'privateKey', { value: privateKey, enumerable: false }) as LoadedReceiptKey;
}

function envKey(env: Record<string, string | undefined>): KeyObject | null {
  const text = env[RECEIPT_KEY_ENV];
  return text ? parsePrivateKey(text, RECEIPT_KEY_ENV) : null;
}

const LOCK_WAIT_MS = 2000;
const LOCK_POLL_MS = 20;

function takeLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Changes to an existing keyring are serialised by a lock file beside it. A change waits a moment for another one
 * (key changes take milliseconds), then fails with what to do rather than risk losing a key.
 */
function withKeyringLock<T>(path: string, work: () => T): T {
  const lock = `${path}.lock`;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; !takeLock(lock); waited += LOCK_POLL_MS) {
    if (waited >= LOCK_WAIT_MS) {
      throw new ServiceError('receipt_keys_busy', `Another process is changing the receipt keys (${lock}); wait for it, or delete that file if none is running.`, { path: lock });
    }
    Atomics.wait(pause, 0, 0, LOCK_POLL_MS);
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

const activeEntry = (keyring: Keyring | null) => keyring?.keys.find((k) => k.retiredAt === null && k.privateKey) ?? null;

/**
 * The key that signs receipts: PREFLIGHT_RECEIPT_KEY when set; otherwise the active key of `<home>/receipt-keys.json`,
 * created on first use (file 0600, directory 0700). Two processes starting together end up with the same key.
 */
export function loadReceiptSigningKey(options: KeyOptions = {}): LoadedReceiptKey {
  const env = options.env ?? process.env;
  const fromEnv = envKey(env);
  if (fromEnv) return withHiddenKey(fromEnv, 'env');
  const path = keyringPath(options);
  let keyring = readKeyring(path);
  if (!activeEntry(keyring)) {
    if (keyring === null) {
      ensureDir(preflightHome(env, options.home));
      writeAtomically(path, keyringText({ format: KEYRING_FORMAT, keys: [newEntry()] }), false);
    } else {
      // Retired keys only (the data dir signed with PREFLIGHT_RECEIPT_KEY before): add one, under the lock, once.
      withKeyringLock(path, () => {
        const current = readKeyring(path) ?? keyring!;
        if (!activeEntry(current)) writeAtomically(path, keyringText({ ...current, keys: [...current.keys, newEntry()] }), true);
      });
    }
    keyring = readKeyring(path);
  }
  const active = activeEntry(keyring);
  if (!active?.privateKey) throw invalidKeyring(path, 'no active key');
  return withHiddenKey(parsePrivateKey(active.privateKey, path), 'file', path);
}

/**
 * Every public key the issuer publishes (the signing key first, then retired ones), or null when this data dir has
 * none and no PREFLIGHT_RECEIPT_KEY is set. Never creates or changes a key.
 */
export function readPublishedKeys(options: KeyOptions = {}): Ed25519PublicJwk[] | null {
  const env = options.env ?? process.env;
  const fromEnv = envKey(env);
  const keyring = readKeyring(keyringPath(options));
  if (!fromEnv && !keyring) return null;
  const keys = [...(fromEnv ? [publicJwkOf(fromEnv)] : []), ...(keyring?.keys ?? []).sort((a, b) => Number(a.retiredAt !== null) - Number(b.retiredAt !== null)).map((k) => k.publicJwk)];
  return keys.filter((key, i) => keys.findIndex((k) => k.kid === key.kid) === i);
}

/** The JWKS document `preflight receipt-keys` prints and `preflight serve` publishes; creates the key on first use. */
export function receiptKeyDocument(options: KeyOptions = {}): ReceiptKeyDocument {
  loadReceiptSigningKey(options);
  return keyDocument(readPublishedKeys(options) ?? []);
}

export interface RotationResult {
  retired: string;
  active: string | null;
  /** What the operator still has to do (env keys are rotated by changing the variable). */
  next: string | null;
}


/**
 * Retires the signing key and keeps its public key published, so receipts it signed keep verifying. A file keyring
 * gets a new key at once (the old private key is deleted); a PREFLIGHT_RECEIPT_KEY is recorded as retired, and the
 * operator then sets the variable to the new key.
 */
export function rotateReceiptKey(options: KeyOptions = {}): RotationResult {
  const env = options.env ?? process.env;
  const path = keyringPath(options);
  const current = loadReceiptSigningKey(options);
  ensureDir(preflightHome(env, options.home));
  return withKeyringLock(path, () => {
    const keyring = readKeyring(path) ?? { format: KEYRING_FORMAT, keys: [] };
    const now = new Date().toISOString();
    const retire = (k: KeyringEntry): KeyringEntry => (k.kid === current.kid ? { kid: k.kid, createdAt: k.createdAt, retiredAt: now, publicJwk: k.publicJwk } : k);
    if (current.source === 'env') {
      const known = keyring.keys.some((k) => k.kid === current.kid);
      const keys = known ? keyring.keys.map(retire) : [...keyring.keys, { kid: current.kid, createdAt: now, retiredAt: now, publicJwk: publicJwkOf(current.privateKey) }];
      writeAtomically(path, keyringText({ format: KEYRING_FORMAT, keys }), true);
      return {
        retired: current.kid,
        active: null,
        next: `Set ${RECEIPT_KEY_ENV} to a new Ed25519 private key (e.g. openssl genpkey -algorithm ed25519) and restart; key ${current.kid} stays published.`,
      };
    }
    const fresh = newEntry();
    writeAtomically(path, keyringText({ format: KEYRING_FORMAT, keys: [...keyring.keys.map(retire), fresh] }), true);
    return { retired: current.kid, active: fresh.kid, next: null };
  });
}
