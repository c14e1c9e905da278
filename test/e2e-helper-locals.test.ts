// End to end through the real SDK: helpers split although the code after their question reads
// locals set before it (fixtures/maybe-ask-helper-locals), and a helper called with an argument
// the handler derives. The legacy input runs on the 2025 era, the migrated output on both eras:
// the same results, questions and side-effect log. What the result half derives again is read
// on the retry: a preset changed while the question is out is what the code after it sees, as
// it was in the legacy server. The helpers the retry could not serve stay whole, their reasons
// naming the statement or the argument in the way, with its line.
import { readFileSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { transformSource, transformWithTypes } from '../src/transform.ts';
import { fixtureCases, importFixture } from './support/fixtures.ts';
import { runCalls, type ClientScript, type ToolCall } from './support/harness.ts';

type Preset = { owner: string; tier: string };
type Fixture = { createServer(world: World, presets: Map<string, Preset>): McpServer };

const ERAS = ['modern', 'legacy'] as const;
const accept = (content: Record<string, unknown>) => ({ action: 'accept' as const, content });
const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

/** What one run leaves: its results and questions, the log, and the presets as the run left them. */
async function run(
  which: 'input' | 'output',
  era: (typeof ERAS)[number] | 'legacy',
  calls: ToolCall[],
  script: (presets: Map<string, Preset>) => ClientScript,
  withRoots = true,
) {
  const module = await importFixture<Fixture>('maybe-ask-helper-locals', which);
  const world = createWorld();
  const presets = new Map<string, Preset>([
    ['web', { owner: 'ann', tier: 'silver' }],
    ['core', { owner: '', tier: 'gold' }],
  ]);
  const capabilities = withRoots ? undefined : { elicitation: { form: {} }, sampling: {} };
  const recording = await runCalls(() => module.createServer(world, presets), era, calls, script(presets), capabilities);
  expect(recording.era).toBe(era);
  return { recording, log: world.log, presets };
}

/** The legacy server on the 2025 era, and the migrated one on each era: the same results, questions and log. */
async function equivalent(calls: ToolCall[], script: (presets: Map<string, Preset>) => ClientScript, withRoots = true) {
  const legacy = await run('input', 'legacy', calls, script, withRoots);
  for (const era of ERAS) {
    const migrated = await run('output', era, calls, script, withRoots);
    expect({ era, results: migrated.recording.results }).toEqual({ era, results: legacy.recording.results });
    expect({ era, questions: migrated.recording.questions }).toEqual({ era, questions: legacy.recording.questions });
    expect({ era, log: migrated.log }).toEqual({ era, log: legacy.log });
    expect({ era, presets: [...migrated.presets] }).toEqual({ era, presets: [...legacy.presets] });
  }
  return legacy;
}

describe('the codemod on the fixture', () => {
  it('splits every helper and migrates every handler (the output the tests below run is what it writes: test/fixtures.test.ts)', async () => {
    const fixture = fixtureCases().find((c) => c.name === 'maybe-ask-helper-locals')!;
    const { plan } = await transformWithTypes(readFileSync(fixture.inputPath, 'utf8'), fixture.inputPath, new TsTypeFactsProvider());
    expect(plan.sites.map((s) => [s.line, s.kind, s.status])).toEqual([
      [18, 'roots', 'migrated'],
      [34, 'elicit', 'migrated'],
      [45, 'sampling', 'migrated'],
    ]);
    // The report names what the result halves derive again, and the calls that runs again.
    expect(plan.sites.map((s) => [s.handler, s.rederived, s.rerun])).toEqual([
      ['helper:allowedFolders', ['folders'], undefined],
      [
        'helper:completeProfile',
        ['preset', 'profile'],
        [
          { text: 'presets.get(args.team)', line: 28, why: 'read' },
          { text: 'args.team.trim()', line: 29, why: 'read' },
        ],
      ],
      ['helper:rankTables', undefined, undefined],
    ]);
  });
});

describe('a helper whose `let`, declared without a value, is assigned after the question or in the branch that does not ask', () => {
  it('lists the roots the client gives, on both eras', async () => {
    const legacy = await equivalent([{ name: 'list_folders', arguments: { fallback: '/tmp/work' } }], () => ({
      roots: [{ uri: 'file:///srv/app/' }, { uri: 'file:///srv/data' }],
    }));
    expect(legacy.recording.results.map(text)).toEqual(['/srv/app\n/srv/data']);
    expect(legacy.recording.questions.map((q) => q.method)).toEqual(['roots/list']);
    expect(legacy.log).toEqual(['audit:folders:/srv/app,/srv/data']);
  });

  it('answers from the fallback without asking when the client has no roots, on both eras', async () => {
    const legacy = await equivalent([{ name: 'list_folders', arguments: { fallback: '/tmp/work/' } }], () => ({}), false);
    expect(legacy.recording.results.map(text)).toEqual(['/tmp/work']);
    expect(legacy.recording.questions).toEqual([]);
    expect(legacy.log).toEqual(['audit:no-roots', 'audit:folders:/tmp/work']);
  });
});

describe('a helper whose profile and preset are derived from its arguments and a store', () => {
  const calls: ToolCall[] = [
    { name: 'register_team', arguments: { team: 'web' } },
    { name: 'register_team', arguments: { team: 'core' } },
    { name: 'register_team', arguments: { team: 'ops' } },
  ];

  it('asks only for what is missing and registers each team once, on both eras', async () => {
    const legacy = await equivalent(calls, () => ({ elicit: (p) => (String(p.message).includes('core') ? accept({ owner: 'bob' }) : { action: 'decline' }) }));
    expect(legacy.recording.results.map(text)).toEqual(['web (free) is owned by ann', 'core (gold) is owned by bob', 'ops (free) is owned by nobody']);
    expect(legacy.recording.questions.map((q) => (q.params as { message: string }).message)).toEqual(['Who owns core?', 'Who owns ops?']);
    expect(legacy.log).toEqual([
      'audit:register:web:ann:free',
      'audit:ask:core:owner',
      'audit:register:core:bob:gold',
      'audit:ask:ops:owner',
      'audit:register:ops:nobody:free',
    ]);
  });

  it('reads the preset again on the retry: a change made while the question is out is what the code after it sees', async () => {
    const script = (presets: Map<string, Preset>) => ({
      elicit: () => {
        presets.get('core')!.tier = 'platinum';
        return accept({ owner: 'bob' });
      },
    });
    const legacy = await equivalent([calls[1]!], script);
    expect(legacy.recording.results.map(text)).toEqual(['core (platinum) is owned by bob']);
  });
});

describe('a helper that asks first, called with an argument the handler derives', () => {
  it('ranks the tables the handler derives again on the retry and vacuums each once, on both eras', async () => {
    const legacy = await equivalent([{ name: 'vacuum', arguments: { tables: [' Logs', 'logs ', 'users'] } }], () => ({
      sample: () => ({ role: 'assistant', model: 'scripted', content: { type: 'text', text: 'users, logs' } }),
    }));
    expect(legacy.recording.results.map(text)).toEqual(['Vacuumed users, logs']);
    expect(legacy.recording.questions.map((q) => (q.params as { messages: Array<{ content: { text: string } }> }).messages[0]!.content.text)).toEqual([
      'Rank these tables: logs, users',
    ]);
    expect(legacy.log).toEqual(['delete:users=5', 'delete:logs=3']);
  });
});

describe('helpers the retry could not serve', () => {
  it('stay whole, each reason naming the statement or the argument in the way and its line', () => {
    const fixture = fixtureCases().find((c) => c.name === 'maybe-ask-helper-locals-refused')!;
    const sites = transformSource(readFileSync(fixture.inputPath, 'utf8'), fixture.inputPath).plan.sites;
    const reasons = sites.filter((s) => s.code === 'in-helper').map((s) => [s.line, s.reason!.replace(/^.*cannot be split: /, '')]);
    // Each at its site's line of the input, each statement named at its line of the output (output.ts).
    expect(reasons).toEqual([
      [
        12,
        'it is a helper whose code after its request reads `stats`, set by `const stats = { table, rows: world.count(table), at: new Da…` (line 10), which runs once and cannot be derived again.',
      ],
      [
        20,
        'it is a helper whose code after its request reads `labels`, changed by `labels.push(`rows=${world.count(table)}`);` (line 19), which runs once and cannot be derived again.',
      ],
      [25, 'it is a helper called with the argument `world.count(table)` (line 50), which would be evaluated again when the handler resumes.'],
    ]);
  });
});
