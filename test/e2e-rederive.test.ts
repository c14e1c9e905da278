// End to end through the real SDK: servers whose code before a question only derives values
// (a bound copy of the legacy method, a Map read, fresh collections, module functions shown
// pure, calls declared idempotent), each legacy fixture run on the 2025 era against its
// migrated output on both eras. Same results, same questions, same side-effect log: what runs
// again on the retry does nothing the log sees. And what runs again is fresh: a change made to
// the stored object while the question is out is what the code after the question sees and
// changes, and a declared call runs once more on the retry. Last, a small project laid out the
// usual way (test/corpus/notes-tags), migrated by the engine and run the same way.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { runCodemod } from '../src/engine/run.ts';
import { CORPUS } from './support/corpus.ts';
import { importFixture } from './support/fixtures.ts';
import { runCalls, type ClientScript, type Recording, type ToolCall } from './support/harness.ts';
import { originalAndCopy } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

const accept = (content: Record<string, unknown>) => ({ action: 'accept' as const, content });
const ERAS = ['modern', 'legacy'] as const;

/** One run's world: the log, what the handlers read and change (`state`), and the server made over them from a fixture's module. */
interface Setup<S> {
  world: World;
  state: S;
  server(module: unknown): McpServer;
}

interface Outcome<S> {
  run: Recording;
  world: World;
  state: S;
}

/** Runs `calls` on the legacy input (2025 era) and on the migrated output (both eras), each on a fresh setup: the same results, questions and log. */
async function compare<S>(
  fixture: string,
  setup: () => Setup<S>,
  calls: ToolCall[],
  script: (state: S) => ClientScript,
): Promise<{ legacy: Outcome<S>; migrated: Array<Outcome<S>> }> {
  const [input, output] = await Promise.all([importFixture(fixture, 'input'), importFixture(fixture, 'output')]);
  const original = setup();
  const legacy = { run: await runCalls(() => original.server(input), 'legacy', calls, script(original.state)), world: original.world, state: original.state };
  const migrated: Array<Outcome<S>> = [];
  for (const era of ERAS) {
    const made = setup();
    const run = await runCalls(() => made.server(output), era, calls, script(made.state));
    expect(run.era).toBe(era);
    expect({ era, results: run.results }).toEqual({ era, results: legacy.run.results });
    expect({ era, questions: run.questions }).toEqual({ era, questions: legacy.run.questions });
    expect({ era, log: made.world.log }).toEqual({ era, log: legacy.world.log });
    migrated.push({ run, world: made.world, state: made.state });
  }
  return { legacy, migrated };
}

type WorldServer = { createServer(world: World): McpServer };

const worldOnly = (): Setup<undefined> => {
  const world = createWorld();
  return { world, state: undefined, server: (m) => (m as WorldServer).createServer(world) };
};

describe('a bound copy of the legacy method and its guard', () => {
  it('asks both steps and creates the event, on both eras', async () => {
    const script = () => ({
      elicit: (p: Record<string, unknown>) => (String(p.message).startsWith('Step 2') ? accept({ date: 'May 4' }) : accept({ title: 'Launch' })),
    });
    const { legacy } = await compare('rederive-bound-alias', worldOnly, [{ name: 'create_event' }, { name: 'register_user' }], script);
    expect(legacy.world.log).toEqual(['audit:event:{"title":"Launch","date":"May 4"}', 'audit:register:Launch']);
    expect(legacy.run.questions.map((q) => (q.params as { message: string }).message)).toEqual(['Step 1: the event', 'Step 2: the date', 'Your name?']);
  });
});

type Note = { title: string; tags: string[] };
type NotesServer = { createServer(world: World, notes: Map<string, Note>): McpServer };

