// The purity check on its own: which statements of a handler only derive values (and may run
// again on a retry), and which do something the retry must not repeat, each named by the code
// that does it. The scope is given by hand, as the planner gives it (rederive.ts).
import type { Node, Statement } from '@babel/types';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { isFunction, type FunctionNode } from '../src/analyse/ast.ts';
import { idempotentComments, namedIdempotent, taggedBefore } from '../src/analyse/idempotent.ts';
import { isFreshValue, statementPurity, type HandlerName, type PurityScope } from '../src/analyse/purity.ts';

const MODULE = `
type Note = { title: string; tags: string[] };
declare const server: { server?: { elicitInput?: (p: unknown) => Promise<unknown> } };
declare const log: string[];
declare const mcp: { server: { getClientCapabilities(): { roots?: object } | undefined } };
declare function connect(): Promise<{ ok: boolean }>;
declare function unknownFn(x: string): string;
const store = new Map<string, Note>();
let counter = 0;
function shout(x: string): string { return x.trim().toUpperCase(); }
const joined = (xs: string[]) => xs.map((x) => shout(x)).join(',');
function logged(x: string): string { log.push(x); return x; }
function touch(note: Note): Note { note.tags.push('seen'); return note; }
function rootsDeclared(): boolean { return mcp.server.getClientCapabilities()?.roots !== undefined; }
`;

/** What each name of the test handler is: `id` and `items` are its arguments. */
const ROLES: Record<string, HandlerName> = {
  id: 'argument',
  items: 'argument',
  ctx: 'context',
  alias: 'derived',
  note: 'derived',
  seen: 'fresh',
  draft: 'fresh',
  later: 'derived',
  count: 'local',
};

const KNOWN: Record<string, string[]> = { store: ['get', 'has'], xs: ['map', 'join'], x: ['trim', 'toUpperCase'] };

/** The first statement of `code`, written as the body of a handler, and the scope it is checked in. */
function check(code: string, idempotent: readonly string[] = [], requestCapabilities = true) {
  const source = `${MODULE}\nexport const handler = async ({ id, items }: { id: string; items: string[] }, ctx: any) => {\n${code}\n};\n`;
  const analysis = analyseFile(source, 'x.ts');
  const handler = analysis.index.functions.map((f) => f.node).find((fn) => fn.start! > source.indexOf('export const handler'))!;
  const statement = (handler.body as Extract<Node, { type: 'BlockStatement' }>).body[0] as Statement;
  const functions = new Map<string, FunctionNode>();
  for (const { node, ancestors } of analysis.index.functions) {
    const parent = ancestors[ancestors.length - 1];
    if (node.type === 'FunctionDeclaration' && node.id) functions.set(node.id.name, node);
    if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier' && isFunction(node)) functions.set(parent.id.name, node);
  }
  const scope: PurityScope = {
    handlerName: (name) => ROLES[name],
    declaredInModule: (name) => analysis.declaredAnywhere.has(name),
    functionNamed: (name) => (name === 'handler' ? undefined : functions.get(name)),
    // As the planner knows them: `store` by its `new Map()`, the parameters of the module's functions by their annotations.
    readsOnly: (receiver, method) => receiver.type === 'Identifier' && (KNOWN[receiver.name]?.includes(method) ?? false),
    declaredIdempotent: (call) => call.type === 'CallExpression' && namedIdempotent(call.callee, idempotent),
    requestCapabilities,
  };
  const purity = statementPurity(statement, scope);
  const text = (n: Node) => source.slice(n.start!, n.end!);
  return { blocker: purity.blocker ? text(purity.blocker) : undefined, calls: purity.calls.map((c) => `${text(c.node)}: ${c.why}`) };
}

