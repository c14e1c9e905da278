// A server whose tools are task objects that a registrar of their own module registers in a loop,
// through an interface a types module declares (`task.run(args, signal)`, `task: Task`). The
// tasks extend an abstract base class of a third module; the plant task of a fourth asks through
// an asker class of a fifth, twice in a row, its second question chosen by the first answer (a
// tree's species or the flowers' color), and asks nothing when the call says enough. Migrated by
// the engine, the plant task's `run` becomes the resumable part of the registrar's handler across
// the modules: the handler hands it the context and returns its question, and the interface and
// the abstract declaration take the context and may return a question. Run through the real
// client, the migrated server gives the original's results, asks its questions and does its work
// once each, on both eras, opening and closing its per-round bracket on each round; the reports
// list the bracket's calls among what runs again, at the helper the task first asks through.
import { rm } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';
import { runCalls, type ClientScript, type Recording, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';
const TYPES = `export interface TaskResult {
  ok: boolean;
  text: string;
}

export interface TaskRunner {
  /** \`signal\` aborts the work when the client cancels the call. */
  run(input: Record<string, unknown>, signal?: AbortSignal): Promise<TaskResult>;
}

export interface TaskInfo {
  name: string;
  description: string;
}

export interface Task extends TaskRunner, TaskInfo {
  summary(): string;
}
`;
const BASE = `import { Task, TaskResult } from '../types.js';

export abstract class BaseTask implements Task {
  abstract name: string;
  abstract description: string;

  constructor(protected readonly log: string[]) {}

  abstract run(input: Record<string, unknown>): Promise<TaskResult>;

  summary(): string {
    return \`\${this.name}: \${this.description}\`;
  }

  protected done(text: string): TaskResult {
    this.log.push(text);
    return { ok: true, text };
  }
}
`;
const ASKER = `import { McpServer } from '@modelcontextprotocol/server';

export type Kind = 'tree' | 'flower';

export interface TreeChoice {
  species: string;
}

export interface FlowerChoice {
  color: string;
  count: number;
}

export class GardenAsker {
  constructor(private server?: McpServer) {}

  private requireServer(): McpServer {
    if (!this.server) throw new Error('no server to ask through');
    return this.server;
  }

  async askKind(): Promise<Kind> {
    const server = this.requireServer();
    const answer = await server.server.elicitInput({
      message: 'What should be planted?',
      requestedSchema: { type: 'object', properties: { kind: { type: 'string', enum: ['tree', 'flower'] } }, required: ['kind'] },
    });
    if (answer.action !== 'accept' || !answer.content) throw new Error('A kind is required');
    return answer.content.kind === 'flower' ? 'flower' : 'tree';
  }

  async askTree(input: Record<string, unknown>): Promise<TreeChoice> {
    if (typeof input.species === 'string') return { species: input.species };
    const server = this.requireServer();
    const answer = await server.server.elicitInput({
      message: 'Which tree?',
      requestedSchema: { type: 'object', properties: { species: { type: 'string' } }, required: ['species'] },
    });
    if (answer.action !== 'accept' || typeof answer.content?.species !== 'string') throw new Error('A species is required');
    return { species: answer.content.species };
  }

  async askFlower(input: Record<string, unknown>): Promise<FlowerChoice> {
    const count = typeof input.count === 'number' ? input.count : 1;
    const server = this.requireServer();
    const answer = await server.server.elicitInput({
      message: \`Which color for \${count} flower(s)?\`,
      requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
    });
    if (answer.action !== 'accept' || typeof answer.content?.color !== 'string') throw new Error('A color is required');
    return { color: answer.content.color, count };
  }
}
`;
const PLANT = `import { McpServer } from '@modelcontextprotocol/server';
import { TaskResult } from '../types.js';
import { BaseTask } from './base.js';
import { GardenAsker, Kind } from './asker.js';

export class PlantTask extends BaseTask {
  name = 'plant';
  description = 'Plant a tree or flowers';
  private asker: GardenAsker;

  constructor(log: string[], server: McpServer) {
    super(log);
    this.asker = new GardenAsker(server);
  }

  private kindOf(input: Record<string, unknown>): Kind | null {
    if (input.kind === 'tree' || input.kind === 'flower') return input.kind;
    return typeof input.species === 'string' ? 'tree' : null;
  }

  async run(input: Record<string, unknown>): Promise<TaskResult> {
    try {
      let kind = this.kindOf(input);
      if (!kind) {
        kind = await this.asker.askKind();
      }
      if (kind === 'tree') {
        const tree = await this.asker.askTree(input);
        return this.done(\`planted a \${tree.species}\`);
      }
      const flowers = await this.asker.askFlower(input);
      return this.done(\`planted \${flowers.count} \${flowers.color} flower(s)\`);
    } catch (error) {
      return { ok: false, text: (error as Error).message };
    }
  }
}
`;
const WATER = `import { TaskResult } from '../types.js';
import { BaseTask } from './base.js';

export class WaterTask extends BaseTask {
  name = 'water';
  description = 'Water the garden';

  async run(input: Record<string, unknown>, signal?: AbortSignal): Promise<TaskResult> {
    if (signal?.aborted) return { ok: false, text: 'cancelled' };
    return this.done(\`watered \${typeof input.litres === 'number' ? input.litres : 1} litre(s)\`);
  }
}
`;
const REGISTRAR = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { Task } from './types.js';

export class Registrar {
  constructor(
    private readonly server: McpServer,
    private readonly rounds: string[],
  ) {}

  registerAll(tasks: Task[]): void {
    for (const task of tasks) this.registerTask(task);
  }

  private open(task: Task): () => void {
    this.rounds.push(\`open:\${task.name}\`);
    return () => this.rounds.push(\`close:\${task.name}\`);
  }

  private registerTask(task: Task): void {
    this.server.registerTool(
      task.name,
      { description: task.summary(), inputSchema: z.object({}).catchall(z.unknown()) },
      async (args: Record<string, unknown>, extra: unknown) => {
        const close = this.open(task);
        const signal = (extra as { signal?: AbortSignal } | undefined)?.signal;
        try {
          const result = await task.run(args, signal);
          return { content: [{ type: 'text' as const, text: result.text }], isError: !result.ok };
        } finally {
          close();
        }
      },
    );
  }
}
`;
const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { Registrar } from './registrar.js';
import { PlantTask } from './tasks/plant.js';
import { WaterTask } from './tasks/water.js';

export function createServer(log: string[], rounds: string[] = []): McpServer {
  const server = new McpServer({ name: 'garden', version: '1.0.0' });
  new Registrar(server, rounds).registerAll([new PlantTask(log, server), new WaterTask(log)]);
  return server;
}
`;
// What the migration makes of the modules on the way, read line by line.
const MIGRATED_TYPES = `import { type ServerContext, type InputRequiredResult } from '@modelcontextprotocol/server';
export interface TaskResult {
  ok: boolean;
  text: string;
}

export interface TaskRunner {
  /** \`signal\` aborts the work when the client cancels the call. */
  run(input: Record<string, unknown>, signal?: AbortSignal, ctx?: ServerContext): Promise<TaskResult | InputRequiredResult>;
}

export interface TaskInfo {
  name: string;
  description: string;
}

export interface Task extends TaskRunner, TaskInfo {
  summary(): string;
}
`;
const MIGRATED_BASE = `import { Task, TaskResult } from '../types.js';
import { type ServerContext, type InputRequiredResult } from '@modelcontextprotocol/server';

export abstract class BaseTask implements Task {
  abstract name: string;
  abstract description: string;

  constructor(protected readonly log: string[]) {}

  abstract run(input: Record<string, unknown>, _signal?: AbortSignal, ctx?: ServerContext): Promise<TaskResult | InputRequiredResult>;

  summary(): string {
    return \`\${this.name}: \${this.description}\`;
  }

  protected done(text: string): TaskResult {
    this.log.push(text);
    return { ok: true, text };
  }
}
`;
const MIGRATED_PLANT = `import {
  McpServer,
  type ServerContext,
  type InputRequiredResult,
  type ElicitResult,
} from '@modelcontextprotocol/server';
import { TaskResult } from '../types.js';
import { BaseTask } from './base.js';
import { GardenAsker, Kind } from './asker.js';
import { mrtrResume } from '../mrtr-request-state.js';

export class PlantTask extends BaseTask {
  name = 'plant';
  description = 'Plant a tree or flowers';
  private asker: GardenAsker;

  constructor(log: string[], server: McpServer) {
    super(log);
    this.asker = new GardenAsker(server);
  }

  private kindOf(input: Record<string, unknown>): Kind | null {
    if (input.kind === 'tree' || input.kind === 'flower') return input.kind;
    return typeof input.species === 'string' ? 'tree' : null;
  }

  async run(input: Record<string, unknown>, _signal: AbortSignal | undefined, ctx: ServerContext): Promise<TaskResult | InputRequiredResult> {
    const mrtr = await mrtrResume(ctx, \`tool:\${this.name}\`, ['kind', 'tree', 'flowers'], input);
    if (mrtr.refused) return mrtr.refused;
    try {
      let kind = mrtr.step === 'kind' || mrtr.step === 'tree' || mrtr.step === 'flowers' ? mrtr.locals<{ kind: Kind | null }>().kind : this.kindOf(input);
      if (mrtr.step === 'kind' || (mrtr.step === undefined && !kind)) {
        if (mrtr.step === undefined) {
          const mrtrOutcome = await this.asker.askKindRequest();
          if ('ask' in mrtrOutcome) return mrtr.ask('kind', { kind }, { kind: mrtrOutcome.ask });
          mrtr.decided('kind', { kind }, { kind: mrtrOutcome.value });
        }
        const mrtrAnswer = mrtr.value('kind', 'elicit', (answer: ElicitResult) => this.asker.askKindResult(answer));
        if (mrtrAnswer === undefined) return mrtr.askAgain();
        kind = mrtrAnswer.value;
      }
      if (mrtr.step === 'tree' || (mrtr.step !== 'flowers' && kind === 'tree')) {
        if (mrtr.step !== 'tree') {
          const mrtrOutcome2 = await this.asker.askTreeRequest(input);
          if ('ask' in mrtrOutcome2) return mrtr.ask('tree', { kind }, { tree: mrtrOutcome2.ask });
          mrtr.decided('tree', { kind }, { tree: mrtrOutcome2.value });
        }
        const mrtrAnswer = mrtr.value('tree', 'elicit', (answer: ElicitResult) => this.asker.askTreeResult(answer));
        if (mrtrAnswer === undefined) return mrtr.askAgain();
        const tree = mrtrAnswer.value;
        return this.done(\`planted a \${tree.species}\`);
      }
      if (mrtr.step !== 'flowers') {
        const mrtrOutcome3 = await this.asker.askFlowerRequest(input);
        if ('ask' in mrtrOutcome3) return mrtr.ask('flowers', { kind }, { flowers: mrtrOutcome3.ask });
        mrtr.decided('flowers', { kind }, { flowers: mrtrOutcome3.value });
      }
      const mrtrAnswer = mrtr.value('flowers', 'elicit', (answer: ElicitResult) => this.asker.askFlowerResult(answer, input));
      if (mrtrAnswer === undefined) return mrtr.askAgain();
      const flowers = mrtrAnswer.value;
      return this.done(\`planted \${flowers.count} \${flowers.color} flower(s)\`);
    } catch (error) {
      return { ok: false, text: (error as Error).message };
    }
  }
}
`;
const MIGRATED_REGISTRAR = `import { McpServer, isInputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { Task } from './types.js';

export class Registrar {
  constructor(
    private readonly server: McpServer,
    private readonly rounds: string[],
  ) {}

  registerAll(tasks: Task[]): void {
    for (const task of tasks) this.registerTask(task);
  }

  private open(task: Task): () => void {
    this.rounds.push(\`open:\${task.name}\`);
    return () => this.rounds.push(\`close:\${task.name}\`);
  }

  private registerTask(task: Task): void {
    this.server.registerTool(
      task.name,
      { description: task.summary(), inputSchema: z.object({}).catchall(z.unknown()) },
      async (args: Record<string, unknown>, extra: ServerContext) => {
        const close = this.open(task);
        const signal = (extra as { signal?: AbortSignal } | undefined)?.signal;
        try {
          const result = await task.run(args, signal, extra);
          if (isInputRequiredResult(result)) return result;
          return { content: [{ type: 'text' as const, text: result.text }], isError: !result.ok };
        } finally {
          close();
        }
      },
    );
  }
}
`;

type ServerModule = { createServer(log: string[], rounds: string[]): McpServer };

const CALLS: ToolCall[] = [
  { name: 'plant', arguments: {} },
  { name: 'plant', arguments: { kind: 'flower', count: 3 } },
  { name: 'plant', arguments: { species: 'elm' } },
  { name: 'plant', arguments: {} },
  { name: 'water', arguments: { litres: 2 } },
];

// The first "what" is answered with a tree, the second with flowers; one flower gets no color.
const script = (): ClientScript => {
  let kinds = 0;
  return {
    elicit: (params) => {
      const message = String(params.message);
      if (message === 'What should be planted?') return { action: 'accept', content: { kind: kinds++ === 0 ? 'tree' : 'flower' } };
      if (message === 'Which tree?') return { action: 'accept', content: { species: 'oak' } };
      return message.includes(' 3 ') ? { action: 'accept', content: { color: 'red' } } : { action: 'decline' };
    },
  };
};

const PROJECT: Record<string, string> = {
  'src/types.ts': TYPES,
  'src/tasks/base.ts': BASE,
  'src/tasks/asker.ts': ASKER,
  'src/tasks/plant.ts': PLANT,
  'src/tasks/water.ts': WATER,
  'src/registrar.ts': REGISTRAR,
  'src/server.ts': SERVER,
};

const pair = migratedPair<ServerModule>('dispatch-across-', {
  'package.json': '{ "name": "garden", "private": true, "type": "module" }\n',
  ...PROJECT,
});
const { read, load } = pair;
const FILES = ['src/types.ts', 'src/tasks/base.ts', 'src/tasks/asker.ts', 'src/tasks/plant.ts', 'src/tasks/water.ts', 'src/registrar.ts', 'src/server.ts'];

async function run(which: 'original' | 'migrated', era: 'modern' | 'legacy'): Promise<Recording & { log: string[]; rounds: string[] }> {
  const { createServer } = await load(which);
  const log: string[] = [];
  const rounds: string[] = [];
  const recording = await runCalls(() => createServer(log, rounds), era, CALLS, script());
  return { ...recording, log, rounds };
}

const texts = (r: Recording) => r.results.map((x) => (x as { content: Array<{ text: string }> }).content[0]!.text);

describe('a task dispatched to across modules, through an interface and a base class', () => {
  it("migrates the asking task as the handler's resumable part, and its chain takes the context", async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/tasks/asker.ts', 24, 'migrated', undefined],
      ['src/tasks/asker.ts', 35, 'migrated', undefined],
      ['src/tasks/asker.ts', 46, 'migrated', undefined],
    ]);
    expect(await read('migrated', 'src/registrar.ts')).toBe(MIGRATED_REGISTRAR);
    expect(await read('migrated', 'src/types.ts')).toBe(MIGRATED_TYPES);
    expect(await read('migrated', 'src/tasks/base.ts')).toBe(MIGRATED_BASE);
    expect(await read('migrated', 'src/tasks/plant.ts')).toBe(MIGRATED_PLANT);
    // The task that asks nothing is what it was.
    expect(await read('migrated', 'src/tasks/water.ts')).toBe(WATER);
    // The registrar's per-round bracket runs on each round: its calls are listed among what runs
    // again, at the first helper the task asks through, where its question is counted.
    expect(REGISTRAR.split('\n')[24]).toBe('        const close = this.open(task);');
    expect(REGISTRAR.split('\n')[30]).toBe('          close();');
    expect(pair.result.sites.map((s) => [s.handler, (s.rerun ?? []).map((c) => [c.file, c.line, c.text, c.why])])).toEqual([
      [
        'helper:askKind',
        [
          ['src/registrar.ts', 25, 'this.open(task)', 'bracket'],
          ['src/registrar.ts', 31, 'close()', 'bracket'],
        ],
      ],
      ['helper:askTree', []],
      ['helper:askFlower', []],
    ]);
  });

  it('typechecks, and a second run changes nothing', async () => {
    const settled = await pair.settled(FILES);
    expect(settled.original).toEqual([]);
    expect(settled.migrated).toEqual([]);
    expect(settled.errors).toEqual([]);
    expect(settled.changed).toEqual([]);
  });

  it('gives the same results, asks the same questions, does its work once and brackets each round, on both eras', async () => {
    const original = await run('original', 'legacy');
    expect(texts(original)).toEqual(['planted a oak', 'planted 3 red flower(s)', 'planted a elm', 'A color is required', 'watered 2 litre(s)']);
    expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual([
      'What should be planted?',
      'Which tree?',
      'Which color for 3 flower(s)?',
      'What should be planted?',
      'Which color for 1 flower(s)?',
    ]);
    expect(original.log).toEqual(['planted a oak', 'planted 3 red flower(s)', 'planted a elm', 'watered 2 litre(s)']);
    const once = (name: string) => [`open:${name}`, `close:${name}`];
    expect(original.rounds).toEqual([...once('plant'), ...once('plant'), ...once('plant'), ...once('plant'), ...once('water')]);
    for (const era of ['modern', 'legacy'] as const) {
      const again = await run('migrated', era);
      expect({ era, results: again.results, questions: again.questions, log: again.log }).toEqual({
        era,
        results: original.results,
        questions: original.questions,
        log: original.log,
      });
      // One round per question, and the last: three, two, one and three rounds of plant.
      const plant = once('plant');
      expect({ era, rounds: again.rounds }).toEqual({ era, rounds: [...Array(9).fill(plant).flat(), ...once('water')] });
    }
  });
});

describe('a direct call of the dispatched method in a module the migration changes', () => {
  // A tool of the server module asks, above the direct call: its migration adds lines there.
  const ASKING = `server.registerTool('prune', { inputSchema: z.object({ bed: z.string() }) }, async ({ bed }) => {
    const answer = await server.server.elicitInput({ message: \`Prune \${bed}?\`, requestedSchema: { type: 'object', properties: {} } });
    log.push(\`prune:\${bed}:\${answer.action}\`);
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;`;

  it('names the line the call is on in the text written', async () => {
    const server = `${SERVER.replace('import { Registrar }', "import * as z from 'zod/v4';\nimport { Registrar }").replace('  return server;', ASKING)}
export async function plantAsh(log: string[], server: McpServer) {
  const task = new PlantTask(log, server);
  return task.run({ species: 'ash' });
}
`;
    const dir = checkoutScratch('dispatch-across-moved-');
    try {
      await putFile(dir, 'package.json', '{ "name": "garden", "private": true, "type": "module" }\n');
      for (const [name, original] of Object.entries(PROJECT)) await putFile(dir, name, name === 'src/server.ts' ? server : original);
      const run = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      expect(run.errors).toEqual([]);
      const written = run.changed.find((c) => c.path === 'src/server.ts')!.output.split('\n');
      const line = written.findIndex((l) => l.includes("task.run({ species: 'ash' })")) + 1;
      expect(line).toBeGreaterThan(server.split('\n').findIndex((l) => l.includes("task.run({ species: 'ash' })")) + 1);
      const asker = run.sites.filter((s) => s.file === 'src/tasks/asker.ts');
      expect(asker.length).toBe(3);
      for (const site of asker) expect(site.reason).toContain(`it is also called on a \`PlantTask\` directly (server.ts:${line})`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a dispatch across modules that cannot be linked', () => {
  it.each([
    [
      'a base class that implements the method too',
      'src/tasks/base.ts',
      BASE.replace(
        '  abstract run(input: Record<string, unknown>): Promise<TaskResult>;',
        '  async run(input: Record<string, unknown>): Promise<TaskResult> {\n    return { ok: false, text: `${this.name} takes ${Object.keys(input).length} argument(s)` };\n  }',
      ),
      'the base class `BaseTask` implements `run()` too',
      'make `run()` abstract in `BaseTask`',
    ],
    [
      'a name the class changes',
      'src/tasks/plant.ts',
      PLANT.replace('  private kindOf', '  rename(name: string): void {\n    this.name = name;\n  }\n\n  private kindOf'),
      'its class may change its `name`',
      'make `name` readonly',
    ],
    [
      'a call of the method on its class',
      'src/server.ts',
      `${SERVER}\nexport async function plantAsh(log: string[], server: McpServer) {\n  const task = new PlantTask(log, server);\n  return task.run({ species: 'ash' });\n}\n`,
      'it is also called on a `PlantTask` directly (server.ts:14)',
      'call `run()` only through `Task`',
    ],
  ])('leaves everything as it was, with %s named by the markers', async (_name, file, text, why, fix) => {
    const dir = checkoutScratch('dispatch-across-refused-');
    try {
      await putFile(dir, 'package.json', '{ "name": "garden", "private": true, "type": "module" }\n');
      for (const [name, original] of Object.entries(PROJECT)) await putFile(dir, name, name === file ? text : original);
      const refused = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      expect(refused.errors).toEqual([]);
      // The asker gets the markers (and package.json the server package it names).
      expect(refused.changed.map((c) => c.path)).toEqual(['package.json', 'src/tasks/asker.ts']);
      expect(refused.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
        ['src/tasks/asker.ts', 24, 'marked', 'in-helper'],
        ['src/tasks/asker.ts', 35, 'marked', 'in-helper'],
        ['src/tasks/asker.ts', 46, 'marked', 'in-helper'],
      ]);
      for (const site of refused.sites) {
        expect(site.marker).toBe(`kept whole: \`PlantTask.run()\` is dispatched to from another module — ${fix}`);
        expect(site.reason).toContain(`the handler at src/registrar.ts:28 dispatches to \`PlantTask.run()\``);
        expect(site.reason).toContain(why);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
