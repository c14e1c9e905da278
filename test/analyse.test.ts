// Analysis and planning as pure functions of source text: every legacy spelling the
// skeleton promises is found, unrelated look-alikes are not, and each statement shape maps
// to the binding the rewrite needs.
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { referencedNames } from '../src/analyse/ast.ts';
import { parseSource } from '../src/analyse/parse.ts';
import { planFile } from '../src/plan/plan-file.ts';
import { transformSource } from '../src/transform.ts';

/** The params of a form question, for sources written inline. */
const Q = "{ message: 'm', requestedSchema: { type: 'object', properties: {} } }";

const tool = (body: string, params = '{ q }, ctx') => `
import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: schema }, async (${params}) => {
${body}
});
`;

describe('legacy call detection', () => {
  it.each([
    ['ctx.mcpReq.elicitInput(p)', 'elicit'],
    ['ctx.mcpReq.requestSampling(p)', 'sampling'],
    ["ctx.mcpReq.send({ method: 'elicitation/create', params: p })", 'elicit'],
    ["ctx.mcpReq.send({ method: 'roots/list' })", 'roots'],
    ['server.server.elicitInput(p)', 'elicit'],
    ['server.server.createMessage(p)', 'sampling'],
    ['server.server.listRoots()', 'roots'],
    ["ctx.sendRequest({ method: 'sampling/createMessage', params: p }, CreateMessageResultSchema)", 'sampling'],
  ])('finds %s as %s', (call, kind) => {
    const { sites } = analyseFile(tool(`  const r = await ${call};\n  return r;`), 'server.ts');
    expect(sites.map((s) => s.kind)).toEqual([kind]);
  });

  it.each([
    "ctx.mcpReq.send({ method: 'ping' })",
    'other.sendRequest(request)',
    '({ createMessage: (p: unknown) => p }).createMessage(p)',
    'ctx.mcpReq.notify(n)',
  ])('ignores %s', (call) => {
    expect(analyseFile(tool(`  await ${call};\n  return x;`), 'server.ts').sites).toEqual([]);
  });

  it('refuses a request inside a finally block, whose retry would run the try block again', () => {
    const { plan, output } = transformSource(
      tool(`  try {\n    work();\n  } finally {\n    await ctx.mcpReq.elicitInput(${Q});\n  }\n  return x;`),
      'server.ts',
    );
    expect(plan.sites).toMatchObject([{ status: 'marked', code: 'finally', reason: expect.stringContaining('the request is inside a finally block') }]);
    expect(plan.handlers).toEqual([]);
    expect(output).toContain(
      '    // @mrtr-todo(finally): `ctx.mcpReq.elicitInput(…)` is in a finally block, which runs on every round — move it out of the finally, then run again\n    await ctx.mcpReq.elicitInput(',
    );
  });

  it('reports a send whose request object it cannot read, and refuses to rewrite it', () => {
    const { plan } = transformSource(tool('  const r = await ctx.mcpReq.send(request);\n  return r;'), 'server.ts');
    expect(plan.sites).toMatchObject([{ status: 'marked', code: 'unknown-request' }]);
    expect(plan.handlers).toEqual([]);
  });

  it('finds the context parameter of a handler passed by name with a config it cannot see into', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
async function handleX(ctx) {
  const a = await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: a.action }] };
}
server.registerTool('x', config, handleX);
`;
    const { handlers } = analyseFile(source, 'server.js');
    expect(handlers.map((h) => [h.name, h.ctxIndex])).toEqual([['x', 0]]);
    expect(transformSource(source, 'server.js').plan.sites).toMatchObject([{ status: 'migrated', handler: 'tool:x' }]);
  });
});

describe('statement shapes', () => {
  const shapeOf = (body: string) => {
    const plan = planFile(analyseFile(tool(body), 'server.js'));
    return plan.handlers[0]?.points.map((p) => p.binding);
  };

  it('declaration, discard, assignment and return', () => {
    expect(shapeOf('  const a = await ctx.mcpReq.elicitInput(p);\n  return a;')).toEqual([
      { form: 'declare', kind: 'const', name: 'a', annotation: undefined },
    ]);
    expect(shapeOf('  await ctx.mcpReq.elicitInput(p);\n  return x;')).toEqual([{ form: 'discard' }]);
    expect(shapeOf('  let a;\n  a = await ctx.mcpReq.elicitInput(p);\n  return a;')).toEqual([{ form: 'assign', name: 'a' }]);
    expect(shapeOf('  return await ctx.mcpReq.elicitInput(p);')).toEqual([{ form: 'return' }]);
  });

  it('lifts exactly the locals declared before a point and read after it', () => {
    const plan = planFile(
      analyseFile(
        tool(
          '  const a: number = count();\n  const unused = 2;\n  const b = await ctx.mcpReq.elicitInput(p);\n  const c: number = a + count();\n  const d = await ctx.mcpReq.elicitInput(p);\n  return [a, b, c, d];',
        ),
        'server.ts',
      ),
    );
    expect(plan.handlers[0]!.points.map((p) => p.lifted.map((l) => l.name))).toEqual([['a'], ['a', 'b', 'c']]);
  });

  it('lifts none of those locals when they only derive values: they are made again on the retry', () => {
    const plan = planFile(
      analyseFile(
        tool(
          '  const a = 1;\n  const unused = 2;\n  const b = await ctx.mcpReq.elicitInput(p);\n  const c = a + 1;\n  const d = await ctx.mcpReq.elicitInput(p);\n  return [a, b, c, d];',
        ),
        'server.js',
      ),
    );
    expect(plan.handlers[0]!.points.map((p) => p.lifted.map((l) => l.name))).toEqual([[], ['b']]);
    expect(plan.handlers[0]!.rederivedNames).toEqual(['a', 'c']);
  });

  it('refuses a function local that lives across a question, in JavaScript too', () => {
    const { plan, changed } = transformSource(
      tool('  const n = count();\n  const f = () => n;\n  const a = await ctx.mcpReq.elicitInput(p);\n  return f(a);'),
      'server.js',
    );
    expect(plan.sites).toMatchObject([{ status: 'marked', code: 'unserialisable-local' }]);
    expect(changed).toBe(true); // the marker comment
  });

  it('makes a function local again on the retry when what it captures is made again too', () => {
    const { plan } = transformSource(tool('  const f = () => 1;\n  const a = await ctx.mcpReq.elicitInput(p);\n  return f(a);'), 'server.js');
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: [], rederived: ['f'] }]);
  });

  it('refuses an argument reassigned before a question', () => {
    const { plan } = transformSource(tool('  q = q.trim();\n  const a = await ctx.mcpReq.elicitInput(p);\n  return a;'), 'server.js');
    expect(plan.sites).toMatchObject([{ status: 'marked', code: 'param-reassigned' }]);
  });

  it('refuses a TypeScript local whose type it cannot know without the checker', () => {
    const { plan } = transformSource(tool('  const n = count();\n  const a = await ctx.mcpReq.elicitInput(p);\n  return n;'), 'server.ts');
    expect(plan.sites).toMatchObject([{ status: 'marked', code: 'untyped-local' }]);
  });

  it('uses an explicit annotation as the lifted type without the checker', () => {
    const { plan, output } = transformSource(tool('  const n: number = count();\n  const a = await ctx.mcpReq.elicitInput(p);\n  return n;'), 'server.ts');
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: ['n'] }]);
    expect(output).toContain('const { n } = mrtr.locals<{ n: number }>();');
  });

  it('marks a legacy call in a nested function of the handler instead of rewriting it', () => {
    const { plan } = transformSource(tool('  const ask = async () => ctx.mcpReq.elicitInput(p);\n  return ask();'), 'server.js');
    expect(plan.sites).toMatchObject([{ status: 'marked', code: 'closure' }]);
  });
});

describe('a request held in a const before it is sent', () => {
  // The const ran once before the question; the retry must not run its initialiser again, so
  // the question reads it from the const instead of repeating its text.
  it.each([
    [
      'send(request)',
      "const request = { method: 'elicitation/create' as const, params: { message: nextMessage(), requestedSchema: S } };\n  const answer = await ctx.mcpReq.send(request);",
      'inputRequired.elicit(request.params)',
    ],
    [
      'elicitInput(params)',
      'const params = { message: nextMessage(), requestedSchema: S };\n  const answer = await ctx.mcpReq.elicitInput(params);',
      'inputRequired.elicit(params)',
    ],
  ])('%s: the params are read from the const, and their initialiser runs once', (_name, ask, expected) => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const S = { type: 'object' as const, properties: {} };
let n = 0;
function nextMessage(): string { return \`question \${++n}\`; }
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  ${ask}
  return { content: [{ type: 'text', text: answer.action }] };
});
`;
    const { plan, output } = transformSource(source, 'server.ts', { local: () => ({ text: 'number', jsonSafe: true }) });
    expect(plan.sites).toMatchObject([{ status: 'migrated' }]);
    expect(output).toContain(expected);
    // In the function's declaration and the const's initialiser; not a third time in the question.
    expect(output.match(/nextMessage\(\)/g)).toHaveLength(2);
  });
});

