// The v1 SDK's `server.tool(...)` registrations the official v1-to-v2 codemod leaves (a name that
// is not a string literal): each overload rewritten to registerTool in the call's own layout,
// the marker it answers removed (src/rewrite/tool-registrations.ts); what cannot be read left
// as it is; and a handler under a registration v2 lacks never migrated (src/plan/v1-registrations.ts).
import { describe, expect, it } from 'vitest';
import { rewriteToolRegistrations } from '../src/rewrite/tool-registrations.ts';
import { transformSource } from '../src/transform.ts';

const MARKER = '/* @mcp-codemod-error Could not automatically migrate .tool() call. Manual migration required. */';
const HEAD =
  "import { McpServer } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\nconst server = new McpServer({ name: 's', version: '1' });\n";

/** A file after the official codemod: its imports, the server, and `body` (the marker written as `@@`). */
const file = (body: string, head = HEAD) => head + body.replaceAll('@@', MARKER);

describe('rewriteToolRegistrations: every v1 overload', () => {
  it.each([
    ['name, callback', `@@\nserver.tool(T.a, async () => ok);\n`, `server.registerTool(T.a, {}, async () => ok);\n`],
    ['name, callback over lines', `@@\nserver.tool(\n  T.a,\n  async () => ok,\n);\n`, `server.registerTool(\n  T.a,\n  {},\n  async () => ok,\n);\n`],
    [
      'name, description, callback',
      `@@\nserver.tool(T.a, 'Does a.', async () => ok);\n`,
      `server.registerTool(T.a, { description: 'Does a.' }, async () => ok);\n`,
    ],
    [
      'name, shape, callback',
      `@@\nserver.tool(T.a, { q: z.string() }, async ({ q }) => ok);\n`,
      `server.registerTool(T.a, { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => ok);\n`,
    ],
    [
      'name, empty shape, callback',
      `@@\nserver.tool(T.a, {}, async () => ok);\n`,
      `server.registerTool(T.a, { inputSchema: z.object({}) }, async () => ok);\n`,
    ],
    [
      'name, annotations, callback',
      `@@\nserver.tool(T.a, { readOnlyHint: true }, async () => ok);\n`,
      `server.registerTool(T.a, { annotations: { readOnlyHint: true } }, async () => ok);\n`,
    ],
    [
      'name, description, annotations, callback',
      `@@\nserver.tool(T.a, 'Does a.', { destructiveHint: false, title: 'A' }, async () => ok);\n`,
      `server.registerTool(T.a, { description: 'Does a.', annotations: { destructiveHint: false, title: 'A' } }, async () => ok);\n`,
    ],
    [
      'name, shape, annotations, callback',
      `@@\nserver.tool(T.a, { q: z.string() }, { readOnlyHint: true }, async ({ q }) => ok);\n`,
      `server.registerTool(T.a, { inputSchema: z.object({ q: z.string() }), annotations: { readOnlyHint: true } }, async ({ q }) => ok);\n`,
    ],
    [
      'name, description, shape, annotations, callback',
      `@@\nserver.tool(T.a, 'Does a.', { q: z.string() }, { readOnlyHint: true }, async ({ q }) => ok);\n`,
      `server.registerTool(T.a, { description: 'Does a.', inputSchema: z.object({ q: z.string() }), annotations: { readOnlyHint: true } }, async ({ q }) => ok);\n`,
    ],
    [
      'a description, shape and annotations read from consts',
      `const D = 'Does a.';\nconst SHAPE = { q: z.string().optional() };\nconst HINTS = { readOnlyHint: true };\n@@\nserver.tool(T.a, D, SHAPE, HINTS, async ({ q }) => ok);\n`,
      `const D = 'Does a.';\nconst SHAPE = { q: z.string().optional() };\nconst HINTS = { readOnlyHint: true };\nserver.registerTool(T.a, { description: D, inputSchema: z.object(SHAPE), annotations: HINTS }, async ({ q }) => ok);\n`,
    ],
    [
      'a shape whose values are consts holding schemas',
      `const project = z.string().describe('The project.');\n@@\nserver.tool(T.a, { project }, async ({ project }) => ok);\n`,
      `const project = z.string().describe('The project.');\nserver.registerTool(T.a, { inputSchema: z.object({ project }) }, async ({ project }) => ok);\n`,
    ],
  ])('%s', (_, body, expected) => {
    const { output, rewritten } = rewriteToolRegistrations(file(body), 'server.ts');
    expect(output).toBe(HEAD + expected);
    expect(rewritten).toBe(1);
  });

  it('writes the config one property a line where the arguments are one a line, deeper by their own step', () => {
    const body = [
      'export function configure(server: McpServer) {',
      `  ${MARKER}`,
      '  server.tool(',
      '    T.a,',
      '    "Does a.",',
      '    {',
      '      q: z.string().describe("The q."),',
      '',
      '      top: z.coerce.number().optional(),',
      '    },',
      '    async ({ q }) => {',
      '      return ok;',
      '    }',
      '  );',
      '}',
      '',
    ].join('\n');
    const expected = [
      'export function configure(server: McpServer) {',
      '  server.registerTool(',
      '    T.a,',
      '    {',
      '      description: "Does a.",',
      '      inputSchema: z.object({',
      '        q: z.string().describe("The q."),',
      '',
      '        top: z.coerce.number().optional(),',
      '      }),',
      '    },',
      '    async ({ q }) => {',
      '      return ok;',
      '    }',
      '  );',
      '}',
      '',
    ].join('\n');
    expect(rewriteToolRegistrations(HEAD + body, 'server.ts').output).toBe(HEAD + expected);
  });

  it('keeps the lines of a template that spans lines as they are, and the trailing comma of the call', () => {
    const body = `@@\nserver.tool(\n  T.a,\n  \`Does a,\n  over two lines.\`,\n  { q: z.string() },\n  async ({ q }) => ok,\n);\n`;
    const expected = `server.registerTool(\n  T.a,\n  {\n    description: \`Does a,\n  over two lines.\`,\n    inputSchema: z.object({ q: z.string() }),\n  },\n  async ({ q }) => ok,\n);\n`;
    expect(rewriteToolRegistrations(file(body), 'server.ts').output).toBe(HEAD + expected);
  });

  it('keeps CRLF line endings', () => {
    const body = `@@\r\nserver.tool(\r\n  T.a,\r\n  'Does a.',\r\n  { q: z.string() },\r\n  async ({ q }) => ok\r\n);\r\n`;
    const head = HEAD.replaceAll('\n', '\r\n');
    const expected = `server.registerTool(\r\n  T.a,\r\n  {\r\n    description: 'Does a.',\r\n    inputSchema: z.object({ q: z.string() })\r\n  },\r\n  async ({ q }) => ok\r\n);\r\n`;
    expect(rewriteToolRegistrations(file(body, head), 'server.ts').output).toBe(head + expected);
  });

  it('takes out only its own message from a marker that holds several', () => {
    const body = `/* @mcp-codemod-error Something else to do. | Could not automatically migrate .tool() call. Manual migration required. */\nserver.tool(T.a, async () => ok);\n`;
    expect(rewriteToolRegistrations(file(body), 'server.ts').output).toBe(
      HEAD + `/* @mcp-codemod-error Something else to do. */\nserver.registerTool(T.a, {}, async () => ok);\n`,
    );
  });
});

