// A helper that may answer without asking, in a module of its own, and the ways other modules
// reach it: through a local function that returns its call (split with it), one that does more
// with its value (marked, with the handlers on the way), import() and a re-exporting index
// (the helper stays whole, and each calling handler is marked rather than left pushing).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

let dir: string;
beforeEach(() => {
  dir = checkoutScratch('maybe-ask-modules-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const put = (relative: string, text: string) => putFile(dir, relative, text);
const read = (relative: string) => readFile(path.join(dir, relative), 'utf8');

const CHOOSE = `import type { McpServer } from '@modelcontextprotocol/server';

export async function chooseProject(server: McpServer, message?: string): Promise<string | undefined> {
  const preset = process.env.PLANNER_PROJECT;
  if (preset) return preset;
  const result = await server.server.elicitInput({
    message: message ?? 'Which project?',
    requestedSchema: { type: 'object', properties: { project: { type: 'string' } }, required: ['project'] },
  });
  return result.action === 'accept' ? String(result.content?.project) : undefined;
}
`;

/** A module registering `name`, whose handler resolves the project through `call` (`await ...`), with `before` at the top. */
function tools(name: string, before: string, call: string): string {
  return `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
${before}
export function register(server: McpServer): void {
  server.registerTool('${name}', { inputSchema: z.object({ project: z.string().optional() }) }, async ({ project }) => {
    let chosen = project;
    if (!chosen) {
      chosen = await ${call};
    }
    return { content: [{ type: 'text', text: chosen ?? 'none' }] };
  });
}
`;
}

describe('a helper that may answer without asking, called from other modules', () => {
  it('is split, and so is a local function of another module that returns its call, for the handlers that call that', async () => {
    await put(
      'src/server.ts',
      "import { McpServer } from '@modelcontextprotocol/server';\nimport { register as direct } from './direct.js';\nimport { register as wrapped } from './wrapped.js';\n\nexport function createServer(): McpServer {\n  const server = new McpServer({ name: 'planner', version: '1.0.0' });\n  direct(server);\n  wrapped(server);\n  return server;\n}\n",
    );
    await put('src/choose.ts', CHOOSE);
    await put('src/direct.ts', tools('direct', "import { chooseProject } from './choose.js';\n", 'chooseProject(server)'));
    await put(
      'src/wrapped.ts',
      tools(
        'wrapped',
        "import { chooseProject } from './choose.js';\n\nconst pick = (server: McpServer) => chooseProject(server, 'Pick a project.');\n",
        'pick(server)',
      ),
    );
    const result = await runCodemod({ paths: [dir], write: true, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status])).toEqual([['src/choose.ts', 'migrated']]);
    const wrapped = await read('src/wrapped.ts');
    expect(wrapped).toContain("import { chooseProjectRequest, chooseProjectResult } from './choose.js';");
    expect(wrapped).toContain("function pickRequest() {\n  return chooseProjectRequest('Pick a project.');\n}");
    expect(wrapped).toContain('function pickResult(mrtrAnswer: ElicitResult) {\n  return chooseProjectResult(mrtrAnswer);\n}');
    expect(wrapped).toContain('const mrtrOutcome = await pickRequest();');
    expect(wrapped).toContain("const mrtrAnswer = mrtr.value('chosen', 'elicit', pickResult);");
    expect(wrapped).not.toContain('@mrtr-todo');
    const files = ['src/server.ts', 'src/choose.ts', 'src/direct.ts', 'src/wrapped.ts', 'src/mrtr-request-state.ts'].map((f) => path.join(dir, f));
    expect(typecheck(files)).toEqual([]);
    expect((await runCodemod({ paths: [dir], write: false, cwd: dir })).changed).toEqual([]);
  });

  it('stays whole where a local function does more with its value, which is marked with the handlers that call it', async () => {
    await put('src/choose.ts', CHOOSE);
    await put('src/direct.ts', tools('direct', "import { chooseProject } from './choose.js';\n", 'chooseProject(server)'));
    await put(
      'src/wrapped.ts',
      tools(
        'wrapped',
        "import { chooseProject } from './choose.js';\n\nasync function pick(server: McpServer): Promise<string> {\n  const chosen = await chooseProject(server);\n  return chosen ?? 'default';\n}\n",
        'pick(server)',
      ),
    );
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/choose.ts', 'marked', 'in-helper'],
      ['src/direct.ts', 'marked', 'via-helper'],
      ['src/wrapped.ts', 'marked', 'via-helper'],
      ['src/wrapped.ts', 'marked', 'via-helper'],
    ]);
    const wrapped = result.changed.find((c) => c.path === 'src/wrapped.ts')!.output;
    expect(wrapped).toContain(
      'this function cannot be split for them: it is a helper that does more with the value of `chooseProject()`, which may answer without asking.',
    );
    expect(wrapped).toContain('this handler reaches a server→client request through `pick()` → `chooseProject()` (line 6)');
    expect(result.changed.find((c) => c.path === 'src/choose.ts')!.output).toContain('export async function chooseProject(');
  });

  it.each([
    ['import()', "const { chooseProject } = await import('./choose.js');", 'chooseProject(server)', undefined, 'which it takes from its module with import()'],
    [
      'an index module that re-exports it',
      "import { chooseProject } from './index.js';\n",
      'chooseProject(server)',
      "export * from './choose.js';\n",
      'which cannot suspend it',
    ],
    [
      'an index module that re-exports it renamed',
      "import { pick } from './index.js';\n",
      'pick(server)',
      "export { chooseProject as pick } from './choose.js';\n",
      'which cannot suspend it',
    ],
  ])('stays whole where a module reaches it through %s, and that module’s handler is marked', async (_name, imports, call, index, says) => {
    await put('src/choose.ts', CHOOSE);
    if (index) await put('src/index.ts', index);
    await put('src/direct.ts', tools('direct', "import { chooseProject } from './choose.js';\n", 'chooseProject(server)'));
    // import() binds its names inside the handler, before the call.
    const other = index
      ? tools('other', imports, call)
      : tools('other', '', call).replace('    let chosen = project;', `    ${imports}\n    let chosen = project;`);
    await put('src/other.ts', other);
    const result = await runCodemod({ paths: [dir], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.filter((s) => s.code !== 'server-elsewhere').map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/choose.ts', 'marked', 'in-helper'],
      ['src/direct.ts', 'marked', 'via-helper'],
      ['src/other.ts', 'marked', 'via-helper'],
    ]);
    expect(result.sites.find((s) => s.file === 'src/other.ts')!.reason).toContain(says);
  });
});
