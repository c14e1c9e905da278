// Fixture discovery: fixtures/<case>/input.<ext> beside output.<ext> (jscodeshift's
// __testfixtures__ convention, one folder a case so a case can carry its own README).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(ROOT, 'fixtures');

export interface FixtureCase {
  name: string;
  inputPath: string;
  outputPath: string;
  input: string;
  output: string;
  /** fixtures/<case>/options.json: the transform options (the CLI flags) the case runs with. */
  options: { sampling?: 'migrate' | 'flag'; idempotent?: string[] };
  /**
   * The options the case is transformed with: its own, and the request-state module the
   * outputs share (fixtures/_support/mrtr-request-state.<ext>, see stateModulePath).
   */
  transformOptions: { sampling?: 'migrate' | 'flag'; idempotent?: string[]; stateModule: { path: string } };
}

/** The request-state module the fixture outputs of this extension import (written by the codemod, checked in fixtures.test.ts). */
export function stateModulePath(inputPath: string): string {
  const ext = /\.(c|m)?tsx?$/.test(inputPath) ? '.ts' : path.extname(inputPath);
  return path.join(FIXTURES, '_support', `mrtr-request-state${ext}`);
}

export function fixtureCases(): FixtureCase[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
    .map((d) => {
      const dir = path.join(FIXTURES, d.name);
      const inputName = readdirSync(dir).find((f) => f.startsWith('input.'));
      if (!inputName) throw new Error(`fixture ${d.name} has no input file`);
      const inputPath = path.join(dir, inputName);
      const outputPath = path.join(dir, inputName.replace(/^input\./, 'output.'));
      const options = existsSync(path.join(dir, 'options.json')) ? JSON.parse(readFileSync(path.join(dir, 'options.json'), 'utf8')) : {};
      return {
        name: d.name,
        inputPath,
        outputPath,
        input: readFileSync(inputPath, 'utf8'),
        output: existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : '',
        options,
        transformOptions: { ...options, stateModule: { path: stateModulePath(inputPath) } },
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The module of fixture `name`'s input or output file, imported so its server can be run. */
export async function importFixture<Module = unknown>(name: string, which: 'input' | 'output'): Promise<Module> {
  const found = fixtureCases().find((c) => c.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return (await import(which === 'input' ? found.inputPath : found.outputPath)) as Module;
}