describe('rewriteToolRegistrations: a shape kept in another module of the project', () => {
  const schemas = [
    "import { z } from 'zod';",
    'const paging = { top: z.number().optional() };',
    "export const listShape = { action: z.enum(['all', 'mine']), ...paging };",
    'export const readOnly = { readOnlyHint: true };',
    "export const project = z.string().describe('The project.');",
    '',
  ].join('\n');
  const readModule = (specifier: string) => (specifier === './schemas.js' ? { fileName: 'schemas.ts', text: schemas } : undefined);
  const head = `${HEAD}import { listShape, project, readOnly } from './schemas.js';\n`;

  it.each([
    [
      'an imported shape, told by the schema among its values (its spread aside)',
      `@@\nserver.tool(T.a, 'Lists.', listShape, async (args) => ok);\n`,
      `server.registerTool(T.a, { description: 'Lists.', inputSchema: z.object(listShape) }, async (args) => ok);\n`,
    ],
    [
      'imported annotations',
      `@@\nserver.tool(T.a, 'Lists.', readOnly, async () => ok);\n`,
      `server.registerTool(T.a, { description: 'Lists.', annotations: readOnly }, async () => ok);\n`,
    ],
    [
      'a shape whose value is an imported schema',
      `@@\nserver.tool(T.a, { project }, async ({ project }) => ok);\n`,
      `server.registerTool(T.a, { inputSchema: z.object({ project }) }, async ({ project }) => ok);\n`,
    ],
  ])('%s', (_, body, expected) => {
    expect(rewriteToolRegistrations(file(body, head), 'server.ts', readModule).output).toBe(head + expected);
  });

  it('is left as it is when the module cannot be read', () => {
    const input = file(`@@\nserver.tool(T.a, 'Lists.', listShape, async (args) => ok);\n`, head);
    expect(rewriteToolRegistrations(input, 'server.ts').output).toBe(input);
  });
});

