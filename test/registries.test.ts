// A project's own tool registry: what its loop shows of the declarations it registers (the
// name's property, the factory's, where the context goes), which declarations reach it, and
// the handlers their factories return: migrated under the declaration's name, refused where
// that name or the handler's identity cannot be pinned.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { transformSource } from '../src/transform.ts';

const shapes = (source: string) =>
  analyseFile(source, 'registry.ts').registries.map(({ kind, nameKey, handlerKey, factory, forwards, arity }) => ({
    kind,
    nameKey,
    handlerKey,
    factory,
    forwards,
    arity,
  }));

describe('the registries a module holds', () => {
  it('reads a loop that destructures each declaration and builds a schema only for one that has it', () => {
    const source = `
      export async function registerTools(server, context, declarations) {
        for (const declaration of declarations) {
          const { name, factory, isReadOnly, ...config } = declaration;
          const handler = await factory({ ...context, server });
          server.registerTool(name, { ...config, inputSchema: config.inputSchema ? z.object(config.inputSchema) : undefined }, handler);
        }
      }`;
    expect(shapes(source)).toEqual([
      { kind: 'tool', nameKey: 'name', handlerKey: 'factory', factory: true, forwards: undefined, arity: { schemaKey: 'inputSchema' } },
    ]);
    expect(analyseFile(source, 'registry.ts').registries[0]!.through).toEqual({ fn: 'registerTools', param: 2 });
  });

  it.each([
    ['no schema at all', 'server.registerTool(d.id, { description: d.description }, d.make(server))', { fixed: 0 }],
    ['a schema every time', 'server.registerTool(d.id, { inputSchema: z.object(d.shape ?? {}) }, d.make(server))', { fixed: 1 }],
    ['the declaration spread in', 'server.registerTool(d.id, { ...d }, d.make(server))', { schemaKey: 'inputSchema' }],
    [
      'a schema spread in only when it has one',
      'server.registerTool(d.id, { ...(d.args && { inputSchema: z.object(d.args) }) }, d.make(server))',
      { schemaKey: 'args' },
    ],
    ['a config read from elsewhere', 'server.registerTool(d.id, d.config, d.make(server))', 'unknown'],
    [
      'a const of the loop holding the schema when it has one',
      'const inputSchema = d.shape ? z.object(d.shape) : undefined; server.registerTool(d.id, { inputSchema }, d.make(server))',
      { schemaKey: 'shape' },
    ],
    ['a schema named from outside the loop', 'server.registerTool(d.id, { inputSchema: schema }, d.make(server))', 'unknown'],
  ])('finds where the context goes with %s', (_, registration, arity) => {
    expect(shapes(`declarations.forEach((d) => { ${registration}; });`)).toEqual([
      { kind: 'tool', nameKey: 'id', handlerKey: 'make', factory: true, forwards: undefined, arity },
    ]);
  });

  it('reads a prompt registry by its arguments schema', () => {
    expect(shapes('for (const p of PROMPTS) server.registerPrompt(p.name, { argsSchema: p.argsSchema }, p.factory(deps));')).toEqual([
      { kind: 'prompt', nameKey: 'name', handlerKey: 'factory', factory: true, forwards: undefined, arity: { schemaKey: 'argsSchema' } },
    ]);
  });

  it.each([
    ['as it is', 'server.registerTool(t.name, {}, t.run)', undefined],
    ['bound to the declaration', 'server.registerTool(t.name, {}, t.run.bind(t))', undefined],
    ['through a function handing on its parameters', 'server.registerTool(t.name, {}, (args, ctx) => t.run(args, ctx))', 2],
    ['through a function handing on its one parameter', 'server.registerTool(t.name, {}, async (ctx) => { return await t.run(ctx); })', 1],
  ])('reads a handler the declaration holds, passed on %s', (_, registration, forwards) => {
    expect(shapes(`for (const t of tools) ${registration};`)).toEqual([
      { kind: 'tool', nameKey: 'name', handlerKey: 'run', factory: false, forwards, arity: { fixed: 0 } },
    ]);
  });

  it.each([
    ['a handler bound to something else', 'for (const t of tools) server.registerTool(t.name, {}, t.run.bind(other));'],
    ['a function handing on other values', 'for (const t of tools) server.registerTool(t.name, {}, (args, ctx) => t.run(ctx, args));'],
    ['a registration outside a loop', 'server.registerTool(tool.name, {}, tool.factory(server));'],
    ['a name that is not the declaration’s', 'for (const t of tools) server.registerTool(`x_${t.name}`, {}, t.factory(server));'],
    ['a factory read through a let', 'for (const t of tools) { let make = t.factory; server.registerTool(t.name, {}, make(server)); }'],
  ])('finds no registry in %s', (_, source) => {
    expect(shapes(source)).toEqual([]);
  });
});

