// The transform under the stock jscodeshift runner gives the same output as the CLI's
// pipeline, fixture for fixture. Run on copies inside the project so the copies resolve
// the real packages (their types decide what may travel in requestState).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { fixtureCases, FIXTURES, ROOT } from './support/fixtures.ts';

const run = promisify(execFile);
mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
const work = mkdtempSync(path.join(ROOT, '.tmp', 'jscodeshift-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('runs under `jscodeshift -t src/transforms/mrtr-handlers.ts --parser=tsx` with the fixture outputs', async () => {
  // v1 fixtures need the official v1-to-v2 codemod first; jscodeshift runs only the MRTR pass.
  const cases = fixtureCases().filter((c) => Object.keys(c.options).length === 0 && !c.name.startsWith('v1-'));
  cpSync(path.join(FIXTURES, '_support'), path.join(work, '_support'), { recursive: true });
  for (const c of cases) {
    mkdirSync(path.join(work, c.name));
    writeFileSync(path.join(work, c.name, path.basename(c.inputPath)), c.input);
  }
  const bin = path.join(ROOT, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
  const transform = path.join(ROOT, 'src', 'transforms', 'mrtr-handlers.ts');
  const targets = cases.map((c) => path.join(work, c.name, path.basename(c.inputPath)));
  const { stdout } = await run(process.execPath, [bin, '-t', transform, '--parser=tsx', '--run-in-band', ...targets], { cwd: ROOT });
  expect(stdout).toContain('0 errors');
  for (const c of cases) {
    const migrated = readFileSync(path.join(work, c.name, path.basename(c.inputPath)), 'utf8');
    expect({ fixture: c.name, migrated }).toEqual({ fixture: c.name, migrated: c.output });
  }
  // Refused sites are reported through jscodeshift's own channel too.
  expect(stdout).toContain('@mrtr-todo(no-request-to-answer)');
});

it('takes the same options as the CLI: --sampling=flag', async () => {
  const c = fixtureCases().find((f) => f.name === 'sampling-flag-only')!;
  mkdirSync(path.join(work, 'flag'), { recursive: true });
  cpSync(path.join(FIXTURES, '_support'), path.join(work, '_support'), { recursive: true });
  const target = path.join(work, 'flag', 'input.ts');
  writeFileSync(target, c.input);
  const bin = path.join(ROOT, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
  await run(process.execPath, [bin, '-t', path.join(ROOT, 'src', 'transforms', 'mrtr-handlers.ts'), '--parser=tsx', '--run-in-band', '--sampling=flag', target], { cwd: ROOT });
  expect(readFileSync(target, 'utf8')).toBe(c.output);
});

it('applies just the capability-check concern with src/transforms/client-capabilities.ts', async () => {
  const c = fixtureCases().find((f) => f.name === 'capability-checks')!;
  mkdirSync(path.join(work, 'caps'), { recursive: true });
  const target = path.join(work, 'caps', 'input.ts');
  writeFileSync(target, c.input);
  const bin = path.join(ROOT, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
  await run(process.execPath, [bin, '-t', path.join(ROOT, 'src', 'transforms', 'client-capabilities.ts'), '--parser=tsx', '--run-in-band', target], { cwd: ROOT });
  const out = readFileSync(target, 'utf8');
  expect(out).toContain('(ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities()');
  expect(out).toContain('await ctx.mcpReq.elicitInput('); // the question itself is not this transform's concern
});
