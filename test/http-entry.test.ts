// The HTTP entry-point rewrite's decisions one by one: what it puts in front of a route, and
// each wiring it leaves to a person with a marker (the fixtures http-entry-* show whole
// servers; test/e2e-http-entry.test.ts runs them).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';
import { cli, git } from './support/cli.ts';
import { putFile } from './support/scratch.ts';

const NODE = `import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { buildServer } from './server.js';
`;

/** A Node route whose body is `body`, in a module that imports the transport and buildServer. */
const route = (body: string, head = 'export async function handle(req, res) {') => `${NODE}\n${head}\n${body}\n}\n`;
const STATELESS = `  const server = buildServer();
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);`;

/** The marker's reason for each entry point of `source` (as a .ts file), or 'migrated'. */
function outcomes(source: string, fileName = 'route.ts'): string[] {
  return transformSource(source, fileName).entryPoints.map((e) => (e.status === 'migrated' ? 'migrated' : e.reason!));
}

describe('a Node route', () => {
  it('gets a guard in front and a handler beside it, with the options createMcpHandler shares with the transport', () => {
    const source = route(
      STATELESS.replace('{ sessionIdGenerator: undefined }', '{ sessionIdGenerator: undefined, enableJsonResponse: true, keepAliveMs: 5000 }'),
    );
    expect(transformSource(source, 'route.js').output).toBe(`import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { buildServer } from './server.js';

const mcpHandler = toNodeHandler(createMcpHandler(() => buildServer(), { legacy: 'reject', responseMode: 'json', keepAliveMs: 5000 }));

export async function handle(req, res) {
  // A 2026-07-28 request is served by createMcpHandler; a 2025 one goes on to the transport below.
  if (req.body !== undefined && !(await isLegacyRequest(await toWebRequest(req, req.body), req.body))) {
    await mcpHandler(req, res, req.body);
    return;
  }
  const server = buildServer();
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, keepAliveMs: 5000 });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}
`);
  });

  it('is served through require in a CommonJS module', () => {
    const source = `const { NodeStreamableHTTPServerTransport } = require('@modelcontextprotocol/node');
const { buildServer } = require('./server.js');

exports.handle = async (req, res) => {
${STATELESS}
};
`;
    const output = transformSource(source, 'route.cjs').output;
    expect(output.split('\n').slice(0, 10)).toEqual([
      'const {',
      '  NodeStreamableHTTPServerTransport,',
      '  toNodeHandler,',
      '  toWebRequest,',
      "} = require('@modelcontextprotocol/node');",
      "const { buildServer } = require('./server.js');",
      "const { createMcpHandler, isLegacyRequest } = require('@modelcontextprotocol/server');",
      '',
      "const mcpHandler = toNodeHandler(createMcpHandler(() => buildServer(), { legacy: 'reject' }));",
      '',
    ]);
    // A second run finds the module served already.
    expect(transformSource(output, 'route.cjs').output).toBe(output);
  });

  it.each([
    ['the body stream is unread', STATELESS.replace('(req, res, req.body)', '(req, res)'), "the route hands the transport the request's unread body"],
    ['the server is one for all requests', STATELESS.replace('  const server = buildServer();\n', ''), '`server` is not built in the route by a call'],
    [
      'the server is built from the request',
      STATELESS.replace('buildServer()', 'buildServer(req.headers.tenant)'),
      '`server` is not built in the route by a call',
    ],
    [
      'the route adds to the server',
      `${STATELESS}\n  server.registerTool('late', {}, async () => ({ content: [] }));`,
      '`server` is used besides being connected and closed',
    ],
    ['a host check has no counterpart', STATELESS.replace('undefined }', 'undefined, allowedHosts: [host] }'), 'built with `allowedHosts`'],
    [
      'an option shared with createMcpHandler is not a literal',
      STATELESS.replace('undefined }', 'undefined, enableJsonResponse: config.json }'),
      "transport's `enableJsonResponse` is `config.json`",
    ],
    [
      'the options are a variable',
      STATELESS.replace('{ sessionIdGenerator: undefined }', 'options'),
      'wired in a way the codemod does not rewrite (`new NodeStreamableHTTPServerTransport(options)`)',
    ],
    [
      'the body is read after a branch',
      `  if (req.method !== 'POST') return;\n  const body = req.parsed;\n${STATELESS.replace('req.body', 'body')}`,
      'does not rewrite (`transport.handleRequest(req, res, body)`)',
    ],
    [
      'two transports share the route',
      `${STATELESS}\n  const other = new NodeStreamableHTTPServerTransport();\n  await buildServer().connect(other);`,
      '(`two transports in one route`)',
    ],
  ])('is marked when %s', (_, body, reason) => {
    const [first] = outcomes(route(body));
    expect(first).toContain(reason);
  });

  it('is marked when the route cannot await', () => {
    expect(outcomes(route(STATELESS.replaceAll('await ', 'void '), 'export function handle(req, res) {'))).toEqual([
      expect.stringContaining('does not rewrite (`function handle(req, res) {'),
    ]);
  });

  it('is marked when the module uses a name the guard would import', () => {
    expect(outcomes(`${route(STATELESS)}function toWebRequest() {}\n`)).toEqual([expect.stringContaining('does not rewrite (`toWebRequest`)')]);
  });

  it('is marked when the server is a module singleton', () => {
    const source = route(STATELESS.replace('  const server = buildServer();\n', '')).replace(
      "from './server.js';\n",
      "from './server.js';\nconst server = buildServer();\n",
    );
    expect(outcomes(source)).toEqual([expect.stringContaining('`server` is built once, outside the route that connects it')]);
  });
});

