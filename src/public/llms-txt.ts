// llms.txt (AnswerDotAI llms-txt format): H1, blockquote summary, prose, then H2 sections of `- [name](url): notes`.
// Links are relative: the file is served at /llms.txt beside the documents it names.
import { DELIVERY_PROFILES, DELIVERY_PROFILE_IDS, PIPELINE_PROFILES, PIPELINE_PROFILE_IDS, PROFILE_ALIASES } from '../../engine/profiles/index.js';
import { TOOL_CATALOGUE } from '../tool-catalogue.js';
import { CLI_COMMAND, LOCAL_COMMAND, MCP_HTTP_PATH } from './mcp-install.js';
import { CLI_EXIT_CODES, repairLoopInstructions, VERDICT_RULE } from './repair-loop.js';

interface Link {
  name: string;
  url: string;
  notes: string;
}

const DOCS: Link[] = [
  { name: 'Gates and thresholds', url: 'docs/gates.md', notes: 'every gate, its algorithm in words, its thresholds per delivery profile and their sources' },
  {
    name: 'Receipts',
    url: 'docs/receipts.md',
    notes: 'the signed receipt format (preflight-receipt/1), what PASS and BLOCK assert, the gates each delivery profile requires, and how anyone verifies a receipt offline',
  },
  { name: 'Sidecars', url: 'docs/sidecars.md', notes: 'formats of the manifest, transcript, watchlist, expected script and chunk sidecars, and the gates each unlocks' },
  { name: 'Billing', url: 'docs/billing.md', notes: 'checked minutes, the free tier, plans, overage caps, the cost guardrail and abuse limits' },
  { name: 'Engine', url: 'docs/engine.md', notes: 'how one check runs: probe, one decode pass, pure gates, verdict, report' },
  { name: 'Service', url: 'docs/service.md', notes: 'jobs and their states, the data dir, media ingress, uploads, events, artifacts and errors' },
];

const OPTIONAL: Link[] = [
  { name: 'README', url: 'README.md', notes: 'set-up, the CLI and its exit codes' },
  { name: 'MCP install', url: 'mcp-install.json', notes: 'ready configs for Claude Desktop, Claude Code, Cursor, VS Code and Codex, local and remote mode' },
  { name: 'Agent manifest', url: 'agent-manifest.json', notes: 'tools, profiles, gates, schema ids and public endpoints as JSON' },
  { name: 'Pipeline recipes', url: 'pipeline-recipes.json', notes: 'one recipe per pipeline profile: gates, sidecars, tool calls and CLI' },
  { name: 'Podcast/audio handoff', url: 'npo-pipeline-handoff.json', notes: 'targets, gates, sidecars and handoff contents for audio programmes' },
  { name: 'Receipt JSON Schema', url: 'docs/receipt.schema.json', notes: 'the open, versioned schema of receipts' },
  { name: 'Cost basis', url: 'cost-basis.json', notes: 'the published prices the estimate and the cost guardrail use' },
];

/** The first sentence of a description: up to the first full stop followed by a space or the end. */
export function firstSentence(text: string): string {
  const match = /^.*?[.!?](?=\s|$)/s.exec(text.trim());
  return (match ? match[0] : text).trim();
}

const listItem = ({ name, url, notes }: Link): string => `- [${name}](${url}): ${notes}`;

function section(title: string, links: readonly Link[]): string[] {
  return [`## ${title}`, '', ...links.map(listItem), ''];
}

function toolLinks(): Link[] {
  return TOOL_CATALOGUE.map((tool) => ({
    name: tool.name,
    url: 'agent-manifest.json',
    notes: `${tool.title}${tool.readOnly ? ' (read-only)' : ''}. ${firstSentence(tool.description)}`,
  }));
}

function aliasesOf(id: string): string[] {
  return Object.entries(PROFILE_ALIASES)
    .filter(([, target]) => target === id)
    .map(([alias]) => alias);
}

function profileLinks(): Link[] {
  const pipeline = PIPELINE_PROFILE_IDS.map((id) => {
    const profile = PIPELINE_PROFILES[id];
    const aliases = aliasesOf(id);
    const also = aliases.length ? ` Also requested as ${aliases.map((a) => `\`${a}\``).join(', ')}.` : '';
    return { name: id, url: 'pipeline-recipes.json', notes: `${profile.label}. ${profile.description} Delivery profile \`${profile.deliveryProfile}\`.${also}` };
  });
  const delivery = DELIVERY_PROFILE_IDS.map((id) => ({
    name: id,
    url: 'docs/gates.md#delivery-profiles',
    notes: `delivery profile (named in receipts): ${DELIVERY_PROFILES[id].label}. ${DELIVERY_PROFILES[id].description}`,
  }));
  return [...pipeline, ...delivery];
}

function loopProse(): string[] {
  return ['The repair loop an agent runs on a final export:', '', repairLoopInstructions()];
}

function intro(): string[] {
  const exitCodes = Object.entries(CLI_EXIT_CODES)
    .map(([code, meaning]) => `${code} ${meaning}`)
    .join('; ');
  return [
    '# Preflight',
    '',
    '> Local-first media QC for AI agents: deterministic gates check a final video, audio or image export before it is published ' +
      'and return PASS, WATCH or BLOCK with timestamped flags. Every flag carries a repair object (action, instruction, verify, reachable), ' +
      'and a signed receipt, which anyone can verify offline with the issuer\'s public key, proves that the whole delivery profile was checked.',
    '',
    `Run it as an MCP server over stdio with \`${LOCAL_COMMAND}\` (configs for common clients in mcp-install.json), ` +
      `or from a shell with \`${CLI_COMMAND} check <file> --json\` (installed: \`preflight check <file> --json\`). ` +
      `A \`preflight serve\` also answers MCP over Streamable HTTP at \`${MCP_HTTP_PATH}\` with a workspace key as bearer token.`,
    '',
    ...loopProse(),
    '',
    `Verdict rule: ${VERDICT_RULE} Verdicts are deterministic: the same file and options give the same flags; an agent never replaces a verdict with its own.`,
    '',
    `CLI exit codes: ${exitCodes}.`,
    '',
  ];
}

export function llmsTxt(): string {
  return [
    ...intro(),
    ...section('Docs', DOCS),
    ...section('Tools', toolLinks()),
    ...section('Profiles', profileLinks()),
    ...section('Optional', OPTIONAL),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
