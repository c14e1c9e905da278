// What the migration leaves unused goes; what was unused before, or is still used, stays
// (src/plan/dead-code.ts). The fixtures show the removals (receiver-spellings, url-elicitation-
// and-secrets, v1-extra-send-request, helper-split, unrelated-look-alikes); these show the limits.
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { planFile } from '../src/plan/plan-file.ts';
import { transformSource } from '../src/transform.ts';
import { fixtureCases } from './support/fixtures.ts';

const typed = { local: () => ({ text: 'string', jsonSafe: true }), fromSdk: () => true };

const server = (body: string, imports = '') => `import { McpServer } from '@modelcontextprotocol/server';
${imports}
export function createServer(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
${body}
  return server;
}
`;

const ASK = "{ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }";

describe('declarations the migration leaves unused', () => {
  it('removes an alias of the push API and keeps an import that was unused before', () => {
    const source = server(
      `  const ask = server.server.elicitInput.bind(server.server);
  server.registerTool('t', { description: 'd' }, async (ctx) => {
    const answer = await ask(${ASK});
    return { content: [{ type: 'text', text: answer.action }] };
  });`,
      "import { readFile } from 'node:fs/promises';",
    );
    const { output, plan } = transformSource(source, 'server.ts', typed);
    expect(plan.sites).toMatchObject([{ status: 'migrated' }]);
    expect(output).not.toContain('const ask =');
    expect(output).toContain("import { readFile } from 'node:fs/promises';");
  });

  it('removes the comment lines right above a removed declaration, and no code or blank line above them', () => {
    const source = server(
      `  const before = 1; /* not its comment */
  // Asks through the low-level server.
  /**
   * Bound once.
   */
  const ask = server.server.elicitInput.bind(server.server);

  // The tool.
  server.registerTool('t', { description: 'd' }, async (ctx) => {
    const answer = await ask(${ASK});
    return { content: [{ type: 'text', text: answer.action + before }] };
  });`,
    );
    const { output } = transformSource(source, 'server.ts', typed);
    expect(output).not.toContain('Bound once');
    expect(output).not.toContain('Asks through');
    expect(output).toContain('  const before = 1; /* not its comment */\n\n  // The tool.\n');
  });

  it('keeps an alias that other code still uses', () => {
    const source = server(`  const ask = server.server.elicitInput.bind(server.server);
  server.registerTool('t', { description: 'd' }, async (ctx) => {
    const answer = await ask(${ASK});
    return { content: [{ type: 'text', text: answer.action }] };
  });
  setTimeout(() => void ask(${ASK}), 10);`);
    const { output } = transformSource(source, 'server.ts', typed);
    expect(output).toContain('const ask = server.server.elicitInput.bind(server.server);');
  });

  it("keeps what a split helper's call passes its result half", () => {
    const source = `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';

const shelf = { list: (kind: string) => [kind] };

async function pick(ctx: ServerContext, from: { list(kind: string): string[] }): Promise<string[]> {
  const answer = await ctx.mcpReq.elicitInput(${ASK});
  return from.list(answer.action);
}

export const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  const items = await pick(ctx, shelf);
  return { content: [{ type: 'text', text: items.join(',') }] };
});
`;
    const { output, plan } = transformSource(source, 'server.ts', typed);
    expect(plan.sites).toMatchObject([{ status: 'migrated' }]);
    expect(output).toContain('const items = await pickResult(mrtrAnswer, shelf);');
    expect(output).toContain('\nconst shelf = { list: (kind: string) => [kind] };\n');
  });

  it('never removes an exported declaration: another module may read it', () => {
    const source = server(
      `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    const answer = await ask(${ASK});
    return { content: [{ type: 'text', text: answer.action + QUESTION }] };
  });`,
      `export const QUESTION = 'Go?';
const server0 = new McpServer({ name: 's0', version: '1' });
export const ask = server0.server.elicitInput.bind(server0.server);`,
    );
    const { output } = transformSource(source, 'server.ts', typed);
    expect(output).toContain('\nexport const ask = server0.server.elicitInput.bind(server0.server);\n');
  });

  it('keeps an import a migrated request still names (a request object it reads the params of)', () => {
    const source = server(
      `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput(QUESTION);
    return { content: [{ type: 'text', text: answer.action }] };
  });`,
      "import { QUESTION } from './questions.js';",
    );
    const { output } = transformSource(source, 'server.ts', typed);
    expect(output).toContain("import { QUESTION } from './questions.js';");
    expect(output).toContain('inputRequired.elicit(QUESTION)');
  });
});

describe('a plan made for its sites only', () => {
  it('reports what the whole plan reports, for every fixture (only the clean-up of the edits is left out)', () => {
    for (const fixture of fixtureCases()) {
      const analysis = analyseFile(fixture.input, fixture.inputPath);
      const options = { ...fixture.transformOptions, typeFacts: typed };
      const whole = planFile(analysis, options);
      const sitesOnly = planFile(analysis, { ...options, sitesOnly: () => true });
      expect(sitesOnly.sites, fixture.name).toEqual(whole.sites);
      expect(sitesOnly.exportedHelpers, fixture.name).toEqual(whole.exportedHelpers);
      expect(
        sitesOnly.handlers.map((h) => h.id),
        fixture.name,
      ).toEqual(whole.handlers.map((h) => h.id));
    }
  });
});
