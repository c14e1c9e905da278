// A helper that returns a promise after its question without awaiting it (`return
// shelf.list(kind)`): the async helper resolved it for its caller. Its result half is now async
// and the handler awaits it; it used to be a plain function that handed the caller the promise
// itself (`items.join` on a Promise), with or without a point that answers without asking.
// The declarations that only the helper's calls passed on (`labels`, exported; `greeting`;
// the factory's `shelf`) stay: the calls of the halves pass them again. They used to be removed,
// an exported one leaving `export ` before the next statement.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';
import { runCalls, type Era, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';

const SERVER = `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export interface Shelf {
  list(kind: string): Promise<string[]>;
}

export const labels = { noun: 'kind' };
const greeting = 'Which';

async function pick(ctx: ServerContext, shelf: Shelf, words: { noun: string }, opening: string): Promise<string[]> {
  const answer = await ctx.mcpReq.elicitInput({
    message: \`\${opening} \${words.noun}?\`,
    requestedSchema: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] },
  });
  return shelf.list(answer.action === 'accept' ? String(answer.content?.kind) : 'none');
}

async function choose(ctx: ServerContext, shelf: Shelf, kind?: string): Promise<string[]> {
  if (kind) return shelf.list(kind);
  const answer = await ctx.mcpReq.elicitInput({
    message: 'Kind?',
    requestedSchema: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] },
  });
  return shelf.list(answer.action === 'accept' ? String(answer.content?.kind) : 'none');
}

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'shelves', version: '1.0.0' });
  const shelf: Shelf = {
    list: async (kind) => {
      log.push(\`list:\${kind}\`);
      return [\`\${kind}-1\`, \`\${kind}-2\`];
    },
  };
  server.registerTool('pick', { description: 'Pick a kind, list it' }, async (ctx) => {
    const items = await pick(ctx, shelf, labels, greeting);
    return { content: [{ type: 'text', text: items.join(',') }] };
  });
  server.registerTool('choose', { inputSchema: z.object({ kind: z.string().optional() }) }, async ({ kind }, ctx) => {
    const items = await choose(ctx, shelf, kind);
    return { content: [{ type: 'text', text: \`\${items.length}: \${items.join(',')}\` }] };
  });
  return server;
}
`;

const pair = migratedPair<{ createServer(log: string[]): McpServer }>('returned-promise-', {
  'package.json': '{ "name": "shelves", "private": true, "type": "module" }\n',
  'src/server.ts': SERVER,
});

const CALLS: ToolCall[] = [{ name: 'pick' }, { name: 'choose', arguments: {} }, { name: 'choose', arguments: { kind: 'given' } }];

const run = async (tree: 'original' | 'migrated', era: Era) => {
  const log: string[] = [];
  const server = await pair.load(tree);
  const recording = await runCalls(() => server.createServer(log), era, CALLS, {
    elicit: (params) => ({ action: 'accept', content: { kind: String(params.message).startsWith('Which') ? 'book' : 'map' } }),
  });
  return { results: recording.results, questions: recording.questions.map((q) => (q.params as { message: string }).message), log };
};

describe('a helper that returns a promise after its question', () => {
  it('gets an async result half, which the handler awaits, and keeps what its calls pass', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.line, s.status])).toEqual([
      [12, 'migrated'],
      [21, 'migrated'],
    ]);
    const migrated = await pair.read('migrated', 'src/server.ts');
    expect(migrated).toContain('async function pickResult(answer: ElicitResult, shelf: Shelf): Promise<string[]> {');
    expect(migrated).toContain('async function chooseResult(answer: ElicitResult, shelf: Shelf): Promise<string[]> {');
    expect(migrated).toContain('    const items = await pickResult(mrtrAnswer, shelf);');
    expect(migrated).toContain('    const items = await mrtrAnswer.value;');
    expect(migrated).toContain("\nexport const labels = { noun: 'kind' };\nconst greeting = 'Which';\n");
    expect(migrated).toContain('  const shelf: Shelf = {');
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(['src/server.ts'])).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('gives the original results, questions and effects on both eras', async () => {
    const original = await run('original', 'legacy');
    expect(original).toEqual({
      results: [
        { content: [{ type: 'text', text: 'book-1,book-2' }] },
        { content: [{ type: 'text', text: '2: map-1,map-2' }] },
        { content: [{ type: 'text', text: '2: given-1,given-2' }] },
      ],
      questions: ['Which kind?', 'Kind?'],
      log: ['list:book', 'list:map', 'list:given'],
    });
    expect(await run('migrated', 'legacy')).toEqual(original);
    expect(await run('migrated', 'modern')).toEqual(original);
  });

  it('in JavaScript, without the checker, takes a returned call for a promise', () => {
    const js = [
      "import { McpServer } from '@modelcontextprotocol/server';",
      'async function pick(ctx, shelf) {',
      "  const answer = await ctx.mcpReq.elicitInput({ message: 'Kind?', requestedSchema: { type: 'object', properties: {} } });",
      '  return shelf.list(answer.action);',
      '}',
      'async function size(ctx, shelf) {',
      "  const answer = await ctx.mcpReq.elicitInput({ message: 'Size?', requestedSchema: { type: 'object', properties: {} } });",
      '  return answer.action.length;',
      '}',
      'export function createServer(shelf) {',
      "  const server = new McpServer({ name: 'shelves', version: '1.0.0' });",
      "  server.registerTool('pick', {}, async (ctx) => ({ content: [{ type: 'text', text: (await pick(ctx, shelf)).join(',') }] }));",
      "  server.registerTool('size', {}, async (ctx) => ({ content: [{ type: 'text', text: String(await size(ctx, shelf)) }] }));",
      '  return server;',
      '}',
      '',
    ].join('\n');
    const { output } = transformSource(js, 'server.mjs');
    expect(output).toContain('async function pickResult(answer, shelf) {');
    expect(output).toContain('(await pickResult(mrtrAnswer, shelf)).join');
    // A value that cannot be a promise keeps a plain result half.
    expect(output).toContain('function sizeResult(answer) {');
    expect(output).not.toContain('async function sizeResult');
    expect(output).toContain('String(sizeResult(mrtrAnswer))');
  });
});
