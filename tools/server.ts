// The MCP server factory: registers every tool of the catalogue with its schemas, annotations and handler, and the
// job artifacts as resources. Errors become `isError` results with `CODE: message` text (no structuredContent).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import { ENGINE_VERSION } from '../engine/check.js';
import { EngineError } from '../engine/errors.js';
import { ServiceError } from '../src/errors.js';
import type { OpContext } from '../src/service.js';
import { TOOL_CATALOGUE } from '../src/tool-catalogue.js';
import { TOOLS, type ToolDefinition, type ToolEnv } from './definitions.js';

function errorResult(err: unknown): CallToolResult {
  let text: string;
  if (err instanceof ServiceError || err instanceof EngineError) text = `${err.code}: ${err.message}`;
  else if (err instanceof ZodError) text = `invalid_input: ${err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`;
  else text = `internal_error: ${(err as Error)?.message ?? String(err)}`;
  return { isError: true, content: [{ type: 'text', text }] };
}

export function createMcpServer(env: ToolEnv): McpServer {
  const server = new McpServer({ name: 'preflight', version: ENGINE_VERSION }, { capabilities: { logging: {} } });
  for (const info of TOOL_CATALOGUE) {
    const def = TOOLS.find((t) => t.name === info.name) as unknown as ToolDefinition;
    server.registerTool(
      info.name,
      {
        title: info.title,
        description: info.description,
        inputSchema: def.input,
        outputSchema: def.output,
        annotations: {
          title: info.title,
          readOnlyHint: info.readOnly,
          destructiveHint: false,
          idempotentHint: info.readOnly,
          openWorldHint: info.name === 'qc_run_video',
        },
      },
      async (args: Record<string, unknown>, extra) => {
        const token = extra._meta?.progressToken;
        const ctx: OpContext = {
          signal: extra.signal,
          progress:
            token === undefined
              ? undefined
              : (pct, message) => {
                  void extra
                    .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: pct, total: 100, message } })
                    .catch(() => {});
                },
        };
        try {
          const out = await def.run(env, args, ctx);
          return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out as Record<string, unknown> };
        } catch (err) {
          return errorResult(err);
        }
      },
    );
  }
  server.registerResource(
    'job-artifact',
    new ResourceTemplate('preflight://jobs/{jobId}/artifacts/{file}', { list: undefined }),
    { title: 'Job artifact', description: 'A job artifact (report JSON, marker CSV, marker EDL, receipt).' },
    async (uri, vars) => {
      const { content, contentType } = await env.service.getArtifactContent(env.principal, String(vars.jobId), String(vars.file));
      return { contents: [{ uri: uri.href, mimeType: contentType, text: content }] };
    },
  );
  server.registerResource(
    'job-report',
    new ResourceTemplate('preflight://jobs/{jobId}/report', { list: undefined }),
    { title: 'Job report', description: 'The report JSON of a completed job.', mimeType: 'application/json' },
    async (uri, vars) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await env.service.getReport(env.principal, String(vars.jobId))) }],
    }),
  );
  return server;
}
