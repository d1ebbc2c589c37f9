// The MCP server over stdio. stdout carries protocol only: importing this module first sends console.log to stderr.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

// Anything that calls console.log would corrupt the protocol stream.
// eslint-disable-next-line no-console -- rebinding it to stderr is the point
console.log = (...args: unknown[]) => console.error(...args);

/** Connects the server to stdio and exits cleanly (after `cleanup`) when stdin closes or on SIGINT/SIGTERM. */
export async function serveOverStdio(server: McpServer, cleanup: () => Promise<void>): Promise<void> {
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => {});
    await cleanup();
    process.exit(0);
  };
  // The SDK's stdio transport does not end on stdin EOF (SDK issue #2002): exit ourselves.
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(transport);
}
