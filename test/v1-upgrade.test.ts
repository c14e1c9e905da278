// The v1 first pass: the official @modelcontextprotocol/codemod `v1-to-v2` run on scratch copies
// (src/engine/v1-upgrade.ts), the manifest edit (src/engine/package-json.ts), and the combined
// pipeline (upgradeV1, then the MRTR pass) on the fixtures/v1-* pairs and on the v1 shapes the
// official codemod leaves in a form the MRTR pass must know about.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { ManifestError, updateManifest, zodRangeProblem } from '../src/engine/package-json.ts';
import { importedPackages, isV1Source, officialMarkers, upgradeV1 } from '../src/engine/v1-upgrade.ts';
import { transformWithTypes } from '../src/transform.ts';
import { fixtureCases } from './support/fixtures.ts';

describe('isV1Source', () => {
  it.each([
    [`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`],
    [`import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";`],
    [`export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`],
    [`export * from '@modelcontextprotocol/sdk';`],
    [`const { Server } = require('@modelcontextprotocol/sdk/server/index.js');`],
    [`const sdk = await import('@modelcontextprotocol/sdk/server/mcp.js');`],
    [`import '@modelcontextprotocol/sdk/server/stdio.js';`],
    [`vi.mock('@modelcontextprotocol/sdk/server/stdio.js', () => ({}));`],
  ])('recognises %s', (text) => {
    expect(isV1Source(`// header\n${text}\n`)).toBe(true);
  });

  it.each([
    [`import { McpServer } from '@modelcontextprotocol/server';`],
    [`import { Client } from '@modelcontextprotocol/client';`],
    [`import { x } from '@modelcontextprotocol/sdk-extras';`],
    [`// we used to depend on @modelcontextprotocol/sdk`],
    [`const name = '@modelcontextprotocol/sdk';`],
  ])('does not take %s for a v1 import', (text) => {
    expect(isV1Source(text)).toBe(false);
  });
});

describe('importedPackages', () => {
  it('lists the MCP packages and zod a text imports, by root name', () => {
    const text = [
      `import { ElicitResultSchema } from "@modelcontextprotocol/core";`,
      `import { McpServer } from '@modelcontextprotocol/server';`,
      `import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';`,
      `import * as z from 'zod/v4';`,
      `import express from 'express';`,
    ].join('\n');
    expect(importedPackages(text)).toEqual(['@modelcontextprotocol/core', '@modelcontextprotocol/server', 'zod']);
  });
});

