// A server whose tool asks through an asker class that a folder's index module re-exports
// (`export * from './asker.js'`): the tool takes a glaze from its arguments or asks for one, then
// takes a firing schedule from its arguments or asks for it, two methods that may answer without
// asking, in a row. Migrated by the engine, the class's methods are split where they are (their
// class keeps its name, so the re-export still reaches their halves) and the tool asks through
// them, importing from the index as before; run through the real client, the migrated server
// gives the original's results, asks its questions and does its work once each, on both eras.
// The same asker called from commands that a tool handler of another module dispatches to
// through their base class stays whole, and its markers name the command's method that calls it.
import { rm } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { migratedPair } from './support/migrated-pair.ts';
import { runCalls, type ClientScript, type Recording, type ToolCall } from './support/harness.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

const ASKER = `import type { McpServer } from '@modelcontextprotocol/server';

export type Glaze = 'matte' | 'gloss';

export interface Schedule {
  cone: number;
  hours: number;
}

export class FiringAsker {
  constructor(private server?: McpServer) {}

  private requireServer(): McpServer {
    if (!this.server) throw new Error('no server to ask through');
    return this.server;
  }

  glazeFrom(args: Record<string, unknown>): Glaze | null {
    return args.glaze === 'matte' || args.glaze === 'gloss' ? args.glaze : null;
  }

  async askGlaze(): Promise<Glaze> {
    const server = this.requireServer();
    const result = await server.server.elicitInput({
      message: 'Which glaze?',
      requestedSchema: { type: 'object', properties: { glaze: { type: 'string', enum: ['matte', 'gloss'] } }, required: ['glaze'] },
    });
    if (result.action !== 'accept' || !result.content) {
      throw new Error('A glaze is required');
    }
    return result.content.glaze === 'gloss' ? 'gloss' : 'matte';
  }

  async askSchedule(args: Record<string, unknown>): Promise<Schedule> {
    if (typeof args.cone === 'number' && typeof args.hours === 'number') {
      return { cone: args.cone, hours: args.hours };
    }
    const server = this.requireServer();
    const result = await server.server.elicitInput({
      message: 'Which cone, for how many hours?',
      requestedSchema: { type: 'object', properties: { cone: { type: 'number' }, hours: { type: 'number' } }, required: ['cone', 'hours'] },
    });
    if (result.action !== 'accept' || !result.content) {
      throw new Error('A schedule is required');
    }
    return { cone: Number(result.content.cone), hours: Number(result.content.hours) };
  }
}
`;

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "kiln", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerKilnTools } from './tools/kiln.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'kiln', version: '1.0.0' });
  registerKilnTools(server, log);
  return server;
}
`,
  'src/firing/asker.ts': ASKER,
  'src/firing/index.ts': "export * from './asker.js';\n",
  'src/tools/kiln.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { FiringAsker } from '../firing/index.js';

export function registerKilnTools(server: McpServer, log: string[]): void {
  const asker = new FiringAsker(server);
  const input = z.object({ glaze: z.string().optional(), cone: z.number().optional(), hours: z.number().optional() });
  server.registerTool('fire', { inputSchema: input }, async (args) => {
    let glaze = asker.glazeFrom(args);
    if (!glaze) {
      glaze = await asker.askGlaze();
    }
    const schedule = await asker.askSchedule(args);
    log.push(\`fire:\${glaze}:\${schedule.cone}:\${schedule.hours}\`);
    return { content: [{ type: 'text', text: \`Fired \${glaze} at cone \${schedule.cone} for \${schedule.hours}h.\` }] };
  });
}
`,
};

/** Nothing to ask, both questions, the schedule only, and a glaze declined. */
const CALLS: ToolCall[] = [
  { name: 'fire', arguments: { glaze: 'gloss', cone: 6, hours: 8 } },
  { name: 'fire', arguments: {} },
  { name: 'fire', arguments: { glaze: 'matte' } },
  { name: 'fire', arguments: { cone: 1, hours: 2 } },
];

/** The first glaze question is answered, the second declined; every schedule question is answered. */
const script = (): ClientScript => {
  let glazes = 0;
  return {
    elicit: (params) => {
      if (String(params.message) === 'Which glaze?') return ++glazes === 1 ? { action: 'accept', content: { glaze: 'gloss' } } : { action: 'decline' };
      return { action: 'accept', content: { cone: 10, hours: 12 } };
    },
  };
};

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('barrel-class-', PROJECT);
const { read, load } = pair;
const texts = (r: Recording) => r.results.map((x) => (x as { content: Array<{ text: string }> }).content[0]!.text);

async function run(which: 'original' | 'migrated', era: 'modern' | 'legacy'): Promise<Recording & { log: string[] }> {
  const { createServer } = await load(which);
  const log: string[] = [];
  const recording = await runCalls(() => createServer(log), era, CALLS, script());
  return { ...recording, log };
}

