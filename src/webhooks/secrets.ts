// Webhook signing secrets: generated once, shown once, kept only AES-256-GCM encrypted under a key derived from the
// receipt signing key. A job's callback_secret is kept the same way, bound to its job.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const PREVIEW_CHARS = 10;
const IV_BYTES = 12;
const EMPTY_SALT = Buffer.alloc(0);
export const ENCRYPTION_KEY_INFO = 'preflight webhook secrets';

const hkdf = (signingKey: Buffer, info: string): Buffer => Buffer.from(hkdfSync('sha256', signingKey, EMPTY_SALT, info, 32));

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

export function secretPreview(secret: string): string {
  return `${secret.slice(0, PREVIEW_CHARS)}…`;
}


/** Encrypts and decrypts endpoint secrets; `context` (the webhookId) is bound as additional data, so ciphertexts cannot be swapped between records. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(signingKey: Buffer) {
    this.key = hkdf(signingKey, ENCRYPTION_KEY_INFO);
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64')).join(':');
  }

  /** Throws when the ciphertext was tampered with or the signing key changed since it was written. */
  decrypt(sealed: string, context: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 3) throw new Error('sealed secret is not iv:tag:data');
    const [iv, tag, data] = parts.map((p) => Buffer.from(p, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}
