// The official v1-to-v2 codemod's `@mcp-codemod-error` comments on code the MRTR pass then
// rewrites, through the real CLI on v1 projects under .tmp/ (git-ignored): a comment whose
// quoted code the rewrite removed goes in the same edit, so `check` passes; one whose quoted
// code is still there stays, and `check` reports it.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../src/report/formats/check-report.ts';
import { cli } from './support/cli.ts';
import { ROOT } from './support/fixtures.ts';

const TMP = path.join(ROOT, '.tmp');
const dirs: string[] = [];
beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
});
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const MANIFEST = JSON.stringify({ name: 'v1-server', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.32.2', zod: '^3.25.0' } }, null, 2);

async function project(server: string): Promise<string> {
  const root = await mkdtemp(path.join(TMP, 'stale-official-'));
  dirs.push(root);
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'package.json'), `${MANIFEST}\n`);
  await writeFile(path.join(root, 'src/server.ts'), server);
  return root;
}

const HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const form = { type: 'object' as const, properties: {} };

async function confirm(extra: RequestHandlerExtra<ServerRequest, ServerNotification>, message: string): Promise<boolean> {
  const r = await extra.sendRequest({ method: 'elicitation/create', params: { message, requestedSchema: form } }, ElicitResultSchema);
  return r.action === 'accept';
}
`;

// The context forwarded to a helper the MRTR pass splits: the official codemod's comment names
// `confirm(…)`, which the rewritten statement no longer calls.
const FORWARDED = `
  server.registerTool('drop', { inputSchema: { table: z.string() } }, async ({ table }, extra) => {
    const ok = await confirm(extra, \`Drop \${table}?\`);
    return { content: [{ type: 'text', text: ok ? 'dropped' : 'kept' }] };
  });
`;

// A destructured `{ sendRequest }`: nothing of it is left once the request is migrated.
const DESTRUCTURED = `
  server.registerTool('ask', { inputSchema: { q: z.string() } }, async ({ q }, { sendRequest }) => {
    const r = await sendRequest({ method: 'elicitation/create', params: { message: q, requestedSchema: form } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: r.action }] };
  });
`;

// `requestInfo` is still destructured from the context after the migration (v2 has no place for
// it: its \`http.req\` is a fetch Request): open work.
const STILL_DESTRUCTURED = `
  server.registerTool('notify', { inputSchema: { q: z.string() } }, async ({ q }, { sendRequest, requestInfo }) => {
    console.error(requestInfo?.headers);
    const r = await sendRequest({ method: 'elicitation/create', params: { message: q, requestedSchema: form } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: r.action }] };
  });
`;

const server = (...tools: string[]) =>
  `${HEAD}
export function createServer(): McpServer {
  const server = new McpServer({ name: 'v1', version: '1.0.0' });
${tools.join('')}
  return server;
}
`;

const checkJson = async (root: string) => {
  const run = await cli(root, 'check', '--format', 'json', '.');
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
};

describe('official @mcp-codemod-error comments on code the MRTR pass rewrites', () => {
  it('go with the code they name: check passes after migrate, and a second run changes nothing', async () => {
    const root = await project(server(FORWARDED, DESTRUCTURED));
    const migrated = await cli(root, 'migrate', '.');
    expect(migrated.code, migrated.stderr).toBe(0);
    const text = await readFile(path.join(root, 'src/server.ts'), 'utf8');
    expect(text).toContain("const mrtr = await mrtrResume(ctx, 'tool:drop'");
    expect(text).toContain("const mrtr = await mrtrResume(ctx, 'tool:ask'");
    expect(text).not.toContain('confirm(ctx');
    expect(text).not.toContain('@mcp-codemod-error');
    const { code, report } = await checkJson(root);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    await cli(root, 'migrate', '.');
    expect(await readFile(path.join(root, 'src/server.ts'), 'utf8')).toBe(text);
  });

  it('stay where a name they quote is still used, and check reports them', async () => {
    const root = await project(server(FORWARDED, STILL_DESTRUCTURED));
    await cli(root, 'migrate', '.');
    const lines = (await readFile(path.join(root, 'src/server.ts'), 'utf8')).split('\n');
    const at = lines.findIndex((l) => l.includes('@mcp-codemod-error'));
    expect(lines.filter((l) => l.includes('@mcp-codemod-error'))).toHaveLength(1);
    expect(lines[at]).toContain('Destructuring of context parameter in signature: "{ sendRequest, requestInfo }"');
    expect(lines[at + 1]).toContain("server.registerTool('notify'");
    expect(lines[at + 2]).toContain('const { requestInfo } = ctx');
    const { code, report } = await checkJson(root);
    expect(report.findings.map((f) => [f.line, f.ruleId])).toEqual([[at + 1, 'mcp-codemod-error']]);
    expect(code).toBe(1);
  });
});
