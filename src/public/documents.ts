// The public documents, built from the data the code runs on (tools, profiles, gates, thresholds), never
// hand-edited copies. The REST door serves PUBLIC_DOCUMENTS; mcp-install.json and llms.txt are also committed
// at the repo root, and test/public-documents.test.ts keeps them equal to this output.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentManifest } from './agent-manifest.js';
import { llmsTxt } from './llms-txt.js';
import { mcpInstall } from './mcp-install.js';
import { npoPipelineHandoff, pipelineRecipes } from './recipes.js';

export { AGENT_MANIFEST_SCHEMA, PUBLIC_ENDPOINTS, agentManifest, type AgentManifest, type PublicEndpoint } from './agent-manifest.js';
export { firstSentence, llmsTxt } from './llms-txt.js';
export { API_KEY_PLACEHOLDER, API_URL_PLACEHOLDER, LOCAL_COMMAND, MCP_INSTALL_SCHEMA, mcpInstall, type McpInstall } from './mcp-install.js';
export {
  NPO_PIPELINE_HANDOFF_SCHEMA,
  NPO_PROFILE,
  PIPELINE_RECIPES_SCHEMA,
  npoPipelineHandoff,
  pipelineRecipes,
  type NpoPipelineHandoff,
  type PipelineRecipe,
  type PipelineRecipes,
} from './recipes.js';
export { CLI_EXIT_CODES, VERDICT_RULE, repairLoop, type RepairLoopStep } from './repair-loop.js';

/** Pretty JSON with a final newline, as committed and served. */
export function jsonDocument(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export interface PublicDocument {
  contentType: 'application/json' | 'text/plain';
  render: () => string;
}

/** Public paths this module builds, with their rendered body (docs/api.md "Public documents"). */
export const PUBLIC_DOCUMENTS: Readonly<Record<string, PublicDocument>> = {
  '/agent-manifest.json': { contentType: 'application/json', render: () => jsonDocument(agentManifest()) },
  '/mcp-install.json': { contentType: 'application/json', render: () => jsonDocument(mcpInstall()) },
  '/pipeline-recipes.json': { contentType: 'application/json', render: () => jsonDocument(pipelineRecipes()) },
  '/npo-pipeline-handoff.json': { contentType: 'application/json', render: () => jsonDocument(npoPipelineHandoff()) },
  '/llms.txt': { contentType: 'text/plain', render: llmsTxt },
};

/** Files committed at the repo root, relative path → content. */
export const GENERATED_FILES: Readonly<Record<string, () => string>> = {
  'mcp-install.json': PUBLIC_DOCUMENTS['/mcp-install.json'].render,
  'llms.txt': PUBLIC_DOCUMENTS['/llms.txt'].render,
};

/** Writes the generated files under `rootDir`; returns the relative paths written. */
export function writeGeneratedFiles(rootDir: string): string[] {
  return Object.entries(GENERATED_FILES).map(([path, render]) => {
    writeFileSync(join(rootDir, path), render());
    return path;
  });
}
