// A server whose tools are print commands that one registering function dispatches to, inside a
// per-round bracket: the handler starts a meter for the command just before a `try` and stops it
// in the `finally`, and nothing else reads the meter's stop function. Only the print command asks
// (through a proofer it holds in a field, not when the call says `confirmed`). Migrated by the
// engine, the print command's `run` becomes the resumable part of the handler and the bracket is
// left around it: each round starts and stops its own meter, and the summary names both calls
// among what runs again. Run through the real client, the migrated server gives the original's
// results, asks its questions and does its work once each, on both eras. A bracket whose release
// is read elsewhere, or a finally that does more, is refused with markers naming the statement.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { formatSummary } from '../src/report/summary.ts';
import { runCalls, type ClientScript, type Recording, type ToolCall } from './support/harness.ts';
import { originalAndCopy, checkoutScratch, putFile } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

const PRESS = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export interface Receipt {
  text: string;
}

export interface PressCommand {
  readonly name: string;
  run(input: { pages?: number; confirmed?: boolean }): Promise<Receipt>;
}

/** Each command's time on the press: begin returns what ends it. */
export class Meter {
  readonly marks: string[] = [];

  begin(name: string): () => void {
    this.marks.push(\`begin:\${name}\`);
    return () => {
      this.marks.push(\`end:\${name}\`);
    };
  }
}

const PROOF = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

class Proofer {
  constructor(private readonly server: McpServer) {}

  async approve(pages: number, confirmed: boolean | undefined): Promise<boolean> {
    if (confirmed === true) return true;
    const answer = await this.server.server.elicitInput({ message: \`Print \${pages} pages?\`, requestedSchema: PROOF });
    return answer.action === 'accept' && answer.content?.ok === true;
  }
}

export class PrintCommand implements PressCommand {
  readonly name = 'print';
  private readonly proofer: Proofer;

  constructor(
    server: McpServer,
    private readonly work: string[],
  ) {
    this.proofer = new Proofer(server);
  }

  async run(input: { pages?: number; confirmed?: boolean }): Promise<Receipt> {
    const pages = input.pages ?? 1;
    const approved = await this.proofer.approve(pages, input.confirmed);
    if (!approved) return { text: \`Held \${pages} pages.\` };
    this.work.push(\`print:\${pages}\`);
    return { text: \`Printed \${pages} pages.\` };
  }
}

export class InkCommand implements PressCommand {
  readonly name = 'ink';

  constructor(private readonly work: string[]) {}

  async run(): Promise<Receipt> {
    this.work.push('ink');
    return { text: 'Ink at 80%.' };
  }
}

export function registerCommand(server: McpServer, command: PressCommand, meter: Meter): void {
  server.registerTool(command.name, { inputSchema: z.object({ pages: z.number().optional(), confirmed: z.boolean().optional() }) }, async (input) => {
    const stop = meter.begin(command.name);
    const label = \`[\${command.name}]\`;
    try {
      const receipt = await command.run(input);
      return { content: [{ type: 'text', text: \`\${label}: \${receipt.text}\` }] };
    } catch (error) {
      return { content: [{ type: 'text', text: \`\${label} failed: \${(error as Error).message}\` }], isError: true };
    } finally {
      stop();
    }
  });
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { InkCommand, Meter, PrintCommand, registerCommand } from './press.js';

export function createServer(work: string[], meter: Meter): McpServer {
  const server = new McpServer({ name: 'press', version: '1.0.0' });
  for (const command of [new PrintCommand(server, work), new InkCommand(work)]) registerCommand(server, command, meter);
  return server;
}
`;

type ServerModule = { createServer(work: string[], meter: { marks: string[] }): McpServer };
type PressModule = { Meter: new () => { marks: string[] } };

const CALLS: ToolCall[] = [
  { name: 'print', arguments: { pages: 3 } },
  { name: 'print', arguments: { pages: 9 } },
  { name: 'print', arguments: { pages: 2, confirmed: true } },
  { name: 'ink', arguments: {} },
];

const script = (): ClientScript => ({
  elicit: (params) => (String(params.message).includes('3 pages') ? { action: 'accept', content: { ok: true } } : { action: 'decline' }),
});

let root: string;
let result: RunResult;
const savedKey = process.env.MCP_REQUEST_STATE_KEY;

beforeAll(async () => {
  process.env.MCP_REQUEST_STATE_KEY = 'a-test-key-of-at-least-thirty-two-bytes-0123456789';
  root = await originalAndCopy('dispatch-bracket-', {
    'package.json': '{ "name": "press", "private": true, "type": "module" }\n',
    'src/press.ts': PRESS,
    'src/server.ts': SERVER,
  });
  result = await runCodemod({ paths: ['src'], write: true, cwd: path.join(root, 'migrated') });
}, 120_000);

afterAll(async () => {
  if (savedKey === undefined) delete process.env.MCP_REQUEST_STATE_KEY;
  else process.env.MCP_REQUEST_STATE_KEY = savedKey;
  await rm(root, { recursive: true, force: true });
});

const read = (which: 'original' | 'migrated', name: string) => readFile(path.join(root, which, name), 'utf8');
const load = async <T>(which: 'original' | 'migrated', file: string) => (await import(pathToFileURL(path.join(root, which, file)).href)) as T;

async function run(which: 'original' | 'migrated', era: 'modern' | 'legacy'): Promise<Recording & { work: string[]; marks: string[] }> {
  const { createServer } = await load<ServerModule>(which, 'src/server.ts');
  const { Meter } = await load<PressModule>(which, 'src/press.ts');
  const work: string[] = [];
  const meter = new Meter();
  const recording = await runCalls(() => createServer(work, meter), era, CALLS, script());
  return { ...recording, work, marks: meter.marks };
}

describe('a dispatch inside a per-round bracket', () => {
  it('migrates the asking command, keeps the bracket around the dispatch and names its calls among what runs again', async () => {
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/press.ts', 'migrated', undefined]]);
    const press = await read('migrated', 'src/press.ts');
    expect(press).toContain(
      '    const stop = meter.begin(command.name);\n' +
        '    const label = `[${command.name}]`;\n' +
        '    try {\n' +
        '      const receipt = await command.run(input, ctx);\n' +
        '      if (isInputRequiredResult(receipt)) return receipt;\n',
    );
    expect(press).toContain('    } finally {\n      stop();\n    }\n');
    expect(press).not.toContain('@mrtr-todo');
    const rerun = result.sites.flatMap((s) => s.rerun ?? []);
    expect(rerun.map((c) => [c.text, c.line, c.why])).toEqual([
      ['meter.begin(command.name)', 70, 'bracket'],
      ['stop()', 78, 'bracket'],
    ]);
    expect(formatSummary(result, { dryRun: false })).toContain('line 70: meter.begin(command.name) (a per-round bracket');
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = (which: string) => ['src/press.ts', 'src/server.ts'].map((f) => path.join(root, which, f));
    expect(typecheck(files('original'))).toEqual([]);
    expect(typecheck([...files('migrated'), path.join(root, 'migrated', 'src/mrtr-request-state.ts')])).toEqual([]);
    const again = await runCodemod({ paths: ['src'], write: false, cwd: path.join(root, 'migrated') });
    expect(again.errors).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('gives the same results, asks the same questions, does its work once and closes each round it opens, on both eras', async () => {
    const original = await run('original', 'legacy');
    expect(original.results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      '[print]: Printed 3 pages.',
      '[print]: Held 9 pages.',
      '[print]: Printed 2 pages.',
      '[ink]: Ink at 80%.',
    ]);
    expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual(['Print 3 pages?', 'Print 9 pages?']);
    expect(original.work).toEqual(['print:3', 'print:2', 'ink']);
    expect(original.marks).toEqual(['begin:print', 'end:print', 'begin:print', 'end:print', 'begin:print', 'end:print', 'begin:ink', 'end:ink']);
    for (const era of ['modern', 'legacy'] as const) {
      const again = await run('migrated', era);
      expect({ era, results: again.results, questions: again.questions, work: again.work }).toEqual({
        era,
        results: original.results,
        questions: original.questions,
        work: original.work,
      });
      // Each round of a call that asks opens and closes its own meter: two rounds, two brackets.
      expect({ era, marks: again.marks }).toEqual({
        era,
        marks: [
          ...['begin:print', 'end:print', 'begin:print', 'end:print'],
          ...['begin:print', 'end:print', 'begin:print', 'end:print'],
          ...['begin:print', 'end:print', 'begin:ink', 'end:ink'],
        ],
      });
    }
  });
});

describe('a bracket that is not one round’s own', () => {
  it.each([
    [
      'its release read elsewhere',
      '      const receipt = await command.run(input);',
      '      const receipt = await command.run(input);\n      if (receipt.text === "") stop();',
      '`const stop = meter.begin(command.name)` (line 70)',
    ],
    ['a finally that does more', '      stop();\n', '      stop();\n      console.error(label);\n', '`console.error(label)` (line 79)'],
  ])('is left as it was, with %s named by the markers and its line', async (_name, from, to, named) => {
    const dir = checkoutScratch('dispatch-bracket-refused-');
    try {
      await putFile(dir, 'src/press.ts', PRESS.replace(from, to));
      await putFile(dir, 'src/server.ts', SERVER);
      const refused = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      expect(refused.errors).toEqual([]);
      expect(refused.sites.map((s) => [s.status, s.code])).toEqual([
        ['marked', 'in-helper'],
        ['marked', 'via-helper'],
      ]);
      const reasons = refused.sites.map((s) => `${s.reason} ${s.next}`).join('\n');
      expect(reasons).toContain('`command.run(…)`');
      expect(reasons).toContain(named);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
