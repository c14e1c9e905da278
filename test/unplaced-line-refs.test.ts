// A line reference (core/line-refs.ts) is a private-use character pair the run turns into a line
// number once it knows the text the user reads. One left unplaced by a bug would be written into
// the user's file as stray characters: the file is left as it is, with an error, instead.
import { describe, expect, it } from 'vitest';
import { fileLineRef, lineRef } from '../src/core/line-refs.ts';
import type { FileOutcome } from '../src/engine/candidate.ts';
import { placeOtherModuleLines } from '../src/engine/other-module-lines.ts';

function outcomeOf(output: string, original = 'const a = 1;\n'): FileOutcome {
  return { sites: [], errors: [], changed: { path: 'src/a.ts', absolutePath: '/nowhere/src/a.ts', original, output, written: false } };
}

describe('a rewritten text with a line reference left in it', () => {
  it('is not kept: the file gets an error and no change', async () => {
    const outcome = outcomeOf(`// @mrtr-todo(in-helper): asks at line ${lineRef(3)}\nconst a = 1;\n`);
    await placeOtherModuleLines([outcome], new Map());
    expect(outcome.changed).toBeUndefined();
    expect(outcome.errors.map((e) => [e.file, e.stage])).toEqual([['src/a.ts', 'transform']]);
  });

  it('is kept once its references to other modules are placed', async () => {
    const outcome = outcomeOf(`// @mrtr-todo(via-helper): asks at b.ts:${fileLineRef('src/b.ts', 4)}\nconst a = 1;\n`);
    await placeOtherModuleLines([outcome], new Map());
    expect(outcome.errors).toEqual([]);
    expect(outcome.changed?.output).toBe('// @mrtr-todo(via-helper): asks at b.ts:4\nconst a = 1;\n');
  });

  it('is kept when the file held such characters already', async () => {
    const original = `const mark = '\uE000';\n`;
    const outcome = outcomeOf(`// @mrtr-todo(in-helper): see the marker there\n${original}`, original);
    await placeOtherModuleLines([outcome], new Map());
    expect(outcome.errors).toEqual([]);
    expect(outcome.changed).toBeDefined();
  });
});
