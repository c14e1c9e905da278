// The README's table of refusal codes is the table in src/plan/refusal.ts, written by
// `npm run docs`: this fails until it is run after a code, a meaning or a help text changes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, refusalTable, withRefusalTable } from '../scripts/docs.ts';
import { REFUSAL_CODES } from '../src/plan/refusal.ts';

describe('the README', () => {
  const readme = readFileSync(README, 'utf8');

  it('holds the refusal table as npm run docs writes it', () => {
    expect(readme).toBe(withRefusalTable(readme));
  });

  it('gives every code a row under its anchor, with its meaning and help', () => {
    const rows = refusalTable().split('\n').slice(2);
    expect(rows).toHaveLength(Object.keys(REFUSAL_CODES).length);
    expect(rows).toContain(
      '| <a id="mrtr-todo-return-type"></a>`return-type` | The handler\'s return type is not a Promise the codemod can widen. | Widen it to Promise<... \\| InputRequiredResult> (or drop it), then run mrtr-codemod migrate again. |',
    );
  });

  it('sees a stale table, and a README without the markers', () => {
    expect(withRefusalTable(readme.replace('`return-type` |', '`return-type` (old) |'))).toBe(readme);
    expect(() => withRefusalTable('# no table here\n')).toThrow(/markers/);
  });
});