describe('an asking helper the module exports and a handler here also calls', () => {
  // However the export is written, the helper is not split on its own (other modules may still
  // call it), and the engine is told it asks, so that their handlers are marked too, or (where
  // it can be split) ask through its halves once the engine says all of them can.
  it.each([
    [
      'export async function',
      `export async function confirm(ctx: ServerContext) {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return answer.action;\n}\n`,
      true,
    ],
    [
      'export { confirm }',
      `async function confirm(ctx: ServerContext) {\n  const answer = await ctx.mcpReq.elicitInput(${Q});\n  return answer.action;\n}\nexport { confirm };\n`,
      false,
    ],
  ])('%s', (_name, helper, splittable) => {
    const source = `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
${helper}const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  const action = await confirm(ctx);
  return { content: [{ type: 'text', text: action }] };
});
`;
    const { plan, output } = transformSource(source, 'server.ts');
    const line = source.split('\n').findIndex((l) => l.includes('elicitInput')) + 1;
    expect(plan.exportedHelpers).toEqual([
      {
        name: 'confirm',
        line,
        kind: 'elicit',
        // A plain exported async function can keep an entry under its name; the handler here reaches it.
        ...(splittable ? { split: expect.objectContaining({ kind: 'elicit', identity: false }), entry: true, reached: true } : {}),
      },
    ]);
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([
      ['marked', 'in-helper'],
      ['marked', 'via-helper'],
    ]);
    expect(output).toContain('async function confirm(ctx: ServerContext)');
    expect(output).not.toContain('confirmRequest');
    expect(() => parseSource(output, 'ts')).not.toThrow();
    if (!splittable) return;
    // Once the engine says every other module's handlers can ask through it: split, exported.
    const split = planFile(analyseFile(source, 'server.ts'), { splitExported: new Set(['confirm']) });
    expect(split.sites.map((s) => [s.status, s.handler])).toEqual([['migrated', 'helper:confirm']]);
    const { output: after } = transformSource(source, 'server.ts', undefined, { splitExported: ['confirm'] });
    expect(after).toContain('export function confirmRequest() {');
    expect(after).toContain('export function confirmResult(answer: ElicitResult) {');
  });
});

