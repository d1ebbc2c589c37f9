// The MCP server factory: registers every tool of the catalogue the caller may reach, with its schemas, annotations
// and handler, and the job artifacts as resources. Errors become `isError` results with `CODE: message` text (no
// structuredContent); so does a run whose media could not be checked (its failed job stays recorded).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import { ENGINE_VERSION } from '../engine/check.js';
import { EngineError } from '../engine/errors.js';
import { hasScope, requireScope } from '../src/accounts/scopes.js';
import { ServiceError } from '../src/errors.js';
import { artifactFileList } from '../src/jobs/artifact-table.js';
import { repairLoopInstructions } from '../src/public/repair-loop.js';
import type { OpContext } from '../src/service.js';
import { TOOL_CATALOGUE, type ToolInfo } from '../src/tool-catalogue.js';
import { TOOLS, type ToolDefinition, type ToolEnv } from './definitions.js';

/** How long a run tool waits before handing back a running job to poll: well inside a client's 60 s default. */
const RUN_WAIT_MS = 45_000;

export function runWaitMsFromEnv(env: NodeJS.ProcessEnv): number {
  return Number(env.PREFLIGHT_MCP_RUN_WAIT_MS) || RUN_WAIT_MS;
}

function errorText(err: unknown): string {
  if (err instanceof ServiceError || err instanceof EngineError) return `${err.code}: ${err.message}`;
  if (err instanceof ZodError) return `invalid_input: ${err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`;
  return `internal_error: ${(err as Error)?.message ?? String(err)}`;
}

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

const offered = (info: ToolInfo, env: ToolEnv): boolean => env.localFiles || !info.localFilesOnly;

export function createMcpServer(env: ToolEnv): McpServer {
  const server = new McpServer(
    { name: 'preflight', version: ENGINE_VERSION },
    { capabilities: { logging: {} }, instructions: repairLoopInstructions(env.localFiles ? 'local_file' : 'upload') },
  );
  for (const info of TOOL_CATALOGUE.filter((t) => offered(t, env))) {
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
        if (info.scope && !hasScope(env.principal, info.scope)) {
          return errorResult(`insufficient_scope: ${info.name} needs an API key with the ${info.scope} scope.`);
        }
        const token = extra._meta?.progressToken;
        // Progress belongs to this call: once it has returned (a long check goes on in the background), nothing more is sent on its token.
        let answered = false;
        const ctx: OpContext = {
          signal: extra.signal,
          progress:
            token === undefined
              ? undefined
              : (pct, message) => {
                  if (answered) return;
                  void extra
                    .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: pct, total: 100, message } })
                    .catch(() => {});
                },
        };
        try {
          const out = (await def.run(env, args, ctx)) as Record<string, unknown>;
          const failed = def.failureOf?.(out);
          return failed ? errorResult(failed) : { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
        } catch (err) {
          return errorResult(errorText(err));
        } finally {
          answered = true;
        }
      },
    );
  }
  server.registerResource(
    'job-artifact',
    new ResourceTemplate('preflight://jobs/{jobId}/artifacts/{file}', { list: undefined }),
    {
      title: 'Job artifact',
      description: `A job artifact: ${artifactFileList()}.`,
    },
    async (uri, vars) => {
      requireScope(env.principal, 'reports:read');
      const { content, contentType } = await env.service.getArtifactContent(env.principal, String(vars.jobId), String(vars.file));
      return { contents: [{ uri: uri.href, mimeType: contentType, text: content }] };
    },
  );
  server.registerResource(
    'job-report',
    new ResourceTemplate('preflight://jobs/{jobId}/report', { list: undefined }),
    { title: 'Job report', description: 'The report JSON of a completed job.', mimeType: 'application/json' },
    async (uri, vars) => {
      requireScope(env.principal, 'reports:read');
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await env.service.getReport(env.principal, String(vars.jobId))) }],
      };
    },
  );
  return server;
}
