// The output check of src/engine/verify-output.ts. Given the splices that made an output, it
// parses only the top-level statements they changed, with each copied statement and the
// generated helper block replaced by `;`. Each test below builds an output whose parts parse
// alone while the whole does not: the check must still refuse it.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Dialect, dialectOf, ParseFailure, parseSource } from '../src/analyse/parse.ts';
import { partsParse, verifyParses } from '../src/engine/verify-output.ts';
import type { Edit } from '../src/plan/types.ts';
import { helpersBlock } from '../src/rewrite/helpers-block.ts';
import { applyEdits, type EditedText, editedText } from '../src/rewrite/rewrite.ts';
import { transformSource } from '../src/transform.ts';

const block = helpersBlock({ typed: true, exportCodec: false, eol: '\n' });
const imports = "import { McpServer } from '@modelcontextprotocol/server';\n";

/** `base` with `find` replaced by `replace` (once), as an output and its splices. */
function spliced(base: string, find: string, replace: string, dialect: Dialect = 'ts'): { output: string; edited: EditedText; dialect: Dialect } {
  const start = base.indexOf(find);
  if (start === -1) throw new Error(`no ${find} in the base`);
  const edits: Edit[] = [{ start, end: start + find.length, text: replace }];
  return { output: applyEdits(base, edits), edited: editedText(base, parseSource(base, dialect).program, edits), dialect };
}

function expectRefused({ output, edited, dialect = 'ts' }: { output: string; edited: EditedText; dialect?: Dialect }): void {
  expect(() => parseSource(output, dialect)).toThrow(ParseFailure);
  expect(partsParse(output, dialect, edited)).toBe(false);
  expect(() => verifyParses(output, dialect, edited)).toThrow(ParseFailure);
}

describe('verifyParses without splices (the whole output is parsed)', () => {
  it('accepts a migrated file: the block between top-level statements', () => {
    expect(() => verifyParses(`${imports}\n${block}\nexport const x = 1;\n`, 'ts')).not.toThrow();
  });

  it('refuses a file whose code outside the block does not parse', () => {
    expect(() => verifyParses(`${imports}\n${block}\nexport const x = ;\n`, 'ts')).toThrow(ParseFailure);
  });

  it('refuses a broken block', () => {
    const broken = block.replace('function mrtrStateKey()', 'function mrtrStateKey(');
    expect(() => verifyParses(`${imports}\n${broken}\nexport const x = 1;\n`, 'ts')).toThrow(ParseFailure);
  });
});

describe('verifyParses with the splices: only the changed statements are parsed', () => {
  it('checks every fixture output in parts, and agrees with parsing it whole', () => {
    let inParts = 0;
    for (const name of readdirSync('fixtures').filter((n) => !n.startsWith('_'))) {
      const file = readdirSync(`fixtures/${name}`).find((f) => f.startsWith('input.'))!;
      const input = readFileSync(`fixtures/${name}/${file}`, 'utf8');
      const result = transformSource(input, file);
      if (!result.changed) continue;
      expect(() => parseSource(result.output, dialectOf(file))).not.toThrow();
      if (partsParse(result.output, dialectOf(file), result.edited)) inParts++;
    }
    // Most fixtures import and end their statements with `;`: the parts path is the one taken.
    expect(inParts).toBeGreaterThanOrEqual(10);
  });

  it('accepts a changed statement between copied ones, and the helper block in a gap', () => {
    const base = `${imports}const a = 1;\nfoo();\nexport function f() {}\n`;
    const { output, edited } = spliced(base, 'foo();', 'const b = a + 1;\nbar(b);');
    const withBlock = editedText(base, parseSource(base, 'ts').program, [...edited.edits, { start: imports.length, end: imports.length, text: `\n${block}\n` }]);
    const text = applyEdits(base, withBlock.edits);
    expect(partsParse(output, 'ts', edited)).toBe(true);
    expect(partsParse(text, 'ts', withBlock)).toBe(true);
    expect(() => verifyParses(text, 'ts', withBlock)).not.toThrow();
  });

  it('refuses a changed statement left unfinished before a copied one (`if (c)` + `const x`)', () => {
    expectRefused(spliced(`${imports}foo();\nconst x = 1;\n`, 'foo();', 'if (c)'));
  });

  it('refuses a copied statement without `;` that the changed text continues', () => {
    // `const a = 1\n(b) => c`: read as `1(b) => c`. Alone, `(b) => c;` parses.
    expectRefused(spliced(`${imports}const a = 1\nfoo();\n`, 'foo();', '(b) => c;'));
  });

  it('refuses a name bound again by a changed statement', () => {
    expectRefused(spliced(`${imports}import x from 'x';\nfoo();\n`, 'foo();', 'const x = 1;'));
  });

  it('refuses a var, in a block of a changed statement, over a copied const', () => {
    expectRefused(spliced(`${imports}const x = 1;\nfoo();\n`, 'foo();', 'if (c) { var x = 2; }'));
  });

  it('refuses a name exported twice (JavaScript: the TypeScript parser leaves that to tsc)', () => {
    expectRefused(spliced(`${imports}export const a = 1;\nfoo();\n`, 'foo();', 'const b = 2;\nexport { b as a };', 'js'));
  });

  it('refuses a copied `export { k }` whose k the change removed', () => {
    expectRefused(spliced(`${imports}const k = 1;\nexport { k };\n`, 'const k = 1;', 'const j = 1;'));
  });

  it('refuses script-only syntax in a changed statement of a module', () => {
    expectRefused(spliced(`${imports}foo();\n`, 'foo();', 'with (o) {}'));
  });

  it('refuses the helper block spliced into the middle of a statement', () => {
    // `const x = ` + block + `1;`: without the block the text reads `const x = 1;`.
    const base = `${imports}const x = 1;\n`;
    const at = base.indexOf('1;');
    const edits: Edit[] = [{ start: at, end: at, text: `${block}\n` }];
    expectRefused({ output: applyEdits(base, edits), edited: editedText(base, parseSource(base, 'ts').program, edits) });
  });

  it('refuses a helper block that does not parse', () => {
    const broken = block.replace('function mrtrStateKey()', 'function mrtrStateKey(');
    const base = `${imports}foo();\n`;
    const edits: Edit[] = [{ start: imports.length, end: imports.length, text: `\n${broken}\n` }];
    expectRefused({ output: applyEdits(base, edits), edited: editedText(base, parseSource(base, 'ts').program, edits) });
  });
});
