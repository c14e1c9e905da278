// A server whose tools pick a checkout through a shared helper that may answer without asking:
// given a name it uses it; else it locates the default checkout and measures its depth (each
// logged, so neither can run again on the retry), asks before using it, and after the answer
// lists its files and notes the choice. What it located and measured travels with the question:
// the request half returns them, each handler keeps them in its state beside its own locals, and
// the result half takes them; a wrapper that asks through the helper takes them and hands them
// on, and one that asks through another helper sends its own with that one's question. Run
// through the real client, the migrated server gives the original's results, asks its questions
// and does its work once each, on both eras.
import { describe, expect, it } from 'vitest';
import { runCalls, type ClientScript, type Era, type ToolCall } from './support/harness.ts';
import { expectSameOnBothEras, texts, type LoggedRecording, type LoggingServer } from './support/logged-run.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "checkouts", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createStore } from './shared/store.js';
import { registerTools } from './tools.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'checkouts', version: '1.0.0' });
  registerTools(server, createStore(log));
  return server;
}
`,
  'src/shared/store.ts': `// The checkouts and their files: each effect is logged.
const FILES: Record<string, string[]> = { '/srv/app': ['index.ts', 'README.md'], '/srv/lib': ['lib.ts'] };

export interface Store {
  locate(): string | undefined;
  depth(root: string): number;
  list(root: string): Promise<string[]>;
  note(text: string): void;
}