describe('updateManifest', () => {
  const manifest = `{
  "name": "notes-server",
  "version": "1.0.0",
  "type": "module",
  "files": ["dist", "README.md"],
  "scripts": { "build": "tsc" },
  "dependencies": {
    "@modelcontextprotocol/sdk": "^1.17.0",
    "express": "^5.0.0",
    "zod": "^3.25.0"
  },
  "devDependencies": {
    "typescript": "^5.8.0"
  }
}
`;

  it('adds the v2 server at ^2.4.0 in key order and drops the v1 SDK, touching nothing else', () => {
    const out = updateManifest(manifest, { stillImportsV1: false });
    expect(out).toBe(manifest.replace('"@modelcontextprotocol/sdk": "^1.17.0"', '"@modelcontextprotocol/server": "^2.4.0"'));
  });

  it('is idempotent', () => {
    const once = updateManifest(manifest, { stillImportsV1: false, packages: ['@modelcontextprotocol/core', 'zod'] });
    expect(updateManifest(once, { stillImportsV1: false, packages: ['@modelcontextprotocol/core', 'zod'] })).toBe(once);
    expect(updateManifest(once, { stillImportsV1: true })).toBe(once);
  });

  it('keeps the v1 SDK while something still imports it', () => {
    const out = updateManifest(manifest, { stillImportsV1: true });
    expect(out).toContain('"@modelcontextprotocol/sdk": "^1.17.0"');
    expect(out).toContain('    "@modelcontextprotocol/sdk": "^1.17.0",\n    "@modelcontextprotocol/server": "^2.4.0",\n    "express"');
  });

  it('adds the other v2 packages the code imports, and zod only when the manifest does not declare it', () => {
    const out = updateManifest(manifest, { stillImportsV1: false, packages: ['@modelcontextprotocol/core', '@modelcontextprotocol/server', 'zod', 'express'] });
    expect(out).toContain(
      '  "dependencies": {\n    "@modelcontextprotocol/core": "^2.4.0",\n    "@modelcontextprotocol/server": "^2.4.0",\n    "express": "^5.0.0",\n    "zod": "^3.25.0"\n  },',
    );
    const noZod = '{\n  "name": "x",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.0.0"\n  }\n}\n';
    expect(updateManifest(noZod, { stillImportsV1: false, packages: ['zod'] })).toBe(
      '{\n  "name": "x",\n  "dependencies": {\n    "@modelcontextprotocol/server": "^2.4.0",\n    "zod": "^4.2.0"\n  }\n}\n',
    );
  });

  it('keeps tabs, CRLF and a missing trailing newline; moves a dev-only SDK out of devDependencies', () => {
    const text = '{\r\n\t"name": "y",\r\n\t"devDependencies": {\r\n\t\t"@modelcontextprotocol/sdk": "1.0.0",\r\n\t\t"vitest": "^3.0.0"\r\n\t}\r\n}';
    expect(updateManifest(text, { stillImportsV1: false })).toBe(
      '{\r\n\t"name": "y",\r\n\t"dependencies": {\r\n\t\t"@modelcontextprotocol/server": "^2.4.0"\r\n\t},\r\n\t"devDependencies": {\r\n\t\t"vitest": "^3.0.0"\r\n\t}\r\n}',
    );
  });

  it('keeps four-space indentation, appends to an unsorted section, fills an empty one', () => {
    const unsorted = '{\n    "dependencies": {\n        "zod": "^4.2.0",\n        "@modelcontextprotocol/sdk": "^1.0.0"\n    }\n}\n';
    expect(updateManifest(unsorted, { stillImportsV1: false })).toBe(
      '{\n    "dependencies": {\n        "zod": "^4.2.0",\n        "@modelcontextprotocol/server": "^2.4.0"\n    }\n}\n',
    );
    expect(updateManifest('{\n    "name": "q",\n    "dependencies": {}\n}\n', { stillImportsV1: false })).toBe(
      '{\n    "name": "q",\n    "dependencies": {\n        "@modelcontextprotocol/server": "^2.4.0"\n    }\n}\n',
    );
    expect(updateManifest('{"name":"z","dependencies":{"@modelcontextprotocol/sdk":"^1"}}', { stillImportsV1: false })).toBe(
      '{"name":"z","dependencies":{"@modelcontextprotocol/server":"^2.4.0"}}',
    );
  });

  it('raises a declared v2 range that may resolve below 2.4.0, and leaves others alone', () => {
    const text = (range: string) => `{\n  "dependencies": {\n    "@modelcontextprotocol/server": ${JSON.stringify(range)}\n  }\n}\n`;
    expect(updateManifest(text('^2.1.0'), { stillImportsV1: false })).toBe(text('^2.4.0'));
    expect(updateManifest(text('~2.3.1'), { stillImportsV1: false })).toBe(text('^2.4.0'));
    for (const kept of ['^2.4.0', '2.5.0', 'workspace:*', 'latest', '^2.1.0 || ^3.0.0'])
      expect(updateManifest(text(kept), { stillImportsV1: false })).toBe(text(kept));
  });

  it('refuses what is not a JSON object', () => {
    expect(() => updateManifest('{ "name": ', { stillImportsV1: false })).toThrow(ManifestError);
    expect(() => updateManifest('[]', { stillImportsV1: false })).toThrow(ManifestError);
  });

  it('refuses a manifest with a key twice in one object, saying where', () => {
    const twice = '{\n  "dependencies": { "@modelcontextprotocol/sdk": "^1.0.0" },\n  "name": "x",\n  "dependencies": { "zod": "^4.2.0" }\n}\n';
    expect(() => updateManifest(twice, { stillImportsV1: false })).toThrow(
      new ManifestError('package.json has the key "dependencies" twice in one object (lines 2 and 4); remove one of them'),
    );
    const nested = '{ "dependencies": { "zod": "^4.2.0", "zod": "^3.0.0" } }';
    expect(() => updateManifest(nested, { stillImportsV1: true })).toThrow(/the key "zod" twice in one object \(lines 1 and 1\)/);
    // The same key in two different objects is fine.
    expect(updateManifest('{ "dependencies": { "zod": "^4.2.0" }, "devDependencies": { "zod": "^4.2.0" } }', { stillImportsV1: true })).toContain(
      '"@modelcontextprotocol/server"',
    );
  });

  it('says when the declared zod cannot serve the v2 SDK (>= 4.2)', () => {
    const zod = (range: string) => zodRangeProblem(`{ "dependencies": { "zod": ${JSON.stringify(range)} } }`);
    for (const bad of ['^3.25.0', '~4.1.0', '3.x', '<4.2.0', '>=3 <4', '4.1.5']) expect(zod(bad), bad).toMatch(/zod >= 4\.2\.0/);
    for (const good of ['^4.0.0', '^4.2.0', '4.2.0', '>=3', '^3.25 || ^4.0', 'latest', '*']) expect(zod(good), good).toBeUndefined();
    expect(zodRangeProblem('{ "name": "no-zod" }')).toBeUndefined();
  });
});

