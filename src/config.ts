import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const unsetWhenEmpty = (v: unknown) => (v === '' ? undefined : v);

const EnvSchema = z.object({
  PREFLIGHT_HOME: z.preprocess(unsetWhenEmpty, z.string().min(1).optional()),
  PREFLIGHT_SIGNING_KEY: z.preprocess(unsetWhenEmpty, z.string().min(16, 'PREFLIGHT_SIGNING_KEY must be at least 16 characters').optional()),
  PREFLIGHT_DEBUG: z.string().optional(),
});

export interface Config {
  home: string;
  debug: boolean;
  env: NodeJS.ProcessEnv;
}

/** Reads the environment once, validated; an invalid value is a clear error, not a surprise later. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return {
    home: resolve(parsed.data.PREFLIGHT_HOME ?? join(homedir(), '.preflight')),
    debug: Boolean(parsed.data.PREFLIGHT_DEBUG),
    env,
  };
}