describe('rewriteToolRegistrations: the zod namespace', () => {
  const server = "import { McpServer } from '@modelcontextprotocol/server';\n";
  const call = `declare const server: McpServer;\nserver.tool(T.a, {}, async () => ok);\n`;
  const wrapped = `declare const server: McpServer;\nserver.registerTool(T.a, { inputSchema: NS.object({}) }, async () => ok);\n`;
  it.each([
    ['the namespace the file imports, under its name', `import * as zod from 'zod/v4';\n`, `import * as zod from 'zod/v4';\n`, 'zod'],
    ['a default import', `import Z from 'zod';\n`, `import Z from 'zod';\n`, 'Z'],
    ['`z` a module of the project re-exports', `import { z } from './deps.js';\n`, `import { z } from './deps.js';\n`, 'z'],
    ['added to the named import of zod the file has', `import { ZodError } from 'zod';\n`, `import { ZodError, z } from 'zod';\n`, 'z'],
    [
      'imported from the module a type-only import names',
      `import type { ZodType } from 'zod/v4';\n`,
      `import type { ZodType } from 'zod/v4';\nimport { z } from 'zod/v4';\n`,
      'z',
    ],
    ['imported from zod when the file has no import of it', ``, `import { z } from 'zod';\n`, 'z'],
  ])('%s', (_, imports, expectedImports, ns) => {
    expect(rewriteToolRegistrations(server + imports + call, 'server.ts').output).toBe(server + expectedImports + wrapped.replace('NS', ns));
  });
});

