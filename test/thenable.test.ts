// Whether a value an async helper returns may be a promise (src/plan/thenable.ts): what the
// syntax shows without the checker, and which values the checker is asked about.
import type { ExpressionStatement, Node } from '@babel/types';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../src/analyse/parse.ts';
import type { TypeFacts } from '../src/analyse/type-facts.ts';
import { mayBeThenable } from '../src/plan/thenable.ts';

function expression(text: string): { node: Node; source: string } {
  const source = `(${text});`;
  const statement = parseSource(source, 'ts').program.body[0] as ExpressionStatement;
  return { node: statement.expression, source };
}

/** Facts whose checker says a value is a promise exactly when its text names `later`. */
function checker(asked: string[]): (source: string) => TypeFacts {
  return (source) => ({
    local: () => undefined,
    fromSdk: () => true,
    thenable: (start, end) => {
      asked.push(source.slice(start, end));
      return source.slice(start, end).includes('later');
    },
  });
}

describe('mayBeThenable', () => {
  it.each([
    ['a call', 'store.list(kind)', true],
    ['an optional call', 'store?.list(kind)', true],
    ['a branch of a conditional that is a call', 'kind ? store.list(kind) : []', true],
    ['an operand of ?? that is a call', 'cached ?? store.list(kind)', true],
    ['a call under `as`', 'store.list(kind) as Promise<string[]>', true],
    ['a name (nothing shows what it holds)', 'items', false],
    ['undefined', 'undefined', false],
    ['a literal, an object, an array, an operator', "kind === 'a' ? [1] : { n: 1 }", false],
    ['an awaited call', 'await store.list(kind)', false],
  ])('without the checker: %s', (_, text, expected) => {
    const { node } = expression(text);
    expect(mayBeThenable(node, undefined)).toBe(expected);
  });

  it.each([
    ['a property of the answer', 'reply.content.text', false],
    ['a method of a property of the answer', "reply.content?.text.trim() ?? ''", false],
    ['an element of the answer', 'roots[0]?.uri', false],
    ['a call taking the answer', 'store.save(reply)', true],
    ['another name', 'cached.text', true],
  ])("with the names bound to the client's answer: %s", (_, text, expected) => {
    const { node } = expression(text);
    const asked: string[] = [];
    // The checker says every value it is asked about may be a promise.
    const facts: TypeFacts = { local: () => undefined, fromSdk: () => true, thenable: (start, end) => Boolean(asked.push(`${start}-${end}`)) };
    expect(mayBeThenable(node, facts, new Set(['reply', 'roots']))).toBe(expected);
    expect(asked.length > 0).toBe(expected);
  });

  it("asks the checker about each possible value's leaf, never about a literal or undefined", () => {
    const asked: string[] = [];
    const { node, source } = expression("kind ? later(kind) : fallback ?? undefined ?? 'none'");
    expect(mayBeThenable(node, checker(asked)(source))).toBe(true);
    expect(asked).toEqual(['later(kind)']);
    const none: string[] = [];
    const plain = expression('kind ? format(kind) : fallback');
    expect(mayBeThenable(plain.node, checker(none)(plain.source))).toBe(false);
    expect(none).toEqual(['format(kind)', 'fallback']);
  });
});