/** A module with its own registry, and declarations written in `declarations`. */
const module = (declarations: string, list = 'LIST, PICK') => `
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

interface Deps { server: McpServer; log: string[] }
const Q = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };

function declareTool<T>(declaration: T): T {
  return declaration;
}
${declarations}
function registerTools(server: McpServer, log: string[], declarations: any[]) {
  for (const { name, factory, ...config } of declarations) {
    server.registerTool(name, { ...config, inputSchema: config.inputSchema ? z.object(config.inputSchema) : undefined }, factory({ server, log }));
  }
}

export function createServer(log: string[]) {
  const server = new McpServer({ name: 's', version: '1' });
  registerTools(server, log, [${list}]);
  return server;
}
`;

const sites = (source: string) => transformSource(source, 'server.ts').plan.sites.map((s) => [s.line, s.handler, s.status, s.code]);

describe('the handlers a registry gets from its declarations', () => {
  it('migrates what a factory returns, its context added where the registration puts it', () => {
    const source = module(`
const LIST = declareTool({ name: 'list', factory: ({ server }: Deps) => async () => {
  const { roots } = await server.server.listRoots();
  return { content: [{ type: 'text' as const, text: String(roots.length) }] };
} });
const PICK = declareTool({ name: 'pick', inputSchema: { what: z.string() }, factory: ({ server, log }: Deps) => async ({ what }: { what: string }) => {
  log.push(what);
  const answer = await server.server.elicitInput({ message: what, requestedSchema: Q });
  return { content: [{ type: 'text' as const, text: answer.action }] };
} });
`);
    const { output, plan } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.handler, s.status])).toEqual([
      ['tool:list', 'migrated'],
      ['tool:pick', 'migrated'],
    ]);
    expect(output).toContain(
      "factory: ({ server }: Deps) => async (ctx: ServerContext) => {\n  const mrtr = await mrtrResume(ctx, 'tool:list', ['roots'], {});",
    );
    expect(output).toContain(
      "async ({ what }: { what: string }, ctx: ServerContext) => {\n  const mrtr = await mrtrResume(ctx, 'tool:pick', ['answer'], { what });",
    );
  });

  it('refuses a factory two declarations share: its handler would serve both tools', () => {
    const source = module(`
function makeAsk({ server }: Deps) {
  return async () => {
    const answer = await server.server.elicitInput({ message: 'ok?', requestedSchema: Q });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  };
}
const LIST = declareTool({ name: 'list', factory: makeAsk });
const PICK = declareTool({ name: 'pick', factory: makeAsk });
`);
    expect(sites(source)).toEqual([[14, 'tool:list', 'marked', 'shared-handler']]);
  });

  it('refuses a factory that returns one of two functions', () => {
    const source = module(`
const LIST = declareTool({ name: 'list', factory: ({ server, log }: Deps) => {
  if (log.length > 0) return async () => ({ content: [] });
  return async () => {
    const answer = await server.server.elicitInput({ message: 'ok?', requestedSchema: Q });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  };
} });
const PICK = LIST;
`);
    const [site] = transformSource(source, 'server.ts').plan.sites;
    expect([site!.status, site!.code, site!.reason]).toEqual([
      'marked',
      'shared-handler',
      'the factory of tool:list returns one of 2 functions (chosen when the server is built), and the migrated state must name the one that minted it.',
    ]);
  });

  it('refuses a handler whose declaration is named by what it cannot read', () => {
    const source = module(
      `
function makeAsk({ server }: Deps) {
  return async () => {
    const answer = await server.server.elicitInput({ message: 'ok?', requestedSchema: Q });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  };
}
function declared(names: { ask: string }) {
  return declareTool({ name: names.ask, factory: makeAsk });
}
`,
      "declared({ ask: 'ask' })",
    );
    expect(sites(source)).toEqual([[14, 'tool:names.ask', 'marked', 'unknown-tool-name']]);
  });
});

