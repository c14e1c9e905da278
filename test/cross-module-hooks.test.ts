// An initialize hook that calls a function another module exports (`registerConditionalTools
// (server)`): the engine reads that module, and the modules it imports, to show the function only
// registers; then the call moves to where the hook is set. Anything it cannot show keeps the call
// in the hook, marked.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { noTypes, putFile } from './support/scratch.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-hooks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { registerConditionalTools } from './tools/index.js';

export const server = new McpServer({ name: 's', version: '1' });
server.server.oninitialized = () => {
  registerConditionalTools(server);
};
`;

const ASK = `import { z } from 'zod';

export function registerAsk(server) {
  if (server.server.getClientCapabilities()?.elicitation) {
    server.registerTool('ask', { inputSchema: z.object({}) }, async (args, ctx) => {
      const answer = await ctx.mcpReq.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } });
      return { content: [{ type: 'text', text: answer.action }] };
    });
  }
}
`;

const index = (extra = '') => `import { registerAsk } from './ask.js';

export function registerConditionalTools(server) {
  registerAsk(server);${extra}
}
`;

async function project(indexText: string): Promise<void> {
  await putFile(dir, 'src/server.ts', SERVER);
  await putFile(dir, 'src/tools/index.ts', indexText);
  await putFile(dir, 'src/tools/ask.ts', ASK);
}

// The server is built with the verifier of the state the migrated tool hands out.
const MOVED = `export const server = new McpServer({ name: 's', version: '1' }, { requestState: { verify: mrtrVerify() } });\nregisterConditionalTools(server);\n`;
const HOOK_MARKER = '  // @mrtr-todo(registered-late): `registerConditionalTools()` runs in an init hook that 2026 clients skip';

describe('an initialize hook calling a registrar of another module', () => {
  it('moves the call to start-up when the registrar, through the modules it imports, only registers', async () => {
    await project(index());
    await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });
    const server = await readFile(path.join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain(MOVED);
    expect(server).not.toContain('oninitialized');
    expect(server).not.toContain('@mrtr-todo');
    const ask = await readFile(path.join(dir, 'src/tools/ask.ts'), 'utf8');
    expect(ask).not.toContain('getClientCapabilities');
    expect(ask).toContain("return mrtr.ask('answer'");
    // A second run finds nothing left to do.
    const again = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: noTypes });
    expect(again.changed).toEqual([]);
  });

  it('keeps the call in the hook, marked, when the registrar does other work', async () => {
    await project(index("\n  console.log('registered');"));
    await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });
    const server = await readFile(path.join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain(`server.server.oninitialized = () => {\n${HOOK_MARKER}`);
    expect(server).toContain('\n  registerConditionalTools(server);\n};\n');
  });

  it('keeps the call in the hook, marked, when the registrar is outside the run', async () => {
    await project(index());
    await runCodemod({ paths: ['src/server.ts'], write: true, cwd: dir, types: noTypes });
    const server = await readFile(path.join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain(`server.server.oninitialized = () => {\n${HOOK_MARKER}`);
  });
});
