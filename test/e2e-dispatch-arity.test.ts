// A server whose tools are kiosk commands that one registering function dispatches to with the
// call's abort signal (`command.run(input, ctx.mcpReq.signal)`), as the commands' interface
// declares (`run(input, signal?)`); the order command, the only one that asks, reads its input
// alone (`run(input)`). Migrated by the engine, the order command's `run` becomes the resumable
// part of the handler: it takes the signal it does not read, unread, before the context
// (`run(input, _signal: AbortSignal | undefined, ctx)`), so the context the handler adds after
// the call's last argument is the one it gets. Run through the real client, the migrated
// server gives the original's results, asks its questions and does its work once each, on both
// eras. Where the interface's parameter has no written type the method stays whole (split as a
// helper, it would leave the dispatch calling a method that is gone), its marker naming the dispatch.
import { rm } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { migratedPair } from './support/migrated-pair.ts';
import { runCalls, type ClientScript, type Recording, type ToolCall } from './support/harness.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

const KIOSK = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export interface Reply {
  text: string;
}

export interface KioskCommand {
  readonly name: string;
  run(input: { item?: string }, signal?: AbortSignal): Promise<Reply>;
}

const COUNT = { type: 'object' as const, properties: { count: { type: 'number' as const } }, required: ['count'] };

export class OrderCommand implements KioskCommand {
  readonly name = 'order';

  constructor(
    private readonly server: McpServer,
    private readonly work: string[],
  ) {}

  async run(input: { item?: string }): Promise<Reply> {
    const item = input.item ?? 'tea';
    const answer = await this.server.server.elicitInput({ message: \`How many \${item}?\`, requestedSchema: COUNT });
    const count = answer.action === 'accept' && typeof answer.content?.count === 'number' ? answer.content.count : 0;
    this.work.push(\`order:\${item}x\${count}\`);
    return { text: \`Ordered \${count} \${item}.\` };
  }
}

export class StockCommand implements KioskCommand {
  readonly name = 'stock';

  constructor(private readonly work: string[]) {}

  async run(input: { item?: string }, signal?: AbortSignal): Promise<Reply> {
    this.work.push(\`stock:\${signal?.aborted ? 'aborted' : 'live'}\`);
    return { text: \`\${input.item ?? 'tea'} in stock.\` };
  }
}

export function registerCommand(server: McpServer, command: KioskCommand): void {
  server.registerTool(command.name, { inputSchema: z.object({ item: z.string().optional() }) }, async (input, ctx) => {
    const reply = await command.run(input, ctx.mcpReq.signal);
    return { content: [{ type: 'text', text: reply.text }] };
  });
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { OrderCommand, registerCommand, StockCommand } from './kiosk.js';

export function createServer(work: string[]): McpServer {
  const server = new McpServer({ name: 'kiosk', version: '1.0.0' });
  for (const command of [new OrderCommand(server, work), new StockCommand(work)]) registerCommand(server, command);
  return server;
}
`;

const CALLS: ToolCall[] = [
  { name: 'order', arguments: { item: 'buns' } },
  { name: 'stock', arguments: {} },
  { name: 'order', arguments: {} },
];

const script = (): ClientScript => ({
  elicit: (params) => (String(params.message).includes('buns') ? { action: 'accept', content: { count: 3 } } : { action: 'decline' }),
});

type ServerModule = { createServer(work: string[]): McpServer };

const pair = migratedPair<ServerModule>('dispatch-arity-', {
  'package.json': '{ "name": "kiosk", "private": true, "type": "module" }\n',
  'src/kiosk.ts': KIOSK,
  'src/server.ts': SERVER,
});
const { read } = pair;

async function run(which: 'original' | 'migrated', era: 'modern' | 'legacy'): Promise<Recording & { work: string[] }> {
  const { createServer } = await pair.load(which);
  const work: string[] = [];
  const recording = await runCalls(() => createServer(work), era, CALLS, script());
  return { ...recording, work };
}

describe('a dispatched command method that reads fewer arguments than the call passes', () => {
  it('takes the rest, unread, before the context the handler hands it', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([['src/kiosk.ts', 25, 'migrated', undefined]]);
    const kiosk = await read('migrated', 'src/kiosk.ts');
    expect(kiosk).toContain('  run(input: { item?: string }, signal?: AbortSignal, ctx?: ServerContext): Promise<Reply | InputRequiredResult>;\n');
    expect(kiosk).toContain('  async run(input: { item?: string }, _signal: AbortSignal | undefined, ctx: ServerContext): Promise<');
    expect(kiosk).toContain('  async run(input: { item?: string }, signal?: AbortSignal): Promise<Reply> {\n');
    expect(kiosk).toContain('    const reply = await command.run(input, ctx.mcpReq.signal, ctx);\n    if (isInputRequiredResult(reply)) return reply;\n');
    expect(kiosk).not.toContain('@mrtr-todo');
  });

  it('typechecks, and a second run changes nothing', async () => {
    expect(await pair.settled(['src/kiosk.ts', 'src/server.ts'])).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('gives the same results, asks the same questions and does its work once, on both eras', async () => {
    const original = await run('original', 'legacy');
    expect(original.results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'Ordered 3 buns.',
      'tea in stock.',
      'Ordered 0 tea.',
    ]);
    expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual(['How many buns?', 'How many tea?']);
    expect(original.work).toEqual(['order:bunsx3', 'stock:live', 'order:teax0']);
    for (const era of ['modern', 'legacy'] as const) {
      const again = await run('migrated', era);
      expect({ era, results: again.results, questions: again.questions, work: again.work }).toEqual({
        era,
        results: original.results,
        questions: original.questions,
        work: original.work,
      });
    }
  });
});

describe('an interface parameter the method does not take, without a written type', () => {
  it('keeps the method whole, with markers that say the counts differ', async () => {
    const dir = checkoutScratch('dispatch-arity-refused-');
    try {
      await putFile(dir, 'src/kiosk.ts', KIOSK.replace('signal?: AbortSignal): Promise<Reply>;', 'signal?): Promise<Reply>;'));
      await putFile(dir, 'src/server.ts', SERVER);
      const refused = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      expect(refused.errors).toEqual([]);
      // Split as a helper, it would leave the dispatch calling a method the order command no longer has.
      expect(refused.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([['src/kiosk.ts', 25, 'marked', 'in-helper']]);
      expect(refused.sites[0]!.marker).toBe(
        '`OrderCommand.run()` asks; the dispatch `command.run(…)` (line 46) cannot resume it — give it the parameters the call passes',
      );
      expect(refused.sites[0]!.reason).toContain('takes 1 parameter(s) where the call passes 2 argument(s)');
      expect(refused.changed.find((c) => c.path === 'src/kiosk.ts')!.output).toContain('  async run(input: { item?: string }): Promise<Reply> {\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