describe('a note read from a Map, changed after the question', () => {
  const setup = (): Setup<Map<string, Note>> => {
    const world = createWorld();
    const state = new Map<string, Note>([['n1', { title: 'Groceries', tags: ['home'] }]]);
    return { world, state, server: (m) => (m as NotesServer).createServer(world, state) };
  };

  it('tags the stored note, on both eras', async () => {
    const { legacy, migrated } = await compare(
      'rederive-store-entry',
      setup,
      [
        { name: 'tag_note', arguments: { id: 'n1' } },
        { name: 'tag_note', arguments: { id: 'n9' } },
      ],
      () => ({ elicit: () => accept({ tag: 'urgent' }) }),
    );
    expect(legacy.world.log).toEqual(['audit:tag:n1:urgent']);
    for (const { state } of [legacy, ...migrated]) expect(state.get('n1')!.tags).toEqual(['home', 'urgent']);
  });

  it('reads the stored note as it is on the retry: a change made while the question is out is seen and kept', async () => {
    // While the user answers, another call renames the note (the same object, as the legacy handler holds it).
    const script = (state: Map<string, Note>) => ({
      elicit: () => {
        state.get('n1')!.title = 'Weekly groceries';
        return accept({ tag: 'urgent' });
      },
    });
    const { legacy, migrated } = await compare('rederive-store-entry', setup, [{ name: 'tag_note', arguments: { id: 'n1' } }], script);
    expect(legacy.run.results).toEqual([{ content: [{ type: 'text', text: 'Weekly groceries: home, urgent' }] }]);
    for (const { state } of migrated) expect(state.get('n1')).toEqual({ title: 'Weekly groceries', tags: ['home', 'urgent'] });
  });
});

describe('collections the handler makes itself', () => {
  it('makes them again on the retry and fills them as before, on both eras', async () => {
    const { legacy } = await compare(
      'rederive-fresh-collections',
      worldOnly,
      [{ name: 'plan_cleanup', arguments: { tables: ['Logs ', 'logs', 'users'] } }],
      () => ({ elicit: () => accept({ ok: true }) }),
    );
    expect(legacy.world.log).toEqual(['count:logs', 'count:users', 'audit:cleanup:logs=3,users=5']);
    expect(legacy.run.questions.map((q) => (q.params as { message: string }).message)).toEqual(['Clean logs, users?']);
  });
});

type Task = { id: string; title: string; priority: number };
type TasksServer = { createServer(world: World, tasks: Task[]): McpServer };

describe('module functions shown pure, an Array.find and an arrow function', () => {
  it('escalates the stored task, on both eras', async () => {
    const setup = (): Setup<Task[]> => {
      const world = createWorld();
      const state: Task[] = [{ id: 't1', title: ' Ship it ', priority: 1 }];
      return { world, state, server: (m) => (m as TasksServer).createServer(world, state) };
    };
    const { legacy, migrated } = await compare(
      'rederive-pure-helpers',
      setup,
      [
        { name: 'escalate', arguments: { id: 't1' } },
        { name: 'escalate', arguments: { id: 't2' } },
      ],
      () => ({ elicit: () => accept({ ok: true }) }),
    );
    expect(legacy.run.results[0]).toEqual({ content: [{ type: 'text', text: '[normal] Ship it is now high' }] });
    for (const { state } of [legacy, ...migrated]) expect(state[0]!.priority).toBe(2);
  });
});

type ArchiveServer = WorldServer & { runs: { opened: number; regions: number; quotas: number } };