describe('a class of asking methods re-exported by an index module', () => {
  it('is split where it is, and the tool asks through its halves imported from the index as before', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/firing/asker.ts', 24, 'migrated', undefined],
      ['src/firing/asker.ts', 39, 'migrated', undefined],
    ]);
    expect(await read('migrated', 'src/firing/index.ts')).toBe("export * from './asker.js';\n");
    const asker = await read('migrated', 'src/firing/asker.ts');
    expect(asker).toContain('  async askGlazeRequest(): Promise<{ ask: InputRequest } | { value: Glaze }> {\n    this.requireServer();\n');
    expect(asker).toContain(
      '  async askScheduleRequest(args: Record<string, unknown>): Promise<{ ask: InputRequest } | { value: Schedule }> {\n' +
        "    if (typeof args.cone === 'number' && typeof args.hours === 'number') {\n" +
        '      return { value: { cone: args.cone, hours: args.hours } };\n',
    );
    expect(asker).toContain('  askScheduleResult(result: ElicitResult): Schedule {\n');
    const kiln = await read('migrated', 'src/tools/kiln.ts');
    expect(kiln).toContain("import { FiringAsker, type Glaze } from '../firing/index.js';\n");
    expect(kiln).toContain(
      [
        '      if (mrtr.step === undefined) {',
        '        const mrtrOutcome = await asker.askGlazeRequest();',
        "        if ('ask' in mrtrOutcome) return mrtr.ask('glaze', { glaze }, { glaze: mrtrOutcome.ask });",
        "        mrtr.decided('glaze', { glaze }, { glaze: mrtrOutcome.value });",
        '      }',
        "      const mrtrAnswer = mrtr.value('glaze', 'elicit', (answer: ElicitResult) => asker.askGlazeResult(answer));",
        '      if (mrtrAnswer === undefined) return mrtr.askAgain();',
        '      glaze = mrtrAnswer.value;',
        '    }',
        "    if (mrtr.step !== 'schedule') {",
        '      const mrtrOutcome2 = await asker.askScheduleRequest(args);',
        "      if ('ask' in mrtrOutcome2) return mrtr.ask('schedule', { glaze }, { schedule: mrtrOutcome2.ask });",
        "      mrtr.decided('schedule', { glaze }, { schedule: mrtrOutcome2.value });",
        '    }',
        "    const mrtrAnswer = mrtr.value('schedule', 'elicit', (answer: ElicitResult) => asker.askScheduleResult(answer));",
        '    if (mrtrAnswer === undefined) return mrtr.askAgain();',
        '    const schedule = mrtrAnswer.value;',
      ].join('\n'),
    );
    for (const file of [asker, kiln]) expect(file).not.toMatch(/@mrtr-todo/);
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(Object.keys(PROJECT).filter((f) => f.endsWith('.ts')))).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('gives the same results, asks the same questions and fires once per call, on both eras', async () => {
    const original = await run('original', 'legacy');
    expect(texts(original)).toEqual([
      'Fired gloss at cone 6 for 8h.',
      'Fired gloss at cone 10 for 12h.',
      'Fired matte at cone 10 for 12h.',
      'A glaze is required',
    ]);
    expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual([
      'Which glaze?',
      'Which cone, for how many hours?',
      'Which cone, for how many hours?',
      'Which glaze?',
    ]);
    expect(original.log).toEqual(['fire:gloss:6:8', 'fire:gloss:10:12', 'fire:matte:10:12']);
    for (const era of ['modern', 'legacy'] as const) {
      const again = await run('migrated', era);
      expect({ era, results: again.results, questions: again.questions, log: again.log }).toEqual({
        era,
        results: original.results,
        questions: original.questions,
        log: original.log,
      });
    }
  });
});

/** The asker called from a command class of its own module, which a tool handler elsewhere dispatches to through the commands' base class. */
const DISPATCHED: Record<string, string> = {
  'src/commands/base.ts': `export interface Outcome {
  ok: boolean;
  text: string;
}

export abstract class BaseCommand {
  abstract name: string;

  constructor(protected readonly log: string[]) {}

  abstract execute(args: Record<string, unknown>): Promise<Outcome>;
}
`,
  'src/commands/fire.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import { FiringAsker } from '../firing/index.js';
import { BaseCommand, type Outcome } from './base.js';

export class FireCommand extends BaseCommand {
  name = 'fire';
  private asker: FiringAsker;

  constructor(log: string[], server: McpServer) {
    super(log);
    this.asker = new FiringAsker(server);
  }

  async execute(args: Record<string, unknown>): Promise<Outcome> {
    const glaze = this.asker.glazeFrom(args) ?? (await this.asker.askGlaze());
    const schedule = await this.asker.askSchedule(args);
    this.log.push(\`fire:\${glaze}:\${schedule.cone}\`);
    return { ok: true, text: \`Fired \${glaze}.\` };
  }
}
`,
  'src/commands/index.ts': "export * from './base.js';\nexport * from './fire.js';\n",
  'src/tools/kiln.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { FireCommand, type BaseCommand } from '../commands/index.js';

function registerCommand(server: McpServer, command: BaseCommand): void {
  server.registerTool(command.name, { inputSchema: z.object({ glaze: z.string().optional() }) }, async (args) => {
    const outcome = await command.execute(args);
    return { content: [{ type: 'text', text: outcome.text }], isError: !outcome.ok };
  });
}

export function registerKilnTools(server: McpServer, log: string[]): void {
  registerCommand(server, new FireCommand(log, server));
}
`,
};

describe('the same class called from commands a handler of another module dispatches to', () => {
  it('stays whole, and each marker names the command method that calls it and its line', async () => {
    const dir = checkoutScratch('barrel-class-dispatched-');
    try {
      for (const [file, text] of Object.entries({ ...PROJECT, ...DISPATCHED })) await putFile(dir, file, text);
      const refused = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      expect(refused.errors).toEqual([]);
      expect(refused.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
        ['src/firing/asker.ts', 24, 'marked', 'in-helper'],
        ['src/firing/asker.ts', 39, 'marked', 'in-helper'],
      ]);
      const [glaze, schedule] = refused.sites;
      expect(glaze!.marker).toBe('no handler calls `FireCommand.execute()` (fire.ts:15) on its class — have one do so, then run again');
      expect(schedule!.marker).toBe('no handler calls `FireCommand.execute()` (fire.ts:16) on its class — have one do so, then run again');
      expect(glaze!.reason).toContain('a call through an interface or a base class of another module is not followed');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
