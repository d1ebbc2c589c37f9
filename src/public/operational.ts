// Operational public documents: readiness (no secrets), launch status/handoff/doctor/evidence/targets/kit, built from
// the live configuration and the same data the code runs on.
import { DELIVERY_PROFILES, DELIVERY_PROFILE_IDS } from '../../engine/profiles/index.js';
import { GATES, thresholdsFor } from '../../engine/gates/index.js';
import type { EngineCapabilities } from '../../engine/ffmpeg/capabilities.js';
import { costBasis } from '../billing/cost-basis.js';
import { PUBLIC_ENDPOINTS } from './agent-manifest.js';
import { pipelineRecipes } from './recipes.js';

/**
 * What the public operational documents report: configuration state only. Business figures (jobs, keys, deliveries,
 * customers) are never public; an operator reads them through the authenticated routes.
 */
export interface OperationalState {
  version: string;
  engine: EngineCapabilities | null;
  engineError: string | null;
  signingKeySource: 'env' | 'file';
  operatorAuthConfigured: boolean;
  smtpConfigured: boolean;
  checkoutWebhookConfigured: boolean;
  allowPrivateNetworks: boolean;
}

export function engineStatus(state: OperationalState): 'ok' | 'degraded' | 'down' {
  if (!state.engine) return 'down';
  return GATES.length > 0 ? 'ok' : 'degraded';
}

export function engineHealth(state: OperationalState) {
  return {
    status: engineStatus(state),
    version: state.version,
    capabilities: state.engine
      ? {
          ffmpeg: state.engine.ffmpeg,
          ffprobe: state.engine.ffprobe,
          filterCount: state.engine.filters.length,
          filtersUsed: ['fps', 'scale', 'format', 'split', 'select'].map((f) => ({ name: f, available: state.engine!.filters.includes(f) })),
          gatesAvailable: GATES.map((g) => g.id),
          gatesNotAvailable: [],
        }
      : null,
    error: state.engineError,
  };
}

interface Check {
  id: string;
  ok: boolean;
  detail: string;
  fix: string | null;
}

function checks(state: OperationalState): Check[] {
  return [
    { id: 'engine', ok: Boolean(state.engine), detail: state.engine ? `ffmpeg ${state.engine.ffmpeg.version} (${state.engine.ffmpeg.source})` : (state.engineError ?? 'no ffmpeg'), fix: state.engine ? null : 'Run npm install (it bundles ffmpeg) or set PREFLIGHT_FFMPEG/PREFLIGHT_FFPROBE.' },
    { id: 'auth', ok: state.operatorAuthConfigured, detail: state.operatorAuthConfigured ? 'an operator key is active' : 'no active operator key', fix: state.operatorAuthConfigured ? null : 'Set PREFLIGHT_OPERATOR_KEY or start once with `preflight serve --bootstrap`.' },
    { id: 'receipt_signing_key', ok: true, detail: `from ${state.signingKeySource === 'env' ? 'PREFLIGHT_SIGNING_KEY' : 'the key file in the data dir'}`, fix: null },
    { id: 'spend_alert_email', ok: state.smtpConfigured, detail: state.smtpConfigured ? 'SMTP configured' : 'no SMTP: spend alerts are recorded as skipped', fix: state.smtpConfigured ? null : 'Set PREFLIGHT_SMTP_URL and PREFLIGHT_ALERT_FROM to send spend alerts.' },
    { id: 'checkout_webhook', ok: state.checkoutWebhookConfigured, detail: state.checkoutWebhookConfigured ? 'secret configured' : 'no secret: POST /v1/webhooks/checkout answers 503', fix: state.checkoutWebhookConfigured ? null : 'Set PREFLIGHT_CHECKOUT_WEBHOOK_SECRET.' },
    { id: 'remote_ingress_policy', ok: !state.allowPrivateNetworks, detail: state.allowPrivateNetworks ? 'private and loopback targets ALLOWED (test setting)' : 'HTTPS only, public addresses only', fix: state.allowPrivateNetworks ? 'Unset PREFLIGHT_ALLOW_PRIVATE_NETWORKS outside tests.' : null },
  ];
}

