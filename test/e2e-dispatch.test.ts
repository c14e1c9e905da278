// A server whose tools are job objects that one registering function dispatches to: the handler
// hands the call to `job.run(input)` in a try block and formats what it returns (or what it
// threw). Only the deploy job asks, through a confirmer it holds in a field, and not when the
// call says `force`. Migrated by the engine, the deploy job's `run` becomes the resumable part
// of the handler; the other jobs are left as they were. Run through the real client, the
// migrated server gives the original's results, asks its questions and does its work once
// each, on both eras. A handler that does something before the dispatch is left unmigrated,
// and its markers name the dispatch and what runs before it.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';
import { expectSameOnBothEras, type LoggedRecording } from './support/logged-run.ts';
import { migratedPair } from './support/migrated-pair.ts';

const JOBS = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export interface JobResult {
  summary: string;
}

export interface Job {
  readonly name: string;
  run(input: { target?: string; force?: boolean }): Promise<JobResult>;
}

const CONFIRM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };

class Confirmer {
  constructor(private readonly server: McpServer) {}

  async confirmTarget(target: string, force: boolean | undefined): Promise<boolean> {
    if (force === true) return true;
    const answer = await this.server.server.elicitInput({ message: \`Deploy to \${target}?\`, requestedSchema: CONFIRM });
    return answer.action === 'accept' && answer.content?.ok === true;
  }
}

export class DeployJob implements Job {
  readonly name = 'deploy';
  private readonly confirmer: Confirmer;

  constructor(
    server: McpServer,
    private readonly log: string[],
  ) {
    this.confirmer = new Confirmer(server);
  }

  async run(input: { target?: string; force?: boolean }): Promise<JobResult> {
    const target = input.target ?? 'staging';
    const confirmed = await this.confirmer.confirmTarget(target, input.force);
    if (!confirmed) return { summary: \`Kept \${target} as it was.\` };
    this.log.push(\`deploy:\${target}\`);
    return { summary: \`Deployed to \${target}.\` };
  }
}

export class PingJob implements Job {
  readonly name = 'ping';

  constructor(private readonly log: string[]) {}

  async run(): Promise<JobResult> {
    this.log.push('ping');
    return { summary: 'pong' };
  }
}

export class BrokenJob implements Job {
  readonly name = 'broken';

  async run(input: { target?: string }): Promise<JobResult> {
    throw new Error(\`cannot reach \${input.target ?? 'anything'}\`);
  }
}

export function registerJob(server: McpServer, job: Job): void {
  server.registerTool(job.name, { inputSchema: z.object({ target: z.string().optional(), force: z.boolean().optional() }) }, async (input) => {
    try {
      const result = await job.run(input);
      return { content: [{ type: 'text', text: result.summary }] };
    } catch (error) {
      return { content: [{ type: 'text', text: \`\${job.name} failed: \${(error as Error).message}\` }] };
    }
  });
}
`;

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "jobs", "private": true, "type": "module" }\n',
  'src/jobs.ts': JOBS,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { BrokenJob, DeployJob, PingJob, registerJob } from './jobs.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'jobs', version: '1.0.0' });
  for (const job of [new DeployJob(server, log), new PingJob(log), new BrokenJob()]) registerJob(server, job);
  return server;
}
`,
};

type ServerModule = { createServer(log: string[]): McpServer };

const CALLS: ToolCall[] = [
  { name: 'deploy', arguments: { target: 'prod' } },
  { name: 'deploy', arguments: { target: 'eu' } },
  { name: 'deploy', arguments: { force: true } },
  { name: 'ping', arguments: {} },
  { name: 'broken', arguments: { target: 'db' } },
];

const script = (): ClientScript => ({
  elicit: (params) => (String(params.message).includes('prod') ? { action: 'accept', content: { ok: true } } : { action: 'decline' }),
});

const pair = migratedPair<ServerModule>('dispatch-', PROJECT);
const { root, read, load } = pair;

async function run(server: ServerModule, era: 'modern' | 'legacy'): Promise<LoggedRecording> {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, CALLS, script());
  return { ...recording, log };
}

describe('job objects one handler dispatches to', () => {
  it("migrate the asking job's method as the handler's resumable part, and leave the others as they were", async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/jobs.ts', 'migrated', undefined]]);
    const jobs = await read('migrated', 'src/jobs.ts');
    expect(jobs).toContain('  run(input: { target?: string; force?: boolean }, ctx?: ServerContext): Promise<JobResult | InputRequiredResult>;');
    expect(jobs).toContain(
      '  async run(input: { target?: string; force?: boolean }, ctx: ServerContext): Promise<JobResult | InputRequiredResult> {\n' +
        "    const mrtr = await mrtrResume(ctx, `tool:${this.name}`, ['confirmed'], input);",
    );
    expect(jobs).toContain(
      '    try {\n      const result = await job.run(input, ctx);\n      if (isInputRequiredResult(result)) return result;\n      return { content:',
    );
    // The jobs that ask nothing are byte for byte what they were.
    for (const name of ['PingJob', 'BrokenJob']) {
      const block = (text: string) => text.slice(text.indexOf(`export class ${name}`), text.indexOf('\n}\n', text.indexOf(`export class ${name}`)));
      expect(block(jobs)).toBe(block(JOBS));
    }
    expect(jobs).not.toContain('@mrtr-todo');
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = (which: string) => ['src/jobs.ts', 'src/server.ts'].map((f) => path.join(root, which, f));
    expect(typecheck(files('original'))).toEqual([]);
    expect(typecheck([...files('migrated'), path.join(root, 'migrated', 'src/mrtr-request-state.ts')])).toEqual([]);
    const again = await runCodemod({ paths: ['src'], write: false, cwd: path.join(root, 'migrated') });
    expect(again.errors).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('gives the same results, asks the same questions and does its work once, on both eras', async () => {
    const original = await run(await load('original'), 'legacy');
    expect(original.results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'Deployed to prod.',
      'Kept eu as it was.',
      'Deployed to staging.',
      'pong',
      'broken failed: cannot reach db',
    ]);
    expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual(['Deploy to prod?', 'Deploy to eu?']);
    expect(original.log).toEqual(['deploy:prod', 'deploy:staging', 'ping']);
    await expectSameOnBothEras(original, await load('migrated'), run);
  });
});

describe('a dispatch the handler cannot hand its context through', () => {
  it.each([
    ['something done before it', '    try {\n      const result', '    console.error(`running ${job.name}`);\n    try {\n      const result', 'console.error'],
    [
      // Typed there, the method would take it unread before its context (e2e-dispatch-arity.test.ts).
      'an argument the asking class does not take, untyped in the interface',
      '      const result = await job.run(input);',
      '      const result = await job.run(input, true);',
      '`DeployJob.run()` takes 1 parameter(s) where the call passes 2 argument(s)',
      '  run(input: { target?: string; force?: boolean }): Promise<JobResult>;\n}',
      '  run(input: { target?: string; force?: boolean }, verbose?): Promise<JobResult>;\n}',
    ],
    ['a finally that does something', '    }\n  });\n}\n', '    } finally {\n      console.error(`ran ${job.name}`);\n    }\n  });\n}\n', 'finally'],
  ])('is left as it was, with %s named by the markers', async (_name, from, to, named, fromToo = '', toToo = '') => {
    const dir = checkoutScratch('dispatch-refused-');
    try {
      await putFile(dir, 'src/jobs.ts', JOBS.replace(from, to).replace(fromToo, toToo));
      await putFile(dir, 'src/server.ts', PROJECT['src/server.ts']!);
      const refused = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      expect(refused.errors).toEqual([]);
      expect(refused.sites.every((s) => s.status === 'marked')).toBe(true);
      const reasons = refused.sites.map((s) => s.reason).join('\n');
      expect(reasons).toContain('`job.run(…)`');
      expect(reasons).toContain(named);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