describe('a statement that only derives values', () => {
  it.each([
    ['an argument read through a JSON method', 'const key = id.trim().toLowerCase();', ['id.trim(): read', 'id.trim().toLowerCase(): read']],
    ['a typed Map read', 'const found = store.get(id);', ['store.get(id): read']],
    [
      'a bound copy of the legacy method, through optional chains',
      'const ask = server.server?.elicitInput?.bind(server.server);',
      ['server.server?.elicitInput?.bind(server.server): read'],
    ],
    ['its guard', "if (!alias) {\n  return { content: [{ type: 'text', text: 'cannot ask' }] };\n}", []],
    ['a fresh Set', 'const made = new Set<string>();', []],
    ['a fresh Map, array and object', "const made = [new Map(), [], { id, tags: ['a'] }];", []],
    ['an arrow function capturing an argument', 'const f = (x: string) => `${x}:${id}`;', []],
    ['a module function shown pure (through another)', 'const label = joined(items);', ['joined(items): pure-function']],
    [
      'array reads with pure callbacks',
      'const ok = items.filter((i) => i.length > 0).map((i) => shout(i));',
      ['items.filter((i) => i.length > 0): read', 'shout(i): pure-function', 'items.filter((i) => i.length > 0).map((i) => shout(i)): read'],
    ],
    ['a fresh local filled in a loop', 'for (const i of items) seen.add(i);', []],
    [
      "an argument's items, read in a loop and a callback",
      'for (const i of items) seen.add(i.trim() + items.map((j) => j.trim()).join());',
      ['i.trim(): read', 'j.trim(): read', 'items.map((j) => j.trim()): read', 'items.map((j) => j.trim()).join(): read'],
    ],
    ['a fresh object changed', 'draft.title = id;', []],
    ['globals that only compute', 'const s = JSON.stringify({ n: Math.max(1, items.length), d: new Date(id) });', []],
    ['a member of the context', 'const m = ctx.mcpReq.elicitInput;', []],
    ['a let without a value', 'let reason: string;', []],
    ['a pattern with a default', 'const { title, tags = [id] } = note;', []],
    ['a derived let assigned', 'later = id;', []],
    ['a call declared idempotent', 'const c = await connect();', ['connect(): declared'], ['connect']],
    [
      "the client's capabilities, which the rewrite reads from the request",
      'const caps = mcp.server.getClientCapabilities();',
      ['mcp.server.getClientCapabilities(): read'],
    ],
  ])('%s', (_name, code, calls, idempotent: string[] = []) => {
    expect(check(code, idempotent)).toEqual({ blocker: undefined, calls });
  });
});

describe('a statement that does something the retry must not repeat', () => {
  it.each([
    ['a call of a function with an effect', 'const x = logged(id);', 'logged(id)'],
    ['a call of a function nothing shows', 'const x = unknownFn(id);', 'unknownFn(id)'],
    ['a function that changes what it is given', 'const x = touch(note);', 'touch(note)'],
    ['a log line', 'console.log(id);', 'console.log(id)'],
    ['the clock', 'const now = new Date();', 'new Date()'],
    ['the clock, read', 'const now = Date.now();', 'Date.now()'],
    ['randomness', 'const r = Math.random();', 'Math.random()'],
    ['a change of an object read from a store', 'note.title = id;', 'note.title = id'],
    ['a change of a module Map', 'store.set(id, note);', 'store.set(id, note)'],
    ['a change of a module variable', 'counter++;', 'counter++'],
    ['what belongs to one request', 'const signal = ctx.mcpReq.signal;', 'ctx.mcpReq.signal'],
    ['the context handed on', 'const c = ctx;', 'ctx'],
    ["the request's own _meta, read from an argument", 'const token = items._meta?.progressToken;', 'items._meta'],
    ['a local worked out once', 'const n = count + 1;', 'count'],
    ['a function capturing such a local', 'const f = () => count;', 'count'],
    ['a callback with an effect', 'items.forEach((i) => logged(i));', 'logged(i)'],
    ['a function handed to a read that calls it', 'const k = items.find(unknownFn);', 'unknownFn'],
    ['a push on an object not made here', "store.get(id)?.tags.push('x');", "store.get(id)?.tags.push('x')"],
    ['a var', 'var v = 1;', 'var v = 1;'],
    ['a tagged template', 'const t = String.raw`x${id}`;', 'String.raw`x${id}`'],
    ['a method of a value of no known type', 'const t = note.tags.includes(id);', 'note.tags.includes(id)'],
    ["the connection's capabilities read in a module function, which the rewrite leaves as they are", 'const r = rootsDeclared();', 'rootsDeclared()'],
    ['a try block', 'try {\n  shout(id);\n} catch {}', 'try {\n  shout(id);\n} catch {}'],
  ])('%s', (_name, code, blocker) => {
    expect(check(code).blocker).toBe(blocker);
  });
});

