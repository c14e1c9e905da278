// A request half's `let x: T;` that only the code after its question read is dropped; every
// other declaration stays as written.
import { describe, expect, it } from 'vitest';
import { withoutUnreadLets } from '../src/rewrite/edits/unread-lets.ts';

const half = (...body: string[]) => `export async function openRequest(strict: boolean) {\n${body.map((l) => `  ${l}\n`).join('')}}`;

describe('withoutUnreadLets', () => {
  it('drops a let nothing else in the half reads or writes', () => {
    expect(withoutUnreadLets(half('let opened: string;', "if (strict) return { ask: 'a' };", "return { ask: 'b' };"))).toBe(
      half("if (strict) return { ask: 'a' };", "return { ask: 'b' };"),
    );
  });

  it.each([
    ['a let the half still reads', half('let opened: string;', "opened = 'x';", 'return { value: opened };')],
    ['a let the half only writes', half('let opened: string;', "opened = 'x';", "return { ask: 'a' };")],
    ['a let with a value', half("let opened = 'x';", "return { ask: 'a' };")],
    ['a let sharing its line', half("let opened: string; log('x');", "return { ask: 'a' };")],
    ['text that does not parse', 'export async function openRequest( {\n  let opened: string;\n}'],
  ])('keeps %s', (_name, text) => {
    expect(withoutUnreadLets(text)).toBe(text);
  });
});
