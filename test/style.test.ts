// The lines the migration writes follow the file: its quotes, its semicolons (or their
// absence), its indentation; and a shape it cannot write in place is marked, not broken.
import { describe, expect, it } from 'vitest';
import { parseSource } from '../src/analyse/parse.ts';
import { transformSource } from '../src/transform.ts';

const typed = { local: () => ({ text: 'number', jsonSafe: true }), fromSdk: () => true };

describe("the file's style", () => {
  const source = [
    'import { McpServer } from "@modelcontextprotocol/server"',
    '',
    'export function createServer(): McpServer {',
    '    const server = new McpServer({ name: "s", version: "1" })',
    '    server.registerTool("count", { description: "d" }, async (ctx) => {',
    '        const rows: number = countRows()',
    '        const answer = await ctx.mcpReq.elicitInput({ message: `Delete ${rows}?`, requestedSchema: { type: "object", properties: {} } })',
    '        if (answer.action !== "accept") return { content: [] }',
    '        return { content: [{ type: "text", text: String(rows) }] }',
    '    })',
    '    return server',
    '}',
    'declare function countRows(): number',
    '',
  ].join('\n');

  it('double quotes, no semicolons, four spaces', () => {
    const { output } = transformSource(source, 'server.ts', typed);
    expect(output).toBe(
      [
        'import { McpServer, inputRequired, type ElicitResult } from "@modelcontextprotocol/server"',
        'import { mrtrResume, mrtrVerify } from "./mrtr-request-state.js"',
        '',
        'export function createServer(): McpServer {',
        '    const server = new McpServer({ name: "s", version: "1" }, { requestState: { verify: mrtrVerify() } })',
        '    server.registerTool("count", { description: "d" }, async (ctx) => {',
        '        const mrtr = await mrtrResume(ctx, "tool:count", ["answer"], {}, server)',
        '        if (mrtr.refused) return mrtr.refused',
        '        if (mrtr.step === undefined) {',
        '            const rows: number = countRows()',
        '            return mrtr.ask("answer", { rows }, {',
        '                answer: inputRequired.elicit({ message: `Delete ${rows}?`, requestedSchema: { type: "object", properties: {} } }),',
        '            })',
        '        }',
        '        const { rows } = mrtr.locals<{ rows: number }>()',
        '        const answer = mrtr.response<ElicitResult>("answer", "elicit")',
        '        if (answer === undefined) return mrtr.askAgain()',
        '        if (answer.action !== "accept") return { content: [] }',
        '        return { content: [{ type: "text", text: String(rows) }] }',
        '    })',
        '    return server',
        '}',
        'declare function countRows(): number',
        '',
      ].join('\n'),
    );
    expect(transformSource(output, 'server.ts', typed).output).toBe(output);
  });
});

describe('a shape it cannot write in place', () => {
  it('marks the handler when a local its first call needs after the question is not carried', () => {
    // `label` is made before the branch that asks and read only by the branch that does not:
    // the retry would have to skip its declaration, and nothing carries it.
    const source = [
      "import { McpServer } from '@modelcontextprotocol/server';",
      "const server = new McpServer({ name: 's', version: '1' });",
      "server.registerTool('t', { description: 'd' }, async (ctx) => {",
      '  const label = makeLabel();',
      '  if (Math.random() > 0.5) {',
      "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });",
      "    return { content: [{ type: 'text', text: answer.action }] };",
      '  } else {',
      "    return { content: [{ type: 'text', text: label }] };",
      '  }',
      '});',
      'declare function makeLabel(): string;',
      '',
    ].join('\n');
    const { output, plan } = transformSource(source, 'server.ts', typed);
    expect(plan.sites).toMatchObject([
      { status: 'marked', code: 'nested-site', reason: expect.stringContaining('`label` is declared before the block that asks') },
    ]);
    expect(output).toContain('// @mrtr-todo(nested-site):');
    expect(() => parseSource(output, 'ts')).not.toThrow();
  });

  it('writes such a local as it was when running it again does nothing', () => {
    const source = [
      "import { McpServer } from '@modelcontextprotocol/server';",
      "const server = new McpServer({ name: 's', version: '1' });",
      "server.registerTool('t', { description: 'd' }, async (ctx) => {",
      "  const label = 'fixed';",
      '  if (Math.random() > 0.5) {',
      "    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });",
      "    return { content: [{ type: 'text', text: answer.action }] };",
      '  } else {',
      "    return { content: [{ type: 'text', text: label }] };",
      '  }',
      '});',
      '',
    ].join('\n');
    const { output, plan } = transformSource(source, 'server.ts', typed);
    expect(plan.sites).toMatchObject([{ status: 'migrated' }]);
    expect(output).toContain("  const label = 'fixed';\n  if (mrtr.step === 'answer' || Math.random() > 0.5) {");
  });
});
