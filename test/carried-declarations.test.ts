// The target SDK's declarations that the package carries (src/analyse/carried-declarations.ts):
// the checker falls back to them where a project resolves no SDK of its own, so a fresh clone
// (no node_modules) and an installed checkout get the same answers, and the same run. Every
// project here is written outside this checkout, where nothing resolves from its node_modules;
// an "installed" copy links the packages it would have installed.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCarriedDeclarations, loadTypeScript } from '../src/analyse/load-typescript.ts';
import { TypeScriptFacts } from '../src/analyse/ts-type-facts.ts';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { CORPUS } from './support/corpus.ts';
import { ROOT } from './support/fixtures.ts';
import { putFile } from './support/scratch.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mrtr-carried-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Links each package of this checkout's node_modules into `project`'s, as an install would put it there. */
async function install(project: string, packages: string[]): Promise<void> {
  for (const pkg of packages) {
    const at = path.join(project, 'node_modules', pkg);
    await mkdir(path.dirname(at), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', pkg), at, 'dir');
  }
}

describe('a fresh clone and an installed checkout', () => {
  /** What a run reports and writes, with nothing that names where it ran. */
  const outcome = (result: RunResult) => ({
    errors: result.errors,
    sites: result.sites.map((s) => [s.file, s.line, s.status, s.code, s.handler, s.reason]),
    changed: result.changed.map((c) => [c.path, c.output]),
  });

  it.each([
    [
      'a v2 server whose tools take the server through an interface of the project',
      'catalog-factories',
      ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod'],
    ],
    ['a v1 server whose context interface imports the v1 McpServer (only the v1 SDK installed)', 'shop-context-v1', ['@modelcontextprotocol/sdk', 'zod']],
  ])('get the same run: %s', async (_name, project, packages) => {
    const fresh = path.join(dir, `${project}-fresh`);
    const installed = path.join(dir, `${project}-installed`);
    cpSync(path.join(CORPUS, project), fresh, { recursive: true });
    cpSync(path.join(CORPUS, project), installed, { recursive: true });
    await install(installed, packages);
    const [a, b] = [await runCodemod({ paths: ['.'], cwd: fresh, write: false }), await runCodemod({ paths: ['.'], cwd: installed, write: false })];
    expect(outcome(a)).toEqual(outcome(b));
    // The same, and right: the request through the interface is the SDK's, and migrated.
    expect(a.sites.filter((s) => s.status === 'migrated').map((s) => s.handler)).toEqual([
      project === 'shop-context-v1' ? 'tool:checkout' : 'tool:price_check',
    ]);
    expect(a.sites.filter((s) => s.code === 'unknown-receiver')).toEqual([]);
  });
});

describe('the checker without the SDK installed', () => {
  /** One checker for these questions, as in a run (the declarations it has read are read once). */
  let checker: TypeScriptFacts | undefined;
  const ASKER = (from: string) => `import type { McpServer } from '${from}';

export async function ask(server: McpServer) {
  const answer = await server.server.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
  return answer;
}
`;
  /** What the checker says of `server.server` (is it the SDK's?) and of the local `answer`. */
  const factsOf = async (project: string, from: string) => {
    const source = ASKER(from);
    const fileName = await putFile(project, 'src/ask.ts', source);
    const receiver = { start: source.indexOf('server.server'), end: source.indexOf('server.server') + 'server.server'.length };
    const local = { name: 'answer', start: source.indexOf('answer') };
    const [answers] = (checker ??= new TypeScriptFacts(loadTypeScript(), loadCarriedDeclarations())).answer([
      { fileName, source, questions: { locals: [local], receivers: [receiver] } },
    ]);
    return {
      fromSdk: answers!.receivers[0],
      answer: answers!.locals[0] && { jsonSafe: answers!.locals[0].jsonSafe, unknown: answers!.locals[0].unknown ?? false },
    };
  };
  /** A package of the project's own whose module `declarations` (`index.d.ts`) declares McpServer with a result JSON cannot hold. */
  const fakeSdk = (project: string, name: string, version: string, declarations = 'index.d.ts') =>
    Promise.all([
      putFile(project, `node_modules/${name}/package.json`, JSON.stringify({ name, version, types: './index.d.ts' })),
      putFile(
        project,
        `node_modules/${name}/${declarations}`,
        'export declare class McpServer {\n  server: { elicitInput(params: unknown): Promise<{ answeredAt: Date }> };\n}\n',
      ),
    ]);

  it('reads the carried declarations of the v2 SDK, and of zod that its result types are written in', async () => {
    expect(await factsOf(path.join(dir, 'v2-fresh'), '@modelcontextprotocol/server')).toEqual({ fromSdk: true, answer: { jsonSafe: true, unknown: false } });
  });

  it('reads a v1 import it cannot resolve as the v2 module the upgrade moves it to', async () => {
    expect(await factsOf(path.join(dir, 'v1-fresh'), '@modelcontextprotocol/sdk/server/mcp.js')).toEqual({
      fromSdk: true,
      answer: { jsonSafe: true, unknown: false },
    });
  });

  it("keeps the project's own SDK where it resolves one: v2, or the v1 SDK", async () => {
    const v2 = path.join(dir, 'v2-own');
    await fakeSdk(v2, '@modelcontextprotocol/server', '2.9.0');
    expect((await factsOf(v2, '@modelcontextprotocol/server')).answer).toEqual({ jsonSafe: false, unknown: false });
    const v1 = path.join(dir, 'v1-own');
    await fakeSdk(v1, '@modelcontextprotocol/sdk', '1.40.0', 'server/mcp.d.ts');
    expect((await factsOf(v1, '@modelcontextprotocol/sdk/server/mcp.js')).answer).toEqual({ jsonSafe: false, unknown: false });
  });

  it('takes the carried v2 declarations over a v2 package name resolved at a version before 2', async () => {
    const old = path.join(dir, 'v2-old');
    await fakeSdk(old, '@modelcontextprotocol/server', '1.0.0');
    expect(await factsOf(old, '@modelcontextprotocol/server')).toEqual({ fromSdk: true, answer: { jsonSafe: true, unknown: false } });
  });
});
