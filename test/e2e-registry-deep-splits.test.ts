// A tool declared to a project registry (`declareTool({ name, inputSchema, factory })`, the
// registry's module registering what each factory returns in a loop) whose handler, an arrow the
// factory's arrow returns (not async: it hands back the promise), calls a function of its own
// module, which calls another module's helper that may ask. The tool's module has no request of
// its own, so the main pass never asks which registries it hands declarations to; the
// cross-module rounds do, and find its handler there. Migrated by the engine, the helper and the
// function are split, the handler is made async and asks through their halves, and the
// registry's handler type admits what the handler now returns. Through the real client, the
// migrated server gives the original's results, asks its questions and records each effect once,
// on both eras. A tool whose handler asks itself, found only through the registry too, widens the
// same type.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCalls, type ClientScript, type Era, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "hangar", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { registerTools } from './tools/registry.js';
import { LAUNCH_TOOL } from './tools/launch.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'hangar', version: '1.0.0' });
  registerTools(server, { log }, [LAUNCH_TOOL]);
  return server;
}
`,
  'src/tools/registry.ts': `import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export interface ToolContext {
  server: McpServer;
  log: string[];
}

export type ToolHandler = (args: any, ctx: ServerContext) => Promise<CallToolResult>;

export interface ToolDeclaration {
  name: string;
  inputSchema: z.ZodRawShape;
  factory: (context: ToolContext) => ToolHandler;
}

export function declareTool(declaration: ToolDeclaration): ToolDeclaration {
  return declaration;
}

export function registerTools(server: McpServer, context: { log: string[] }, declarations: readonly ToolDeclaration[]): void {
  for (const declaration of declarations) {
    const { name, factory, inputSchema } = declaration;
    const handler = factory({ ...context, server });
    server.registerTool(name, { inputSchema: z.object(inputSchema) }, handler);
  }
}
`,
  'src/lib/bay.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export async function pickBay(server: McpServer, log: string[], given?: string): Promise<string | undefined> {
  log.push(\`bay:\${given ?? '?'}\`);
  if (given) return given;
  const answer = await server.server.elicitInput({
    mode: 'form',
    message: 'Which bay?',
    requestedSchema: { type: 'object', properties: { bay: { type: 'string' } }, required: ['bay'] },
  });
  return answer.action === 'accept' ? String(answer.content?.bay) : undefined;
}
`,
  'src/tools/launch.ts': `import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickBay } from '../lib/bay.js';
import { declareTool, type ToolContext } from './registry.js';

async function startLaunch(input: { bay?: string }, context: ToolContext): Promise<CallToolResult> {
  const bay = await pickBay(context.server, context.log, input.bay);
  if (!bay) return { content: [{ type: 'text', text: 'No bay, no launch.' }], isError: true };
  context.log.push(\`launch:\${bay}\`);
  return { content: [{ type: 'text', text: \`launched from \${bay}\` }] };
}

export const LAUNCH_TOOL = declareTool({
  name: 'launch',
  inputSchema: { bay: z.string().optional() },
  factory: (context) => (input) => {
    return startLaunch(input, context);
  },
});
`,
};

