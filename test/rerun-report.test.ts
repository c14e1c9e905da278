// What a migrated handler runs again on each retry, as the reports say it: the locals it makes
// again instead of carrying them, and every call that makes (a read, a module function shown
// pure, a call declared idempotent), in the text summary, the JSON summary and the review page,
// each once per handler. `--idempotent NAME` declares a call from the command line; `check`
// takes it too, and agrees with migrate.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

type Note = { title: string; tags: string[] };
const notes = new Map<string, Note>();

function labelOf(note: Note): string {
  return note.title.trim();
}

declare const cache: { lookup(id: string): { hits: number } };

const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.registerTool('tag', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  const note = notes.get(id);
  if (!note) return { content: [] };
  const label = labelOf(note);
  const entry = cache.lookup(id);
  const answer = await ctx.mcpReq.elicitInput({ message: \`Tag \${label}?\`, requestedSchema: { type: 'object', properties: {} } });
  if (answer.action === 'accept') note.tags.push(String(entry.hits++));
  return { content: [{ type: 'text', text: label }] };
});
`;

let dir: string;
beforeAll(async () => {
  dir = checkoutScratch('rerun-report-');
  await putFile(dir, 'src/server.ts', SERVER);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a handler that derives its locals again', () => {
  it('is marked while the cache entry it changes is not declared idempotent: a copy of it would travel', async () => {
    const run = await cli(dir, 'migrate', '--dry-run', '--json', 'src');
    const summary = JSON.parse(run.stdout);
    expect(summary.markers.map((m: { code: string }) => m.code)).toEqual(['mutated-local']);
    expect(summary.rerun).toEqual([]);
  });

  it('names each call that runs again, in the text summary, once', async () => {
    const run = await cli(dir, 'migrate', '--dry-run', '--idempotent', 'lookup', 'src');
    expect(run.code).toBe(0);
    // The summary goes to stderr (stdout holds the patch); the section is there once.
    expect(run.stderr.split('Runs again on each retry')).toHaveLength(2);
    expect(run.stdout).not.toContain('Runs again on each retry');
    const at = run.stderr.indexOf('Runs again on each retry');
    expect(run.stderr.slice(at).split('\n').slice(0, 6)).toEqual([
      'Runs again on each retry (derived again, not carried in requestState):',
      '  src/server.ts:20  tool:tag  locals: note, label, entry',
      '    line 16: notes.get(id) (only reads)',
      '    line 18: labelOf(note) (a function shown to only compute)',
      '    line 19: cache.lookup(id) (declared idempotent)',
      'Markers left: 0',
    ]);
  });

  it('lists them in the JSON summary', async () => {
    const run = await cli(dir, 'migrate', '--dry-run', '--json', '--idempotent', 'lookup', 'src');
    expect(JSON.parse(run.stdout).rerun).toEqual([
      {
        file: 'src/server.ts',
        handler: 'tool:tag',
        line: 20,
        locals: ['note', 'label', 'entry'],
        calls: [
          { text: 'notes.get(id)', line: 16, why: 'read' },
          { text: 'labelOf(note)', line: 18, why: 'pure-function' },
          { text: 'cache.lookup(id)', line: 19, why: 'declared' },
        ],
      },
    ]);
  });

  it('explains them on the review page', async () => {
    await cli(dir, 'migrate', '--dry-run', '--report', 'review.html', '--idempotent', 'lookup', 'src');
    const html = await readFile(path.join(dir, 'review.html'), 'utf8');
    expect(html).toContain(
      [
        '<div class="rerun"><p>Runs again on each retry, not carried: <code>note</code>, <code>label</code>, <code>entry</code>.</p>',
        '<ul>',
        '<li><code>notes.get(id)</code> (line 16, only reads)</li>',
        '<li><code>labelOf(note)</code> (line 18, a function shown to only compute)</li>',
        '<li><code>cache.lookup(id)</code> (line 19, declared idempotent)</li>',
        '</ul>',
        '</div>',
      ].join('\n'),
    );
  });

  it('is declared from a comment as from the flag, and `check` takes the flag too', async () => {
    expect((await cli(dir, 'check', 'src')).stdout).toContain('mrtr-todo/mutated-local');
    const flagged = await cli(dir, 'check', '--idempotent', 'lookup', 'src');
    expect(flagged.stdout).not.toContain('mrtr-todo/');
    expect(flagged.stdout).toContain('legacy-request');
    await putFile(dir, 'src/server.ts', SERVER.replace('  const entry = cache.lookup(id);', '  // @mrtr-idempotent\n  const entry = cache.lookup(id);'));
    const commented = await cli(dir, 'migrate', '--dry-run', '--json', 'src');
    expect(JSON.parse(commented.stdout).rerun[0].calls).toContainEqual({ text: 'cache.lookup(id)', line: 20, why: 'declared' });
  });
});

// A command object a handler dispatches to inside a per-round bracket (the meter started before
// the `try`, stopped in its `finally`), whose method asks through a helper another module exports.
// The handler's question is counted at that helper, in the other module: so are the bracket's
// calls, each named with the module it is made in.
const ASKER = `import { McpServer } from '@modelcontextprotocol/server';

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({
    message: 'Who?',
    requestedSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
  });
  return String(answer.content?.who ?? 'nobody');
}
`;
const COMMANDS = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { askName } from './asker.js';

export interface Outcome {
  text: string;
}

export interface Command {
  name: string;
  execute(args: Record<string, unknown>): Promise<Outcome>;
}

export class Greet implements Command {
  readonly name = 'greet';
  constructor(private readonly server: McpServer) {}

  async execute(args: Record<string, unknown>): Promise<Outcome> {
    const who = await askName(this.server);
    return { text: \`hello \${who} (\${Object.keys(args).length})\` };
  }
}

const meter = { begin: (name: string) => () => console.error('stop', name) };

function register(server: McpServer, command: Command): void {
  server.registerTool(command.name, { inputSchema: z.object({}).catchall(z.unknown()) }, async (args: Record<string, unknown>, extra: unknown) => {
    const stop = meter.begin(command.name);
    try {
      const outcome = await command.execute(args);
      return { content: [{ type: 'text' as const, text: outcome.text }] };
    } finally {
      stop();
    }
  });
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' });
  register(server, new Greet(server));
  return server;
}
`;

describe("a dispatch whose command asks through another module's helper", () => {
  let across: string;
  beforeAll(async () => {
    across = checkoutScratch('rerun-across-');
    await putFile(across, 'src/asker.ts', ASKER);
    await putFile(across, 'src/commands.ts', COMMANDS);
  });
  afterAll(() => rm(across, { recursive: true, force: true }));
  const BEGIN = '  src/commands.ts:28: meter.begin(command.name) (a per-round bracket: acquired before the dispatch, released in its finally)';
  const STOP = '  src/commands.ts:33: stop() (a per-round bracket: acquired before the dispatch, released in its finally)';

  it('names the calls of its per-round bracket among what runs again, at the helper, in the text summary', async () => {
    expect(COMMANDS.split('\n')[27]).toBe('    const stop = meter.begin(command.name);');
    expect(COMMANDS.split('\n')[32]).toBe('      stop();');
    const run = await cli(across, 'migrate', '--dry-run', 'src');
    expect(run.code).toBe(0);
    const at = run.stderr.indexOf('Runs again on each retry');
    expect(run.stderr.slice(at).split('\n').slice(0, 5)).toEqual([
      'Runs again on each retry (derived again, not carried in requestState):',
      '  src/asker.ts:4  helper:askName',
      `  ${BEGIN}`,
      `  ${STOP}`,
      'Markers left: 0',
    ]);
  });

  it('lists them in the JSON summary, and on the review page', async () => {
    const run = await cli(across, 'migrate', '--dry-run', '--json', '--report', 'review.html', 'src');
    expect(JSON.parse(run.stdout).rerun).toEqual([
      {
        file: 'src/asker.ts',
        handler: 'helper:askName',
        line: 4,
        locals: [],
        calls: [
          { text: 'meter.begin(command.name)', line: 28, why: 'bracket', file: 'src/commands.ts' },
          { text: 'stop()', line: 33, why: 'bracket', file: 'src/commands.ts' },
        ],
      },
    ]);
    const html = await readFile(path.join(across, 'review.html'), 'utf8');
    expect(html).toContain(
      [
        '<div class="rerun"><p>Runs again on each retry, not carried.</p>',
        '<ul>',
        '<li><code>meter.begin(command.name)</code> (src/commands.ts:28, a per-round bracket: acquired before the dispatch, released in its finally)</li>',
        '<li><code>stop()</code> (src/commands.ts:33, a per-round bracket: acquired before the dispatch, released in its finally)</li>',
        '</ul>',
        '</div>',
      ].join('\n'),
    );
  });
});
