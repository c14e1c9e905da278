// Helpers whose question sits inside a try statement: split where the try's catch and finally
// blocks keep their meaning over two rounds, refused (naming the statement) where they would not.
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { transformSource } from '../src/transform.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';

/** A module whose helper `check()` runs `body`, and a tool that calls it. */
const helper = (body: string) => `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
const log: string[] = [];

async function check(table: string): Promise<boolean> {
${body}
}

server.registerTool('t', { description: 'd' }, async () => {
  const ok = await check('logs');
  return { content: [{ type: 'text', text: String(ok) }] };
});
`;

const ASK = "const answer = await server.server.elicitInput({ message: `Drop ${table}?`, requestedSchema: { type: 'object', properties: {} } });";
const GUARD = '  if (!server.server.getClientCapabilities()?.elicitation) return true;';

const helperSite = (source: string) => transformSource(source, 'server.ts').plan.sites.find((s) => s.code === 'in-helper')!;
/** The migrated text's lines (`[n - 1]` is the line a reason names `line n`: the marker above the request moves those below it). */
const written = (source: string) => transformSource(source, 'server.ts').output.split('\n');

describe('a helper whose question is inside a try', () => {
  it('is refused when its finally block does something, naming the statement and its line', () => {
    const source = helper(`${GUARD}
  const started = Date.now();
  try {
    ${ASK}
    return answer.action === 'accept';
  } finally {
    log.push(\`asked in \${Date.now() - started}\`);
  }`);
    const site = helperSite(source);
    expect(site.status).toBe('marked');
    expect(site.reason).toContain(
      'it is a helper whose request is in a try statement whose finally block runs `log.push(`asked in ${Date.now() - started}`);` (line 13): it would run when the question is asked and again when the answer comes.',
    );
    expect(written(source)[12]).toBe('    log.push(`asked in ${Date.now() - started}`);');
  });

  it('is split when its finally block does nothing a round could see twice', () => {
    const { output, plan } = transformSource(
      helper(`${GUARD}
  try {
    ${ASK}
    return answer.action === 'accept';
  } finally {
    // nothing to release
  }`),
      'server.ts',
    );
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain(
      "function checkResult(answer: ElicitResult): boolean {\n  try {\n    return answer.action === 'accept';\n  } finally {\n    // nothing to release\n  }\n}",
    );
  });

  it('keeps a finally block that releases what the code before the try acquired in the request half alone', () => {
    const { output, plan } = transformSource(
      helper(`${GUARD}
  const stop = startTimer(table);
  try {
    ${ASK}
    return answer.action === 'accept';
  } finally {
    stop();
  }`) +
        'function startTimer(label: string): () => void {\n  const timer = setInterval(() => log.push(label), 1000);\n  return () => clearInterval(timer);\n}\n',
      'server.ts',
    );
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain(
      [
        '  const stop = startTimer(table);',
        '  try {',
        "    return { ask: inputRequired.elicit({ message: `Drop ${table}?`, requestedSchema: { type: 'object', properties: {} } }) };",
        '  } finally {',
        '    stop();',
        '  }',
        '}',
        '',
        'function checkResult(answer: ElicitResult): boolean {',
        "  return answer.action === 'accept';",
        '}',
      ].join('\n'),
    );
  });

  it('re-enters the try with its catch block but not the finally block it releases with', () => {
    const { output, plan } = transformSource(
      helper(`${GUARD}
  const timer = setInterval(() => log.push(table), 1000);
  try {
    ${ASK}
    log.push(answer.action);
    return answer.action === 'accept';
  } catch (error) {
    log.push(String(error));
    return false;
  } finally {
    clearInterval(timer);
  }`),
      'server.ts',
    );
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain(
      [
        'function checkResult(answer: ElicitResult): boolean {',
        '  try {',
        '    log.push(answer.action);',
        "    return answer.action === 'accept';",
        '  } catch (error) {',
        '    log.push(String(error));',
        '    return false;',
        '  }',
        '}',
      ].join('\n'),
    );
  });

  it('is refused when the code after the question reads what the finally block releases, naming the statement and its line', () => {
    const source = helper(`${GUARD}
  const timer = setInterval(() => log.push(table), 1000);
  try {
    ${ASK}
    log.push(String(timer));
    return answer.action === 'accept';
  } finally {
    clearInterval(timer);
  }`);
    expect(helperSite(source).reason).toContain(
      'it is a helper whose request is in a try statement whose finally block runs `clearInterval(timer);` (line 14), which releases `timer`: the code after its request reads it.',
    );
    expect(written(source)[13]).toBe('    clearInterval(timer);');
  });

  it('is refused when its finally block touches what the code before the try did not declare', () => {
    for (const [release, first] of [
      ['stop(table);', 'stop(table);'],
      ['stop(); log.length = 0;', 'stop();'],
      ['stop(); clearInterval(this);', 'stop();'],
    ]) {
      const source = helper(`${GUARD}
  const stop = (label?: string) => log.push(label ?? 'stopped');
  try {
    ${ASK}
    return answer.action === 'accept';
  } finally {
    ${release}
  }`);
      expect(helperSite(source).reason, release).toContain(
        `whose finally block runs \`${first}\` (line 13): it would run when the question is asked and again when the answer comes.`,
      );
      expect(written(source)[12]).toBe(`    ${release}`);
    }
  });

  it('takes an answer assigned to a bare `let` before the try as the result half parameter, and drops what follows the try from the request half', () => {
    const ASSIGN = "answer = await server.server.elicitInput({ message: `Drop ${table}?`, requestedSchema: { type: 'object', properties: {} } });";
    const { output, plan } = transformSource(
      helper(`${GUARD}
  const timer = setInterval(() => log.push(table), 1000);
  let answer;
  try {
    ${ASSIGN}
  } finally {
    clearInterval(timer);
  }

  log.push(answer.action);
  return answer.action === 'accept';`),
      'server.ts',
    );
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain(
      [
        '  const timer = setInterval(() => log.push(table), 1000);',
        '  try {',
        "    return { ask: inputRequired.elicit({ message: `Drop ${table}?`, requestedSchema: { type: 'object', properties: {} } }) };",
        '  } finally {',
        '    clearInterval(timer);',
        '  }',
        '}',
        '',
        'function checkResult(answer: ElicitResult): boolean {',
        '  log.push(answer.action);',
        "  return answer.action === 'accept';",
        '}',
      ].join('\n'),
    );
  });

  it('is refused when the request half would still read the local the answer is assigned to', () => {
    const source = helper(`${GUARD}
  let answer;
  try {
    if (table) {
      answer = await server.server.elicitInput({ message: 'Drop?', requestedSchema: { type: 'object', properties: {} } });
    }
  } catch (error) {
    log.push(String(error));
  }
  return answer?.action === 'accept';`);
    expect(helperSite(source).reason).toContain(
      "it is a helper whose request's answer is assigned by `answer = await server.server.elicitInput({ message: 'Drop…` (line 11) to `answer`, which is not a `let answer;` of its own line that only the code after the question reads.",
    );
    expect(written(source)[10]).toMatch(/^ {6}answer = await server\.server\.elicitInput\(/);
  });

  it('leaves the try out of the result half when nothing follows the question in it', () => {
    const { output, plan } = transformSource(
      helper(`${GUARD}
  try {
    log.push(table);
    ${ASK}
  } catch (error) {
    log.push(String(error));
  }
  return false;`),
      'server.ts',
    );
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain('function checkResult(answer: ElicitResult): boolean {\n  return false;\n}');
  });

  it('is refused when its catch block would be all that meets a client that cannot answer', () => {
    const source = helper(`  try {
    ${ASK}
    return answer.action === 'accept';
  } catch {
    return false;
  }`);
    expect(helperSite(source).reason).toContain(
      "it is a helper whose request is in `try` (line 6), whose catch (line 10) took a client that cannot answer it: that client would now fail the handler instead (check the client's capabilities before asking).",
    );
    // The marker names that statement, at its line in the output, as the reason names both.
    const output = written(source);
    expect(output.slice(5, 8)).toEqual([
      '  try {',
      '    // @mrtr-todo(in-helper): `try` (line 6) keeps this helper whole — build inputRequired.elicit(...) in it, ask in the handler',
      `    ${ASK}`,
    ]);
    expect(output[9]).toBe('  } catch {');
  });

  it('is refused when its question is in the catch block', () => {
    const source = helper(`${GUARD}
  try {
    log.push(table);
    return false;
  } catch {
    ${ASK}
    return answer.action === 'accept';
  }`);
    expect(helperSite(source).reason).toContain('it is a helper whose request is in a catch block.');
  });

  it('names the line of the finally block a v1 module has where the user reads it: migrated, and on disk for check', async () => {
    const dir = checkoutScratch('maybe-ask-try-v1-');
    try {
      await putFile(dir, 'package.json', '{ "name": "v1", "private": true, "type": "module" }\n');
      // The upgrade moves the lines: the planned text is not the file on disk.
      const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
const server = new McpServer({ name: 's', version: '1' });
const log: string[] = [];

async function check(table: string): Promise<boolean> {
${GUARD}
  try {
    const answer: ElicitResult = await server.server.elicitInput({ message: \`Drop \${table}?\`, requestedSchema: { type: 'object', properties: {} } });
    return answer.action === 'accept';
  } finally {
    log.push(table);
  }
}

server.tool('t', 'd', async () => ({ content: [{ type: 'text', text: String(await check('logs')) }] }));
`;
      await putFile(dir, 'src/server.ts', source);
      const result = await runCodemod({ paths: ['src'], write: false, cwd: dir });
      const site = result.sites.find((s) => s.code === 'in-helper')!;
      // Migrated: two lines down (the upgrade's blank line below the imports, the marker above the request).
      expect(result.changed.find((c) => c.path === 'src/server.ts')!.output.split('\n')[13]).toBe('    log.push(table);');
      expect(site.reason).toContain('whose finally block runs `log.push(table);` (line 14)');
      // A run that plans only, as `check` does: the line of the file as it is.
      const checked = await runCodemod({ paths: ['src'], write: false, rewrite: false, cwd: dir });
      expect(source.split('\n')[11]).toBe('    log.push(table);');
      expect(checked.sites.find((s) => s.code === 'in-helper')!.reason).toContain('whose finally block runs `log.push(table);` (line 12)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('splits an exported method for the handlers of another module that call it through its class, and says when none does', async () => {
    const approvals = `import type { McpServer } from '@modelcontextprotocol/server';

export class Approvals {
  constructor(private readonly server: McpServer) {}

  async confirm(message: string): Promise<boolean> {
    if (!this.server.server.getClientCapabilities()?.elicitation) return true;
    const stop = startHeartbeat();
    try {
      const result = await this.server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
      return result.action === 'accept';
    } finally {
      stop();
    }
  }
}

function startHeartbeat(): () => void {
  const timer = setInterval(() => undefined, 1000);
  return () => clearInterval(timer);
}
`;
    // The tool module holds the service as its class, or only as an interface it declares.
    const tools = (held: string) => `import { McpServer } from '@modelcontextprotocol/server';
import { Approvals } from './approvals.js';

interface Confirming {
  confirm(message: string): Promise<boolean>;
}

export function register(server: McpServer): void {
  const approvals: ${held} = new Approvals(server);
  server.registerTool('wipe', { description: 'd' }, async () => {
    if (!(await approvals.confirm('Wipe?'))) return { content: [{ type: 'text', text: 'kept' }] };
    return { content: [{ type: 'text', text: 'wiped' }] };
  });
}
`;
    const outcome = async (held: string) => {
      const dir = checkoutScratch('maybe-ask-release-');
      try {
        await putFile(dir, 'package.json', '{ "name": "r", "private": true, "type": "module" }\n');
        await putFile(dir, 'src/approvals.ts', approvals);
        await putFile(dir, 'src/tools.ts', tools(held));
        await putFile(
          dir,
          'src/server.ts',
          "import { McpServer } from '@modelcontextprotocol/server';\nimport { register } from './tools.js';\n\nexport const server = new McpServer({ name: 'r', version: '1' });\nregister(server);\n",
        );
        return await runCodemod({ paths: ['src'], write: false, cwd: dir });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    };
    const direct = await outcome('Approvals');
    expect(direct.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/approvals.ts', 'migrated', undefined]]);
    const throughInterface = await outcome('Confirming');
    expect(throughInterface.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/approvals.ts', 'marked', 'in-helper']]);
    expect(throughInterface.sites.map((s) => s.marker)).toEqual([
      // Line 11 of tools.ts is the call through the interface.
      '`Approvals.confirm()` is called at tools.ts:11 via `Confirming`, not its class — edit both by hand',
    ]);
  }, 120_000);
});

describe('a sampling helper with only the request context, whose catch is its fallback', () => {
  // The tool hands its context to a function that ranks what it loaded (objects JSON cannot
  // carry) through a helper, awaited in a ternary. The helper's catch is how it met a client
  // that cannot sample; with the context alone it cannot tell on the 2025 era whether the client
  // can, so it stays whole, and its marker names the try and the step that leads somewhere.
  const source = `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
const server = new McpServer({ name: 's', version: '1' });
class Doc { constructor(readonly name: string) {} }

async function rank(ctx: ServerContext, docs: Doc[]): Promise<Doc[]> {
  try {
    const reply = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: docs.map((d) => d.name).join('\\n') } }], maxTokens: 50 });
    const order = reply.content.type === 'text' ? reply.content.text.split('\\n') : [];
    return order.map((n) => docs.find((d) => d.name === n)).filter((d): d is Doc => d !== undefined);
  } catch {}
  return docs;
}

export async function plan(dir: string, ctx: ServerContext) {
  const docs = [new Doc(dir + '/a'), new Doc(dir + '/b')];
  const ranked = docs.length > 1 ? await rank(ctx, docs) : docs;
  return { content: [{ type: 'text' as const, text: ranked.map((d) => d.name).join(', ') }] };
}

server.registerTool('plan', { inputSchema: z.object({ dir: z.string() }) }, ({ dir }, ctx) => plan(dir, ctx));
`;

  it('is marked at the try, with the sampling advice, and the handler names the helper', () => {
    const { output, plan } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([
      ['marked', 'in-helper'],
      ['marked', 'via-helper'],
    ]);
    const lines = output.split('\n');
    expect(lines.slice(6, 9)).toEqual([
      '  try {',
      '    // @mrtr-todo(in-helper): `try` (line 7) keeps this helper whole — call your LLM provider directly (sampling is deprecated)',
      lines[8],
    ]);
    expect(lines[8]).toMatch(/^ {4}const reply = await ctx\.mcpReq\.requestSampling\(/);
    expect(plan.sites[0]!.reason).toContain('whose request is in `try` (line 7), whose catch (line 12) took a client that cannot answer it');
    expect(lines[11]).toMatch(/^ {2}\} catch/);
    expect(lines).toContain('// @mrtr-todo(via-helper): reaches `rank()`, asking at line 9 — call your LLM provider directly (sampling is deprecated)');
    expect(transformSource(output, 'server.ts').output).toBe(output);
  });
});