/** The tool's module as the engine writes it: the function split, the handler asking through its halves. */
const MIGRATED_LAUNCH = `import type {
  CallToolResult,
  ServerContext,
  ElicitResult,
  InputRequest,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { pickBayRequest, pickBayResult } from '../lib/bay.js';
import { declareTool, type ToolContext } from './registry.js';
import { mrtrResume } from '../mrtr-request-state.js';

// startLaunch() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler calls startLaunchRequest(), which resolves to the question to ask ({ ask }) or to what startLaunch()
// returned without asking ({ value }); once answered, startLaunchResult() computes it. Both go on in startLaunchThen().
async function startLaunchRequest(input: { bay?: string }, context: ToolContext): Promise<{ ask: InputRequest } | { value: CallToolResult }> {
  const mrtrOutcome = await pickBayRequest(context.log, input.bay);
  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: startLaunchThen(mrtrOutcome.value, context) };
}

function startLaunchResult(mrtrAnswer: ElicitResult, context: ToolContext): CallToolResult {
  return startLaunchThen(pickBayResult(mrtrAnswer), context);
}

function startLaunchThen(bay: ReturnType<typeof pickBayResult>, context: ToolContext): CallToolResult {
  if (!bay) return { content: [{ type: 'text', text: 'No bay, no launch.' }], isError: true };
  context.log.push(\`launch:\${bay}\`);
  return { content: [{ type: 'text', text: \`launched from \${bay}\` }] };
}

export const LAUNCH_TOOL = declareTool({
  name: 'launch',
  inputSchema: { bay: z.string().optional() },
  factory: (context) => async (input, ctx: ServerContext) => {
    const mrtr = await mrtrResume(ctx, 'tool:launch', ['answer'], input);
    if (mrtr.refused) return mrtr.refused;
    if (mrtr.step === undefined) {
      const mrtrOutcome = await startLaunchRequest(input, context);
      if ('ask' in mrtrOutcome) return mrtr.ask('answer', {}, { answer: mrtrOutcome.ask });
      mrtr.decided('answer', {}, { answer: mrtrOutcome.value });
    }
    const mrtrAnswer = mrtr.value('answer', 'elicit', (answer: ElicitResult) => startLaunchResult(answer, context));
    if (mrtrAnswer === undefined) return mrtr.askAgain();
    return mrtrAnswer.value;
  },
});
`;

/** The registry's module as the engine writes it: its handler type admits InputRequiredResult. */
const WIDENED_REGISTRY = PROJECT['src/tools/registry.ts']!.replace(
  "import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';",
  "import type {\n  CallToolResult,\n  McpServer,\n  ServerContext,\n  InputRequiredResult,\n} from '@modelcontextprotocol/server';",
).replace('=> Promise<CallToolResult>;', '=> Promise<CallToolResult | InputRequiredResult>;');

/** Given (no question), asked and accepted, asked and declined. */
const CALLS: ToolCall[] = [
  { name: 'launch', arguments: { bay: 'b2' } },
  { name: 'launch', arguments: {} },
  { name: 'launch', arguments: {} },
];

function script(): ClientScript {
  let asked = 0;
  return { elicit: () => (++asked === 2 ? { action: 'decline' } : { action: 'accept', content: { bay: 'b7' } }) };
}

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('registry-deep-splits-', PROJECT);

const run = async (server: ServerModule, era: Era) => {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, CALLS, script());
  return { results: recording.results, questions: recording.questions, log };
};

const texts = (results: unknown[]) => results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text);

describe("a handler a registry's factory returns, asking through its module's function and another module's helper", () => {
  it('is found in the cross-module rounds, and the helper and the function are split for it', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/lib/bay.ts', 'migrated', undefined]]);
    expect(await pair.read('migrated', 'src/tools/launch.ts')).toBe(MIGRATED_LAUNCH);
    // The registry's handler type, which the factory's type returns, admits the migrated handler's InputRequiredResult.
    expect(await pair.read('migrated', 'src/tools/registry.ts')).toBe(WIDENED_REGISTRY);
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));
    expect(await pair.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did and records each thing once, on both eras', async () => {
    const original = await run(await pair.load('original'), 'legacy');
    expect(texts(original.results)).toEqual(['launched from b2', 'launched from b7', 'No bay, no launch.']);
    expect(original.questions.length).toBe(2);
    expect(original.log).toEqual(['bay:b2', 'launch:b2', 'bay:?', 'launch:b7', 'bay:?']);
    const migrated = await pair.load('migrated');
    for (const era of ['modern', 'legacy'] as const) expect({ era, ...(await run(migrated, era)) }).toEqual({ era, ...original });
  });
});

