// Text from user code that the codemod writes into generated code stays data: a string
// literal built from it means exactly that text, a comment built from it stays one comment.
// The end-to-end cases are servers whose tool names try to break out (a newline, U+2028,
// `*/`, a quote, a bidi control) of the comment and the string they are written into.
import type { Node } from '@babel/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walk } from '../src/analyse/ast.ts';
import { parseSource } from '../src/analyse/parse.ts';
import { codeSnippet, commentText, jsString } from '../src/core/escape.ts';
import { transformSource } from '../src/transform.ts';

/** Strings with every kind of code unit: lone surrogates, controls, line terminators. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('\n', '\r', '\u2028', '\u2029', '*', '/', "'", '\\', '\u202e', '\0', 'a', '1') }),
);

describe('jsString', () => {
  it('is a literal whose value is the text, on one line', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const literal = jsString(text);
        expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
        const program = parseSource(`x = ${literal};`, 'ts').program;
        expect(program.body).toHaveLength(1);
        expect(new Function(`return ${literal};`)()).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('commentText', () => {
  it('never ends a line comment or a block comment early', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const body = commentText(text);
        expect(body).not.toMatch(/[\n\r\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
        for (const code of [`// ${body}\n0;`, `/* ${body} */ 0;`]) {
          const file = parseSource(code, 'ts');
          expect(file.program.body.map((s) => s.type)).toEqual(['ExpressionStatement']);
          expect(file.comments).toHaveLength(1);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('writes what it escaped as its escape, so the reader sees it', () => {
    expect(commentText('a\nb\u2028c */ d\u202ee')).toBe('a\\nb\\u2028c *\\/ d\\u202ee');
  });
});

describe('codeSnippet', () => {
  it('puts a multi-line piece of code on one line and shortens it', () => {
    expect(codeSnippet('(server\n    .server)')).toBe('(server .server)');
    expect(codeSnippet('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

const BREAKOUTS = [
  'late\u2028globalThis.pwned = 1; //',
  "one\nglobalThis.pwned = 2; '",
  'two\r\nglobalThis.pwned = 3',
  'three */ globalThis.pwned = 4; /*',
  'four\u202e;globalThis.pwned = 5',
];

const ELICIT = "{ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }";

/** A server whose tools carry `names`: one registered late (a marker names it), each other one its own handler. */
function server(names: readonly string[]): string {
  const [late, ...own] = names.map((n) => JSON.stringify(n));
  return `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 'x', version: '1' });
${own
  .map(
    (name) => `server.registerTool(${name}, {}, async (ctx) => {
  const answer = await ctx.mcpReq.elicitInput(${ELICIT});
  return { content: [{ type: 'text', text: answer.action }] };
});`,
  )
  .join('\n')}
const shared = async (ctx) => {
  const answer = await ctx.mcpReq.elicitInput(${ELICIT});
  return { content: [{ type: 'text', text: answer.action }] };
};
server.registerTool(${own[0]}, {}, shared);
server.registerTool(${own[1]}, {}, shared);
server.server.oninitialized = () => {
  const session = server.server.transport?.sessionId;
  server.registerTool(${late}, {}, async (ctx) => {
    const r = await ctx.mcpReq.elicitInput(${ELICIT});
    return { content: [{ type: 'text', text: r.action + session }] };
  });
};
`;
}

/** Every identifier, and every string literal's value, in the program (comments are not nodes). */
function codeOf(text: string): { identifiers: Set<string>; strings: string[] } {
  const identifiers = new Set<string>();
  const strings: string[] = [];
  walk(parseSource(text, 'js').program, (node: Node) => {
    if (node.type === 'Identifier') identifiers.add(node.name);
    if (node.type === 'StringLiteral') strings.push(node.value);
  });
  return { identifiers, strings };
}

describe('tool names that try to break out of generated text', () => {
  const input = server(BREAKOUTS);
  const { output, plan } = transformSource(input, 'server.js');

  it('migrates every handler that has a name of its own, and marks the rest for the reason it had', () => {
    const migrated = plan.sites.filter((s) => s.status === 'migrated').map((s) => s.handler);
    // A handler registered late (reading the session, so it stays in the hook) is migrated all
    // the same; its registration is what is marked.
    expect(migrated.sort()).toEqual(['tool:' + BREAKOUTS[0], ...BREAKOUTS.slice(1, 5).map((n) => `tool:${n}`)].sort());
    expect(
      plan.sites
        .filter((s) => s.status === 'marked')
        .map((s) => s.code)
        .sort(),
    ).toEqual(['registered-late', 'shared-handler']);
  });

  it('adds no code: the only `pwned` the output holds is the data it held before', () => {
    expect(codeOf(input).identifiers.has('pwned')).toBe(false);
    const { identifiers, strings } = codeOf(output);
    expect(identifiers.has('pwned')).toBe(false);
    // Each migrated handler names itself in a string literal that reads back as its tool id.
    for (const name of BREAKOUTS.slice(1)) expect(strings).toContain(`tool:${name}`);
  });

  it('keeps each marker one comment line, with the name escaped', () => {
    const markers = output.split('\n').filter((l) => l.includes('@mrtr-todo'));
    expect(markers).toHaveLength(2);
    // The marker quotes the name shortened to stay one short line; what it quotes is escaped.
    expect(markers.find((l) => l.includes('registered-late'))).toContain('tool:late\\u2028globalThis.pwned = 1;…');
    for (const line of markers) expect(line).not.toContain('\u2028');
    for (const line of markers) expect(parseSource(line, 'js').comments).toHaveLength(1);
  });
});