describe('calls declared idempotent', () => {
  it('run again on the retry (each once more) and change nothing else, on both eras', async () => {
    const [input, output] = await Promise.all([
      importFixture<ArchiveServer>('rederive-idempotent', 'input'),
      importFixture<ArchiveServer>('rederive-idempotent', 'output'),
    ]);
    // Each run counts from zero: what a setup finds is what the run before it left.
    const finals: Array<ArchiveServer['runs']> = [];
    let counting: ArchiveServer | undefined;
    const setup = (): Setup<undefined> => {
      if (counting) finals.push({ ...counting.runs });
      counting = counting ? output : input;
      Object.assign(counting.runs, { opened: 0, regions: 0, quotas: 0 });
      return worldOnly();
    };
    const { legacy } = await compare('rederive-idempotent', setup, [{ name: 'archive_table', arguments: { table: 'eu_logs' } }], () => ({
      elicit: () => accept({ ok: true }),
    }));
    finals.push({ ...output.runs });
    expect(legacy.world.log).toEqual(['count:eu_logs', 'audit:archive:eu_logs:0:cold-store:eu-west:70']);
    // The legacy server ran each once; the migrated one, on each era, on the first call and again on the retry.
    expect(finals).toEqual([
      { opened: 1, regions: 1, quotas: 1 },
      { opened: 2, regions: 2, quotas: 2 },
      { opened: 2, regions: 2, quotas: 2 },
    ]);
  });
});

describe('a server laid out the usual way: built in src/server.ts, its tools registered in src/tools/*.ts', () => {
  const PROJECT = path.join(CORPUS, 'notes-tags');
  let dir: string;
  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (const entry of readdirSync(PROJECT, { recursive: true, withFileTypes: true }))
      if (entry.isFile())
        files[path.relative(PROJECT, path.join(entry.parentPath, entry.name))] = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    dir = await originalAndCopy('notes-tags-', files);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates every handler with no marker, and the tag lands on the stored note, on both eras', async () => {
    const migrated = path.join(dir, 'migrated');
    const result = await runCodemod({ paths: ['.'], cwd: migrated, write: true });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.handler, s.status, s.lifted, s.rederived])).toEqual([
      ['src/tools/notes.ts', 'tool:rename_note', 'migrated', [], ['note']],
      ['src/tools/notes.ts', 'tool:delete_note', 'migrated', [], ['note']],
      ['src/tools/tags.ts', 'tool:tag_note', 'migrated', [], ['note']],
    ]);
    const sources = ['src/server.ts', 'src/store.ts', 'src/tools/notes.ts', 'src/tools/tags.ts'].map((f) => path.join(migrated, f));
    expect(sources.some((f) => readFileSync(f, 'utf8').includes('@mrtr-todo'))).toBe(false);
    expect(typecheck(sources)).toEqual([]);

    type Project = { createServer(notes: Map<string, Note & { id: string }>): McpServer };
    type Store = { seedNotes(): Map<string, Note & { id: string }> };
    const load = async (which: string) => ({
      server: (await import(path.join(dir, which, 'src/server.ts'))) as Project,
      store: (await import(path.join(dir, which, 'src/store.ts'))) as Store,
    });
    const calls: ToolCall[] = [
      { name: 'tag_note', arguments: { id: 'n1' } },
      { name: 'rename_note', arguments: { id: 'n2' } },
      { name: 'delete_note', arguments: { id: 'n1' } },
    ];
    const script: ClientScript = {
      elicit: (p) => {
        const message = String(p.message);
        if (message.startsWith('Tag')) return accept({ tag: 'urgent' });
        return message.startsWith('New title') ? accept({ title: 'Q3 report' }) : { action: 'decline' };
      },
    };
    const original = await load('original');
    const legacyNotes = original.store.seedNotes();
    const legacy = await runCalls(() => original.server.createServer(legacyNotes), 'legacy', calls, script);
    expect(legacy.results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text)).toEqual(['Groceries: home, urgent', 'Q3 report', 'Kept.']);

    const after = await load('migrated');
    for (const era of ERAS) {
      const notes = after.store.seedNotes();
      const run = await runCalls(() => after.server.createServer(notes), era, calls, script);
      expect(run.era).toBe(era);
      expect({ era, results: run.results }).toEqual({ era, results: legacy.results });
      expect({ era, questions: run.questions }).toEqual({ era, questions: legacy.questions });
      expect({ era, notes: [...notes.values()] }).toEqual({ era, notes: [...legacyNotes.values()] });
      expect(notes.get('n1')!.tags).toEqual(['home', 'urgent']);
    }
  });
});
