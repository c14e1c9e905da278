// A server laid out the usual way, migrated by the engine and run end to end: src/server.ts
// builds the server (its options already verify the state of a tool migrated by hand), and
// src/tools/*.ts register the tools, through src/tools/index.ts. The run writes one
// request-state module, wires its verifier into src/server.ts around the one already there,
// and leaves each tool module's diff at its imports and its handlers. The migrated project
// typechecks, a second run changes nothing, and its tools (the migrated ones and the one that
// mints its own state) answer as the original's do, on both eras, through the real client.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { unifiedPatch } from '../src/core/line-diff.ts';
import { formatJsonSummary } from '../src/report/json-summary.ts';
import { stateModuleText } from '../src/rewrite/state-module.ts';
import { runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
import { typecheck } from './support/typecheck.ts';
import { migratedPair } from './support/migrated-pair.ts';

const CONFIRM = "{ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }";

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "layout-demo", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { notesCodec } from './tools/notes.js';
import { registerTools } from './tools/index.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer(
    { name: 'layout-demo', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      // The notes tool was moved to input requests by hand: it mints and verifies its own state.
      requestState: { verify: notesCodec.verify },
    },
  );
  registerTools(server, log);
  return server;
}
`,
  'src/tools/index.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import { registerArchiveTools } from './archive.js';
import { registerNoteTools } from './notes.js';
import { registerSummaryTools } from './summarise.js';

export function registerTools(server: McpServer, log: string[]): void {
  registerArchiveTools(server, log);
  registerNoteTools(server, log);
  registerSummaryTools(server, log);
}
`,
  'src/tools/archive.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export function registerArchiveTools(server: McpServer, log: string[]): void {
  server.registerTool('archive', { inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {
    log.push(\`count:\${table}\`);
    const rows: number = table.length;
    const answer = await ctx.mcpReq.elicitInput({ message: \`Archive \${rows} rows of \${table}?\`, requestedSchema: ${CONFIRM} });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Kept.' }] };
    log.push(\`archive:\${table}\`);
    return { content: [{ type: 'text', text: \`Archived \${rows} rows.\` }] };
  });
}
`,
  'src/tools/summarise.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export function registerSummaryTools(server: McpServer, log: string[]): void {
  server.registerTool('summarise', { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    log.push('summarise:start');
    const completion = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
    const block = Array.isArray(completion.content) ? completion.content[0] : completion.content;
    const summary = block?.type === 'text' ? block.text : '';
    log.push(\`summarise:\${summary.length}\`);
    return { content: [{ type: 'text', text: summary }] };
  });
}
`,
  'src/tools/notes.ts': `import { createRequestStateCodec, inputRequired, type ElicitResult, type McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

type NoteState = { step: 'title'; draft: string };

export const notesCodec = createRequestStateCodec<NoteState>({ key: 'notes-tool-key-0123456789abcdef0123456789' });

export function registerNoteTools(server: McpServer, log: string[]): void {
  server.registerTool('note', { inputSchema: z.object({ draft: z.string() }) }, async ({ draft }, ctx) => {
    const state = ctx.mcpReq.requestState<NoteState>();
    if (state === undefined) {
      log.push(\`note:start:\${draft}\`);
      return inputRequired({
        inputRequests: { title: inputRequired.elicit({ message: 'Title?', requestedSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } }) },
        requestState: await notesCodec.mint({ step: 'title', draft }),
      });
    }
    const answer = ctx.mcpReq.inputResponses?.title as ElicitResult | undefined;
    const title = answer?.action === 'accept' ? String(answer.content?.title) : 'untitled';
    log.push(\`note:saved:\${title}\`);
    return { content: [{ type: 'text', text: \`\${title}: \${state.draft}\` }] };
  });
}
`,
};

const CALLS: ToolCall[] = [
  { name: 'archive', arguments: { table: 'logs' } },
  { name: 'note', arguments: { draft: 'buy milk' } },
  { name: 'summarise', arguments: { text: 'the tide comes in twice a day' } },
  { name: 'archive', arguments: { table: 'users' } },
];

function script(): ClientScript {
  return {
    elicit: (params) =>
      String(params.message).startsWith('Title') ? { action: 'accept', content: { title: 'groceries' } } : { action: 'accept', content: { ok: true } },
    sample: () => ({ role: 'assistant', model: 'scripted', content: { type: 'text', text: 'tides: twice daily' } }),
  };
}

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('layout-', PROJECT, { types: false });
const { root, read, load } = pair;

/** The lines a file's diff adds and removes (no headers, no context). */
async function changedLines(name: string): Promise<string[]> {
  const patch = unifiedPatch('a', 'b', await read('original', name), await read('migrated', name), 0);
  return patch.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
}

describe('a server built in src/server.ts, tools registered in src/tools/*.ts', () => {
  it('writes one request-state module and wires its verifier where the server is built, around the one already there', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.changed.map((c) => c.path)).toEqual([
      'package.json',
      'src/tools/archive.ts',
      'src/tools/summarise.ts',
      'src/server.ts',
      'src/mrtr-request-state.ts',
    ]);
    // The project imports the server without declaring it: its package.json gets it at the version MRTR needs.
    expect(await read('migrated', 'package.json')).toBe(
      '{ "name": "layout-demo", "private": true, "type": "module", "dependencies":{"@modelcontextprotocol/server":"^2.4.0"} }\n',
    );
    expect(pair.result.stateModules).toEqual([{ file: 'src/mrtr-request-state.ts', form: 'ts', status: 'created', wiredIn: ['src/server.ts'] }]);
    // `migrate --json` says the same.
    expect(JSON.parse(formatJsonSummary(pair.result, { dryRun: false })).stateModules).toEqual(pair.result.stateModules);
    expect(await read('migrated', 'src/mrtr-request-state.ts')).toBe(stateModuleText('ts'));
    expect(pair.result.sites.map((s) => [s.file, s.handler, s.status])).toEqual([
      ['src/tools/archive.ts', 'tool:archive', 'migrated'],
      ['src/tools/summarise.ts', 'tool:summarise', 'migrated'],
    ]);
    expect(await changedLines('src/server.ts')).toEqual([
      "+import { mrtrVerify } from './mrtr-request-state.js';",
      '-      requestState: { verify: notesCodec.verify },',
      '+      requestState: { verify: mrtrVerify(notesCodec.verify) },',
    ]);
    expect(await read('migrated', 'src/tools/notes.ts')).toBe(PROJECT['src/tools/notes.ts']);
    expect(await read('migrated', 'src/tools/index.ts')).toBe(PROJECT['src/tools/index.ts']);
  });

  it("leaves each tool module's diff at its imports and its handler", async () => {
    const archive = await changedLines('src/tools/archive.ts');
    expect(archive.filter((l) => l.startsWith('+import'))).toEqual([
      "+import { inputRequired, type ElicitResult } from '@modelcontextprotocol/server';",
      "+import { mrtrResume } from '../mrtr-request-state.js';",
    ]);
    const body = archive.filter((l) => !/^[-+]import/.test(l));
    expect(body.join('\n')).not.toMatch(/mrtrCodec|createRequestStateCodec|server-elsewhere|@mrtr-todo/);
    console.log(
      `usual layout: src/tools/archive.ts diff ${archive.length} lines (${archive.filter((l) => l.startsWith('+')).length} added, ${archive.filter((l) => l.startsWith('-')).length} removed); src/server.ts ${(await changedLines('src/server.ts')).length}`,
    );
    expect(archive.length).toBeLessThan(25);
  });

  it('typechecks, as the original does, and a second run changes nothing', async () => {
    const migrated = path.join(root, 'migrated');
    const files = (which: string) =>
      Object.keys(PROJECT)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(root, which, f));
    expect(typecheck(files('original'))).toEqual([]);
    expect(typecheck([...files('migrated'), path.join(migrated, 'src/mrtr-request-state.ts')])).toEqual([]);
    const again = await runCodemod({ paths: ['src'], write: true, cwd: migrated, types: false });
    expect(again.errors).toEqual([]);
    expect(again.changed).toEqual([]);
    expect(again.stateModules).toEqual([{ file: 'src/mrtr-request-state.ts', form: 'ts', status: 'current', wiredIn: [] }]);
  });

  it('answers as the original does: the migrated tools and the one that mints its own state, on both eras', async () => {
    const original = await load('original');
    const migrated = await load('migrated');
    const originalLog: string[] = [];
    const legacy = await runCalls(() => original.createServer(originalLog), 'legacy', CALLS, script());
    expect(originalLog).toEqual([
      'count:logs',
      'archive:logs',
      'note:start:buy milk',
      'note:saved:groceries',
      'summarise:start',
      'summarise:18',
      'count:users',
      'archive:users',
    ]);
    expect(legacy.results.map((r) => (r as { content?: Array<{ text: string }> }).content?.[0]?.text)).toEqual([
      'Archived 4 rows.',
      'groceries: buy milk',
      'tides: twice daily',
      'Archived 5 rows.',
    ]);
    for (const era of ['modern', 'legacy'] as const) {
      const log: string[] = [];
      const run = await runCalls(() => migrated.createServer(log), era, CALLS, script());
      expect({ era, results: run.results, questions: run.questions, log }).toEqual({
        era,
        results: legacy.results,
        questions: legacy.questions,
        log: originalLog,
      });
    }
  });
});
