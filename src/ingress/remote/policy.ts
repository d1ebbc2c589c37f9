// The operator's remote-ingress policy and how it is read from the environment.
import { z } from 'zod';

export interface RemotePolicy {
  /** Operator setting for tests/private deployments: allow loopback/private targets and plain http. Default false. */
  allowPrivateNetworks: boolean;
  /** Refuse bodies larger than this (Content-Length first, then while streaming). */
  maxBytes: number;
  /** Whole request including DNS and redirects. */
  timeoutMs: number;
  /** Redirects followed by GET fetches (never by postJson). Default 3. */
  maxRedirects: number;
  /** Extra CA certificates (PEM) to trust besides the system roots, e.g. for a self-signed loopback HTTPS server in tests. */
  ca?: string | Buffer;
  /**
   * Exact `host:port` pairs (`files.lan:8443`, `[fd00::5]:443`; port always written) exempt from the name and address
   * checks, e.g. one internal mirror. They still need https://, and a redirect elsewhere is checked as usual.
   */
  allowHosts?: string[];
}

export const DEFAULT_MAX_MB = 4096;
export const DEFAULT_TIMEOUT_MS = 15 * 60_000;
export const DEFAULT_MAX_REDIRECTS = 3;

const MB = 1024 * 1024;
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/;

const unsetWhenEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const RemoteEnvSchema = z.object({
  PREFLIGHT_ALLOW_PRIVATE_NETWORKS: z.preprocess(unsetWhenEmpty, z.enum(['0', '1'], { error: 'must be 1 (allow) or 0' }).optional()),
  PREFLIGHT_REMOTE_MAX_MB: z.preprocess(unsetWhenEmpty, z.coerce.number().positive().optional()),
  PREFLIGHT_REMOTE_TIMEOUT_MS: z.preprocess(unsetWhenEmpty, z.coerce.number().int().positive().optional()),
  PREFLIGHT_REMOTE_MAX_REDIRECTS: z.preprocess(unsetWhenEmpty, z.coerce.number().int().min(0).max(20).optional()),
  PREFLIGHT_REMOTE_ALLOW_HOSTS: z.preprocess(unsetWhenEmpty, z.string().optional()),
});

/** Normalises `host:port` entries (lower case, no trailing dot); throws on an entry without a port. */
export function parseAllowHosts(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim().toLowerCase().replace(/\.:/, ':'))
    .filter(Boolean)
    .map((entry) => {
      const match = HOST_PORT.exec(entry);
      if (!match || Number(match[2]) > 65535) throw new Error(`PREFLIGHT_REMOTE_ALLOW_HOSTS: "${entry}" is not host:port`);
      return entry;
    });
}

export function policyFromEnv(env: NodeJS.ProcessEnv): RemotePolicy {
  const parsed = RemoteEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const values = parsed.data;
  const allowHosts = values.PREFLIGHT_REMOTE_ALLOW_HOSTS ? parseAllowHosts(values.PREFLIGHT_REMOTE_ALLOW_HOSTS) : [];
  return {
    allowPrivateNetworks: values.PREFLIGHT_ALLOW_PRIVATE_NETWORKS === '1',
    maxBytes: Math.floor((values.PREFLIGHT_REMOTE_MAX_MB ?? DEFAULT_MAX_MB) * MB),
    timeoutMs: values.PREFLIGHT_REMOTE_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS,
    maxRedirects: values.PREFLIGHT_REMOTE_MAX_REDIRECTS ?? DEFAULT_MAX_REDIRECTS,
    ...(allowHosts.length ? { allowHosts } : {}),
  };
}
