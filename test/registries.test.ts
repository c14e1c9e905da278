// A project's own tool registry: what its loop shows of the declarations it registers (the
// name's property, the factory's, where the context goes), which declarations reach it, and
// the handlers their factories return: migrated under the declaration's name, refused where
// that name or the handler's identity cannot be pinned.
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { transformSource } from '../src/transform.ts';

const shapes = (source: string) =>
  analyseFile(source, 'registry.ts').registries.map(({ kind, nameKey, factoryKey, arity }) => ({ kind, nameKey, factoryKey, arity }));

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
    expect(shapes(source)).toEqual([{ kind: 'tool', nameKey: 'name', factoryKey: 'factory', arity: { schemaKey: 'inputSchema' } }]);
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
  ])('finds where the context goes with %s', (_, registration, arity) => {
    expect(shapes(`declarations.forEach((d) => { ${registration}; });`)).toEqual([{ kind: 'tool', nameKey: 'id', factoryKey: 'make', arity }]);
  });

  it('reads a prompt registry by its arguments schema', () => {
    expect(shapes('for (const p of PROMPTS) server.registerPrompt(p.name, { argsSchema: p.argsSchema }, p.factory(deps));')).toEqual([
      { kind: 'prompt', nameKey: 'name', factoryKey: 'factory', arity: { schemaKey: 'argsSchema' } },
    ]);
  });

  it.each([
    ['a handler property passed on as it is', 'for (const t of tools) server.registerTool(t.name, {}, t.handler);'],
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
