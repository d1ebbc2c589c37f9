// Ready MCP client configurations: the stdio server `preflight mcp` (local and remote mode) and, for clients that
// connect by URL, the Streamable HTTP door `/mcp` of `preflight serve`. Secrets appear only as placeholders.
import { PACKAGE_NAME } from '../../engine/version.js';

export const MCP_INSTALL_SCHEMA = 'preflight-mcp-install/1';
export const SERVER_NAME = 'preflight';

/** npx runs the package's one bin (`preflight`): from the project's node_modules when installed there, else from the registry. */
export const NPX_ARGS: readonly string[] = ['-y', PACKAGE_NAME, 'mcp'];
export const LOCAL_COMMAND = `npx ${NPX_ARGS.join(' ')}`;
/** The CLI as public documents write it: works with or without an installed copy. */
export const CLI_COMMAND = `npx -y ${PACKAGE_NAME}`;

/** Where `preflight serve` answers MCP over Streamable HTTP. */
export const MCP_HTTP_PATH = '/mcp';

export const API_URL_PLACEHOLDER = 'https://<your preflight server>';
export const API_KEY_PLACEHOLDER = '<your workspace key>';
const REMOTE_MCP_URL = `${API_URL_PLACEHOLDER}${MCP_HTTP_PATH}`;
const VSCODE_KEY_INPUT = 'preflight-api-key';

