// A server whose tools are print commands that one registering function dispatches to, inside a
// per-round bracket: the handler starts a meter for the command just before a `try` and stops it
// in the `finally`, and nothing else reads the meter's stop function. Only the print command asks,
// through a proofer it holds in a field: how many copies (not when the call says), then which
// tray, two helper questions in a row; the proofer is handed the server by a setter once it is
// built and asks through a private guard that throws while it has none. Migrated by the engine,
// the print command's `run` becomes the resumable part of the handler (two rounds, the copies
// carried), each helper's request half keeps the guard's call but not its unused local, and the
// bracket is left around the dispatch: each round starts and stops its own meter, and the
// summary names both calls among what runs again. Run through the real client, the migrated server gives the original's
// results, asks its questions and does its work once each, on both eras. A bracket whose release
// is read elsewhere, or a finally that does more, is refused with markers naming the statement.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { formatSummary } from '../src/report/summary.ts';
import { runCalls, type ClientScript, type Recording, type ToolCall } from './support/harness.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PRESS = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export interface Receipt {
  text: string;
}

export interface PressCommand {
  readonly name: string;
  run(input: { pages?: number; copies?: number }): Promise<Receipt>;
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

const COPIES = { type: 'object' as const, properties: { copies: { type: 'number' as const } }, required: ['copies'] };
const TRAY = { type: 'object' as const, properties: { tray: { type: 'string' as const } }, required: ['tray'] };

/** Asks through the server it is handed once built (setServer), never before. */
class Proofer {
  private server?: McpServer;

  setServer(server: McpServer): void {
    this.server = server;
  }

  private requireServer(): McpServer {
    if (!this.server) throw new Error('no server to ask through');
    return this.server;
  }

