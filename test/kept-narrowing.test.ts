// A question inside `if (input.path)` is resumed through `if (mrtr.step === 'ok' || input.path)`,
// where TypeScript no longer narrows `input.path`: the branch's reads of what the condition
// checked are asserted, so the migrated handler typechecks as the original did.
import { describe, expect, it } from 'vitest';
import { keptNarrowing } from '../src/rewrite/kept-narrowing.ts';
import { migratedPair } from './support/migrated-pair.ts';
import { runCalls, type Era, type ToolCall } from './support/harness.ts';
import type { McpServer } from '@modelcontextprotocol/server';

const body = (branch: string, test = "mrtr.step === 'ok' || input.path") => `{\n  if (${test}) {\n    ${branch}\n  }\n}`;

describe('keptNarrowing', () => {
  it.each([
    ['a property the condition checked', body('f(input.path);'), body('f(input.path!);')],
    ['a property read further', body('f(input.path.length);'), body('f(input.path!.length);')],
    [
      'names checked against undefined and null, joined by &&',
      body('f(a, b);', "mrtr.step === 'ok' || mrtr.step === 'no' || (a !== undefined && b != null)"),
      body('f(a!, b!);', "mrtr.step === 'ok' || mrtr.step === 'no' || (a !== undefined && b != null)"),
    ],
    ['a shorthand property', body('f({ a });', "mrtr.step === 'ok' || a"), body('f({ a: a! });', "mrtr.step === 'ok' || a")],
  ])('asserts %s', (_name, input, output) => {
    expect(keptNarrowing(input, 'mrtr.step')).toBe(output);
  });

  it.each([
    ['a name the branch assigns', body('input = other; f(input.path);')],
    ['an if that resumes nothing', body('f(input.path);', 'ready || input.path')],
    ['a read asserted already, or only typed', body('f(input.path!, typeof input.path);')],
    ['a condition that shows nothing is there', body('f(input.path);', "mrtr.step === 'ok' || input.path === 'x'")],
    ['text that does not parse', '{ if (mrtr.step === "ok" || a) { f(a) '],
  ])('leaves %s', (_name, input) => {
    expect(keptNarrowing(input, 'mrtr.step')).toBe(input);
  });
});

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "narrowing", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

async function allowed(server: McpServer, path: string): Promise<boolean> {
  const { roots } = await server.server.listRoots();
  return roots.some((r) => r.uri.endsWith(path));
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'narrowing', version: '1.0.0' });
  server.registerTool('open', { inputSchema: z.object({ path: z.string().optional() }) }, async (input) => {
    let text = 'nothing to open';
    if (input.path) {
      const ok = await allowed(server, input.path);
      text = ok ? \`opened \${input.path}\` : \`\${input.path.length} characters denied\`;
    }
    return { content: [{ type: 'text', text }] };
  });
  return server;
}
`,
};

const pair = migratedPair<{ createServer(): McpServer }>('kept-narrowing-', PROJECT);

const CALLS: ToolCall[] = [
  { name: 'open', arguments: {} },
  { name: 'open', arguments: { path: '/project' } },
  { name: 'open', arguments: { path: '/elsewhere' } },
];

const run = async (era: Era, tree: 'original' | 'migrated') => {
  const server = await pair.load(tree);
  const recording = await runCalls(() => server.createServer(), era, CALLS, { roots: [{ uri: 'file:///home/ada/project' }] });
  return { results: recording.results, questions: recording.questions };
};

describe('a question under `if (input.path)` that reads it after', () => {
  it('asserts the reads, typechecks, and a second run changes nothing', async () => {
    const migrated = await pair.read('migrated', 'src/server.ts');
    expect(migrated).toContain("    if (mrtr.step === 'ok' || input.path) {");
    expect(migrated).toContain('      const ok = allowedResult(mrtrAnswer, input.path!);');
    expect(migrated).toContain('      text = ok ? `opened ${input.path!}` : `${input.path!.length} characters denied`;');
    expect(await pair.settled(['src/server.ts'])).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('gives the original results and questions on both eras', async () => {
    const original = await run('legacy', 'original');
    expect(original.results).toEqual([
      { content: [{ type: 'text', text: 'nothing to open' }] },
      { content: [{ type: 'text', text: 'opened /project' }] },
      { content: [{ type: 'text', text: '10 characters denied' }] },
    ]);
    expect(await run('legacy', 'migrated')).toEqual(original);
    expect(await run('modern', 'migrated')).toEqual(original);
  });
});
