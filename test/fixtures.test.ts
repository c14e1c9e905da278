// Every fixtures/<case> pair: the codemod turns input into exactly output, output is a fixed
// point, and inputs and outputs alike parse and typecheck against the real v2 packages.
// UPDATE_FIXTURES=1 rewrites the outputs; read every changed line before committing one.
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSource, dialectOf } from '../src/analyse/parse.ts';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { isV1Source, upgradeV1 } from '../src/engine/v1-upgrade.ts';
import { stateModuleText } from '../src/rewrite/state-module.ts';
import { transformWithTypes } from '../src/transform.ts';
import { fixtureCases, stateModulePath } from './support/fixtures.ts';
import { typecheck } from './support/typecheck.ts';

const cases = fixtureCases();
const types = new TsTypeFactsProvider();
// One file at a time, each awaited: nothing is gained by holding a question for others.
types.flush();

describe.each(cases)('fixture $name', (fixture) => {
  it('migrates input to exactly the expected output', async () => {
    // A v1 server goes through the official v1-to-v2 codemod first, as in the engine.
    const input = isV1Source(fixture.input) ? (await upgradeV1([{ path: fixture.inputPath, text: fixture.input }]))[0]!.text : fixture.input;
    const { output } = await transformWithTypes(input, fixture.inputPath, types, fixture.transformOptions);
    if (process.env.UPDATE_FIXTURES) writeFileSync(fixture.outputPath, output);
    expect(output).toBe(fixture.output);
  });

  it('leaves its output unchanged on a second run', async () => {
    const again = await transformWithTypes(fixture.output, fixture.outputPath, types, fixture.transformOptions);
    expect(again.output).toBe(fixture.output);
  });

  it('has an output that parses', () => {
    expect(() => parseSource(fixture.output, dialectOf(fixture.outputPath))).not.toThrow();
  });
});

describe('the request-state modules the fixture outputs import', () => {
  // fixtures/_support/mrtr-request-state.<ext> is what the codemod writes for a package of
  // that language; UPDATE_FIXTURES=1 writes it again.
  const forms = [...new Set(cases.map((c) => stateModulePath(c.inputPath)))];
  it.each(forms)('%s is the module the codemod writes', (file) => {
    const form = file.endsWith('.ts') ? 'ts' : file.endsWith('.cjs') ? 'cjs' : 'esm';
    const expected = stateModuleText(form);
    if (process.env.UPDATE_FIXTURES) writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});

describe('fixtures typecheck against @modelcontextprotocol/server@2.4.0', () => {
  let diagnostics: string[] = [];
  beforeAll(() => {
    diagnostics = typecheck([...cases.flatMap((c) => [c.inputPath, c.outputPath]), stateModulePath('x.ts')].filter((f) => /\.(m|c)?tsx?$/.test(f)));
  });
  it('reports no diagnostics for any input or output', () => {
    expect(diagnostics).toEqual([]);
  });
});