describe('a route that uses its server besides connecting it', () => {
  it('is marked with the line of that use as the written file has it', () => {
    const { output } = transformSource(route(`${STATELESS}\n  log(server.name);`), 'route.ts');
    const lines = output.split('\n');
    const marker = lines.find((l) => l.includes('@mrtr-todo(http-entry)'))!;
    expect(marker).toContain('`server` is used besides its connection (`server.name`, line ');
    const line = Number(/line (\d+)\)/.exec(marker)![1]);
    expect(lines[line - 1]!.trim()).toBe('log(server.name);');
  });
});

describe('a fetch route', () => {
  const FETCH = `import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { buildServer } from './server.js';

export async function handle(request: Request, auth: AuthInfo): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await buildServer().connect(transport);
  return transport.handleRequest(request, { authInfo: auth });
}
`;

  it('hands the handler the request with the same options', () => {
    const output = transformSource(FETCH, 'route.ts').output;
    expect(output.split('\n').slice(0, 12)).toEqual([
      'import {',
      '  WebStandardStreamableHTTPServerTransport,',
      '  createMcpHandler,',
      '  isLegacyRequest,',
      "} from '@modelcontextprotocol/server';",
      "import { buildServer } from './server.js';",
      '',
      "const mcpHandler = createMcpHandler(() => buildServer(), { legacy: 'reject' });",
      '',
      'export async function handle(request: Request, auth: AuthInfo): Promise<Response> {',
      '  // A 2026-07-28 request is served by createMcpHandler; a 2025 one goes on to the transport below.',
      '  if (!(await isLegacyRequest(request))) return mcpHandler.fetch(request, { authInfo: auth });',
    ]);
  });

  it('is marked when the route does not return what the transport answers', () => {
    const source = FETCH.replace(
      '  return transport.handleRequest(request, { authInfo: auth });',
      '  const response = await transport.handleRequest(request);\n  return withCors(response);',
    );
    expect(outcomes(source)).toEqual([expect.stringContaining('does not rewrite (`transport.handleRequest(request)`)')]);
  });
});

describe('an SSE transport', () => {
  it('is marked: 2026-07-28 has none', () => {
    const source = `import { SSEServerTransport } from '@modelcontextprotocol/server-legacy';
import { buildServer } from './server.js';

export async function connect(res) {
  const transport = new SSEServerTransport('/messages', res);
  await buildServer().connect(transport);
}
`;
    expect(outcomes(source, 'sse.js')).toEqual([expect.stringContaining('2026-07-28 has no SSE transport')]);
  });
});

describe('migrate', () => {
  it('exits 1 when it leaves an entry point marked, and nothing else', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-http-entry-'));
    try {
      await putFile(dir, 'src/route.js', route(STATELESS.replace('(req, res, req.body)', '(req, res)')));
      await git(dir, 'init', '-q');
      await git(dir, 'add', '-A');
      await git(dir, 'commit', '-qm', 'route');
      const run = await cli(dir, 'migrate', 'src');
      expect(run.stdout).toContain('Entry points: 0 now serve 2026-07-28 and 2025, 1 marked');
      expect(run.stdout).toContain('Work through the 1 finding `mrtr-codemod check src` will then report (1 mrtr-todo/http-entry)');
      expect(run.code).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
