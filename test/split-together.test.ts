// Which exported helpers a module splits (src/engine/cross-module.ts splitTogether), as both
// check's cross-module pass and the ESLint rule decide it: helpers on the way to one request
// (they share its line) are split together or not at all.
import { describe, expect, it } from 'vitest';
import { splitTogether, type ExportedHelper } from '../src/engine/cross-module.ts';

const helper = (name: string, line: number): ExportedHelper => ({ name, line });

describe('splitTogether', () => {
  const chain = [helper('confirm', 3), helper('confirmDeletion', 3), helper('pickRoot', 9)];

  it.each([
    ['every helper approved', ['confirm', 'confirmDeletion', 'pickRoot'], ['confirm', 'confirmDeletion', 'pickRoot']],
    ['one of a chain not approved: the chain stays whole, the other request splits', ['confirm', 'pickRoot'], ['pickRoot']],
    ['a helper of the chain with no split of its own vetoes it', ['confirmDeletion'], []],
    ['nothing approved', [], []],
  ])('%s', (_case, approved, kept) => {
    expect(splitTogether(chain, new Set(approved))).toEqual(kept);
  });
});