// The same registry with a tool whose handler asks itself: its module's first plan finds no
// handler either (the registry is another module's), so the type is widened for the handler
// the cross-module pass finds.
const ASKING: Record<string, string> = {
  'package.json': PROJECT['package.json']!,
  'src/server.ts': PROJECT['src/server.ts']!,
  'src/tools/registry.ts': PROJECT['src/tools/registry.ts']!,
  'src/tools/launch.ts': `import * as z from 'zod/v4';
import { declareTool } from './registry.js';

export const LAUNCH_TOOL = declareTool({
  name: 'launch',
  inputSchema: { bay: z.string().optional() },
  factory: (context) => async (input) => {
    const answer = await context.server.server.elicitInput({
      mode: 'form',
      message: \`Launch from \${input.bay ?? 'any bay'}?\`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Kept on the ground.' }] };
    context.log.push(\`launch:\${input.bay ?? 'any'}\`);
    return { content: [{ type: 'text', text: 'Launched.' }] };
  },
});
`,
};

const asking = migratedPair<ServerModule>('registry-asking-', ASKING);

describe("a handler a registry's factory returns, asking itself", () => {
  it("is migrated, and the registry's handler type admits what it returns", async () => {
    expect(asking.result.errors).toEqual([]);
    expect(asking.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/tools/launch.ts', 'migrated', undefined]]);
    expect(await asking.read('migrated', 'src/tools/registry.ts')).toBe(WIDENED_REGISTRY);
    const files = Object.keys(ASKING).filter((f) => f.endsWith('.ts'));
    expect(await asking.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did and records each thing once, on both eras', async () => {
    const calls: ToolCall[] = [
      { name: 'launch', arguments: { bay: 'b2' } },
      { name: 'launch', arguments: {} },
    ];
    const answers = (): ClientScript => {
      let asked = 0;
      return { elicit: () => (++asked === 2 ? { action: 'decline' } : { action: 'accept', content: { ok: true } }) };
    };
    const runAsking = async (server: ServerModule, era: Era) => {
      const log: string[] = [];
      const recording = await runCalls(() => server.createServer(log), era, calls, answers());
      return { results: recording.results, questions: recording.questions, log };
    };
    const original = await runAsking(await asking.load('original'), 'legacy');
    expect(texts(original.results)).toEqual(['Launched.', 'Kept on the ground.']);
    expect(original.log).toEqual(['launch:b2']);
    const migrated = await asking.load('migrated');
    for (const era of ['modern', 'legacy'] as const) expect({ era, ...(await runAsking(migrated, era)) }).toEqual({ era, ...original });
  });
});

// The same project with the handler written as one expression (`(input) => startLaunch(input,
// context)`): the rewrite lays a body out statement by statement, so the handler is given a block
// body, and the engine's rounds, which decide the helper's split from its callers' plans, plan it
// so. Before, it was refused (expression-body), and the helper and the function stayed whole.
const EXPRESSION: Record<string, string> = {
  ...PROJECT,
  'src/tools/launch.ts': PROJECT['src/tools/launch.ts']!.replace(
    '(input) => {\n    return startLaunch(input, context);\n  },',
    '(input) => startLaunch(input, context),',
  ),
};

const expression = migratedPair<ServerModule>('registry-expression-', EXPRESSION);

describe("a registry's factory handler written as one expression", () => {
  it('is given a block body and migrated as the block-bodied one is', async () => {
    expect(EXPRESSION['src/tools/launch.ts']).not.toBe(PROJECT['src/tools/launch.ts']);
    expect(expression.result.errors).toEqual([]);
    expect(expression.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/lib/bay.ts', 'migrated', undefined]]);
    expect(await expression.read('migrated', 'src/tools/launch.ts')).toBe(MIGRATED_LAUNCH);
    const files = Object.keys(EXPRESSION).filter((f) => f.endsWith('.ts'));
    expect(await expression.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did and records each thing once, on both eras', async () => {
    const original = await run(await expression.load('original'), 'legacy');
    expect(texts(original.results)).toEqual(['launched from b2', 'launched from b7', 'No bay, no launch.']);
    const migrated = await expression.load('migrated');
    for (const era of ['modern', 'legacy'] as const) expect({ era, ...(await run(migrated, era)) }).toEqual({ era, ...original });
  });
});
