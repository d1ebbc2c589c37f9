// `preflight mcp` serves while its store opens (tools/deferred-backend.ts): initialize and tools/list are answered at
// once, and a tool call waits for the store, then answers from it. A real MCP client and server, connected in memory.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LOCAL_PRINCIPAL } from '../src/service.js';
import type { ToolBackend } from '../tools/definitions.js';
import { deferredBackend } from '../tools/deferred-backend.js';
import { createMcpServer } from '../tools/server.js';

describe('the MCP tools on a store still opening', () => {
  it('answer initialize and tools/list at once, and a call when the store is open', async () => {
    let open!: (backend: ToolBackend) => void;
    const opening = new Promise<ToolBackend>((resolve) => (open = resolve));
    const listed: unknown[] = [];
    const backend = { listJobs: async (_principal: unknown, query: unknown) => (listed.push(query), []) } as unknown as ToolBackend;
    const server = createMcpServer({ service: deferredBackend(opening), principal: LOCAL_PRINCIPAL, runWaitMs: 1000, localFiles: true });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'deferred-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('qc_list_jobs');
      let answered = false;
      const call = client.callTool({ name: 'qc_list_jobs', arguments: {} }).then((r) => ((answered = true), r as CallToolResult));
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toBe(false);
      expect(listed).toEqual([]);
      open(backend);
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ jobs: [] });
      expect(listed).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