describe('what a loop with a question carries', () => {
  it("carries what the next iterations read of the loop's outer locals, not what each iteration declares afresh", () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: schema }, async ({ items }, ctx) => {
  const seen: string[] = [];
  for (const item of items) {
    const label = \`#\${item}\`;
    const answer = await ctx.mcpReq.elicitInput({ message: label, requestedSchema: { type: 'object', properties: {} } });
    seen.push(item + answer.action);
  }
  return { content: [] };
});
`;
    const { plan } = transformSource(source, 'server.ts', { local: () => ({ text: 'string', jsonSafe: true }) });
    // `seen` is declared outside the loop and read by the iterations still to come (though not
    // after the loop); `item` by the rest of this iteration; `label` by nothing after the
    // question; the loop's own counter travels too.
    expect(plan.sites).toMatchObject([{ status: 'migrated' }]);
    expect([...plan.sites[0]!.lifted!].sort()).toEqual(['item', 'mrtrIndex1', 'seen']);
  });
});

describe('what belongs to nested functions', () => {
  const typed = { local: () => ({ text: 'number', jsonSafe: true }) };

  it("does not take a nested function's own var for a handler local (the module's `count` is read after the question)", () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
let count = 0;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  function helper() { var count = 5; return count; }
  helper();
  const answer = await ctx.mcpReq.elicitInput(${Q});
  return { content: [{ type: 'text', text: answer.action + count }] };
});
`;
    const { plan, output } = transformSource(source, 'server.ts', typed);
    expect(plan.sites).toMatchObject([{ status: 'migrated', lifted: [] }]);
    expect(output).not.toContain('{ count }');
  });

  it('does not take the breaks of a loop inside a switch case for breaks out of the case', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: schema }, async ({ mode }, ctx) => {
  switch (mode) {
    case 'a': {
      const answer = await ctx.mcpReq.elicitInput(${Q});
      for (const x of [1, 2]) { if (x) break; }
      return { content: [{ type: 'text', text: answer.action }] };
    }
    default:
      return { content: [] };
  }
});
`;
    const { plan, output } = transformSource(source, 'server.ts', typed);
    expect(plan.sites).toMatchObject([{ status: 'migrated' }]);
    // The retry enters the same case, reads the answer, then runs the loop with its own break, then returns.
    expect(output).toContain("  switch (mrtr.step === 'answer' ? 'a' : mode) {");
    expect(output).toContain(
      [
        '      if (answer === undefined) return mrtr.askAgain();',
        '      for (const x of [1, 2]) { if (x) break; }',
        "      return { content: [{ type: 'text', text: answer.action }] };",
        '    }',
      ].join('\n'),
    );
  });
});

