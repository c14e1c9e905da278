// Dual-era handlers (src/plan/dual-era.ts): the spellings of the era test real servers use, the
// layouts of the arms, what goes with the 2025 arm, and what keeps it. The fixtures show a
// whole server (dual-era-arms, run end to end in e2e-dual-era.test.ts) and the markers
// (dual-era-arms-kept); these show each rule on its own.
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

const ASK = "{ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }";
const IMPORTS = `import { inputRequired, McpServer, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import type { McpRequestContext, ProtocolEra } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
`;

/** The 2025 arm, which returns early. */
const LEGACY = `      const answer = await ctx.mcpReq.elicitInput(${ASK});
      return { content: [{ type: 'text', text: answer.action }] };`;
/** The 2026-07-28 arm. */
const MODERN = `    const answer = ctx.mcpReq.inputResponses?.['ok'] as { action: string } | undefined;
    if (!answer) return inputRequired({ inputRequests: { ok: inputRequired.elicit(${ASK}) } });
    return { content: [{ type: 'text', text: answer.action }] };`;

/** A tool whose handler tests `test` and asks the 2025 way when it holds. */
const tool = (test: string, name = 't') => `  server.registerTool('${name}', { description: 'd' }, async (ctx) => {
    if (${test}) {
${LEGACY}
    }
${MODERN}
  });`;

/** A module whose server factory takes `param`, runs `before`, and registers `tools`. */
const module = (tools: string, param = 'reqCtx: McpRequestContext', before = '', after = 'serveStdio(buildServer);') =>
  `${IMPORTS}
function buildServer(${param}): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
${before}${tools}
  return server;
}

${after}
`;

function migrate(source: string) {
  const { output, plan } = transformSource(source, 'server.ts');
  const sites = [...plan.sites].sort((a, b) => a.line - b.line).map((s) => s.status === 'migrated' || s.code);
  return { output, sites, handlers: plan.handlers.length, reasons: plan.sites.map((s) => s.reason) };
}

describe('the era test, however it is written', () => {
  it.each([
    ["reqCtx.era === 'legacy'"],
    ["reqCtx.era == 'legacy'"],
    ["'legacy' === reqCtx.era"],
    ["reqCtx.era !== 'modern'"],
    ["!(reqCtx.era === 'modern')"],
    ["reqCtx?.era === 'legacy'"],
    ["reqCtx['era'] === 'legacy'"],
  ])('%s: the 2025 arm goes, nothing else is written, the context goes with it', (test) => {
    const { output, sites, handlers } = migrate(module(tool(test)));
    expect(sites).toEqual([true]);
    expect(handlers).toBe(0);
    expect(output).not.toContain('elicitInput');
    expect(output).not.toContain('mrtr');
    expect(output).toContain('function buildServer(): McpServer {');
    expect(output).toContain("  server.registerTool('t', { description: 'd' }, async (ctx) => {\n    const answer = ctx.mcpReq.inputResponses");
    expect(output).toContain("import type { ProtocolEra } from '@modelcontextprotocol/server';");
  });

  it.each([
    ['a const holding the test', 'reqCtx: McpRequestContext', "  const legacy = reqCtx.era === 'legacy';\n", 'legacy'],
    ['a const holding the other test, negated', 'reqCtx: McpRequestContext', "  const modern = reqCtx.era === 'modern';\n", '!modern'],
    ['the era destructured from the context', 'reqCtx: McpRequestContext', '  const { era } = reqCtx;\n', "era === 'legacy'"],
    ['the era copied from the context', 'reqCtx: McpRequestContext', '  const era = reqCtx.era;\n', "era === 'legacy'"],
    ['the era destructured in the parameter list', '{ era }: McpRequestContext', '', "era !== 'modern'"],
    ['an untyped parameter of a factory given to serveStdio', 'reqCtx', '', "reqCtx.era === 'legacy'"],
  ])('%s', (_name, param, before, test) => {
    const { output, sites } = migrate(module(tool(test), param, before));
    expect(sites).toEqual([true]);
    expect(output).not.toContain('elicitInput');
    expect(output).toContain('function buildServer(): McpServer {\n  const server = new McpServer');
    expect(output).not.toMatch(/\b(legacy|modern|era)\b/);
  });

  it('an era handed down to a function typed with it (ProtocolEra), which keeps its parameter', () => {
    const source = `${IMPORTS}
function registerTools(server: McpServer, era: ProtocolEra): void {
${tool("era === 'legacy'")}
}

serveStdio((reqCtx: McpRequestContext) => {
  const server = new McpServer({ name: 's', version: '1' });
  registerTools(server, reqCtx.era);
  return server;
});
`;
    const { output, sites } = migrate(source);
    expect(sites).toEqual([true]);
    expect(output).not.toContain('elicitInput');
    expect(output).toContain('function registerTools(server: McpServer, era: ProtocolEra): void {');
  });

  it('a value that is not the request context is no era test: that handler is marked, the one beside it loses its arm', () => {
    const config = "const config = { era: 'legacy' };\n";
    const { output, sites, reasons } = migrate(module(`${tool("config.era === 'legacy'", 'a')}\n${tool("reqCtx.era === 'legacy'", 'b')}`, undefined, config));
    expect(sites).toEqual(['hand-migrated', true]);
    expect(reasons).toContainEqual(expect.stringContaining('this handler already answers in the 2026-07-28 way itself (`.inputResponses`)'));
    expect(output).toContain(
      "if (config.era === 'legacy') {\n      // @mrtr-todo(hand-migrated): the handler already answers with inputRequired (`.inputResponses`) — finish its migration by hand\n",
    );
    expect(output).not.toContain("reqCtx.era === 'legacy'");
  });

  it('a test of the era and something else is no era test', () => {
    const { sites } = migrate(module(`${tool("reqCtx.era === 'legacy' && Math.random() > 0.5", 'a')}\n${tool("reqCtx.era === 'legacy'", 'b')}`));
    expect(sites).toEqual(['hand-migrated', true]);
  });
});