interface StdioServer {
  type?: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const REMOTE_ENV = { PREFLIGHT_API_URL: API_URL_PLACEHOLDER, PREFLIGHT_API_KEY: API_KEY_PLACEHOLDER };

function npxServer(env?: Record<string, string>): StdioServer {
  return { command: 'npx', args: [...NPX_ARGS], ...(env ? { env } : {}) };
}

function windowsNpxServer(env?: Record<string, string>): StdioServer {
  return { command: 'cmd', args: ['/c', 'npx', ...NPX_ARGS], ...(env ? { env } : {}) };
}

interface HttpServer {
  type?: 'http';
  url: string;
  headers: Record<string, string>;
}

const mcpServers = <S extends StdioServer | HttpServer>(server: S) => ({ mcpServers: { [SERVER_NAME]: server } });

function environment() {
  return {
    PREFLIGHT_HOME: {
      mode: 'local',
      required: false,
      secret: false,
      description:
        'Data dir for jobs, reports and the receipt signing key; default ~/.preflight. Give an absolute path: clients may start the server in any working directory.',
    },
    PREFLIGHT_API_URL: {
      mode: 'remote',
      required: true,
      secret: false,
      example: API_URL_PLACEHOLDER,
      description: 'Base address of a Preflight REST server. With PREFLIGHT_API_KEY set, the tools call that server instead of checking locally.',
    },
    PREFLIGHT_API_KEY: {
      mode: 'remote',
      required: true,
      secret: true,
      example: API_KEY_PLACEHOLDER,
      description: 'Workspace API key, shown once when it is created. Keep it out of committed files: use the client’s secret input or forward it from your shell.',
    },
  };
}

function claudeDesktop() {
  return {
    configFile: {
      macos: '~/Library/Application Support/Claude/claude_desktop_config.json',
      windows: '%APPDATA%\\Claude\\claude_desktop_config.json',
      linux: '~/.config/Claude/claude_desktop_config.json',
    },
    local: mcpServers(npxServer()),
    localWindows: mcpServers(windowsNpxServer()),
    remote: mcpServers(npxServer(REMOTE_ENV)),
    notes: [
      'Merge the mcpServers entry into the file, then restart Claude Desktop.',
      'On Windows npx is a batch script: start it through cmd /c as localWindows does.',
      'Server logs: ~/Library/Logs/Claude/mcp*.log (macOS).',
      'Claude Desktop adds URL servers as connectors in its settings, not in this file; with a workspace key use remote (stdio, PREFLIGHT_API_URL and PREFLIGHT_API_KEY).',
    ],
  };
}

function shellQuoted(assignment: string): string {
  return `"${assignment}"`;
}

function claudeCode() {
  const remoteEnv = Object.entries(REMOTE_ENV)
    .map(([name, value]) => `-e ${shellQuoted(`${name}=${value}`)}`)
    .join(' ');
  return {
    command: `claude mcp add ${SERVER_NAME} -- ${LOCAL_COMMAND}`,
    windowsCommand: `claude mcp add ${SERVER_NAME} -- cmd /c ${LOCAL_COMMAND}`,
    remoteCommand: `claude mcp add ${SERVER_NAME} ${remoteEnv} -- ${LOCAL_COMMAND}`,
    remoteHttpCommand: `claude mcp add --transport http ${SERVER_NAME} ${REMOTE_MCP_URL} --header ${shellQuoted(`Authorization: Bearer ${API_KEY_PLACEHOLDER}`)}`,
    projectScope: {
      command: `claude mcp add ${SERVER_NAME} --scope project -- ${LOCAL_COMMAND}`,
      file: '.mcp.json',
      config: mcpServers({ type: 'stdio', ...npxServer() }),
      remoteConfig: mcpServers({ type: 'stdio', ...npxServer({ PREFLIGHT_API_URL: '${PREFLIGHT_API_URL}', PREFLIGHT_API_KEY: '${PREFLIGHT_API_KEY}' }) }),
      remoteHttpConfig: mcpServers({ type: 'http', url: `\${PREFLIGHT_API_URL}${MCP_HTTP_PATH}`, headers: { Authorization: 'Bearer ${PREFLIGHT_API_KEY}' } }),
    },
    notes: [
      '.mcp.json is meant to be committed: remoteConfig and remoteHttpConfig read the URL and key from your environment with ${VAR} expansion, so no key is written to the file.',
      'remoteHttpCommand and remoteHttpConfig connect to /mcp of a preflight serve by URL: nothing runs on your machine, and the server checks only media you upload to it.',
      'On native Windows (not WSL) npx needs the cmd /c wrapper: use windowsCommand.',
      'Run /mcp in a session to see the server and its tools.',
    ],
  };
}

function cursor() {
  return {
    configFile: { project: '.cursor/mcp.json', global: '~/.cursor/mcp.json' },
    local: mcpServers(npxServer()),
    remote: mcpServers(npxServer(REMOTE_ENV)),
    remoteHttp: mcpServers({ url: REMOTE_MCP_URL, headers: { Authorization: 'Bearer ${env:PREFLIGHT_API_KEY}' } }),
    notes: [
      'Use the global file for a key of your own; a project file is often committed.',
      'remoteHttp connects to /mcp of a preflight serve by URL and reads the key from PREFLIGHT_API_KEY in your environment.',
    ],
  };
}

function vscode() {
  return {
    configFile: { workspace: '.vscode/mcp.json', user: 'Command Palette → "MCP: Open User Configuration"' },
    local: { servers: { [SERVER_NAME]: { type: 'stdio', ...npxServer() } } },
    remote: {
      inputs: [{ type: 'promptString', id: VSCODE_KEY_INPUT, description: 'Preflight workspace API key', password: true }],
      servers: {
        [SERVER_NAME]: {
          type: 'stdio',
          ...npxServer({ PREFLIGHT_API_URL: API_URL_PLACEHOLDER, PREFLIGHT_API_KEY: `\${input:${VSCODE_KEY_INPUT}}` }),
        },
      },
    },
    remoteHttp: {
      inputs: [{ type: 'promptString', id: VSCODE_KEY_INPUT, description: 'Preflight workspace API key', password: true }],
      servers: { [SERVER_NAME]: { type: 'http', url: REMOTE_MCP_URL, headers: { Authorization: `Bearer \${input:${VSCODE_KEY_INPUT}}` } } },
    },
    notes: [
      'The top-level key is "servers", not "mcpServers".',
      'In remote mode VS Code asks for the key once and stores it; it is never written to the file.',
      'remoteHttp connects to /mcp of a preflight serve by URL.',
    ],
  };
}

const tomlString = (value: string): string => JSON.stringify(value);
const tomlArray = (values: readonly string[]): string => `[${values.map(tomlString).join(', ')}]`;

/** Long files may be checked synchronously past Codex's default 60 s tool timeout. */
const CODEX_TOOL_TIMEOUT_SEC = 300;
/** The first `npx -y` run downloads the package, past Codex's default 10 s start-up timeout. */
const CODEX_STARTUP_TIMEOUT_SEC = 60;

function codexServerTable(): string[] {
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${tomlString('npx')}`,
    `args = ${tomlArray(NPX_ARGS)}`,
    `startup_timeout_sec = ${CODEX_STARTUP_TIMEOUT_SEC}`,
    `tool_timeout_sec = ${CODEX_TOOL_TIMEOUT_SEC}`,
  ];
}

function codexLocalToml(): string {
  return [...codexServerTable(), ''].join('\n');
}

function codexRemoteToml(): string {
  return [
    ...codexServerTable(),
    '# Forwarded from your shell, so the key stays out of this file.',
    `env_vars = ${tomlArray(['PREFLIGHT_API_KEY'])}`,
    '',
    `[mcp_servers.${SERVER_NAME}.env]`,
    `PREFLIGHT_API_URL = ${tomlString(API_URL_PLACEHOLDER)}`,
    '',
  ].join('\n');
}

function codexRemoteHttpToml(): string {
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `url = ${tomlString(REMOTE_MCP_URL)}`,
    '# The key is read from this variable of your shell, so it stays out of this file.',
    `bearer_token_env_var = ${tomlString('PREFLIGHT_API_KEY')}`,
    `tool_timeout_sec = ${CODEX_TOOL_TIMEOUT_SEC}`,
    '',
  ].join('\n');
}

function codex() {
  return {
    configFile: { user: '~/.codex/config.toml', project: '.codex/config.toml' },
    command: `codex mcp add ${SERVER_NAME} -- ${LOCAL_COMMAND}`,
    toml: codexLocalToml(),
    remoteToml: codexRemoteToml(),
    remoteHttpToml: codexRemoteHttpToml(),
    notes: [
      `tool_timeout_sec defaults to 60 s. qc_run_local_file returns a running job to poll with qc_get_job when a check takes long, so the default works; ${CODEX_TOOL_TIMEOUT_SEC} leaves room for long synchronous checks.`,
      `startup_timeout_sec defaults to 10 s; the first npx run downloads the package, hence ${CODEX_STARTUP_TIMEOUT_SEC}.`,
      'Codex forwards only a default whitelist of environment variables: set PREFLIGHT_HOME in the env table, and forward PREFLIGHT_API_KEY with env_vars.',
    ],
  };
}

function fromSource() {
  return {
    description:
      'Without npx. server: from a git checkout (npm install builds dist/), run the bin with node and an absolute path. ' +
      'installed: after npm install -g (by name, or from a tarball made with npm pack), the command is the installed bin.',
    server: { command: 'node', args: ['/absolute/path/to/preflight/bin/preflight.js', 'mcp'] },
    installed: { command: 'preflight', args: ['mcp'] },
  };
}

export function mcpInstall() {
  return {
    schema: MCP_INSTALL_SCHEMA,
    server: {
      name: SERVER_NAME,
      package: PACKAGE_NAME,
      transport: 'stdio',
      command: LOCAL_COMMAND,
      modes: {
        local: 'Default. Checks files on this machine in-process; jobs, reports and receipts live under PREFLIGHT_HOME.',
        remote: 'Set PREFLIGHT_API_URL and PREFLIGHT_API_KEY: the same tools call a Preflight REST server.',
      },
      remoteHttp: {
        transport: 'streamable-http',
        url: REMOTE_MCP_URL,
        auth: `Authorization: Bearer ${API_KEY_PLACEHOLDER}`,
        description:
          'preflight serve also answers MCP at /mcp behind the same workspace keys and scopes as /v1: clients that connect by URL need no local process. ' +
          'Media goes up through qc_create_upload_url; files on your machine are not reachable from the server.',
      },
      note:
        `npx runs ${PACKAGE_NAME} from the npm registry (or from the node_modules of the project it starts in). ` +
        'After a global install (npm install -g, by name or from a tarball made with npm pack) use the installed bin instead: fromSource.installed; from a git checkout, fromSource.server.',
    },
    environment: environment(),
    clients: {
      claudeDesktop: claudeDesktop(),
      claudeCode: claudeCode(),
      cursor: cursor(),
      vscode: vscode(),
      codex: codex(),
    },
    fromSource: fromSource(),
  };
}

export type McpInstall = ReturnType<typeof mcpInstall>;