describe('a registry whose own type gives every handler its arguments first', () => {
  const typed = (callback: string) => `
import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

interface Deps { server: McpServer }
type Callback = ${callback};
type Factory = (deps: Deps) => Callback | Promise<Callback>;
interface Declaration { name: string; inputSchema?: z.ZodRawShape; factory: Factory }
type AnyDeclaration = Declaration;
const Q = { type: 'object' as const, properties: {} };

const LIST: Declaration = { name: 'list', factory: ({ server }: Deps) => async () => {
  const { roots } = await server.server.listRoots();
  return { content: [{ type: 'text' as const, text: String(roots.length) }] };
} };
const PICK: Declaration = { name: 'pick', inputSchema: { what: z.string() }, factory: ({ server }: Deps) => async ({ what }) => {
  const answer = await server.server.elicitInput({ message: String(what), requestedSchema: Q });
  return { content: [{ type: 'text' as const, text: answer.action }] };
} };

export async function registerTools(server: McpServer, declarations: readonly AnyDeclaration[]) {
  for (const declaration of declarations) {
    const { name, factory, ...config } = declaration;
    server.registerTool(name, { ...config, inputSchema: config.inputSchema ? z.object(config.inputSchema) : undefined }, await factory({ server }));
  }
}
registerTools(new McpServer({ name: 's', version: '1' }), [LIST, PICK]);
`;

  it('reads that type through its aliases, and refuses the handler of a tool without a schema, which the SDK calls with its context alone', () => {
    const source = typed('(args: Record<string, unknown>, ctx: ServerContext) => Promise<CallToolResult>');
    expect(analyseFile(source, 'server.ts').registries.map((r) => r.argumentsFirstType)).toEqual([{ name: 'Callback', line: 6 }]);
    const { output, plan } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.handler, s.status, s.code])).toEqual([
      ['tool:list', 'marked', 'context-pattern'],
      ['tool:pick', 'migrated', undefined],
    ]);
    // The line the type is on in the text written (the import grew to seven lines above it).
    expect(plan.sites[0]!.reason).toContain(
      'the registry types this handler `Callback` (line 13), with the arguments first, but registers a tool without a schema',
    );
    // The step that leads somewhere: a schema makes the registry's type true (roots: the paths themselves).
    expect(plan.sites[0]!.next).toBe(
      "declare this tool's `inputSchema` (the paths to search: roots are deprecated), or an empty one: the registry then registers it with a schema, the SDK passes `(args, ctx)` as `Callback` says, and the migration adds the context second; then run again.",
    );
    expect(output).toContain(
      '  // @mrtr-todo(context-pattern): `Callback` (line 13) puts args first — declare `inputSchema` on this tool, then run again\n' +
        '  const { roots } = await server.server.listRoots();',
    );
  });

  it('migrates the handler once its tool declares a schema, its arguments typed `unknown` where its factory gives them no type', () => {
    const source = typed('(args: Record<string, unknown>, ctx: ServerContext) => Promise<CallToolResult>')
      .replace(
        "const LIST: Declaration = { name: 'list', factory: ({ server }: Deps) => async () => {",
        "const LIST: Declaration = { name: 'list', inputSchema: {}, factory: listing };\nfunction listing({ server }: Deps) {\n  return async () => {",
      )
      .replace(
        "  return { content: [{ type: 'text' as const, text: String(roots.length) }] };\n} };",
        "  return { content: [{ type: 'text' as const, text: String(roots.length) }] };\n};\n}",
      );
    const { output, plan } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.handler, s.status])).toEqual([
      ['tool:list', 'migrated'],
      ['tool:pick', 'migrated'],
    ]);
    expect(output).toContain("  return async (_args: unknown, ctx: ServerContext) => {\n  const mrtr = await mrtrResume(ctx, 'tool:list', ['roots'], {});");
  });

  it('migrates both handlers where that type takes the context first too: its arguments typed any, or a form with the context alone', () => {
    const callbacks = [
      '(args: any, ctx: ServerContext) => Promise<CallToolResult>',
      '((args: Record<string, unknown>, ctx: ServerContext) => Promise<CallToolResult>) | ((ctx: ServerContext) => Promise<CallToolResult>)',
    ];
    for (const callback of callbacks) {
      const source = typed(callback);
      expect(analyseFile(source, 'server.ts').registries.map((r) => r.argumentsFirstType)).toEqual([undefined]);
      const { output, plan } = transformSource(source, 'server.ts');
      expect(plan.sites.map((s) => [s.handler, s.status])).toEqual([
        ['tool:list', 'migrated'],
        ['tool:pick', 'migrated'],
      ]);
      expect(output).toContain(
        "factory: ({ server }: Deps) => async (ctx: ServerContext) => {\n  const mrtr = await mrtrResume(ctx, 'tool:list', ['roots'], {});",
      );
    }
  });
});

