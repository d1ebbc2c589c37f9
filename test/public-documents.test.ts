import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GATES, thresholdsFor } from '../engine/gates/index.js';
import { PIPELINE_PROFILES, PIPELINE_PROFILE_IDS } from '../engine/profiles/index.js';
import {
  API_KEY_PLACEHOLDER,
  GENERATED_FILES,
  PUBLIC_DOCUMENTS,
  PUBLIC_ENDPOINTS,
  agentManifest,
  firstSentence,
  llmsTxt,
  mcpInstall,
  npoPipelineHandoff,
  pipelineRecipes,
  writeGeneratedFiles,
} from '../src/public/documents.js';
import { SIDECARS } from '../src/public/sidecars.js';
import { sidecarNameOf } from '../engine/gates/define.js';
import { TOOL_CATALOGUE } from '../src/tool-catalogue.js';

const ROOT = resolve(import.meta.dirname, '..');
const UPDATE_COMMAND = 'UPDATE_DOCS=1 npx vitest run test/public-documents.test.ts';

const renderAll = (): Record<string, string> => Object.fromEntries(Object.entries(PUBLIC_DOCUMENTS).map(([path, doc]) => [path, doc.render()]));

describe('committed generated files', () => {
  if (process.env.UPDATE_DOCS === '1') writeGeneratedFiles(ROOT);

  for (const [path, render] of Object.entries(GENERATED_FILES)) {
    it(`${path} is the committed output of src/public/documents.ts`, () => {
      const committed = existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : '';
      expect(committed, `${path} is out of date with src/public/documents.ts or the data it reads: run ${UPDATE_COMMAND}`).toBe(render());
    });
  }

  it('writeGeneratedFiles writes every generated file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'preflight-docs-'));
    try {
      expect(writeGeneratedFiles(dir).sort()).toEqual(Object.keys(GENERATED_FILES).sort());
      for (const [path, render] of Object.entries(GENERATED_FILES)) expect(readFileSync(join(dir, path), 'utf8')).toBe(render());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tools', () => {
  const text = llmsTxt();
  const manifest = agentManifest();

  it('lists every tool of TOOL_CATALOGUE in llms.txt with the first sentence of its description', () => {
    for (const tool of TOOL_CATALOGUE) {
      expect(text).toContain(`- [${tool.name}](`);
      expect(text).toContain(firstSentence(tool.description));
    }
  });

  it('lists every tool in the agent manifest with its title, read-only flag, scope and whether /mcp offers it', () => {
    expect(manifest.tools.map(({ name, title, readOnly }) => ({ name, title, readOnly }))).toEqual(TOOL_CATALOGUE.map(({ name, title, readOnly }) => ({ name, title, readOnly })));
    expect(manifest.tools.find((t) => t.name === 'qc_run_video')).toMatchObject({ scope: 'jobs:write', overHttp: true });
    expect(manifest.tools.find((t) => t.name === 'qc_run_local_file')).toMatchObject({ scope: 'jobs:write', overHttp: false });
    expect(manifest.mcp.streamableHttp.path).toBe('/mcp');
  });

  it('names only catalogue tools in the repair loops', () => {
    const names = new Set(TOOL_CATALOGUE.map((t) => t.name));
    const loops = [...pipelineRecipes().recipes.map((r) => r.repairLoop), npoPipelineHandoff().repairLoop];
    for (const step of loops.flat()) if (step.tool !== null) expect(names).toContain(step.tool);
    for (const item of npoPipelineHandoff().handoffMustInclude) expect(names).toContain(item.tool);
  });

  it('takes the first sentence only', () => {
    expect(firstSentence('Run it (PASS or BLOCK). Then call qc_get_report.')).toBe('Run it (PASS or BLOCK).');
    expect(firstSentence('One sentence without a stop')).toBe('One sentence without a stop');
  });
});

describe('llms.txt format', () => {
  const text = llmsTxt();
  const lines = text.split('\n');

  it('has the H1, a blockquote summary and the H2 sections in order', () => {
    expect(lines[0]).toBe('# Preflight');
    expect(lines[2]).toMatch(/^> \S/);
    const h2 = lines.filter((l) => l.startsWith('## '));
    expect(h2).toEqual(['## Docs', '## Tools', '## Profiles', '## Optional']);
    expect(lines.filter((l) => /^#(?!#)/.test(l))).toHaveLength(1);
  });

  it('holds only `- [name](url): notes` items under its H2 sections, with relative URLs', () => {
    const afterFirstH2 = lines.slice(lines.findIndex((l) => l.startsWith('## ')));
    for (const line of afterFirstH2.filter((l) => l && !l.startsWith('## '))) {
      expect(line).toMatch(/^- \[[^\]]+\]\([^)\s]+\): \S/);
      expect(line).not.toMatch(/\]\((https?:|\/)/);
    }
  });

  it('links the docs, every pipeline profile, and states the verdict rule', () => {
    for (const doc of ['docs/gates.md', 'docs/receipts.md', 'docs/sidecars.md', 'docs/billing.md', 'docs/engine.md']) expect(text).toContain(`](${doc}):`);
    for (const id of PIPELINE_PROFILE_IDS) expect(text).toContain(`- [${id}](`);
    expect(text).toContain('BLOCK if any flag is BLOCK, else WATCH if any flag is WATCH, else PASS');
  });
});

describe('pipeline recipes', () => {
  const { recipes, schema } = pipelineRecipes();

  it('has one recipe per pipeline profile whose gates are its default gates', () => {
    expect(schema).toBe('preflight-pipeline-recipes/1');
    expect(recipes.map((r) => r.profile)).toEqual([...PIPELINE_PROFILE_IDS]);
    for (const recipe of recipes) {
      const profile = PIPELINE_PROFILES[recipe.profile];
      expect(recipe.defaultGates).toEqual(profile.gates);
      expect(recipe.deliveryProfile.id).toBe(profile.deliveryProfile);
      expect(recipe.cli.check).toBe(`npx -y preflight-qc check <file> --profile ${recipe.profile} --json --receipt r.json`);
    }
  });

  it('reads sidecar needs from the gate catalogue', () => {
    const longForm = recipes.find((r) => r.profile === 'nto_long_form')!;
    const transcript = longForm.sidecars.find((s) => s.sidecar === 'transcript')!;
    expect(transcript.unlocksDefaultGates).toEqual(['spoken_leaks', 'sentence_boundary']);
    expect(transcript.unlocksWithChecks).toContain('script_faithfulness');
    const thumbnail = recipes.find((r) => r.profile === 'creator_thumbnail')!;
    expect(thumbnail.mediaKinds).toEqual(['image']);
    expect(thumbnail.sidecars.map((s) => s.sidecar)).not.toContain('transcript');
    const audio = recipes.find((r) => r.profile === 'npo_podcast_or_audio')!;
    expect(audio.sidecars.find((s) => s.sidecar === 'manifest')!.unlocksWithChecks).toEqual(['voiceover_music_balance']);
  });

  it('knows every sidecar a gate requires or reads instead of the picture', () => {
    const known = SIDECARS.map((s) => s.inputName);
    for (const gate of GATES) {
      const named = [...gate.requires.sidecars.map(sidecarNameOf), ...(gate.requires.orSidecar ? [gate.requires.orSidecar] : [])];
      for (const name of named) expect(known, `${gate.id}: "${name}"`).toContain(name);
    }
  });
});

describe('podcast/audio pipeline handoff', () => {
  const handoff = npoPipelineHandoff();
  const delivery = PIPELINE_PROFILES.npo_podcast_or_audio.deliveryProfile;

  it('reads its loudness targets from the podcast delivery thresholds', () => {
    expect(handoff.schema).toBe('preflight-npo-pipeline-handoff/1');
    expect(delivery).toBe('podcast_delivery');
    expect(handoff.targets.gates.loudness).toEqual(thresholdsFor('loudness', 'podcast_delivery'));
    const { targetLufs, watchToleranceLu, truePeakWatchDbtp } = thresholdsFor('loudness', delivery);
    expect(handoff.targets.summary).toContain(`${targetLufs.value} LUFS ±${watchToleranceLu.value} LU`);
    expect(handoff.targets.summary).toContain(`≤ ${truePeakWatchDbtp.value} dBTP`);
  });

  it('lists the profile gates, the accepted sidecars and what a handoff must include', () => {
    expect(handoff.defaultGates).toEqual(PIPELINE_PROFILES.npo_podcast_or_audio.gates);
    expect(handoff.acceptedSidecars.map((s) => s.sidecar)).toEqual(['transcript', 'watchlist', 'expected_script']);
    expect(handoff.handoffMustInclude.map((i) => i.item)).toEqual(['receipt', 'report', 'marker CSV']);
    for (const item of handoff.handoffMustInclude) expect(handoff.handoffCommand).toContain(item.cli);
  });

  it('names the watchlist and expected-script gates in the checks of its loop, keeping the defaults', () => {
    const checks = handoff.repairLoop[0].arguments.checks.split(',');
    expect(checks).toEqual([...handoff.defaultGates, 'pronunciation_watchlist', 'script_faithfulness']);
  });
});

describe('mcp-install.json', () => {
  const install = mcpInstall();

  it('has a config for every client the issue names', () => {
    const { claudeDesktop, claudeCode, cursor, vscode, codex } = install.clients;
    expect(claudeDesktop.local.mcpServers.preflight).toEqual({ command: 'npx', args: ['-y', 'preflight-qc', 'mcp'] });
    expect(claudeDesktop.localWindows.mcpServers.preflight.args.slice(0, 2)).toEqual(['/c', 'npx']);
    expect(claudeCode.command).toBe('claude mcp add preflight -- npx -y preflight-qc mcp');
    expect(claudeCode.remoteHttpCommand).toBe('claude mcp add --transport http preflight https://<your preflight server>/mcp --header "Authorization: Bearer <your workspace key>"');
    expect(cursor.remoteHttp.mcpServers.preflight).toEqual({ url: 'https://<your preflight server>/mcp', headers: { Authorization: 'Bearer ${env:PREFLIGHT_API_KEY}' } });
    expect(vscode.remoteHttp.servers.preflight).toMatchObject({ type: 'http', url: 'https://<your preflight server>/mcp' });
    expect(codex.remoteHttpToml).toContain('bearer_token_env_var = "PREFLIGHT_API_KEY"');
    expect(claudeCode.projectScope.file).toBe('.mcp.json');
    expect(cursor.configFile.project).toBe('.cursor/mcp.json');
    expect(vscode.local.servers.preflight.type).toBe('stdio');
    expect(codex.toml).toContain('[mcp_servers.preflight]');
    expect(codex.toml).toContain('tool_timeout_sec');
  });

  it('carries the API key only as a placeholder or a reference', () => {
    const { claudeDesktop, cursor, vscode } = install.clients;
    expect(claudeDesktop.remote.mcpServers.preflight.env?.PREFLIGHT_API_KEY).toBe(API_KEY_PLACEHOLDER);
    expect(cursor.remote.mcpServers.preflight.env?.PREFLIGHT_API_KEY).toBe(API_KEY_PLACEHOLDER);
    expect(vscode.remote.servers.preflight.env?.PREFLIGHT_API_KEY).toBe('${input:preflight-api-key}');
    expect(install.clients.codex.remoteToml).not.toContain('PREFLIGHT_API_KEY =');
  });
});

describe('agent manifest', () => {
  const manifest = agentManifest();

  it('lists gates, schema ids and the public endpoints', () => {
    expect(manifest.gates.map((g) => g.id)).toEqual(GATES.map((g) => g.id));
    expect(manifest.receiptSchema).toBe('preflight-receipt/1');
    expect(manifest.reportSchemaVersion).toBe('preflight-report/1');
    expect(manifest.publicEndpoints.map((e) => e.path)).toEqual(PUBLIC_ENDPOINTS.map((e) => e.path));
  });

  it('covers every document this module serves', () => {
    const paths = manifest.publicEndpoints.map((e) => e.path);
    for (const path of Object.keys(PUBLIC_DOCUMENTS)) expect(paths).toContain(path);
  });
});

describe('every public document', () => {
  afterEach(() => vi.useRealTimers());

  // Anything resembling a credential: workspace keys, long hex (keys, HMACs, hashes), PEM blocks, bearer tokens.
  const SECRET_PATTERNS = [/prv_[A-Za-z0-9]/, /\b[0-9a-f]{32,}\b/i, /-----BEGIN/, /Bearer\s+[A-Za-z0-9._~+/-]{16,}/, /\bsk-[A-Za-z0-9]{16,}/];

  it('contains nothing that looks like a secret or a path of this machine', () => {
    for (const [path, body] of Object.entries(renderAll())) {
      for (const pattern of SECRET_PATTERNS) expect(body, `${path} matches ${pattern}`).not.toMatch(pattern);
      expect(body, path).not.toContain(ROOT);
      expect(body, path).not.toContain(tmpdir());
    }
  });

  it('is deterministic: the same bytes at another time and no timestamps', () => {
    const now = renderAll();
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2031-07-04T12:34:56Z'));
    expect(renderAll()).toEqual(now);
    for (const [path, body] of Object.entries(now)) expect(body, path).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });
});
