// The migration leaves code a reviewer's tools accept: ESLint's recommended rules with
// typescript-eslint's, and a strict TypeScript compile (strict, no unused locals or
// parameters, no implicit returns, no switch fallthrough), find nothing in a fixture's output
// that they do not find in its input. The generated request-state module is clean on its own.
import path from 'node:path';
import js from '@eslint/js';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureCases, FIXTURES, ROOT, stateModulePath } from './support/fixtures.ts';
import { diagnosticsByFile } from './support/typecheck.ts';

const cases = fixtureCases();

/** The globals a Node server uses (no `globals` package: these are all the fixtures and the module use). */
const NODE_GLOBALS: Linter.Globals = Object.fromEntries(
  ['console', 'process', 'Buffer', 'crypto', 'btoa', 'TextEncoder', 'globalThis', 'URL', 'setTimeout', 'clearTimeout'].map((name) => [name, 'readonly']),
);

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [js.configs.recommended, ...(tseslint.configs.recommended as Linter.Config[]), { languageOptions: { globals: NODE_GLOBALS } }],
});

/** What a finding says, without where: the same finding in the input and the output compares equal. */
async function eslintFindings(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([file]);
  return result!.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`).sort();
}

/** The findings of `after` that `before` does not have (as many times as they are extra). */
function added(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  return after.filter((finding) => {
    const i = left.indexOf(finding);
    if (i === -1) return true;
    left.splice(i, 1);
    return false;
  });
}

describe('ESLint (recommended, typescript-eslint recommended)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('finds nothing in the output of %s that it does not find in the input', async (_name, c) => {
    const extra = added(await eslintFindings(c.inputPath), await eslintFindings(c.outputPath));
    expect(extra).toEqual([]);
  });

  it.each(['.ts', '.mjs'])('finds nothing in the request-state module (%s)', async (ext) => {
    expect(await eslintFindings(stateModulePath(`x${ext}`))).toEqual([]);
  });
});

describe('strict tsc (strict, noUnusedLocals, noUnusedParameters, noImplicitReturns, noFallthroughCasesInSwitch)', () => {
  let byFile: Map<string, string[]>;
  beforeAll(() => {
    const files = [...cases.flatMap((c) => [c.inputPath, c.outputPath]), stateModulePath('x.ts')].filter((f) => /\.(m|c)?tsx?$/.test(f));
    byFile = diagnosticsByFile(files, { noUnusedLocals: true, noUnusedParameters: true, noImplicitReturns: true, noFallthroughCasesInSwitch: true });
  });

  it.each(cases.filter((c) => /\.(m|c)?tsx?$/.test(c.inputPath)).map((c) => [c.name, c] as const))(
    'finds nothing in the output of %s that it does not find in the input',
    (_name, c) => {
      expect(added(byFile.get(c.inputPath)!.sort(), byFile.get(c.outputPath)!.sort())).toEqual([]);
    },
  );

  it('finds nothing in the request-state module', () => {
    expect(byFile.get(path.join(FIXTURES, '_support', 'mrtr-request-state.ts'))).toEqual([]);
  });
});