describe('a definition whose registry is read', () => {
  it('gets the context the registry passes it, added where it goes', () => {
    const source = `
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
export function createServer() {
  const server = new McpServer({ name: 's', version: '1' });
  const tools = [
    {
      name: 'wipe',
      inputSchema: z.object({ table: z.string() }),
      handler: async ({ table }: { table: string }) => {
        const answer = await server.server.elicitInput({ message: table, requestedSchema: { type: 'object', properties: {} } });
        return { content: [{ type: 'text' as const, text: answer.action }] };
      },
    },
  ];
  for (const tool of tools) server.registerTool(tool.name, { inputSchema: tool.inputSchema }, tool.handler);
  return server;
}
`;
    const { output, plan } = transformSource(source, 'tools.ts');
    expect(plan.sites.map((s) => [s.line, s.handler, s.status])).toEqual([[11, 'tool:wipe', 'migrated']]);
    expect(output).toContain(
      "handler: async ({ table }: { table: string }, ctx: ServerContext) => {\n        const mrtr = await mrtrResume(ctx, 'tool:wipe', ['answer'], { table });",
    );
  });
});

describe('servers the receiver resolver now knows', () => {
  it('reads a server destructured from a parameter typed by a local interface', () => {
    const source = `
import { McpServer } from '@modelcontextprotocol/server';
interface Deps { server: McpServer }
export function register({ server }: Deps) {
  server.registerTool('t', {}, async () => {
    const answer = await server.server.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`;
    // (The server is built in another module: its verifier is wired there.)
    expect(sites(source)).toEqual([
      [6, 'tool:t', 'migrated', undefined],
      [1, undefined, 'marked', 'server-elsewhere'],
    ]);
  });

  it('reads a server a method of the class returns', () => {
    const source = `
import { McpServer } from '@modelcontextprotocol/server';
export class Prompter {
  constructor(private server?: McpServer) {}
  private ensureServer(): McpServer {
    if (!this.server) throw new Error('no server');
    return this.server;
  }
  async ask() {
    const server = this.ensureServer();
    return server.server.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
  }
}
`;
    expect(sites(source)).toEqual([[11, undefined, 'marked', 'in-helper']]);
  });
});