describe('the layouts of the arms', () => {
  it('an if and its else, either way round: the kept arm written one level out', () => {
    const both = (test: string, first: string, second: string) => `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    if (${test}) {
${first.replace(/^ {4}/gm, '      ')}
    } else {
${second.replace(/^ {4}/gm, '      ')}
    }
  });`;
    const expected = `  server.registerTool('t', { description: 'd' }, async (ctx) => {\n${MODERN}\n  });`;
    for (const [test, first, second] of [
      ["reqCtx.era === 'legacy'", LEGACY.replace(/^ {2}/gm, ''), MODERN],
      ["reqCtx.era === 'modern'", MODERN, LEGACY.replace(/^ {2}/gm, '')],
    ]) {
      const { output, sites } = migrate(module(both(test!, first!, second!)));
      expect(sites).toEqual([true]);
      expect(output).toContain(expected);
    }
  });

  it('the 2026-07-28 arm first, the rest of the handler the 2025 arm', () => {
    const modernFirst = `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    if (reqCtx.era === 'modern') {
  ${MODERN.replace(/\n/g, '\n  ')}
    }
${LEGACY.replace(/^ {2}/gm, '')}
  });`;
    const { output, sites } = migrate(module(modernFirst));
    expect(sites).toEqual([true]);
    expect(output).toContain(`  server.registerTool('t', { description: 'd' }, async (ctx) => {\n${MODERN}\n  });`);
  });

  it('an else-if: the rest of the chain stays as written', () => {
    const chain = `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    if (ctx.mcpReq.id === 0) {
      return { content: [] };
    } else if (reqCtx.era === 'legacy') {
${LEGACY}
    } else {
${MODERN.replace(/^ {4}/gm, '      ')}
    }
  });`;
    const { output, sites } = migrate(module(chain));
    expect(sites).toEqual([true]);
    expect(output).toContain(`      return { content: [] };\n    } else {\n${MODERN.replace(/^ {4}/gm, '      ')}\n    }\n  });`);
  });

  it("an else written without braces: the statement kept at the if's place", () => {
    const braceless = `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    if (reqCtx.era === 'legacy') {
${LEGACY}
    } else return inputRequired({ inputRequests: { ok: inputRequired.elicit(${ASK}) } });
  });`;
    const { output, sites } = migrate(module(braceless));
    expect(sites).toEqual([true]);
    expect(output).toContain(`async (ctx) => {\n    return inputRequired({ inputRequests: { ok: inputRequired.elicit(${ASK}) } });\n  });`);
  });

  it('a finally around the era test that does something keeps the arm: the shim would run it on each round', () => {
    const wrapped = tool("reqCtx.era === 'legacy'")
      .replace('async (ctx) => {\n', 'async (ctx) => {\n    try {\n')
      .replace(/\n {2}\}\);$/, "\n    } finally {\n      console.log('done');\n    }\n  });");
    const { output, sites, reasons } = migrate(module(wrapped));
    expect(sites).toEqual(['hand-migrated']);
    expect(reasons).toEqual([expect.stringContaining("cannot simply be deleted: `{ console.log('done'); }` runs whichever arm is taken")]);
    expect(output).toContain(
      "    if (reqCtx.era === 'legacy') {\n      // @mrtr-todo(hand-migrated): `ctx.mcpReq.elicitInput(…)` is in a 2025 arm (`reqCtx.era === 'legacy'`) that must stay — run `check` for the fix\n",
    );
    expect(output).toContain("    } finally {\n      console.log('done');\n    }");
  });

  it('a URL elicitation thrown in the 2025 arm goes with it, beside an elicitUrl arm', () => {
    const url = `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    if (reqCtx.era === 'legacy') {
      throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Sign in', url: 'https://a.example', elicitationId: 'x' }]);
    }
    if (ctx.mcpReq.inputResponses?.['url'] === undefined) {
      return inputRequired({ inputRequests: { url: inputRequired.elicitUrl({ message: 'Sign in', url: 'https://a.example' }) } });
    }
    return { content: [] };
  });`;
    const { output, sites } = migrate(module(url));
    expect(sites).toEqual([true]);
    expect(output).not.toContain('UrlElicitationRequiredError');
    expect(output).toContain("  server.registerTool('t', { description: 'd' }, async (ctx) => {\n    if (ctx.mcpReq.inputResponses?.['url'] === undefined) {");
  });

  it('a 2025 arm that goes on into the other arm is no arm: the handler is marked', () => {
    const through = `  server.registerTool('t', { description: 'd' }, async (ctx) => {
    if (reqCtx.era === 'legacy') {
      await ctx.mcpReq.elicitInput(${ASK});
    }
${MODERN}
  });`;
    const { sites } = migrate(module(`${through}\n${tool("reqCtx.era === 'legacy'", 'b')}`));
    expect(sites).toEqual(['hand-migrated', true]);
  });

  it('an if sharing its line with other code is marked, with the reason', () => {
    const shared = tool("reqCtx.era === 'legacy'")
      .replace('    if (', '    const n = 1; if (')
      .replace('text: answer.action }] };\n  });', 'text: answer.action + n }] };\n  });');
    const { output, sites, reasons } = migrate(module(shared));
    expect(sites).toEqual(['hand-migrated']);
    expect(reasons).toEqual([expect.stringContaining('but that arm cannot simply be deleted: the if shares its lines with other code.')]);
    expect(output).toContain(
      "    const n = 1; if (reqCtx.era === 'legacy') {\n      // @mrtr-todo(hand-migrated): `ctx.mcpReq.elicitInput(…)` is in a 2025 arm (`reqCtx.era === 'legacy'`) that must stay — run `check` for the fix\n",
    );
  });
});

describe('what goes with the 2025 arm', () => {
  it("the factory's context stays while something else reads it, or other modules may call the factory", () => {
    const reads = migrate(module(tool("reqCtx.era === 'legacy'"), undefined, '  console.log(reqCtx.authInfo);\n'));
    expect(reads.sites).toEqual([true]);
    expect(reads.output).toContain('function buildServer(reqCtx: McpRequestContext): McpServer {');
    const exported = migrate(module(tool("reqCtx.era === 'legacy'")).replace('function buildServer', 'export function buildServer'));
    expect(exported.sites).toEqual([true]);
    expect(exported.output).toContain('export function buildServer(reqCtx: McpRequestContext): McpServer {');
  });

  it("each call of the factory loses the context it passed, and an arrow its parameter, in the file's layout", () => {
    const after = "serveStdio(reqCtx => buildServer(reqCtx));\nvoid buildServer({ era: 'legacy' } as McpRequestContext).connect;";
    const { output } = migrate(module(tool("reqCtx.era === 'legacy'"), undefined, '', after));
    expect(output).toContain('serveStdio(() => buildServer());\nvoid buildServer().connect;');
    expect(output).not.toContain('McpRequestContext');
  });
});