export function readiness(state: OperationalState) {
  const list = checks(state);
  return { ready: list.filter((c) => ['engine', 'auth'].includes(c.id)).every((c) => c.ok), version: state.version, checks: list };
}

export function launchStatus(state: OperationalState) {
  const list = checks(state);
  return {
    schema: 'preflight-launch-status/1',
    version: state.version,
    engine: engineStatus(state),
    ready: readiness(state).ready,
    blockers: list.filter((c) => !c.ok && ['engine', 'auth'].includes(c.id)).map((c) => c.id),
    warnings: list.filter((c) => !c.ok && !['engine', 'auth'].includes(c.id)).map((c) => c.id),
  };
}

export function launchDoctor(state: OperationalState) {
  return { schema: 'preflight-launch-doctor/1', checks: checks(state), fixPlan: checks(state).filter((c) => c.fix).map((c) => ({ id: c.id, fix: c.fix })) };
}

export function launchHandoff(state: OperationalState) {
  return {
    schema: 'preflight-launch-handoff/1',
    version: state.version,
    endpoints: PUBLIC_ENDPOINTS,
    docs: ['docs/gates.md', 'docs/receipts.md', 'docs/sidecars.md', 'docs/billing.md', 'docs/service.md', 'docs/api.md', 'docs/accounts.md', 'docs/webhooks.md'],
    openapi: '/openapi.json',
    next: launchDoctor(state).fixPlan,
  };
}

/** Redacted evidence: versions and configuration state, never keys, paths, business figures or customer data. */
export function launchEvidence(state: OperationalState) {
  return {
    schema: 'preflight-launch-evidence/1',
    version: state.version,
    engine: state.engine ? { ffmpeg: state.engine.ffmpeg.version, ffprobe: state.engine.ffprobe.version } : null,
    configuration: {
      operatorAuthConfigured: state.operatorAuthConfigured,
      signingKeySource: state.signingKeySource,
      smtpConfigured: state.smtpConfigured,
      checkoutWebhookConfigured: state.checkoutWebhookConfigured,
      privateNetworksAllowed: state.allowPrivateNetworks,
    },
  };
}

export function launchTargets() {
  return {
    schema: 'preflight-launch-targets/1',
    deliveryProfiles: DELIVERY_PROFILE_IDS.map((id) => ({
      ...DELIVERY_PROFILES[id],
      loudness: Object.fromEntries(Object.entries(thresholdsFor('loudness', id)).map(([k, v]) => [k, v.value])),
    })),
  };
}

export function launchKit(state: OperationalState) {
  return {
    schema: 'preflight-launch-kit/1',
    status: launchStatus(state),
    targets: launchTargets(),
    recipes: pipelineRecipes(),
    costBasis: costBasis(),
  };
}

export interface StateSources {
  service: { signingKeySource(): 'env' | 'file' };
  env: NodeJS.ProcessEnv;
  version: string;
  engine: () => Promise<EngineCapabilities>;
  /** Whether an operator key is active; false where there are no accounts (the local door). */
  operatorActive?: () => Promise<boolean>;
}

/** Gathers the live state the operational documents report (no secrets: only whether things are configured). */
export async function collectOperationalState(src: StateSources): Promise<OperationalState> {
  let engine: EngineCapabilities | null = null;
  let engineError: string | null = null;
  try {
    engine = await src.engine();
  } catch (err) {
    engineError = (err as Error).message;
  }
  return {
    version: src.version,
    engine,
    engineError,
    signingKeySource: src.service.signingKeySource(),
    operatorAuthConfigured: (await src.operatorActive?.()) ?? false,
    smtpConfigured: Boolean(src.env.PREFLIGHT_SMTP_URL),
    checkoutWebhookConfigured: Boolean(src.env.PREFLIGHT_CHECKOUT_WEBHOOK_SECRET),
    allowPrivateNetworks: src.env.PREFLIGHT_ALLOW_PRIVATE_NETWORKS === '1',
  };
}