  async askCopies(pages: number, copies: number | undefined): Promise<number> {
    if (copies !== undefined) return copies;
    const server = this.requireServer();
    const answer = await server.server.elicitInput({ message: \`How many copies of \${pages} pages?\`, requestedSchema: COPIES });
    return answer.action === 'accept' && typeof answer.content?.copies === 'number' ? answer.content.copies : 0;
  }

  async pickTray(pages: number): Promise<string> {
    const server = this.requireServer();
    const answer = await server.server.elicitInput({ message: \`Which tray for \${pages} pages?\`, requestedSchema: TRAY });
    return answer.action === 'accept' && typeof answer.content?.tray === 'string' ? answer.content.tray : 'A';
  }
}

export class PrintCommand implements PressCommand {
  readonly name = 'print';
  private readonly proofer = new Proofer();

  constructor(private readonly work: string[]) {}

  setServer(server: McpServer): void {
    this.proofer.setServer(server);
  }

  async run(input: { pages?: number; copies?: number }): Promise<Receipt> {
    const pages = input.pages ?? 1;
    const copies = await this.proofer.askCopies(pages, input.copies);
    if (copies === 0) {
      return { text: \`Held \${pages} pages.\` };
    }
    const tray = await this.proofer.pickTray(pages);
    this.work.push(\`print:\${pages}x\${copies}:\${tray}\`);
    return { text: \`Printed \${copies} of \${pages} pages from tray \${tray}.\` };
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
  server.registerTool(command.name, { inputSchema: z.object({ pages: z.number().optional(), copies: z.number().optional() }) }, async (input) => {
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
  const print = new PrintCommand(work);
  print.setServer(server);
  for (const command of [print, new InkCommand(work)]) registerCommand(server, command, meter);
  return server;
}
`;

type ServerModule = { createServer(work: string[], meter: { marks: string[] }): McpServer };
type PressModule = { Meter: new () => { marks: string[] } };

const CALLS: ToolCall[] = [
  { name: 'print', arguments: { pages: 3 } },
  { name: 'print', arguments: { pages: 9 } },
  { name: 'print', arguments: { pages: 2, copies: 1 } },
  { name: 'ink', arguments: {} },
];

const script = (): ClientScript => ({
  elicit: (params) => {
    const message = String(params.message);
    if (message.startsWith('Which tray')) return { action: 'accept', content: { tray: 'B' } };
    return message.includes(' 3 pages') ? { action: 'accept', content: { copies: 2 } } : { action: 'decline' };
  },
});

const pair = migratedPair('dispatch-bracket-', {
  'package.json': '{ "name": "press", "private": true, "type": "module" }\n',
  'src/press.ts': PRESS,
  'src/server.ts': SERVER,
});
const { root, read, load } = pair;

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
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/press.ts', 44, 'migrated', undefined],
      ['src/press.ts', 50, 'migrated', undefined],
    ]);
    const press = await read('migrated', 'src/press.ts');
    expect(press).toContain(
      '    const stop = meter.begin(command.name);\n' +
        '    const label = `[${command.name}]`;\n' +
        '    try {\n' +
        '      const receipt = await command.run(input, ctx);\n' +
        '      if (isInputRequiredResult(receipt)) return receipt;\n',
    );
    expect(press).toContain('    } finally {\n      stop();\n    }\n');
    expect(press).toContain(
      '  async pickTrayRequest(pages: number): Promise<{ ask: InputRequest } | { value: string }> {\n    this.requireServer();\n    return { ask: inputRequired.elicit(',
    );
    expect(press).not.toContain('const server = this.requireServer()');
    expect(press).not.toContain('@mrtr-todo');
    const rerun = pair.result.sites.flatMap((s) => s.rerun ?? []);
    expect(rerun.map((c) => [c.text, c.line, c.why])).toEqual([
      ['meter.begin(command.name)', 90, 'bracket'],
      ['stop()', 98, 'bracket'],
    ]);
    expect(formatSummary(pair.result, { dryRun: false })).toContain('line 90: meter.begin(command.name) (a per-round bracket');
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
      '[print]: Printed 2 of 3 pages from tray B.',
      '[print]: Held 9 pages.',
      '[print]: Printed 1 of 2 pages from tray B.',
      '[ink]: Ink at 80%.',
    ]);
    expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual([
      'How many copies of 3 pages?',
      'Which tray for 3 pages?',
      'How many copies of 9 pages?',
      'Which tray for 2 pages?',
    ]);
    expect(original.work).toEqual(['print:3x2:B', 'print:2x1:B', 'ink']);
    expect(original.marks).toEqual(['begin:print', 'end:print', 'begin:print', 'end:print', 'begin:print', 'end:print', 'begin:ink', 'end:ink']);
    for (const era of ['modern', 'legacy'] as const) {
      const again = await run('migrated', era);
      expect({ era, results: again.results, questions: again.questions, work: again.work }).toEqual({
        era,
        results: original.results,
        questions: original.questions,
        work: original.work,
      });
      // Each round of a call opens and closes its own meter: three rounds for two questions.
      const round = ['begin:print', 'end:print'];
      expect({ era, marks: again.marks }).toEqual({
        era,
        marks: [...round, ...round, ...round, ...round, ...round, ...round, ...round, 'begin:ink', 'end:ink'],
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
      'const stop = meter.begin(command.name)',
      92,
    ],
    ['a finally that does more', '      stop();\n', '      stop();\n      console.error(label);\n', 'console.error(label)', 102],
  ])('is left as it was, with %s named by the markers and its line', async (_name, from, to, named, line) => {
    const dir = checkoutScratch('dispatch-bracket-refused-');
    try {
      await putFile(dir, 'src/press.ts', PRESS.replace(from, to));
      await putFile(dir, 'src/server.ts', SERVER);
      const refused = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      expect(refused.errors).toEqual([]);
      expect(refused.sites.map((s) => [s.status, s.code])).toEqual([
        ['marked', 'in-helper'],
        ['marked', 'via-helper'],
        ['marked', 'in-helper'],
        ['marked', 'via-helper'],
      ]);
      const reasons = refused.sites.map((s) => `${s.reason} ${s.next}`).join('\n');
      expect(reasons).toContain('`command.run(…)`');
      // At its line in the text written (the markers above the requests move it down).
      expect(reasons).toContain(`\`${named}\` (line ${line})`);
      expect(refused.changed.find((c) => c.path === 'src/press.ts')!.output.split('\n')[line - 1]).toContain(named);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
