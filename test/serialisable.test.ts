// What shows a lifted local is plain JSON without its type: its syntax (with the names known
// to hold JSON: the arguments, the answers) or a written type. Valid: shown; invalid: not.
import { describe, expect, it } from 'vitest';
import { parseSource } from '../src/analyse/parse.ts';
import { jsonBySyntax, jsonTypeText } from '../src/plan/serialisable.ts';

const JSON_NAMES = new Set(['args', 'answer', 'table']);

function expressionOf(code: string) {
  const program = parseSource(`const x = ${code};`, 'ts').program;
  const statement = program.body[0];
  if (statement?.type !== 'VariableDeclaration') throw new Error('not a declaration');
  return statement.declarations[0]!.init;
}

describe('jsonBySyntax', () => {
  it.each([
    `'a'`,
    '1',
    'true',
    'null',
    '`${table}-1`',
    'undefined',
    'table',
    'args.id',
    'answer.content?.name',
    '!ready',
    'typeof v',
    'a + b',
    'n * 2',
    'a === b',
    'table || "none"',
    'ok ? 1 : "no"',
    '[1, table, { a: [null] }]',
    '{ days: 3, ...args }',
    'items.length',
    'String(n)',
    'JSON.parse(text)',
    'Math.max(a, b)',
    'Object.keys(o)',
    'Date.now()',
    'randomUUID()',
    'table ?? crypto.randomUUID()',
    'name.toUpperCase()',
    'list.join(",")',
    'table.split("_")',
    'args.tags.filter(Boolean)',
    '(table as string)',
    'args!',
  ])('shows %s is JSON', (code) => {
    expect(jsonBySyntax(expressionOf(code), JSON_NAMES)).toBe(true);
  });

  it.each([
    'world.count(table)',
    'new Date()',
    'new Map()',
    'await load()',
    'other',
    'other.field',
    '() => 1',
    'items.map((i) => i.id)',
    '[table, other]',
    '{ at: clock() }',
    '{ run() {} }',
    'ok ? 1 : other',
    'rows.slice(1)',
    'cache.get(table)',
    'Symbol()',
  ])('does not show %s is JSON', (code) => {
    expect(jsonBySyntax(expressionOf(code), JSON_NAMES)).toBe(false);
  });
});

describe('jsonTypeText', () => {
  it.each([
    'number',
    'string[]',
    'Array<string | number>',
    '{ id: string; tags: string[] }',
    "'a' | 'b'",
    'Record<string, number>',
    'boolean | null',
    '{ "quoted key": number }',
  ])('takes %s as JSON', (type) => expect(jsonTypeText(type)).toBe(true));
  it.each(['any', 'unknown', 'object', 'Date', 'Map<string, number>', '{ at: Date }', 'Row[]', '() => void', 'Promise<number>'])(
    'does not take %s as JSON',
    (type) => expect(jsonTypeText(type)).toBe(false),
  );
});