describe('a module that already declares a name the migration adds', () => {
  it('marks its URL elicitation throws as well as its questions', () => {
    const source = `import { McpServer, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
const inputRequired = 1;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('link', { description: 'd' }, async () => {
  throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId: 'e1', url: 'https://example.com', message: 'Sign in' }]);
});
`;
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites).toMatchObject([
      { line: 5, kind: 'elicitUrl', status: 'marked', code: 'name-clash', reason: 'the module already declares `inputRequired`, a name the migration adds.' },
    ]);
    expect(output).toContain('  // @mrtr-todo(name-clash): the module declares `inputRequired`, a name the migration adds — rename it, then run again\n');
    expect(output).toContain('  throw new UrlElicitationRequiredError(');
  });

  it('marks a question when an SDK import binds a name the request-state module must (mrtrVerify)', () => {
    const source = `import { McpServer, type ServerContext as mrtrVerify } from '@modelcontextprotocol/server';
export type Ctx = mrtrVerify;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('ask', { description: 'd' }, async (ctx) => {
  const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites).toMatchObject([
      { line: 5, kind: 'elicit', status: 'marked', code: 'name-clash', reason: 'the module already declares `mrtrVerify`, a name the migration adds.' },
    ]);
    expect(output).toContain('  // @mrtr-todo(name-clash): the module declares `mrtrVerify`, a name the migration adds — rename it, then run again\n');
  });

  it('marks a question when the module imports inputRequired as a type only (a second import would not compile)', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
import type { inputRequired } from '@modelcontextprotocol/server';
export type Builders = typeof inputRequired;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('ask', { description: 'd' }, async (ctx) => {
  const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites).toMatchObject([
      {
        line: 6,
        kind: 'elicit',
        status: 'marked',
        code: 'name-clash',
        reason: 'the module imports `inputRequired` as a type only, and the migration calls it.',
      },
    ]);
    expect(output).toContain(
      '  // @mrtr-todo(name-clash): `inputRequired` is imported as a type only, and the migration calls it — drop `type`, then run again\n',
    );
    expect(output.match(/inputRequired/g)).toHaveLength(3);
  });
});

describe('referencedNames', () => {
  it('counts names read by TypeScript expressions (instantiations, enum initialisers, assertions) and not names in types', () => {
    const { program } = parseSource('const g = f<string>; enum E { A = base } let y = x as T; let z: typeof w = 1;', 'ts');
    expect([...referencedNames(program)].sort()).toEqual(['A', 'E', 'base', 'f', 'g', 'x', 'y', 'z']);
  });
});

describe('requests made through an optional call', () => {
  it('are found and marked, not rewritten (the rewrite would ask every time)', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  const a = await ctx.mcpReq.elicitInput?.(${Q});
  return { content: [{ type: 'text', text: String(a?.action) }] };
});
server.registerTool('u', { description: 'd' }, async () => {
  const b = await server.server?.createMessage({ messages: [], maxTokens: 5 });
  return { content: [{ type: 'text', text: String(b) }] };
});
`;
    expect(analyseFile(source, 'server.ts').sites.map((s) => [s.call.loc!.start.line, s.kind])).toEqual([
      [4, 'elicit'],
      [8, 'sampling'],
    ]);
    const { plan, output } = transformSource(source, 'server.ts');
    expect(plan.sites.map((s) => [s.line, s.status, s.code])).toEqual([
      [4, 'marked', 'optional-call'],
      [8, 'marked', 'optional-call'],
    ]);
    expect(output).not.toContain('mrtr.ask');
  });
});