describe('rewriteToolRegistrations: what it leaves as it is', () => {
  it.each([
    ['a spread argument', `@@\nserver.tool(...definition);\n`],
    [
      'an argument that may be a description, a shape or annotations',
      `export function add(config: object) {\n  @@\n  server.tool(T.a, config, async () => ok);\n}\n`,
    ],
    ['an object of neither schemas nor plain values', `@@\nserver.tool(T.a, { q: makeSchema() }, async () => ok);\n`],
    ['an object spread from another with no schema of its own', `const base = { q: z.string() };\n@@\nserver.tool(T.a, { ...base }, async () => ok);\n`],
    ['annotations followed by another argument', `@@\nserver.tool(T.a, { readOnlyHint: true }, 'Does a.', async () => ok);\n`],
    ['six arguments', `@@\nserver.tool(T.a, 'a', { q: z.string() }, { readOnlyHint: true }, extra, async () => ok);\n`],
    ['a name alone', `@@\nserver.tool(T.a);\n`],
    ['type arguments', `@@\nserver.tool<{ q: z.ZodString }>(T.a, { q: z.string() }, async ({ q }) => ok);\n`],
    ['a last argument that is no callback', `@@\nserver.tool(T.a, 'Does a.');\n`],
    ['a receiver that is no McpServer', `const registry = new Map();\n@@\nregistry.tool(T.a, 'Does a.', async () => ok);\n`],
    ['a receiver nothing here shows to be one', `@@\nhub.tool(T.a, 'Does a.', async () => ok);\n`],
    [
      '`z` declared for something else where zod must be imported',
      `const z = 1;\n@@\nserver.tool(T.a, {}, async () => ok);\n`,
      "import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\n",
    ],
  ])('%s', (_, body, head = HEAD) => {
    const input = file(body, head);
    expect(rewriteToolRegistrations(input, 'server.ts')).toEqual({ output: input, rewritten: 0 });
  });

  it('leaves a file still on the v1 SDK, whose McpServer has tool()', () => {
    const input = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 's', version: '1' });\nserver.tool(T.a, async () => ok);\n`;
    expect(rewriteToolRegistrations(input, 'server.ts')).toEqual({ output: input, rewritten: 0 });
  });
});

describe('a handler under a registration v2 lacks', () => {
  const Q = "{ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }";
  const handler = (params: string) =>
    `async (${params}) => {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return { content: [{ type: 'text', text: answer.action }] };\n}`;
  const HEAD2 =
    "import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\nconst T = { a: 'tool_a' };\n";
  const outcome = (source: string) => {
    const { plan, output } = transformSource(source, 'server.ts');
    return { sites: plan.sites.map((s) => ({ status: s.status, code: s.code, reason: s.reason, next: s.next })), output };
  };

  it('is refused, naming the registration and why it could not be rewritten', () => {
    const { sites, output } = outcome(`${HEAD2}export function add(config: object) {\n  server.tool(T.a, config, ${handler('args, ctx')});\n}\n`);
    expect(sites).toEqual([
      {
        status: 'marked',
        code: 'legacy-registration',
        reason:
          "this handler is registered with `server.tool(...)`, which v2's McpServer does not have (the server throws at start-up), and the codemod could not rewrite it to registerTool: `config` cannot be told to be a description, a raw zod shape or annotations.",
        next: 'rewrite the registration as `server.registerTool(name, { description, inputSchema: z.object(shape), annotations }, cb)`, then run again.',
      },
    ]);
    expect(output).not.toContain('inputRequired');
  });

  it('is refused under prompt() and resource() too, with the v2 registration to use', () => {
    const { sites } = outcome(`${HEAD2}server.prompt('p', 'A prompt', ${handler('ctx')});\n`);
    expect(sites).toEqual([
      {
        status: 'marked',
        code: 'legacy-registration',
        reason:
          "this handler is registered with `server.prompt(...)`, which v2's McpServer does not have: migrated, it would still never be registered (the server throws at start-up).",
        next: 'rewrite the registration as `server.registerPrompt(name, { description, argsSchema: z.object(shape) }, cb)`, then run again.',
      },
    ]);
  });

  it('is refused on a receiver nothing here shows, when the official codemod marked its registration', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';\nimport { hub } from './hub.js';\nconst T = { a: 'tool_a' };\n${MARKER}\nhub.server.tool(T.a, 'Does a.', ${handler('ctx')});\n`;
    expect(outcome(source).sites.map((s) => s.code)).toEqual(['legacy-registration']);
    // Without the marker nothing says it is an McpServer's: a framework's own tool() is left to migrate.
    expect(outcome(source.replace(`${MARKER}\n`, '')).sites.map((s) => s.status)).toContain('migrated');
  });

  it('is migrated as before under a tool() of an object that is no McpServer', () => {
    const source = `import { Registry } from './registry.js';\nconst registry = new Registry();\nregistry.tool('a', 'Does a.', ${handler('ctx')});\n`;
    expect(outcome(source).sites[0]!.status).toBe('migrated');
  });
});
