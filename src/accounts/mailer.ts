// Outgoing email (spend alerts, checkout key delivery): nodemailer over SMTP when PREFLIGHT_SMTP_URL is set.
import type { Transporter } from 'nodemailer';
import { ServiceError } from '../errors.js';

export interface Mailer {
  /** Recorded as the alert's `provider`; default `smtp`. */
  readonly provider?: string;
  send(to: string, subject: string, text: string): Promise<{ messageId: string }>;
}

export const DEFAULT_ALERT_FROM = 'Preflight <no-reply@localhost>';

export function smtpConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.PREFLIGHT_SMTP_URL?.trim());
}

/** An SMTP mailer from `PREFLIGHT_SMTP_URL` (e.g. `smtps://user:pass@smtp.example.com`), or null when it is unset. */
export function smtpMailerFromEnv(env: NodeJS.ProcessEnv): Mailer | null {
  const url = env.PREFLIGHT_SMTP_URL?.trim();
  if (!url) return null;
  // nodemailer fails obscurely on anything else; the value is not echoed, it may hold a password.
  if (!/^smtps?:\/\/[^/]/i.test(url)) {
    throw new ServiceError('invalid_smtp_url', 'PREFLIGHT_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@smtp.example.com:465.', {}, 503);
  }
  const from = env.PREFLIGHT_ALERT_FROM?.trim() || DEFAULT_ALERT_FROM;
  // nodemailer (about 90 ms of module loading) is loaded by the first email, not by every process that could send one.
  let transport: Promise<Transporter> | null = null;
  return {
    provider: 'smtp',
    async send(to, subject, text) {
      transport ??= import('nodemailer').then(({ createTransport }) => createTransport(url));
      const info = await (await transport).sendMail({ from, to, subject, text });
      return { messageId: String(info.messageId) };
    },
  };
}

export interface MailOutcome {
  status: 'sent' | 'failed' | 'skipped';
  provider: string | null;
  providerMessageId: string | null;
  error: string | null;
}

/** Sends one email and says what happened; never throws. */
export async function sendMail(mailer: Mailer | null, to: string | null, subject: string, text: string): Promise<MailOutcome> {
  if (!mailer) return { status: 'skipped', provider: null, providerMessageId: null, error: 'No email provider configured (set PREFLIGHT_SMTP_URL).' };
  if (!to) return { status: 'skipped', provider: null, providerMessageId: null, error: 'The workspace has no owner email.' };
  const provider = mailer.provider ?? 'smtp';
  try {
    const { messageId } = await mailer.send(to, subject, text);
    return { status: 'sent', provider, providerMessageId: messageId, error: null };
  } catch (err) {
    return { status: 'failed', provider, providerMessageId: null, error: err instanceof Error ? err.message : String(err) };
  }
}