export function createStore(log: string[]): Store {
  return {
    locate() {
      log.push('locate');
      return '/srv/app';
    },
    depth(root) {
      log.push(\`depth:\${root}\`);
      return root.split('/').length - 1;
    },
    async list(root) {
      log.push(\`list:\${root}\`);
      return FILES[root] ?? [];
    },
    note(text) {
      log.push(\`note:\${text}\`);
    },
  };
}
`,
  'src/shared/checkout.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Store } from './store.js';

export interface Checkout {
  root: string;
  files: string[];
}

const CONFIRM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };

export async function pickCheckout(server: McpServer, store: Store, root?: string): Promise<Checkout> {
  if (root) return { root, files: await store.list(root) };
  const found = store.locate();
  if (found === undefined) throw new Error('No checkout here.');
  const depth = store.depth(found);
  const answer = await server.server.elicitInput({ message: \`Use \${found} (depth \${depth})?\`, requestedSchema: CONFIRM });
  if (answer.action !== 'accept') return { root: '', files: [] };
  const files = await store.list(found);
  store.note(\`picked:\${found}:\${depth}\`);
  return { root: found, files };
}

export async function checkoutSummary(server: McpServer, store: Store, label: string): Promise<string> {
  const checkout = await pickCheckout(server, store);
  store.note(\`summary:\${label}\`);
  return \`\${label}: \${checkout.root} has \${checkout.files.length} files\`;
}

async function confirmUse(server: McpServer, root: string): Promise<boolean> {
  if (root === '/srv/lib') return true;
  const answer = await server.server.elicitInput({ message: \`List \${root}?\`, requestedSchema: CONFIRM });
  return answer.action === 'accept';
}

export async function guardedList(server: McpServer, store: Store, fallback: string): Promise<string[]> {
  const found = store.locate() ?? fallback;
  if (!(await confirmUse(server, found))) return [];
  store.note(\`listing:\${found}\`);
  return await store.list(found);
}
`,
  'src/tools.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { checkoutSummary, guardedList, pickCheckout } from './shared/checkout.js';
import type { Store } from './shared/store.js';

export function registerTools(server: McpServer, store: Store): void {
  server.registerTool('files', { inputSchema: z.object({ root: z.string().optional() }) }, async ({ root }) => {
    const checkout = await pickCheckout(server, store, root);
    return { content: [{ type: 'text', text: \`\${checkout.root}: \${checkout.files.join(', ')}\` }] };
  });

  server.registerTool('build', { inputSchema: z.object({ target: z.string() }) }, async ({ target }) => {
    const started = Date.now() > 0 ? \`build:\${target}\` : '';
    store.note(started);
    const { root, files } = await pickCheckout(server, store);
    return { content: [{ type: 'text', text: \`\${started} in \${root} (\${files.length} files)\` }] };
  });

  server.registerTool('summary', { inputSchema: z.object({ label: z.string() }) }, async ({ label }) => {
    return { content: [{ type: 'text', text: await checkoutSummary(server, store, label) }] };
  });

  server.registerTool('list', { inputSchema: z.object({ fallback: z.string() }) }, async ({ fallback }) => {
    const files = await guardedList(server, store, fallback);
    return { content: [{ type: 'text', text: files.join(', ') }] };
  });
}
`,
};

const CALLS: ToolCall[] = [
  { name: 'files', arguments: {} },
  { name: 'files', arguments: { root: '/srv/lib' } },
  { name: 'build', arguments: { target: 'web' } },
  { name: 'summary', arguments: { label: 'Weekly' } },
  { name: 'list', arguments: { fallback: '/srv/lib' } },
];

const pair = migratedPair<LoggingServer>('maybe-ask-carried-', PROJECT);
const { read, load } = pair;

/** The calls run on one server, with the effects it logged, the client answering by `script`. */
async function run(server: LoggingServer, era: Era, script: ClientScript): Promise<LoggedRecording> {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, CALLS, script);
  return { ...recording, log };
}

const TS_FILES = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));

describe('a helper whose code after its question reads what it located before it', () => {
  it('is split: the located checkout and its depth travel with the question to the result half', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/shared/checkout.ts', 'migrated', undefined],
      ['src/shared/checkout.ts', 'migrated', undefined],
    ]);
    const checkout = await read('migrated', 'src/shared/checkout.ts');
    expect(checkout).toContain(
      [
        'export async function pickCheckoutRequest(store: Store, root?: string): Promise<{ ask: InputRequest; carried: { found: string; depth: number } } | { value: Checkout }> {',
        '  if (root) return { value: { root, files: await store.list(root) } };',
        '  const found = store.locate();',
        "  if (found === undefined) throw new Error('No checkout here.');",
        '  const depth = store.depth(found);',
        '  return { ask: inputRequired.elicit({ message: `Use ${found} (depth ${depth})?`, requestedSchema: CONFIRM }), carried: { found, depth } };',
        '}',
        '',
        'export async function pickCheckoutResult(answer: ElicitResult, store: Store, { found, depth }: { found: string; depth: number }): Promise<Checkout> {',
        "  if (answer.action !== 'accept') return { root: '', files: [] };",
        '  const files = await store.list(found);',
        '  store.note(`picked:${found}:${depth}`);',
        '  return { root: found, files };',
        '}',
      ].join('\n'),
    );
    const tools = await read('migrated', 'src/tools.ts');
    const carried = 'mrtr.locals<{ mrtrCarried: { found: string; depth: number } }>().mrtrCarried';
    expect(tools).toContain(
      [
        '    if (mrtr.step === undefined) {',
        '      const mrtrOutcome = await pickCheckoutRequest(store, root);',
        "      if ('ask' in mrtrOutcome) return mrtr.ask('checkout', { mrtrCarried: mrtrOutcome.carried }, { checkout: mrtrOutcome.ask });",
        "      mrtr.decided('checkout', {}, { checkout: mrtrOutcome.value });",
        '    }',
        `    const mrtrAnswer = mrtr.value('checkout', 'elicit', (answer: ElicitResult) => pickCheckoutResult(answer, store, ${carried}));`,
        '    if (mrtrAnswer === undefined) return mrtr.askAgain();',
        '    const checkout = await mrtrAnswer.value;',
      ].join('\n'),
    );
    expect(tools).toContain(
      [
        '      const mrtrOutcome = await pickCheckoutRequest(store);',
        "      if ('ask' in mrtrOutcome) return mrtr.ask('root', { started, mrtrCarried: mrtrOutcome.carried }, { root: mrtrOutcome.ask });",
        "      mrtr.decided('root', { started }, { root: mrtrOutcome.value });",
        '    }',
        '    const { started } = mrtr.locals<{ started: string }>();',
        `    const mrtrAnswer = mrtr.value('root', 'elicit', (answer: ElicitResult) => pickCheckoutResult(answer, store, ${carried}));`,
      ].join('\n'),
    );
    // A wrapper that asks through the helper takes what it carried, last, and hands it on.
    expect(checkout).toContain(
      [
        'export async function checkoutSummaryRequest(store: Store, label: string): Promise<{ ask: InputRequest; carried: { found: string; depth: number } } | { value: string }> {',
        '  const mrtrOutcome = await pickCheckoutRequest(store);',
        "  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: checkoutSummaryThen(mrtrOutcome.value, store, label) };",
        '}',
        '',
        'export async function checkoutSummaryResult(mrtrAnswer: ElicitResult, store: Store, label: string, mrtrCarried: { found: string; depth: number }): Promise<string> {',
        '  return checkoutSummaryThen(await pickCheckoutResult(mrtrAnswer, store, mrtrCarried), store, label);',
        '}',
      ].join('\n'),
    );
    expect(tools).toContain(
      [
        '      const mrtrOutcome = await checkoutSummaryRequest(store, label);',
        "      if ('ask' in mrtrOutcome) return mrtr.ask('answer', { mrtrCarried: mrtrOutcome.carried }, { answer: mrtrOutcome.ask });",
        "      mrtr.decided('answer', {}, { answer: mrtrOutcome.value });",
        '    }',
        `    const mrtrAnswer = mrtr.value('answer', 'elicit', (answer: ElicitResult) => checkoutSummaryResult(answer, store, label, ${carried}));`,
      ].join('\n'),
    );
    // A wrapper that asks through a helper that carries nothing: its own local goes with the inner question, to `guardedListThen`.
    expect(checkout).toContain(
      [
        'export async function guardedListRequest(store: Store, fallback: string): Promise<{ ask: InputRequest; carried: { found: string } } | { value: string[] }> {',
        '  const found = store.locate() ?? fallback;',
        '  const mrtrOutcome = await confirmUseRequest(found);',
        "  return 'ask' in mrtrOutcome ? { ...mrtrOutcome, carried: { found } } : { value: await guardedListThen(mrtrOutcome.value, store, { found }) };",
        '}',
        '',
        'export async function guardedListResult(mrtrAnswer: ElicitResult, store: Store, mrtrCarried: { found: string }): Promise<string[]> {',
        '  return guardedListThen(confirmUseResult(mrtrAnswer), store, mrtrCarried);',
        '}',
        '',
        'export async function guardedListThen(mrtrValue: ReturnType<typeof confirmUseResult>, store: Store, { found }: { found: string }): Promise<string[]> {',
        '  if (!mrtrValue) return [];',
        '  store.note(`listing:${found}`);',
        '  return await store.list(found);',
        '}',
      ].join('\n'),
    );
    for (const file of [checkout, tools]) expect(file).not.toMatch(/@mrtr-todo/);
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(TS_FILES)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  for (const [answer, script] of [
    ['accepted', { elicit: () => ({ action: 'accept' as const, content: { ok: true } }) }],
    ['declined', { elicit: () => ({ action: 'decline' as const }) }],
  ] as const) {
    it(`locates and measures once, lists and notes once after the answer, on both eras (${answer})`, async () => {
      const original = await run(await load('original'), 'legacy', script);
      const accepted = answer === 'accepted';
      expect(texts(original)).toEqual([
        accepted ? '/srv/app: index.ts, README.md' : ': ',
        '/srv/lib: lib.ts',
        accepted ? 'build:web in /srv/app (2 files)' : 'build:web in  (0 files)',
        accepted ? 'Weekly: /srv/app has 2 files' : 'Weekly:  has 0 files',
        accepted ? 'index.ts, README.md' : '',
      ]);
      const question = {
        method: 'elicitation/create',
        params: { message: 'Use /srv/app (depth 2)?', mode: 'form', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
      };
      const listing = { method: 'elicitation/create', params: { message: 'List /srv/app?', mode: 'form', requestedSchema: question.params.requestedSchema } };
      expect(original.questions).toEqual([question, question, question, listing]);
      const after = accepted ? ['list:/srv/app', 'note:picked:/srv/app:2'] : [];
      expect(original.log).toEqual([
        ...['locate', 'depth:/srv/app', ...after],
        'list:/srv/lib',
        ...['note:build:web', 'locate', 'depth:/srv/app', ...after],
        ...['locate', 'depth:/srv/app', ...after, 'note:summary:Weekly'],
        ...['locate', ...(accepted ? ['note:listing:/srv/app', 'list:/srv/app'] : [])],
      ]);
      await expectSameOnBothEras(original, await load('migrated'), (server, era) => run(server, era, script));
    });
  }
});
