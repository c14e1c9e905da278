// A helper that may ask, whose code before the question loads a plan (an effect: it runs once)
// that the code after the question reads: the plan travels with the question. Its type is
// declared in a module the helper's module imports something else from, so the helper's module
// imports the type for its halves; the handler of another module, which imports neither, names
// it through the request half it calls. Both trees typecheck, a second run changes nothing, and
// through the real client the migrated server asks, answers and records as the original did, on
// both eras.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCalls, type ClientScript, type Era, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "planner", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerGoalTools } from './tools/goals.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'planner', version: '1.0.0' });
  registerGoalTools(server, log);
  return server;
}
`,
  'src/lib/plans.ts': `export interface Plan {
  goal: string;
  steps: string[];
}

export async function loadPlan(log: string[], goal: string): Promise<Plan> {
  log.push(\`load:\${goal}\`);
  return { goal, steps: goal === 'idle' ? [] : [\`prepare \${goal}\`, \`run \${goal}\`] };
}
`,
  'src/lib/run.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import { loadPlan } from './plans.js';

const CONFIRM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

export async function runGoal(server: McpServer, log: string[], goal: string): Promise<string> {
  const plan = await loadPlan(log, goal);
  if (plan.steps.length === 0) return \`nothing to do for \${goal}\`;
  const answer = await server.server.elicitInput({ message: \`Run \${plan.steps.length} steps for \${goal}?\`, requestedSchema: CONFIRM });
  if (answer.action !== 'accept' || answer.content?.ok !== true) return 'declined';
  log.push(\`run:\${plan.goal}\`);
  return plan.steps.join(', ');
}
`,
  'src/tools/goals.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { runGoal } from '../lib/run.js';

export function registerGoalTools(server: McpServer, log: string[]): void {
  server.registerTool('run_goal', { inputSchema: z.object({ goal: z.string() }) }, async ({ goal }) => {
    const text = await runGoal(server, log, goal);
    return { content: [{ type: 'text', text }] };
  });
}
`,
};

/** Nothing to do (no question), accepted, declined. */
const CALLS: ToolCall[] = [
  { name: 'run_goal', arguments: { goal: 'idle' } },
  { name: 'run_goal', arguments: { goal: 'build' } },
  { name: 'run_goal', arguments: { goal: 'ship' } },
];

function script(): ClientScript {
  let asked = 0;
  return { elicit: () => (++asked === 1 ? { action: 'accept', content: { ok: true } } : { action: 'decline' }) };
}

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('carried-types-', PROJECT);

const run = async (server: ServerModule, era: Era) => {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, CALLS, script());
  return { results: recording.results, questions: recording.questions, log };
};

describe('a carried local whose type neither the helper nor its caller names', () => {
  it('is imported as a type by the helper, and named through the request half by the handler', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status])).toEqual([['src/lib/run.ts', 'migrated']]);
    const helper = await pair.read('migrated', 'src/lib/run.ts');
    expect(helper).toContain("import { loadPlan, type Plan } from './plans.js';");
    expect(helper).toContain('Promise<{ ask: InputRequest; carried: { plan: Plan } } | { value: string }>');
    const handler = await pair.read('migrated', 'src/tools/goals.ts');
    expect(handler).not.toContain('Plan');
    expect(handler).toContain(
      "runGoalResult(answer, log, mrtr.locals<{ mrtrCarried: Extract<Awaited<ReturnType<typeof runGoalRequest>>, { carried: unknown }>['carried'] }>().mrtrCarried)",
    );
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));
    expect(await pair.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks, answers and records as the original did, on both eras', async () => {
    const original = await run(await pair.load('original'), 'legacy');
    expect(original.results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'nothing to do for idle',
      'prepare build, run build',
      'declined',
    ]);
    expect(original.log).toEqual(['load:idle', 'load:build', 'run:build', 'load:ship']);
    const migrated = await pair.load('migrated');
    for (const era of ['modern', 'legacy'] as const) expect({ era, ...(await run(migrated, era)) }).toEqual({ era, ...original });
  });
});
