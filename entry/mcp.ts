// `preflight mcp`: the agent tools (tools/) over stdio, against the service in this process or, with PREFLIGHT_API_URL
// and PREFLIGHT_API_KEY, against a remote `preflight serve`. With --upload-port it also opens the upload door (http/)
// so qc_create_upload_url works: signed upload PUTs and the public documents, nothing that needs an API key.
// Only the command line is read here: --help and a bad option answer before the server's code loads.
import { Option } from 'commander';
import { MCP_HTTP_PATH } from '../src/public/mcp-install.js';
import type { McpOptions } from './mcp-door.js';
import { exitStartFailed, newCommand, parseCommand, portNumber } from './options.js';

function options(): McpOptions {
  const cmd = newCommand(
    'preflight mcp',
    'Serve the Preflight agent tools over MCP stdio (for Claude, Cursor, VS Code, Codex: see mcp-install.json). ' +
      'Local mode checks files on this machine; with PREFLIGHT_API_URL and PREFLIGHT_API_KEY set, the same tools call a remote preflight serve. ' +
      `For MCP over HTTP, run preflight serve and connect to its ${MCP_HTTP_PATH}.`,
  )
    .option(
      '--upload-port <port>',
      'also serve signed upload URLs (PUT) and the public documents on this HTTP port, so qc_create_upload_url works (local mode; no /v1 API, no MCP)',
      portNumber,
    )
    .option('--host <host>', 'address of the upload port', '127.0.0.1')
    .addOption(new Option('--http <port>').hideHelp());
  const opts = parseCommand<McpOptions>(cmd, process.argv.slice(3));
  if (opts.http !== undefined) {
    throw new Error(`--http is now --upload-port: it serves upload URLs, not MCP. For MCP over HTTP run \`preflight serve\` and connect to ${MCP_HTTP_PATH}.`);
  }
  return opts;
}

let opts: McpOptions;
try {
  opts = options();
} catch (err) {
  exitStartFailed('preflight mcp', err);
}
const { runMcp } = await import('./mcp-door.js');
await runMcp(opts);
