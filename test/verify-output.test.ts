// The output check of src/engine/verify-output.ts. Given the splices that made an output, it
// parses only the top-level statements they changed, with each copied statement replaced by
// `;`. Each test below builds an output whose parts parse
// alone while the whole does not: the check must still refuse it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { type Dialect, dialectOf, ParseFailure, parseSource } from '../src/analyse/parse.ts';
import { addTopLevelNames, emptyNames } from '../src/analyse/top-level-names.ts';
import { partsParse, verifyParses } from '../src/engine/verify-output.ts';
import type { Edit } from '../src/core/vocabulary.ts';
import { planFile } from '../src/plan/plan-file.ts';
import { applyEdits, type EditedText, editedText, rewriteEdits } from '../src/rewrite/rewrite.ts';
import { transformSource } from '../src/transform.ts';
import { fixtureCases } from './support/fixtures.ts';

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
  it('accepts a text that parses', () => {
    expect(() => verifyParses(`${imports}\nexport const x = 1;\n`, 'ts')).not.toThrow();
  });

  it('refuses a text that does not parse', () => {
    expect(() => verifyParses(`${imports}\nexport const x = ;\n`, 'ts')).toThrow(ParseFailure);
  });
});

describe('verifyParses with the splices: only the changed statements are parsed', () => {
  // Every fixture's output is checked in parts (they all import, and end their statements with
  // `;` or a declaration's `}`), and parses whole as well.
  it.each(fixtureCases().map((c) => [c.name, c] as const))('checks the output of fixture %s in parts', (_name, c) => {
    const facts = { local: () => ({ text: 'string', jsonSafe: true }), fromSdk: () => true };
    const result = transformSource(c.input, c.inputPath, facts, c.transformOptions);
    expect(result.changed).toBe(true);
    expect(partsParse(result.output, dialectOf(c.inputPath), result.edited)).toBe(true);
    expect(() => parseSource(result.output, dialectOf(c.inputPath))).not.toThrow();
  });

  it('accepts a changed statement between copied ones, and an import added in a gap', () => {
    const base = `${imports}const a = 1;\nfoo();\nexport function f() {}\n`;
    const { output, edited } = spliced(base, 'foo();', 'const b = a + 1;\nbar(b);');
    const withImport = editedText(base, parseSource(base, 'ts').program, [
      ...edited.edits,
      { start: imports.length, end: imports.length, text: "import { mrtrResume } from './mrtr-request-state.js';\n" },
    ]);
    const text = applyEdits(base, withImport.edits);
    expect(partsParse(output, 'ts', edited)).toBe(true);
    expect(partsParse(text, 'ts', withImport)).toBe(true);
    expect(() => verifyParses(text, 'ts', withImport)).not.toThrow();
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

  it('refuses an import spliced into the middle of a statement', () => {
    // `const x = ` + import + `1;`: without the import the text reads `const x = 1;`.
    const base = `${imports}const x = 1;\n`;
    const at = base.indexOf('1;');
    const edits: Edit[] = [{ start: at, end: at, text: "import { y } from './y.js';\n" }];
    expectRefused({ output: applyEdits(base, edits), edited: editedText(base, parseSource(base, 'ts').program, edits) });
  });
});

describe('property: a rewrite with a bug in one of its splices', () => {
  // The check exists for bugs of the rewrite: a splice whose text is wrong. Each run takes a
  // fixture's real splices and damages the text of one, most often at its ends (where the
  // `;` that stand in for copied statements sit): a bracket, an unfinished statement, a
  // declaration of a name the file binds at the top, a removed character. Can the parts check
  // be fooled? When it says the output parses, parsing the whole must agree.
  const cases = fixtureCases().flatMap((c) => {
    const analysis = analyseFile(c.input, c.inputPath);
    const edits = rewriteEdits(
      c.input,
      planFile(analysis, {
        typeFacts: { local: () => ({ text: 'string', jsonSafe: true }), fromSdk: () => true },
        stateModule: c.transformOptions.stateModule,
      }),
    );
    const names = emptyNames();
    for (const statement of analysis.program.body) addTopLevelNames(statement, names);
    const declarations = [...names.declared].map((n) => `const ${n} = 1;`);
    return edits.length > 0 ? [{ name: c.name, source: c.input, program: analysis.program, dialect: dialectOf(c.inputPath), edits, declarations }] : [];
  });
  const damage = [
    '(',
    ')',
    '{',
    '}',
    ';',
    '\n',
    '`',
    "'",
    '/*',
    '//',
    'if (ok)',
    'if (ok)\n',
    'label:',
    'x = 1\n',
    'f()\n',
    'export',
    'var z;',
    'export { mrtrResume };',
    'export { nowhere };',
    'import x from "x";',
    'else',
    '=>',
    'with (o) {}',
    'export default 1;',
    'export const server = 1;',
    ',',
  ];

  it('never accepts an output that does not parse', () => {
    let accepted = 0;
    let broken = 0;
    const run = fc.record({
      c: fc.constantFrom(...cases),
      which: fc.nat(),
      where: fc.oneof(fc.constant('start' as const), fc.constant('end' as const), fc.nat()),
      pick: fc.nat(),
      own: fc.boolean(),
      remove: fc.boolean(),
    });
    fc.assert(
      fc.property(run, ({ c, which, where, pick, own, remove }) => {
        const edits = c.edits.map((e) => ({ ...e }));
        const edit = edits[which % edits.length]!;
        const n = edit.text.length;
        const i = where === 'start' ? 0 : where === 'end' ? n : n === 0 ? 0 : where % n;
        const text = own && c.declarations.length > 0 ? c.declarations[pick % c.declarations.length]! : damage[pick % damage.length]!;
        // Insert the damage, or remove the character before the place (a lost `;` or line break).
        edit.text = remove && i > 0 ? edit.text.slice(0, i - 1) + edit.text.slice(i) : edit.text.slice(0, i) + text + edit.text.slice(i);
        const output = applyEdits(c.source, edits);
        let parses = true;
        try {
          parseSource(output, c.dialect);
        } catch {
          parses = false;
        }
        if (!parses) broken++;
        const inParts = partsParse(output, c.dialect, editedText(c.source, c.program, edits));
        if (inParts) accepted++;
        if (inParts && !parses) throw new Error(`accepted in parts, but does not parse whole (${c.name}):\n${output}`);
      }),
      { seed: 20261201, numRuns: 2000 },
    );
    // Both outcomes were seen: the runs tried the parts check on broken and on sound outputs.
    expect(broken).toBeGreaterThan(200);
    expect(accepted).toBeGreaterThan(200);
  });
});
