// A helper two handlers call, kept whole because one of them cannot be migrated on its own: the
// other, left as it was for the helper's path, is marked with that path, and the helper's marker
// names the handler that could not be migrated, not both.
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

const SOURCE = `import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

async function confirmAndDrop(ctx: ServerContext, table: string): Promise<CallToolResult> {
  const answer = await ctx.mcpReq.elicitInput({ message: \`Drop \${table}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('drop_table', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    return confirmAndDrop(ctx, table);
  });
  server.registerTool('drop_many', { inputSchema: z.object({ tables: z.array(z.string()) }) }, async ({ tables }, ctx) => {
    return Promise.all(tables.map((table) => confirmAndDrop(ctx, table))).then((results) => results[0]!);
  });
  return server;
}
`;

describe('a helper kept whole for a handler refused on its own', () => {
  it('marks the other handler with the helper path, and names only the refused one at the helper', () => {
    const { output, plan } = transformSource(SOURCE, 'tools.ts');
    expect(plan.sites.map((s) => [s.line, s.code, s.handler])).toEqual([
      [5, 'in-helper', undefined],
      [12, 'via-helper', 'tool:drop_table'],
      [15, 'closure', 'tool:drop_many'],
    ]);
    const lines = output.split('\n');
    expect(lines[4]).toBe(
      '  // @mrtr-todo(in-helper): `confirmAndDrop()` asks here, and tool:drop_many calling it could not be migrated — see the marker there',
    );
    expect(lines[12]).toMatch(/^ {4}\/\/ @mrtr-todo\(via-helper\): reaches `confirmAndDrop\(\)`, asking at line 6 /);
    expect(lines[13]).toBe('    return confirmAndDrop(ctx, table);');
  });
});
