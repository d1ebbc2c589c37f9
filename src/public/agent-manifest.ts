// /agent-manifest.json: what an agent can call and what it gets back, in one machine-readable document.
import { GATES } from '../../engine/gates/index.js';
import {
  DELIVERY_PROFILES,
  DELIVERY_PROFILE_IDS,
  PIPELINE_PROFILES,
  PIPELINE_PROFILE_IDS,
  PROFILES_VERSION,
  PROFILE_ALIASES,
  REQUEST_PROFILES,
} from '../../engine/profiles/index.js';
import { PUBLIC_VERIFIER_PATH, RECEIPT_KEYS_PATH, RECEIPT_SCHEMA_ID } from '../../engine/receipt.js';
import { REPORT_SCHEMA_VERSION } from '../../engine/report.js';
import { TOOL_CATALOGUE } from '../tool-catalogue.js';
import { LOCAL_COMMAND, MCP_HTTP_PATH, SERVER_NAME } from './mcp-install.js';
import { VERDICT_RULE } from './repair-loop.js';

export const AGENT_MANIFEST_SCHEMA = 'preflight-agent-manifest/1';

export interface PublicEndpoint {
  method: 'GET' | 'POST';
  path: string;
}

const get = (path: string): PublicEndpoint => ({ method: 'GET', path });

/** The public endpoints (docs/api.md "Public endpoints (no authentication)"), paths only. */
export const PUBLIC_ENDPOINTS: readonly PublicEndpoint[] = [
  ...[
    '/healthz',
    '/v1/health/engine',
    '/v1/readiness',
    '/v1/launch-status',
    '/v1/launch-handoff',
    '/v1/launch-doctor',
    '/v1/launch-evidence',
    '/agent-manifest.json',
    '/mcp-install.json',
    '/pipeline-handoff.json',
    '/pipeline-recipes.json',
    '/npo-pipeline-handoff.json',
    '/launch-targets.json',
    '/launch-status.json',
    '/launch-kit.json',
    '/cost-basis.json',
    '/sample-reports/index.json',
    '/llms.txt',
    RECEIPT_KEYS_PATH,
  ].map(get),
  { method: 'POST', path: PUBLIC_VERIFIER_PATH },
];

function profiles() {
  return {
    version: PROFILES_VERSION,
    request: [...REQUEST_PROFILES],
    aliases: { ...PROFILE_ALIASES },
    pipeline: PIPELINE_PROFILE_IDS.map((id) => {
      const { label, deliveryProfile, gates } = PIPELINE_PROFILES[id];
      return { id, label, deliveryProfile, defaultGates: [...gates] };
    }),
    delivery: DELIVERY_PROFILE_IDS.map((id) => ({ ...DELIVERY_PROFILES[id] })),
  };
}

export function agentManifest() {
  return {
    schema: AGENT_MANIFEST_SCHEMA,
    name: 'Preflight',
    description: 'Deterministic pre-upload QC for video, audio and images: PASS, WATCH or BLOCK with timestamped, repairable flags and signed receipts.',
    mcp: {
      server: SERVER_NAME,
      transport: 'stdio',
      command: LOCAL_COMMAND,
      install: '/mcp-install.json',
      streamableHttp: { path: MCP_HTTP_PATH, auth: 'Authorization: Bearer <workspace API key>', servedBy: 'preflight serve' },
    },
    tools: TOOL_CATALOGUE.map(({ name, title, readOnly, scope, localFilesOnly }) => ({ name, title, readOnly, scope, overHttp: !localFilesOnly })),
    profiles: profiles(),
    // Every gate of this build is available (none waits for inputs the build cannot read).
    gates: GATES.map(({ id, area, input }) => ({ id, area, input, available: true })),
    verdicts: ['PASS', 'WATCH', 'BLOCK'],
    verdictRule: VERDICT_RULE,
    receiptSchema: RECEIPT_SCHEMA_ID,
    reportSchemaVersion: REPORT_SCHEMA_VERSION,
    publicEndpoints: PUBLIC_ENDPOINTS.map((e) => ({ ...e })),
  };
}

export type AgentManifest = ReturnType<typeof agentManifest>;
