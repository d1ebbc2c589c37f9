// The npm package as a user gets it: `npm pack`, then the tarball installed into an empty folder with production
// dependencies only (from the npm cache when it has them), and the installed bin checking a clip and answering MCP.
import { builtinModules } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_NAME } from '../engine/check.js';
import { TOOL_CATALOGUE } from '../src/tool-catalogue.js';
import * as fx from './helpers/fixtures.js';

const ROOT = resolve(import.meta.dirname, '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const START = `npx -y ${PACKAGE_NAME} mcp`;
/** Looked up inside a try, and used only when a user installs it (README, Configuration: PREFLIGHT_FFPROBE). */
const USED_WHEN_INSTALLED = ['ffprobe-static'];

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

let packed: Packed;
let tarball: string;
let project: string;
let installed: string;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/** The package a bare import specifier names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

beforeAll(async () => {
  // dist/ is fresh: `npm test` builds it first (pretest), so packing skips the prepare script's second build.
  const out = mkdtempSync(join(tmpdir(), 'preflight-pack-'));
  const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { cwd: ROOT, stdin: 'ignore' });
  [packed] = JSON.parse(pack.stdout) as Packed[];
  tarball = join(out, packed.filename);
  project = mkdtempSync(join(tmpdir(), 'preflight-install-'));
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'preflight-install-test', private: true })}\n`);
  const started = Date.now();
  await execa('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdin: 'ignore', timeout: 600_000 });
  const seconds = (Date.now() - started) / 1000;
  installed = join(project, 'node_modules', PACKAGE_NAME);
  process.stderr.write(
    `${packed.filename}: ${(packed.size / 1024).toFixed(0)} kB packed, ${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked, ` +
      `${packed.files.length} files; npm install --omit=dev into an empty folder: ${seconds.toFixed(1)} s\n`,
  );
}, 660_000);

describe('the npm package', () => {
  it('is named and versioned as the project, and carries what the README links, without dev-only files', () => {
    expect(packed.filename).toBe(`${PACKAGE_NAME}-${PKG.version}.tgz`);
    const files = packed.files.map((f) => f.path);
    for (const f of ['LICENSE', 'README.md', 'llms.txt', 'mcp-install.json', 'bin/preflight.js', 'dist/cli/preflight.js', 'dist/cli/mcp.js', 'dist/cli/serve.js']) {
      expect(files, f).toContain(f);
    }
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)].map((m) => m[1]);
    expect(linked.length).toBeGreaterThan(3);
    for (const link of linked) expect(files, `README links ${link}`).toContain(link);
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('dist/bench/') || f.endsWith('.map') || f.endsWith('.ts'))).toEqual([]);
    // The bin runs the bundle (dist/cli/) alone: the compiled modules it was made from are not shipped.
    expect(files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/cli/') && !f.startsWith('dist/pglite-template/'))).toEqual([]);
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License[\s\S]*Preflight contributors/);
  });

  it('runs on production dependencies: dist imports nothing else, and no dev dependency is installed', () => {
    const allowed = new Set([...Object.keys(PKG.dependencies), ...Object.keys(PKG.optionalDependencies ?? {}), ...USED_WHEN_INSTALLED]);
    const builtins = new Set(builtinModules);
    const strays: string[] = [];
    for (const file of [...jsFiles(join(installed, 'dist')), join(installed, 'bin/preflight.js')]) {
      // Comments may quote words such as `from "..."`: only code counts. A specifier holds no white space (the bundled
      // CLI in dist/cli/ has code such as `"from";` followed by more strings).
      const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire(?:\.resolve)?\s*\(\s*)['"]([^'"\s]+)['"]/g)) {
        const spec = m[1];
        if (spec.startsWith('.') || spec.startsWith('node:') || builtins.has(spec)) continue;
        if (!allowed.has(packageOf(spec))) strays.push(`${file.slice(installed.length + 1)}: ${spec}`);
      }
    }
    expect(strays).toEqual([]);
    for (const dev of Object.keys(PKG.devDependencies)) expect(() => statSync(join(project, 'node_modules', dev)), dev).toThrow();
  });

  it('checks a generated clip through the installed bin', async () => {
    const clip = await fx.cleanShort();
    const r = await execa(join(project, 'node_modules/.bin/preflight'), ['check', clip, '--profile', 'generic_creator_video', '--json'], {
      cwd: project,
      env: { PREFLIGHT_HOME: join(project, 'home') },
      reject: false,
      stdin: 'ignore',
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(String(r.stdout)) as { verdict: string; engine: { version: string } };
    expect(report.verdict).toBe('PASS');
    expect(report.engine.version).toBe(PKG.version);
  });

  it(`answers MCP initialize and tools/list from the SDK client, started as ${START}`, async () => {
    const [command, ...args] = START.split(' ');
    const client = new Client({ name: 'preflight-pack-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: project,
      // npx finds the installed copy; offline, so a miss fails instead of fetching anything.
      env: { ...(process.env as Record<string, string>), PREFLIGHT_HOME: join(project, 'home-mcp'), npm_config_offline: 'true' },
      stderr: 'pipe',
    });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'preflight', version: PKG.version });
      expect(client.getInstructions()).toMatch(/^1\. qc_run_local_file: /);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOL_CATALOGUE.map((t) => t.name).sort());
    } finally {
      await client.close();
    }
  });

  it(`names exactly ${PACKAGE_NAME} and its mcp command in every config of mcp-install.json`, () => {
    const install = JSON.parse(readFileSync(join(installed, 'mcp-install.json'), 'utf8')) as Record<string, unknown>;
    const found = { stdio: 0, commandLines: 0, toml: 0, urls: 0 };
    const visit = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${path}[${i}]`));
      if (typeof node === 'string') {
        if (/\bnpx\b/.test(node) && /^(claude|codex) mcp add /.test(node)) {
          found.commandLines++;
          expect(node.endsWith(` ${START}`), path).toBe(true);
        }
        if (node.includes('[mcp_servers.')) {
          found.toml++;
          const command = /^command = "(.*)"$/m.exec(node)?.[1];
          if (command) expect(`${command} ${JSON.parse(/^args = (.*)$/m.exec(node)![1]).join(' ')}`, path).toBe(START);
          else expect(node, path).toMatch(/^url = "https:\/\/.*\/mcp"$/m);
        }
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      const server = node as { command?: unknown; args?: unknown; url?: unknown };
      if (typeof server.command === 'string' && Array.isArray(server.args)) {
        found.stdio++;
        const line = [server.command, ...server.args].join(' ');
        if (path.startsWith('fromSource')) expect(line, path).toMatch(/(^node \/.*\/bin\/preflight\.js mcp$)|(^preflight mcp$)/);
        else expect(line.replace(/^cmd \/c /, ''), path).toBe(START);
      }
      if (typeof server.url === 'string') {
        found.urls++;
        expect(server.url, path).toMatch(/\/mcp$/);
      }
      for (const [key, value] of Object.entries(node)) visit(value, path ? `${path}.${key}` : key);
    };
    visit(install, '');
    expect((install.server as { command: string }).command).toBe(START);
    expect(found.stdio).toBeGreaterThanOrEqual(10);
    expect(found.commandLines).toBeGreaterThanOrEqual(4);
    expect(found.toml).toBe(3);
    expect(found.urls).toBeGreaterThanOrEqual(4);
  });
});