it("reads the client's capabilities again only in a handler's code, whose reads the rewrite makes the request's", () => {
  const read = 'const caps = mcp.server.getClientCapabilities();';
  expect(check(read).blocker).toBeUndefined();
  expect(check(read, [], false).blocker).toBe('mcp.server.getClientCapabilities()');
});

describe('a value the code made itself', () => {
  it.each([
    ['{}', true],
    ['[1]', true],
    ['new Set()', true],
    ['items.map((i) => i)', true],
    ['structuredClone(note)', true],
    ['ok ? [] : {}', true],
    ['store.get(id)', false],
    ['note', false],
    ['ok ? [] : note', false],
  ])('%s: %s', (code, fresh) => {
    const { program } = analyseFile(`const x = ${code};`, 'x.ts');
    const init = (program.body[0] as Extract<Node, { type: 'VariableDeclaration' }>).declarations[0]!.init!;
    expect(isFreshValue(init)).toBe(fresh);
  });
});

describe('a declaration that a call is idempotent', () => {
  const source = [
    '/** @mrtr-idempotent */',
    'export async function provider() {}',
    '// @mrtr-idempotent',
    'const a = await provider();',
    'const b = await /* @mrtr-idempotent */ pool.connect();',
    '// @mrtr-idempotent-ish: not the tag',
    'const c = other();',
    '// @mrtr-idempotent',
    '',
    'const d = far();',
  ].join('\n');
  const tagged = idempotentComments(analyseFile(source, 'x.ts').comments);
  const at = (text: string) => source.indexOf(text);

  it('finds the tag as a word in line and block comments only', () => {
    expect(tagged.map((c) => c.value.trim())).toEqual(['* @mrtr-idempotent', '@mrtr-idempotent', '@mrtr-idempotent', '@mrtr-idempotent']);
  });

  it.each([
    ['a function declared under the tag', 'export async function provider', false, true],
    ['a statement under the tag', 'const a', false, true],
    ['a call right after the tag, `await` between', 'pool.connect()', true, true],
    ['a statement under another word', 'const c', false, false],
    ['a statement a blank line away', 'const d', false, false],
    ['a call with code between', 'provider();', true, false],
  ])('%s', (_name, text, call, expected) => {
    expect(taggedBefore(source, tagged, at(text), call)).toBe(expected);
  });

  it('matches a name given on the command line, as written or as a method', () => {
    const callee = (code: string) => {
      const { program } = analyseFile(`${code};`, 'x.ts');
      return ((program.body[0] as Extract<Node, { type: 'ExpressionStatement' }>).expression as Extract<Node, { type: 'CallExpression' }>).callee;
    };
    expect(namedIdempotent(callee('connectionProvider()'), ['connectionProvider'])).toBe(true);
    expect(namedIdempotent(callee('conn.getCoreApi()'), ['getCoreApi'])).toBe(true);
    expect(namedIdempotent(callee('db.users.get(id)'), ['users.get'])).toBe(true);
    expect(namedIdempotent(callee('db.orders.get(id)'), ['users.get'])).toBe(false);
    expect(namedIdempotent(callee('getCoreApiToo()'), ['getCoreApi'])).toBe(false);
  });
});
