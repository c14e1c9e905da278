// Handlers whose body is one expression are planned on the text with that body written as a
// block (src/plan/block-bodies.ts). A handler that migrates so is written with the block; one
// still refused keeps its expression and is told what refuses it; and every line a plan reports
// is the file's, not the text with the blocks'.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileFindings } from '../src/eslint/file-findings.ts';
import { planWithTypes, transformSource } from '../src/transform.ts';
import { ROOT } from './support/fixtures.ts';

const HELPER = `import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

async function confirmAndDrop(ctx: ServerContext, table: string): Promise<CallToolResult> {
  const answer = await ctx.mcpReq.elicitInput({ message: \`Drop \${table}?\`, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
}
`;

const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('a handler whose body is one expression', () => {
  it('is migrated with a block body, and a site after it is reported at its line in the file', () => {
    const source = `${HELPER}
export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('drop_table', { inputSchema: z.object({ table: z.string() }) }, ({ table }, ctx) => confirmAndDrop(ctx, table));
  return server;
}

export async function listed(server: McpServer) {
  return server.server.listRoots();
}
`;
    const { output, plan } = transformSource(source, 'tools.ts');
    expect(output).toContain(
      "server.registerTool('drop_table', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {\n    const mrtr = await mrtrResume(ctx, 'tool:drop_table'",
    );
    const roots = plan.sites.find((s) => s.kind === 'roots')!;
    expect(roots.status).toBe('marked');
    // The text with the block has two lines more above it.
    expect([roots.line, roots.column]).toEqual([lineOf(source, 'server.server.listRoots'), 10]);
    expect(output.split('\n')[lineOf(output, 'return server.server.listRoots') - 2]).toMatch(/^ {2}\/\/ @mrtr-todo\(/);
  });

  it('keeps its expression where the block would not migrate it either, and says what refuses it', () => {
    const source = `${HELPER}
export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('drop_table', { inputSchema: z.object({ table: z.string() }) }, ({ table }, ctx) => confirmAndDrop(ctx, table));
  server.registerTool('drop_many', { inputSchema: z.object({ tables: z.array(z.string()) }) }, ({ tables }, ctx) =>
    Promise.all(tables.map((table) => confirmAndDrop(ctx, table))).then((results) => results[0]!),
  );
  return server;
}
`;
    const { output, plan } = transformSource(source, 'tools.ts');
    // Only marker lines are added: both handlers keep their expressions.
    const kept = output
      .split('\n')
      .filter((line) => !line.includes('@mrtr-todo'))
      .join('\n');
    expect(kept).toBe(source);
    // drop_many is refused for the call in its callback, not for its expression; drop_table,
    // whose helper stays whole for drop_many, is told that, not to write a block.
    expect(plan.sites.map((s) => [s.line, s.code, s.handler])).toEqual([
      [5, 'in-helper', undefined],
      [lineOf(source, "'drop_table'"), 'via-helper', 'tool:drop_table'],
      [lineOf(source, 'Promise.all'), 'closure', 'tool:drop_many'],
    ]);
    expect(output).not.toContain('expression-body');
    expect(output).toContain('// @mrtr-todo(closure):');
  });

  it('is reported as the file has it by a plan that is not written', async () => {
    const source = `${HELPER}
export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('drop_table', { inputSchema: z.object({ table: z.string() }) }, ({ table }, ctx) =>
    confirmAndDrop(ctx, \`t_\${table}\`),
  );
  return server;
}

export async function listed(server: McpServer) {
  return server.server.listRoots();
}
`;
    const plan = await planWithTypes(source, 'tools.ts');
    expect(plan.sites.map((s) => [s.line, s.status]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [5, 'migrated'],
      [lineOf(source, 'server.server.listRoots'), 'marked'],
    ]);
  });

  it('is found by the ESLint rule as migrate plans it: a request migrate rewrites', () => {
    const source = `${HELPER}
export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('drop_table', { inputSchema: z.object({ table: z.string() }) }, ({ table }, ctx) => confirmAndDrop(ctx, table));
  return server;
}
`;
    const { findings } = fileFindings(source, path.join(ROOT, '.tmp', 'block-bodies', 'tools.ts'), ROOT);
    expect(findings.map((f) => [f.ruleId, f.line])).toEqual([['legacy-request', 5]]);
  });
});