describe('tools written as classes', () => {
  /** A class whose instances a loop registers, named by `nameMember`, with `run` passed on as `registration` says. */
  const classes = (nameMember: string, registration: string, made = "new AskTool('a', server), new AskTool('b', server)") => `
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
class AskTool {
  ${nameMember}
  constructor(name: string, private readonly server: McpServer) { void name; }
  async run() {
    const answer = await this.server.server.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }
}
export function createServer() {
  const server = new McpServer({ name: 's', version: '1' });
  for (const tool of [${made}]) server.registerTool(tool.name, {}, ${registration});
  return server;
}
`;

  it('names the state of a method several instances share by the name each instance keeps', () => {
    const source = classes('readonly name: string;', 'tool.run.bind(tool)').replace('{ void name; }', '{ this.name = name; }');
    const { output, plan } = transformSource(source, 'tools.ts');
    expect(plan.sites.map((s) => [s.line, s.handler, s.status])).toEqual([[8, 'tool:this.name', 'migrated']]);
    expect(output).toContain("  async run(ctx: ServerContext) {\n    const mrtr = await mrtrResume(ctx, `tool:${this.name}`, ['answer'], {});");
  });

  it('names it so when a handler hands its call to the instance, its context added to both', () => {
    const source = classes("name = 'ask';", '(args) => tool.run(args)', "new AskTool('ask', server)")
      .replace('async run()', 'async run(args: object)')
      .replace('server.registerTool(tool.name, {}', 'server.registerTool(tool.name, { inputSchema: z.object({}) }');
    const { output, plan } = transformSource(source, 'tools.ts');
    expect(plan.sites.map((s) => [s.line, s.handler, s.status])).toEqual([[8, 'tool:this.name', 'migrated']]);
    expect(output).toContain("  async run(args: object, ctx: ServerContext) {\n    const mrtr = await mrtrResume(ctx, `tool:${this.name}`, ['answer'], args);");
    expect(output).toContain('(args, ctx) => tool.run(args, ctx));');
  });

  it('refuses a method several instances share when it cannot name their tools', () => {
    const source = classes('name: string;', 'tool.run.bind(tool)').replace('{ void name; }', '{ this.name = name; }');
    const [site] = transformSource(source, 'tools.ts').plan.sites;
    expect([site!.line, site!.status, site!.code, site!.reason]).toEqual([
      8,
      'marked',
      'unknown-tool-name',
      "each instance of this handler's class is registered under its own `name`, which the class does not keep (readonly), so the request state cannot name the tool it was minted for.",
    ]);
    const handed = source.replace('tool.run.bind(tool)', '(args) => tool.run(args)').replace('async run()', 'async run(args: object)');
    const schema = handed.replace('server.registerTool(tool.name, {}', 'server.registerTool(tool.name, { inputSchema: z.object({}) }');
    // Handed the call through the instance, it is left as a helper the handler reaches.
    expect(transformSource(schema, 'tools.ts').plan.sites.map((s) => [s.line, s.code])).toEqual([
      [8, 'in-helper'],
      [14, 'via-helper'],
    ]);
  });

  it('trusts no arity it cannot see: a schema its constructor may set, a base class may give', () => {
    const source = (cls: string) => `
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
class Base { inputSchema = { text: z.string() }; }
${cls}
export function createServer() {
  const server = new McpServer({ name: 's', version: '1' });
  for (const tool of [new AskTool(server)]) server.registerTool(tool.name, { inputSchema: tool.inputSchema && z.object(tool.inputSchema) }, tool.run.bind(tool));
  return server;
}
`;
    const ask =
      "name = 'ask';\n  constructor(private readonly server: McpServer) { SET }\n  async run(args: object) {\n    const answer = await this.server.server.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } });\n    return { content: [{ type: 'text' as const, text: answer.action + String(args) }] };\n  }";
    const codes = (cls: string) => transformSource(source(cls), 'tools.ts').plan.sites.map((s) => [s.status, s.code]);
    expect(codes(`class AskTool extends Base {\n  ${ask.replace('SET', 'super();')}\n}`)).toEqual([['marked', 'context-pattern']]);
    expect(codes(`class AskTool {\n  inputSchema?: object;\n  ${ask.replace('SET', 'this.inputSchema = {};')}\n}`)).toEqual([['marked', 'context-pattern']]);
    expect(codes(`class AskTool {\n  ${ask.replace('SET', '')}\n}`)).toEqual([['migrated', undefined]]);
  });

  it('leaves a method a handler calls with other arguments than it takes', () => {
    const source = classes("name = 'ask';", '(args) => tool.run(args)', "new AskTool('ask', server)").replace(
      'server.registerTool(tool.name, {}',
      'server.registerTool(tool.name, { inputSchema: z.object({}) }',
    );
    expect(transformSource(source, 'tools.ts').plan.sites.map((s) => [s.line, s.status, s.code])).toEqual([
      [8, 'marked', 'in-helper'],
      [14, 'marked', 'via-helper'],
    ]);
  });

  describe("a base class's method every tool extending it inherits", () => {
    const tools = (asking: string, other: string) => `
import { McpServer } from '@modelcontextprotocol/server';
abstract class Base {
  abstract readonly name: string;
  constructor(private readonly server: McpServer) {}
  async invoke() {
    const answer = await this.server.server.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  }
}
class AskTool extends Base {
  ${asking}
}
class OtherTool extends Base {
  ${other}
}
export function createServer() {
  const server = new McpServer({ name: 's', version: '1' });
  for (const tool of [new AskTool(server), new OtherTool(server)]) server.registerTool(tool.name, {}, tool.invoke.bind(tool));
  return server;
}
`;
    const sites = (source: string) => transformSource(source, 'tools.ts').plan.sites.map((s) => [s.line, s.handler, s.status, s.code]);

    it('migrates it once, named by the name each tool keeps', () => {
      const { output, plan } = transformSource(tools("readonly name = 'ask';", "readonly name = 'other';"), 'tools.ts');
      expect(plan.sites.map((s) => [s.line, s.handler, s.status])).toEqual([[7, 'tool:this.name', 'migrated']]);
      expect(output).toContain("  async invoke(ctx: ServerContext) {\n    const mrtr = await mrtrResume(ctx, `tool:${this.name}`, ['answer'], {});");
    });

    it('marks a gate it cannot migrate once, at the base method, not once a tool', () => {
      const gated = tools("readonly name = 'ask';", "readonly name = 'other';")
        .replace('async invoke() {', "async invoke() {\n    if (this.name !== 'other' && !(await this.confirmed())) return { content: [] };")
        .replace('const answer = await', 'return { content: [] };\n  }\n  async confirmed() {\n    const answer = await')
        .replace("return { content: [{ type: 'text' as const, text: answer.action }] };", "return answer.action === 'accept';");
      // The helper could be split: the gate's own blocker is marked, not via-helper.
      expect(sites(gated)).toEqual([
        [11, undefined, 'marked', 'in-helper'],
        [7, 'tool:this.name', 'marked', 'nested-site'],
      ]);
      expect(transformSource(gated, 'tools.ts').output.match(/@mrtr-todo\([a-z-]+\)/g)).toEqual(['@mrtr-todo(nested-site)', '@mrtr-todo(in-helper)']);
    });

    it('refuses it when a tool may change its name, or runs it from a method of its own', () => {
      expect(sites(tools("readonly name = 'ask';", "name = 'other';\n  rename() { this.name = 'again'; }"))[0]).toEqual([
        7,
        'tool:this.name',
        'marked',
        'shared-handler',
      ]);
      const overridden = tools("readonly name = 'ask';", "readonly name = 'other';\n  override async invoke() { return super.invoke(); }");
      expect(sites(overridden)).toEqual([[7, 'tool:this.name', 'marked', 'shared-handler']]);
    });
  });
});

describe("a base class's confirmation gate that checks the client's capabilities before it asks", () => {
  // The gate every subclass tool inherits answers without asking when the client cannot be asked:
  // split, its request half reads the capabilities the calling handler's request carries.
  const gate = readFileSync(new URL('../fixtures/base-class-gate/input.ts', import.meta.url), 'utf8').replace(
    '    const answer = await this.server.server.elicitInput(',
    '    if (!this.server.server.getClientCapabilities()?.elicitation) return true;\n    const answer = await this.server.server.elicitInput(',
  );

  it("hands the shared handler's context to the gate's request half, which reads the request's capabilities first", () => {
    const { output, plan } = transformSource(gate, 'tools.ts');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain('const mrtrOutcome = await this.verifyConfirmedRequest(`Run ${this.name}?`, ctx);');
    expect(output).toContain(
      '  protected async verifyConfirmedRequest(message: string, mrtrCtx?: ServerContext): Promise<{ ask: InputRequest } | { value: boolean }> {\n' +
        '    if (!((mrtrCtx?.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? this.server.server.getClientCapabilities())?.elicitation) return { value: true };\n',
    );
    expect(transformSource(output, 'tools.ts').output).toBe(output);
  });
});