describe('upgradeV1', () => {
  let dir: string;
  let scratchParent: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-v1-user-'));
    scratchParent = await mkdtemp(path.join(os.tmpdir(), 'mrtr-v1-scratch-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(scratchParent, { recursive: true, force: true });
  });

  const server = `#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { z } from 'zod';

const server = new McpServer({ name: 'records', version: '1.0.0' });
export const store = new InMemoryTaskStore();

server.registerTool('delete_records', { inputSchema: { table: z.string() } }, async ({ table }, extra) => {
  const answer = await server.server.elicitInput({ message: \`Delete \${table}?\`, requestedSchema: { type: 'object', properties: {} } });
  extra.signal.throwIfAborted();
  return { content: [{ type: 'text', text: answer.action }] };
});

await server.connect(new StdioServerTransport());
`;
  const plain = `export const answer = 42;\n`;

  it('moves a v1 server to the v2 packages on a scratch copy; the user files and the scratch space are left as they were', async () => {
    const serverPath = path.join(dir, 'src', 'server.ts');
    const plainPath = path.join(dir, 'src', 'plain.ts');
    await mkdir(path.dirname(serverPath), { recursive: true });
    await writeFile(serverPath, server);
    await writeFile(plainPath, plain);
    const before = await Promise.all([serverPath, plainPath].map(async (f) => ({ text: await readFile(f, 'utf8'), mtime: (await stat(f)).mtimeMs })));

    const [upgraded, untouched] = await upgradeV1(
      [
        { path: serverPath, text: server },
        { path: plainPath, text: plain },
      ],
      { tmpDir: scratchParent },
    );

    expect(upgraded!.path).toBe(serverPath);
    expect(upgraded!.changed).toBe(true);
    expect(upgraded!.text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    // In the file's own quotes (the official codemod writes double quotes).
    expect(upgraded!.text).toContain(`import { McpServer } from '@modelcontextprotocol/server';`);
    expect(upgraded!.text).toContain(`import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';`);
    expect(upgraded!.text).toContain(`{ inputSchema: z.object({ table: z.string() }) }, async ({ table }, ctx) => {`);
    expect(upgraded!.text).toContain('ctx.mcpReq.signal.throwIfAborted();');
    // The MRTR pass's business: left as it was.
    expect(upgraded!.text).toContain('await server.server.elicitInput({');
    // The experimental import has no v2 home: it stays, with the official marker above it.
    expect(isV1Source(upgraded!.text)).toBe(true);
    expect(importedPackages(upgraded!.text)).toEqual(['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'zod']);

    expect(untouched).toEqual({ path: plainPath, text: plain, changed: false, notes: [] });

    const after = await Promise.all([serverPath, plainPath].map(async (f) => ({ text: await readFile(f, 'utf8'), mtime: (await stat(f)).mtimeMs })));
    expect(after).toEqual(before);
    expect(await readdir(dir, { recursive: true })).toEqual(expect.arrayContaining(['src', 'src/server.ts', 'src/plain.ts']));
    expect((await readdir(dir, { recursive: true })).length).toBe(3);
    expect(await readdir(scratchParent)).toEqual([]);
  });

  it('returns @mcp-codemod-error markers as notes at their position in the upgraded text', async () => {
    const [upgraded] = await upgradeV1([{ path: 'src/server.ts', text: server }]);
    const lines = upgraded!.text.split('\n');
    const errors = upgraded!.notes.filter((n) => n.code === 'mcp-codemod-error');
    expect(errors).toEqual([
      {
        line: 4,
        column: 4,
        code: 'mcp-codemod-error',
        message: 'Unknown SDK import path: @modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js. Manual migration required.',
      },
    ]);
    expect(lines[3]!.slice(3)).toMatch(/^@mcp-codemod-error Unknown SDK import path/);
    expect(lines[4]).toContain(`from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js'`);
    // The same scan `check` makes.
    expect(officialMarkers(upgraded!.text)).toEqual(errors);
    expect(upgraded!.notes.some((n) => n.code === 'mcp-codemod-info' && /wrapped with z\.object\(\)/.test(n.message))).toBe(true);
  });

  it('reports what it leaves on v1 without a marker (require) and keeps CRLF line endings', async () => {
    const cjs = `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\r\nmodule.exports = new McpServer({ name: 'x', version: '1' });\r\n`;
    const esm = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\r\nimport { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';\r\nexport const s = new McpServer({ name: 'x', version: '1' });\r\nexport const schema = ElicitResultSchema;\r\n`;
    const [a, b] = await upgradeV1([
      { path: 'lib/server.cjs', text: cjs },
      { path: 'src/esm.ts', text: esm },
    ]);
    expect(a!.changed).toBe(false);
    expect(a!.notes).toEqual([expect.objectContaining({ code: 'v1-import-left', line: 1, column: 32 })]);
    expect(b!.changed).toBe(true);
    expect(b!.text).not.toMatch(/[^\r]\n/);
    expect(b!.text).toContain("'@modelcontextprotocol/core';\r\n");
  });

  it('gives the same result whatever the batch size', async () => {
    const files = [
      { path: 'a.ts', text: server },
      { path: 'b.ts', text: `import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';\nexport const s = CallToolResultSchema;\n` },
    ];
    const oneByOne = await upgradeV1(files, { batchSize: 1 });
    // Both files are upgraded: the runs compared each did something.
    expect(oneByOne.map((r) => [r.path, r.changed])).toEqual([
      ['a.ts', true],
      ['b.ts', true],
    ]);
    expect(oneByOne).toEqual(await upgradeV1(files));
  });

  it('settles in one call: run again on its own output, it changes nothing (an unknown import path under a header comment)', async () => {
    // One official pass skips the marker for the unknown path here (a file opening with a
    // comment); a second pass writes it. upgradeV1 must give the second pass's text at once.
    const text = `#!/usr/bin/env node

/**
 * A records server.
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

export const schema = toJsonSchemaCompat(z.object({ table: z.string() }));
export const server = new McpServer({ name: 'records', version: '1.0.0' });
export const pair = InMemoryTransport.createLinkedPair();
`;
    const [once] = await upgradeV1([{ path: 'server.ts', text }]);
    const [twice] = await upgradeV1([{ path: 'server.ts', text: once!.text }]);
    expect(twice!.changed).toBe(false);
    expect(twice!.text).toBe(once!.text);
    const marker = officialMarkers(once!.text);
    expect(marker.map((m) => m.message)).toEqual([
      expect.stringContaining('Unknown SDK import path: @modelcontextprotocol/sdk/server/zod-json-schema-compat.js'),
    ]);
    // The marker sits right above the import it is about, and is written once.
    const lines = once!.text.split('\n');
    expect(lines[marker[0]!.line]).toBe(`import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';`);
    expect(once!.notes.filter((n) => n.code === 'mcp-codemod-error')).toHaveLength(1);
    expect(once!.text).toContain(`import { McpServer, InMemoryTransport } from '@modelcontextprotocol/server';`);
  });
});

describe('upgradeV1: the tool() registrations the official codemod leaves', () => {
  it('finishes each one it can read, drops the marker that answers, and keeps the marker and its note of one it cannot', async () => {
    const text = [
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
      `import { z } from 'zod';`,
      ``,
      `const T = { find: 'notes_find', add: 'notes_add' };`,
      `const definition = [T.add, async () => ({ content: [] })] as const;`,
      ``,
      `export function createServer(): McpServer {`,
      `  const server = new McpServer({ name: 'notes', version: '1.0.0' });`,
      `  server.tool(T.find, 'Find notes.', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));`,
      `  server.tool(...definition);`,
      `  return server;`,
      `}`,
      ``,
    ].join('\n');
    const [upgraded] = await upgradeV1([{ path: 'server.ts', text }]);
    const lines = upgraded!.text.split('\n');
    expect(lines.slice(7, 11)).toEqual([
      `  const server = new McpServer({ name: 'notes', version: '1.0.0' });`,
      `  server.registerTool(T.find, { description: 'Find notes.', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));`,
      `  /* @mcp-codemod-error Could not automatically migrate .tool() call. Manual migration required. */`,
      `  server.tool(...definition);`,
    ]);
    expect(upgraded!.notes.filter((n) => n.code === 'mcp-codemod-error')).toEqual([
      { line: 10, column: 6, message: 'Could not automatically migrate .tool() call. Manual migration required.', code: 'mcp-codemod-error' },
    ]);
  });
});

describe('v1 server → official v1-to-v2 → MRTR pass', () => {
  const types = new TsTypeFactsProvider();
  const migrate = async (fileName: string, text: string) => {
    const [upgraded] = await upgradeV1([{ path: fileName, text }]);
    return { upgraded: upgraded!, final: await transformWithTypes(upgraded!.text, fileName, types) };
  };

  // fixtures.test.ts checks that each pair comes out of the combined pipeline and typechecks;
  // here, what the two passes say about it along the way.
  it.each(fixtureCases().filter((c) => c.name.startsWith('v1-')))('fixture $name', async (fixture) => {
    const { upgraded, final } = await migrate(fixture.inputPath, fixture.input);
    expect(upgraded.notes.filter((n) => n.code !== 'mcp-codemod-info')).toEqual([]);
    expect(final.plan.sites.length).toBeGreaterThan(0);
    expect(final.plan.sites.every((s) => s.status === 'migrated')).toBe(true);
    expect((await upgradeV1([{ path: fixture.outputPath, text: fixture.output }]))[0]!.changed).toBe(false);
  });

  it("keeps the file's quotes: the imports it rewrites in single quotes where the file uses them, its own double-quoted ones as they were", async () => {
    const server = (quote: string) =>
      [
        `import { McpServer } from ${quote}@modelcontextprotocol/sdk/server/mcp.js${quote};`,
        `import { z } from ${quote}zod${quote};`,
        `import { World } from "./world.js";`,
        '',
        `export const server = new McpServer({ name: ${quote}s${quote}, version: ${quote}1${quote} });`,
        '',
      ].join('\n');
    const [single] = await upgradeV1([{ path: 'single.ts', text: server("'") }]);
    expect(single!.text).toContain(`import { McpServer } from '@modelcontextprotocol/server';`);
    expect(single!.text).toContain(`import { World } from "./world.js";`);
    const [double] = await upgradeV1([{ path: 'double.ts', text: server('"') }]);
    expect(double!.text).toContain('import { McpServer } from "@modelcontextprotocol/server";');
  });

  // The shapes the official codemod leaves that the MRTR pass meets. Pinned so an upgrade of
  // @modelcontextprotocol/codemod that changes them shows here.
  const shapes = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'shapes', version: '1.0.0' });

  server.registerTool('ask_extra', { inputSchema: { q: z.string() } }, async ({ q }, extra) => {
    const r = await extra.sendRequest({ method: 'elicitation/create', params: { message: q, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: r.action }] };
  });

  server.registerTool('ask_context', { inputSchema: { q: z.string() } }, async ({ q }, context) => {
    context.signal.throwIfAborted();
    const r = await context.sendRequest({ method: 'elicitation/create', params: { message: q, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: r.action }] };
  });

  server.registerTool('roots_one_param', { description: 'roots' }, async (extra) => {
    const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
    return { content: [{ type: 'text', text: roots.roots.map((r) => r.uri).join(',') }] };
  });

  server.registerTool('ask_destructured', { inputSchema: { q: z.string() } }, async ({ q }, { sendRequest }) => {
    const r = await sendRequest({ method: 'elicitation/create', params: { message: q, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: r.action }] };
  });

  server.registerTool('summarise', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
    const reply = await extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 100 } }, CreateMessageResultSchema);
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
  });

  return server;
}
`;

  it('documents what the official codemod leaves, and what the MRTR pass makes of it', async () => {
    const { upgraded, final } = await migrate('shapes.ts', shapes);
    const up = upgraded.text;
    // extra.sendRequest(request, Schema) → ctx.mcpReq.send(request, Schema): the schema stays.
    expect(up).toContain(
      `async ({ q }, ctx) => {\n    const r = await ctx.mcpReq.send({ method: 'elicitation/create', params: { message: q, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);`,
    );
    expect(up).toContain(`import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/core';`);
    // A context parameter not named `extra`, or the only parameter: left in the v1 shape, no marker.
    expect(up).toContain(`async ({ q }, context) => {\n    context.signal.throwIfAborted();\n    const r = await context.sendRequest(`);
    expect(up).toContain(`async (extra) => {\n    const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);`);
    // A destructured context: a marker, nothing rewritten.
    expect(up).toContain(`  /* @mcp-codemod-error Destructuring of context parameter in signature: "{ sendRequest }".`);
    expect(upgraded.notes.filter((n) => n.code === 'mcp-codemod-error').map((n) => n.line)).toEqual([24]);

    const byHandler = Object.fromEntries(final.plan.sites.map((s) => [s.handler, s.status]));
    expect(byHandler).toEqual({
      'tool:ask_extra': 'migrated',
      'tool:ask_context': 'migrated',
      'tool:roots_one_param': 'migrated',
      'tool:summarise': 'migrated',
      // The destructured `sendRequest` is the handler's context: the parameter becomes `ctx`,
      // and the official marker about the destructuring, with nothing of it left, goes.
      'tool:ask_destructured': 'migrated',
    });
    expect(final.output).toContain("async ({ q }, ctx) => {\n    const mrtr = await mrtrResume(ctx, 'tool:ask_destructured'");
    expect(final.output).not.toContain('Destructuring of context parameter');
    // Still v1-shaped after both passes (no marker from either): `context.signal` does not exist
    // on v2's ServerContext.
    expect(final.output).toContain('context.signal.throwIfAborted();');
  });

  // A registration over several lines: the official codemod writes its marker on the line above
  // the handler's parameters, inside the call, not above the statement.
  const spread = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'spread', version: '1.0.0' });

  server.registerTool(
    'ask_spread',
    { inputSchema: { q: z.string() } },
    async ({ q }, { sendRequest }) => {
      const r = await sendRequest({ method: 'elicitation/create', params: { message: q, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
      return { content: [{ type: 'text', text: r.action }] };
    }
  );

  server.registerTool(
    'headers_spread',
    { inputSchema: { q: z.string() } },
    async ({ q }, { requestInfo }) => {
      return { content: [{ type: 'text', text: q + String(requestInfo?.headers['x-q']) }] };
    }
  );

  return server;
}
`;

  it('drops the official destructuring marker above the parameters of a spread-out handler it rewrites, and only that one', async () => {
    const { upgraded, final } = await migrate('spread.ts', spread);
    const marker = (pattern: string) =>
      `    /* @mcp-codemod-error Destructuring of context parameter in signature: "${pattern}". Properties have been reorganized in v2 (e.g., signal is now ctx.mcpReq.signal). Manual refactoring required. */`;
    const upLines = upgraded.text.split('\n');
    expect(upLines.slice(upLines.indexOf(marker('{ sendRequest }')), upLines.indexOf(marker('{ sendRequest }')) + 2)).toEqual([
      marker('{ sendRequest }'),
      '    async ({ q }, { sendRequest }) => {',
    ]);
    // A key v2 reads another way (a fetch Request's headers): the upgrade does not rewrite it.
    expect(upLines).toContain(marker('{ requestInfo }'));

    expect(final.plan.sites.map((s) => [s.handler, s.status])).toEqual([['tool:ask_spread', 'migrated']]);
    const lines = final.output.split('\n');
    const at = lines.indexOf("    'ask_spread',");
    expect(lines.slice(at, at + 4)).toEqual([
      "    'ask_spread',",
      '    { inputSchema: z.object({ q: z.string() }) },',
      '    async ({ q }, ctx) => {',
      "      const mrtr = await mrtrResume(ctx, 'tool:ask_spread', ['r'], { q }, server);",
    ]);
    expect(final.output).not.toContain('"{ sendRequest }"');
    // The handler it does not rewrite keeps its marker, on the line above its parameters.
    const other = lines.indexOf(marker('{ requestInfo }'));
    expect(other).toBeGreaterThan(at);
    expect(lines[other + 1]).toBe('    async ({ q }, { requestInfo }) => {');
  });

  // Shapes the official codemod leaves that the MRTR pass must still read right.
  it('types a sampling answer from the result schema the send was given (CreateMessageResultSchema)', async () => {
    const { final } = await migrate('shapes.ts', shapes);
    expect(final.output).toContain(`const reply = mrtr.response<CreateMessageResult>('reply', 'sampling');`);
  });

  const lowLevel = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

async function confirm(extra: RequestHandlerExtra<ServerRequest, ServerNotification>, message: string): Promise<boolean> {
  const r = await extra.sendRequest({ method: 'elicitation/create', params: { message, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);
  return r.action === 'accept';
}

export const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const ok = await confirm(extra, \`Run \${request.params.name}?\`);
  return { content: [{ type: 'text', text: ok ? 'done' : 'cancelled' }] };
});
`;

  it('low-level server: a separate type-only import, a remapped helper, a marker at the forwarding call', async () => {
    const { upgraded } = await migrate('low.ts', lowLevel);
    expect(upgraded.text).toContain(
      `import { Server } from '@modelcontextprotocol/server';\nimport type { ServerContext } from '@modelcontextprotocol/server';`,
    );
    expect(upgraded.text).toContain(`async function confirm(extra: ServerContext, message: string): Promise<boolean> {\n  const r = await extra.mcpReq.send(`);
    expect(upgraded.text).toContain(`server.setRequestHandler('tools/call', async (request, ctx) => {`);
    expect(upgraded.notes.filter((n) => n.code === 'mcp-codemod-error')).toEqual([
      expect.objectContaining({ line: 13, column: 6, message: expect.stringMatching(/^The context object is forwarded to confirm\(…\)/) }),
    ]);
  });

  it('low-level server: the MRTR pass migrates the helper despite the separate `import type { ServerContext }`', async () => {
    // The second import from @modelcontextprotocol/server once read as a local `ServerContext`:
    // a name-clash refusal, and the helper's site was then neither migrated nor marked nor listed.
    const { final } = await migrate('low.ts', lowLevel);
    expect(final.plan.sites).toContainEqual(expect.objectContaining({ handler: 'helper:confirm', status: 'migrated' }));
  });
});

describe('updateManifest: the legacy server package', () => {
  it('adds @modelcontextprotocol/server-legacy when the migrated tree imports it', () => {
    const text = '{\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2"\n  }\n}\n';
    const out = updateManifest(text, { stillImportsV1: false, packages: ['@modelcontextprotocol/server', '@modelcontextprotocol/server-legacy'] });
    expect(JSON.parse(out).dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0', '@modelcontextprotocol/server-legacy': '^2.3.1' });
  });
});
