// Ready MCP client configurations for the stdio server `preflight mcp`, local and remote mode
// (REFERENCE.md "Client configuration conventions"). Secrets appear only as placeholders.

export const MCP_INSTALL_SCHEMA = 'preflight-mcp-install/1';
export const SERVER_NAME = 'preflight';

/** What npx resolves: the installed bin `preflight`, else the npm package of that name. */
const PACKAGE = 'preflight';
export const NPX_ARGS: readonly string[] = ['-y', PACKAGE, 'mcp'];
export const LOCAL_COMMAND = `npx ${NPX_ARGS.join(' ')}`;

export const API_URL_PLACEHOLDER = 'https://<your preflight server>';
export const API_KEY_PLACEHOLDER = '<your workspace key>';
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

const mcpServers = (server: StdioServer) => ({ mcpServers: { [SERVER_NAME]: server } });

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
    projectScope: {
      command: `claude mcp add ${SERVER_NAME} --scope project -- ${LOCAL_COMMAND}`,
      file: '.mcp.json',
      config: mcpServers({ type: 'stdio', ...npxServer() }),
      remoteConfig: mcpServers({ type: 'stdio', ...npxServer({ PREFLIGHT_API_URL: '${PREFLIGHT_API_URL}', PREFLIGHT_API_KEY: '${PREFLIGHT_API_KEY}' }) }),
    },
    notes: [
      '.mcp.json is meant to be committed: remoteConfig reads the URL and key from your environment with ${VAR} expansion, so no key is written to the file.',
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
    notes: ['Use the global file for a key of your own; a project file is often committed.'],
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
    notes: ['The top-level key is "servers", not "mcpServers".', 'In remote mode VS Code asks for the key once and stores it; it is never written to the file.'],
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

function codex() {
  return {
    configFile: { user: '~/.codex/config.toml', project: '.codex/config.toml' },
    command: `codex mcp add ${SERVER_NAME} -- ${LOCAL_COMMAND}`,
    toml: codexLocalToml(),
    remoteToml: codexRemoteToml(),
    notes: [
      `tool_timeout_sec defaults to 60 s. qc_run_local_file returns a running job to poll with qc_get_job when a check takes long, so the default works; ${CODEX_TOOL_TIMEOUT_SEC} leaves room for long synchronous checks.`,
      `startup_timeout_sec defaults to 10 s; the first npx run downloads the package, hence ${CODEX_STARTUP_TIMEOUT_SEC}.`,
      'Codex forwards only a default whitelist of environment variables: set PREFLIGHT_HOME in the env table, and forward PREFLIGHT_API_KEY with env_vars.',
    ],
  };
}

function fromSource() {
  return {
    description: 'From a clone (npm install builds dist/): run the bin with node and an absolute path instead of npx.',
    server: { command: 'node', args: ['/absolute/path/to/preflight/bin/preflight.js', 'mcp'] },
  };
}

export function mcpInstall() {
  return {
    schema: MCP_INSTALL_SCHEMA,
    server: {
      name: SERVER_NAME,
      transport: 'stdio',
      command: LOCAL_COMMAND,
      modes: {
        local: 'Default. Checks files on this machine in-process; jobs, reports and receipts live under PREFLIGHT_HOME.',
        remote: 'Set PREFLIGHT_API_URL and PREFLIGHT_API_KEY: the same tools call a Preflight REST server.',
      },
      note: 'npx resolves preflight from an installed copy when it finds one, otherwise from the npm registry. Where Preflight is not installed or published under that name, use fromSource.',
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
