// A local declared unassigned travels with a question unless the code after the question
// assigns it before reading it on every path (plan/assigned-first.ts): where that is not
// shown, it is carried as before.
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

const ASK = `await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } })`;

/** The migrated handler's question line, with what it carries. */
function askLine(body: string): string | undefined {
  const source = [
    "import { McpServer } from '@modelcontextprotocol/server';",
    'export function register(server: McpServer, c: boolean, pick: () => string): void {',
    "  server.registerTool('go', {}, async (ctx) => {",
    '    let x: string;',
    body,
    "    return { content: [{ type: 'text' as const, text: x }] };",
    '  });',
    '}',
    '',
  ].join('\n');
  return transformSource(source, '/p/src/go.ts')
    .output.split('\n')
    .find((l) => l.includes('mrtr.ask('))
    ?.trim();
}

describe('a local declared unassigned before a question', () => {
  it('is not carried when assigned after it before any read', () => {
    const branches = (after: string) => `    if (c) {\n      const a = ${ASK};\n${after}\n    } else {\n      const b = ${ASK};\n      x = b.action;\n    }`;
    expect(askLine(branches('      x = a.action;'))).toMatch(/^return mrtr\.ask\('a', \{\}/);
    expect(askLine(branches("      if (a.action !== 'accept') return { content: [] };\n      x = 'yes';"))).toMatch(/^return mrtr\.ask\('a', \{\}/);
  });

  it('is not carried when a function made after the question reads it, once assigned', () => {
    expect(askLine(`    x = pick();\n    const a = ${ASK};\n    x = a.action;\n    const shown = () => x;\n    console.log(shown());`)).toMatch(
      /^return mrtr\.ask\('a', \{\}/,
    );
  });

  it('is carried when a path after it may read it first', () => {
    expect(askLine(`    x = pick();\n    const a = ${ASK};\n    if (c) x = a.action;`)).toMatch(/^return mrtr\.ask\('a', \{ x \}/);
    expect(askLine(`    x = pick();\n    const a = ${ASK};\n    console.log(x);\n    x = a.action;`)).toMatch(/^return mrtr\.ask\('a', \{ x \}/);
  });
});
