// The unified diff writer (src/core/line-diff.ts) checked against an independent patch
// applier, the `diff` package's applyPatch (strict: no fuzz): every patch it writes must turn
// the old text into the new one exactly, with or without the splices that made the new text.
// Also the position mapping built on the line diff (src/core/position-map.ts).
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Edit } from '../src/core/vocabulary.ts';
import { positionMap } from '../src/core/position-map.ts';
import { diffLines, spliceRegions, splitLines, unifiedPatch } from '../src/core/line-diff.ts';
import { applyEdits } from '../src/rewrite/rewrite.ts';

const patch = (before: string, after: string, context = 3) => unifiedPatch('a/f', 'b/f', before, after, context);

describe('unifiedPatch', () => {
  it('writes git-style hunks with three lines of context', () => {
    expect(patch('a\nb\nc\nd\ne\nf\ng\nh\ni\n', 'a\nb\nc\nd\nE\nf\ng\nh\ni\n')).toBe('--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n');
  });

  it('joins changes at most twice the context apart into one hunk and splits those further apart', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `l${i}`);
    const near = [...lines];
    near[5] = 'X';
    near[11] = 'Y';
    expect(patch(lines.join('\n') + '\n', near.join('\n') + '\n').match(/^@@/gm)).toHaveLength(1);
    const far = [...lines];
    far[5] = 'X';
    far[13] = 'Y';
    expect(patch(lines.join('\n') + '\n', far.join('\n') + '\n').match(/^@@/gm)).toHaveLength(2);
  });

  it('names the line before an empty range, and marks a last line without a newline', () => {
    expect(patch('', 'a\n')).toBe('--- a/f\n+++ b/f\n@@ -0,0 +1,1 @@\n+a\n');
    expect(patch('a\n', '')).toBe('--- a/f\n+++ b/f\n@@ -1,1 +0,0 @@\n-a\n');
    expect(patch('a\nb', 'a\nb\n')).toBe('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n');
    expect(patch('same\n', 'same\n')).toBe('');
  });

  it('keeps carriage returns as part of each line', () => {
    const out = patch('a\r\nb\r\n', 'a\r\nB\r\n');
    expect(out).toContain('-b\r\n+B\r\n');
    expect(applyPatch('a\r\nb\r\n', out)).toBe('a\r\nB\r\n');
  });

  it('writes patches that turn the old text into the new one (random edits)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 40 })
      .chain((lines) =>
        fc.tuple(fc.constant(lines), fc.array(fc.tuple(fc.nat(40), fc.constantFrom('del', 'ins', 'swap')), { maxLength: 12 }), fc.boolean(), fc.boolean()),
      );
    fc.assert(
      fc.property(text, ([lines, edits, oldEol, newEol]) => {
        const next: string[] = [...lines];
        for (const [at, op] of edits) {
          const i = next.length === 0 ? 0 : at % next.length;
          if (op === 'del') next.splice(i, 1);
          else if (op === 'ins') next.splice(i, 0, 'x');
          else if (next.length > 0) next[i] = 'y';
        }
        const before = lines.join('\n') + (lines.length > 0 && oldEol ? '\n' : '');
        const after = next.join('\n') + (next.length > 0 && newEol ? '\n' : '');
        const p = patch(before, after);
        if (before === after) expect(p).toBe('');
        else expect(applyPatch(before, p)).toBe(after);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('unifiedPatch with the splices that made the new text', () => {
  it('writes patches that apply, diffing only the lines the splices touch (random splices)', () => {
    const splices = fc.array(fc.constantFrom('a', 'b', 'a\nb', ''), { minLength: 1, maxLength: 30 }).chain((lines) => {
      const text = lines.join('\n') + '\n';
      const cut = fc.tuple(fc.nat(text.length), fc.nat(3), fc.constantFrom('', 'x', 'x\n', '\ny\n', 'b\n'));
      return fc.tuple(fc.constant(text), fc.array(cut, { maxLength: 5 }));
    });
    fc.assert(
      fc.property(splices, ([text, cuts]) => {
        // Non-overlapping splices, as the rewrite makes them.
        const edits: Edit[] = [];
        let free = 0;
        for (const [at, length, insert] of [...cuts].sort((x, y) => x[0] - y[0])) {
          if (at < free) continue;
          const end = Math.min(text.length, at + length);
          edits.push({ start: at, end, text: insert });
          free = end + 1;
        }
        const after = applyEdits(text, edits);
        const p = unifiedPatch('a/f', 'b/f', text, after, 3, edits);
        if (text === after) expect(p).toBe('');
        else expect(applyPatch(text, p)).toBe(after);
        const regions = spliceRegions(edits, splitLines(text), splitLines(after));
        expect(regions).toBeDefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('diffs the whole texts when the splices did not make the new text', () => {
    const before = 'a\nb\nc\nd\n';
    const after = 'a\nB\nc\nD\n';
    // Claims only line 2 changed; line 4 changed too.
    const claimed: Edit[] = [{ start: 2, end: 3, text: 'B' }];
    expect(spliceRegions(claimed, splitLines(before), splitLines(after))).toBeUndefined();
    expect(applyPatch(before, unifiedPatch('a/f', 'b/f', before, after, 3, claimed))).toBe(after);
  });
});

describe('positionMap', () => {
  it('maps shared lines exactly, a re-indented line by its text, and a rewritten one by its place', () => {
    const before = ['a', 'call(x,', '    y)', '        z;', 'b', 'c', 'gone', 'd'].join('\n');
    const after = ['a', 'call(x, y)', '  z;', 'b', 'c', 'd'].join('\n');
    const map = positionMap(before, after);
    expect(map(1, 1)).toEqual({ line: 1, column: 1 });
    // `        z;` became `  z;`: the same text, 6 columns to the left.
    expect(map(4, 9)).toEqual({ line: 3, column: 3 });
    // `    y)` was joined into line 2: the change's first new line.
    expect(map(3, 5).line).toBe(2);
    expect(map(5, 1)).toEqual({ line: 4, column: 1 });
    // A removed line with nothing in its place: the next shared line.
    expect(map(7, 1).line).toBe(6);
    expect(map(8, 1)).toEqual({ line: 6, column: 1 });
  });

  it('maps a rewritten line to the new line that begins most like it, past lines inserted above', () => {
    const before = ['x', 'handler(a) {', '  body();', '}'].join('\n');
    const after = ['x', 'const h = 1;', 'handler(a, b) {', '  if (q) return;', '  body(b);', '}'].join('\n');
    const map = positionMap(before, after);
    expect(map(2, 1)).toEqual({ line: 3, column: 1 });
    expect(map(3, 3)).toEqual({ line: 5, column: 3 });
  });
});

describe('diffLines', () => {
  it('finds a shortest edit script', () => {
    const edits = diffLines(splitLines('a\nb\nc\na\nb\nb\na\n'), splitLines('c\nb\na\nb\na\nc\n'));
    // Myers' classic example: 5 edits (deletions plus insertions).
    expect(edits.filter((e) => e.op !== 'equal')).toHaveLength(5);
  });
});

describe('large changes', () => {
  it('diffs a file replaced wholesale at a size a spread of the edits would overflow', () => {
    const before = Array.from({ length: 150_000 }, (_, i) => `old ${i}`).join('\n') + '\n';
    const after = Array.from({ length: 150_000 }, (_, i) => `new ${i}`).join('\n') + '\n';
    const edits = diffLines(splitLines(before), splitLines(after));
    expect(edits).toHaveLength(300_000);
    expect(edits.filter((e) => e.op === 'equal')).toHaveLength(0);
  });
});
