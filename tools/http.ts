// MCP over the SDK's Streamable HTTP transport, stateless: every request gets its own server for the principal its
// bearer key authenticated as (the HTTP door authenticates; this handler never sees a key). Tools check the key's
// scopes; tools that read the server's own files are not offered, since the caller is elsewhere.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Principal } from '../src/service.js';
import type { ToolBackend } from './definitions.js';
import { createMcpServer } from './server.js';

/** Inline media is capped at 6 MiB decoded: its base64 and the rest of the call fit in this. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

const jsonRpcError = (status: number, message: string, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

export function mcpOverHttp(opts: { service: ToolBackend; runWaitMs: number }): (request: Request, principal: Principal) => Promise<Response> {
  return async (request, principal) => {
    // Stateless: no session to resume or stream to keep open, so only POST carries messages.
    if (request.method !== 'POST') return jsonRpcError(405, 'Method not allowed: send JSON-RPC messages with POST.', { allow: 'POST' });
    const server = createMcpServer({ service: opts.service, principal, runWaitMs: opts.runWaitMs, localFiles: false });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_REQUEST_BYTES });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
}
