// The receipt signing key: a service concern (the engine signs with whatever key it is given).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from './errors.js';

export const SIGNING_KEY_ENV = 'PREFLIGHT_SIGNING_KEY';
export const HOME_ENV = 'PREFLIGHT_HOME';
export const SIGNING_KEY_FILE = 'signing-key';
const GENERATED_KEY_BYTES = 32;

export interface LoadSigningKeyOptions {
  /** Environment to read PREFLIGHT_SIGNING_KEY and PREFLIGHT_HOME from. */
  env?: Record<string, string | undefined>;
  /** Data directory; overrides PREFLIGHT_HOME. */
  home?: string;
}

export interface LoadedSigningKey {
  /** The key bytes. Not enumerable, so JSON.stringify and console.log of the result never show it. */
  readonly key: Buffer;
  readonly source: 'env' | 'file';
  /** The key file, when the key came from one. */
  readonly path?: string;
}

export function preflightHome(env: Record<string, string | undefined>, home?: string): string {
  return home ?? (env[HOME_ENV] || join(homedir(), '.preflight'));
}

function withHiddenKey(key: Buffer, source: LoadedSigningKey['source'], path?: string): LoadedSigningKey {
  const loaded = path === undefined ? { source } : { source, path };
  return Object.defineProperty(loaded, 'key', { value: key, enumerable: false }) as LoadedSigningKey;
}

function createKeyFileIfMissing(path: string): void {
  try {
    writeFileSync(path, randomBytes(GENERATED_KEY_BYTES).toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  // The umask can narrow the mode given at creation; set it exactly.
  chmodSync(path, 0o600);
}

function ensureDataDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(dir, 0o700);
}

/**
 * The signing key if this data dir has one (or PREFLIGHT_SIGNING_KEY is set), else null. Never creates or changes a
 * key: verifiers use this, so checking a receipt somewhere else leaves no key behind.
 */
export function readSigningKey(options: LoadSigningKeyOptions = {}): LoadedSigningKey | null {
  const env = options.env ?? process.env;
  const fromEnv = env[SIGNING_KEY_ENV];
  if (fromEnv) return withHiddenKey(Buffer.from(fromEnv, 'utf8'), 'env');
  const path = join(preflightHome(env, options.home), SIGNING_KEY_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return text.length === 0 ? null : withHiddenKey(Buffer.from(text, 'utf8'), 'file', path);
}

/**
 * The receipt signing key: PREFLIGHT_SIGNING_KEY (its UTF-8 bytes) when set and not empty; otherwise the hex text in
 * `<home>/signing-key`, created on first use from 32 random bytes (file 0600, directory 0700).
 */
export function loadSigningKey(options: LoadSigningKeyOptions = {}): LoadedSigningKey {
  const env = options.env ?? process.env;
  const fromEnv = env[SIGNING_KEY_ENV];
  if (fromEnv) return withHiddenKey(Buffer.from(fromEnv, 'utf8'), 'env');
  const dir = preflightHome(env, options.home);
  const path = join(dir, SIGNING_KEY_FILE);
  ensureDataDir(dir);
  createKeyFileIfMissing(path);
  const text = readFileSync(path, 'utf8').trim();
  if (text.length === 0) {
    throw new ServiceError('signing_key_invalid', `The signing key file ${path} is empty; delete it to create a new key.`, { path });
  }
  return withHiddenKey(Buffer.from(text, 'utf8'), 'file', path);
}

