// Every fixtures/<case> pair: the codemod turns input into exactly output, output is a fixed
// point, and inputs and outputs alike parse and typecheck against the real v2 packages.
// UPDATE_FIXTURES=1 rewrites the outputs; read every changed line before committing one.
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSource, dialectOf } from '../src/analyse/parse.ts';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { isV1Source, upgradeV1 } from '../src/engine/v1-upgrade.ts';
import { transformWithTypes } from '../src/transform.ts';
import { fixtureCases } from './support/fixtures.ts';
import { typecheck } from './support/typecheck.ts';

const cases = fixtureCases();
const types = new TsTypeFactsProvider();

describe.each(cases)('fixture $name', (fixture) => {
  it('migrates input to exactly the expected output', async () => {
    // A v1 server goes through the official v1-to-v2 codemod first, as in the engine.
    const input = isV1Source(fixture.input) ? (await upgradeV1([{ path: fixture.inputPath, text: fixture.input }]))[0]!.text : fixture.input;
    const { output } = await transformWithTypes(input, fixture.inputPath, types, fixture.options);
    if (process.env.UPDATE_FIXTURES) writeFileSync(fixture.outputPath, output);
    expect(output).toBe(fixture.output);
  });

  it('leaves its output unchanged on a second run', async () => {
    const again = await transformWithTypes(fixture.output, fixture.outputPath, types, fixture.options);
    expect(again.output).toBe(fixture.output);
  });

  it('has an output that parses', () => {
    expect(() => parseSource(fixture.output, dialectOf(fixture.outputPath))).not.toThrow();
  });
});

describe('fixtures typecheck against @modelcontextprotocol/server@2.4.0', () => {
  let diagnostics: string[] = [];
  beforeAll(() => {
    diagnostics = typecheck(cases.flatMap((c) => [c.inputPath, c.outputPath]).filter((f) => /\.(m|c)?tsx?$/.test(f)));
  });
  it('reports no diagnostics for any input or output', () => {
    expect(diagnostics).toEqual([]);
  });
});