describe('rewrite invariants', () => {
  it('keeps a multi-line template literal as it was when it moves to a deeper block (before a question awaited inline, in a loop)', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  const out: string[] = [];
  for (const item of ['a', 'b']) {
    out.push(\`first \${item}
    second\`);
    if ((await ctx.mcpReq.elicitInput(${Q})).action === 'accept') out.push(item);
  }
  return { content: [] };
});
`;
    const { plan, output } = transformSource(source, 'server.ts', { local: () => ({ text: 'string', jsonSafe: true }) });
    expect(plan.sites).toMatchObject([{ status: 'migrated' }]);
    // The statement before the question moves into the first call's guard, a level deeper;
    // the literal's second line is data. The inline question reads its answer where it was.
    expect(output).toContain('    if (mrtrStep === undefined) {\n      out.push(`first ${item}\n    second`);\n      return mrtr.ask(');
    expect(output).toContain("    if (mrtrAnswer.action === 'accept') out.push(item);");
  });

  it('leaves a file without legacy sites byte for byte', () => {
    const source = "import x from 'y';\r\n\r\nconst a = 1; // comment\r\n";
    expect(transformSource(source, 'a.ts').output).toBe(source);
  });

  it('keeps CRLF line endings in everything it writes', () => {
    const source = tool('  const a = await ctx.mcpReq.elicitInput(p);\n  return a;').replace(/\n/g, '\r\n');
    const { output } = transformSource(source, 'server.js');
    expect(output).toContain('mrtr.askAgain()');
    expect(output.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('adds a context parameter when the handler had none', () => {
    const { output } = transformSource(tool('  const a = await server.server.elicitInput(p);\n  return a;', '{ q }'), 'server.js');
    expect(output).toContain('async ({ q }, ctx) => {');
    expect(output).toContain("await mrtrResume(ctx, 'tool:t', ['a'], { q }, server);");
  });

  it('is a fixed point', () => {
    const once = transformSource(tool('  const n = 1;\n  const a = await ctx.mcpReq.elicitInput(p);\n  return [a, n];'), 'server.js').output;
    expect(transformSource(once, 'server.js').output).toBe(once);
  });
});

describe('helpers in other modules', () => {
  const helpers = `import type { ServerContext } from '@modelcontextprotocol/server';
export async function confirm(ctx: ServerContext, message: string) {
  const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
  return answer.action === 'accept';
}
`;
  const server = `import { McpServer } from '@modelcontextprotocol/server';
import { confirm } from './helpers.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  if (!(await confirm(ctx, 'Go?'))) return { content: [] };
  return { content: [] };
});
`;

  it('marks an exported helper that asks, and every handler the engine says calls it', () => {
    const helperPlan = planFile(analyseFile(helpers, 'helpers.ts'));
    expect(helperPlan.sites).toMatchObject([{ status: 'marked', code: 'in-helper' }]);
    const external = new Map([['confirm', { file: 'helpers.ts', line: 3, name: 'confirm' }]]);
    const serverResult = transformSource(server, 'server.ts', undefined);
    expect(serverResult.changed).toBe(false); // nothing to see without the engine's cross-module facts
    const plan = planFile(analyseFile(server, 'server.ts'), { externalHelpers: external });
    expect(plan.sites).toMatchObject([{ status: 'marked', code: 'via-helper', handler: 'tool:t', line: 5 }]);
    expect(plan.markers).toHaveLength(1);
  });
});

describe('what the real-world check found', () => {
  it('names a handler by the value of a const tool name, not the variable', () => {
    const source = tool('  const a = await ctx.mcpReq.elicitInput(p);\n  return a;')
      .replace("registerTool('t'", 'registerTool(name')
      .replace('const server', "const name = 'delete_a';\nconst server");
    const { output } = transformSource(source, 'server.js');
    expect(output).toContain("mrtrResume(ctx, 'tool:delete_a'");
  });

  it("does not name a handler after another function's const of the same name", () => {
    // `name` in `register` is its parameter; the const `name` lives in `other`.
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
function other() { const name = 'wrong'; return name; }
function register(name) {
  server.registerTool(name, { description: 'd' }, async (ctx) => {
    const a = await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
    return a;
  });
}
`;
    const { plan, output } = transformSource(source, 'server.js');
    expect(output).not.toContain("'tool:wrong'");
    // The parameter `name` is what the registration reads: the handler names itself with it.
    expect(plan.sites).toMatchObject([{ status: 'migrated', handler: 'tool:name' }]);
    expect(output).toContain('await mrtrResume(ctx, `tool:${name}`,');
  });

  it('refuses a handler registered under a name it cannot read', () => {
    const source = tool('  const a = await ctx.mcpReq.elicitInput(p);\n  return a;').replace("registerTool('t'", 'registerTool(names.pick()');
    expect(transformSource(source, 'server.js').plan.sites).toMatchObject([{ status: 'marked', code: 'unknown-tool-name' }]);
  });

  it('marks a request sent through a function parameter', () => {
    const source = `async function background(sendRequest) {\n  await sendRequest({ method: 'elicitation/create', params: { message: 'm' } });\n}\n`;
    expect(transformSource(source, 'server.js').plan.sites).toMatchObject([{ status: 'marked', code: 'no-request-to-answer' }]);
    // Exported, other modules may call it from their handlers: nothing tells what it was handed.
    expect(transformSource(`export ${source}`, 'server.js').plan.sites).toMatchObject([{ status: 'marked', code: 'unknown-receiver' }]);
  });

  it('puts the marker of a refused URL throw right above the throw', () => {
    const source = tool('  if (q) {\n    if (x) {\n      y();\n    } else {\n      throw new UrlElicitationRequiredError(list);\n    }\n  }\n  return 1;');
    const { output } = transformSource(source, 'server.js');
    expect(output).toMatch(/} else {\n\s+\/\/ @mrtr-todo\(url-elicitation\)[^\n]*\n\s+throw new UrlElicitationRequiredError/);
  });
});

describe('registrations made late', () => {
  it('marks a tool registered from oninitialized that reads the session, which 2026-07-28 clients never trigger', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 's', version: '1' });
server.server.oninitialized = () => {
  const session = server.server.transport?.sessionId;
  server.registerTool('t', { description: 'd' }, async (ctx) => {
    const a = await ctx.mcpReq.elicitInput(p);
    return { ...a, session };
  });
};
`;
    const { plan, output } = transformSource(source, 'server.js');
    expect(plan.sites.map((s) => [s.status, s.code])).toEqual([
      ['marked', 'registered-late'],
      ['migrated', undefined],
    ]);
    expect(output).toMatch(/\/\/ @mrtr-todo\(registered-late\)[^\n]*\n {2}server\.registerTool\('t'/);
  });
});
