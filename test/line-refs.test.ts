// A line a marker or a reason names is a reference until the run knows the text the user reads
// (src/core/line-refs.ts): cutting such a text for a marker's line must not cut through one.
import { describe, expect, it } from 'vitest';
import { asFileLineRefs, cutText, lineRef, resolveFileLineRefs, resolveLineRefs, shownLength } from '../src/core/line-refs.ts';

const placed = (text: string) =>
  resolveFileLineRefs(
    resolveLineRefs(text, (n) => n),
    (_, n) => n,
  );

describe('a text naming lines, cut for a marker', () => {
  // The line starts at the 71st character it shows.
  const why = `its code after its request reads \`s\`, set by \`let s = m.get(k)\` (line ${lineRef(12345)}), which runs once`;
  it.each([40, 69, 71, 72, 73, 74, 75, 76, 77, 90])('shows at most %i characters, and every line it names whole', (max) => {
    const cut = cutText(why, max);
    const shown = placed(cut);
    expect(shownLength(cut)).toBe(shown.length);
    // A code span it cuts is closed again, past the `…`.
    expect(shown.length).toBeLessThanOrEqual(shown.endsWith('…`') ? max + 1 : max);
    expect(shown.split('`').length % 2).toBe(1);
    expect(shown).not.toMatch(/[\uE000-\uE004]/);
    // The line is there whole, or not at all (the text has no other digit).
    expect(shown.replace('12345', '')).not.toMatch(/\d/);
  });

  it("counts another module's line as its digits, however long its file's name", () => {
    const other = asFileLineRefs(why, 'src/a/very/long/folder/name/of/the/module.ts');
    expect(shownLength(other)).toBe(placed(why).length);
    expect(placed(cutText(other, 70))).toBe(placed(cutText(why, 70)));
  });
});
