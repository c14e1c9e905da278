// The transform under the stock jscodeshift runner gives the same output as the CLI's
// pipeline, fixture for fixture. Run on copies inside the project so the copies resolve
// the real packages (their types decide what may travel in requestState).
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { fixtureCases, FIXTURES, ROOT } from './support/fixtures.ts';
import { checkoutScratch } from './support/scratch.ts';

const run = promisify(execFile);
const work = checkoutScratch('jscodeshift-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the stock jscodeshift runner with one of our transforms on `targets` (and its options). */
async function jscodeshift(transform: string, ...args: string[]): Promise<string> {
  const bin = path.join(ROOT, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
  const { stdout } = await run(process.execPath, [bin, '-t', path.join(ROOT, 'transforms', transform), '--parser=tsx', '--run-in-band', ...args], {
    cwd: ROOT,
  });
  return stdout;
}

it('runs under `jscodeshift -t transforms/mrtr-handlers.ts --parser=tsx` with the fixture outputs', async () => {
  // v1 fixtures need the official v1-to-v2 codemod first; jscodeshift runs only the MRTR pass.
  const cases = fixtureCases().filter((c) => Object.keys(c.options).length === 0 && !c.name.startsWith('v1-'));
  cpSync(path.join(FIXTURES, '_support'), path.join(work, '_support'), { recursive: true });
  for (const c of cases) {
    mkdirSync(path.join(work, c.name));
    writeFileSync(path.join(work, c.name, path.basename(c.inputPath)), c.input);
  }
  const targets = cases.map((c) => path.join(work, c.name, path.basename(c.inputPath)));
  // The outputs import the request-state modules of fixtures/_support (copied with it).
  const stdout = await jscodeshift('mrtr-handlers.ts', `--state-module=${path.join(work, '_support')}/`, ...targets);
  expect(stdout).toContain('0 errors');
  expect(stdout).not.toContain('does not exist yet');
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
  await jscodeshift('mrtr-handlers.ts', '--sampling=flag', target);
  expect(readFileSync(target, 'utf8')).toBe(c.output);
});

it('takes the same options as the CLI: --idempotent=NAME', async () => {
  const c = fixtureCases().find((f) => f.name === 'rederive-idempotent')!;
  mkdirSync(path.join(work, 'idempotent'), { recursive: true });
  cpSync(path.join(FIXTURES, '_support'), path.join(work, '_support'), { recursive: true });
  const target = path.join(work, 'idempotent', 'input.ts');
  writeFileSync(target, c.input);
  await jscodeshift('mrtr-handlers.ts', `--idempotent=${c.options.idempotent!.join(',')}`, `--state-module=${path.join(work, '_support')}/`, target);
  expect(readFileSync(target, 'utf8')).toBe(c.output);
});

it('imports the request-state module beside the file by default, and says when it is missing', async () => {
  const c = fixtureCases().find((f) => f.name === 'elicit-confirm-delete')!;
  mkdirSync(path.join(work, 'default'), { recursive: true });
  const target = path.join(work, 'default', 'server.ts');
  writeFileSync(target, c.input);
  const stdout = await jscodeshift('mrtr-handlers.ts', target);
  const migrated = readFileSync(target, 'utf8');
  expect(migrated).toContain("import { mrtrResume, mrtrVerify } from './mrtr-request-state.ts';");
  expect(migrated).toContain('{ requestState: { verify: mrtrVerify() } }');
  expect(stdout).toContain(
    `${target}: imports the request-state module ./mrtr-request-state.ts, which does not exist yet: run \`npx mrtr-codemod migrate ${path.dirname(target)}\` to write it`,
  );
});

it('refuses a file on the v1 SDK with a clear message, and leaves it as it is', async () => {
  const c = fixtureCases().find((f) => f.name === 'v1-mcp-server-elicit')!;
  mkdirSync(path.join(work, 'v1'), { recursive: true });
  const target = path.join(work, 'v1', 'server.ts');
  writeFileSync(target, c.input);
  const stdout = await jscodeshift('mrtr-handlers.ts', target);
  expect(readFileSync(target, 'utf8')).toBe(c.input);
  expect(stdout).toContain(`${target}: left as it is: it imports the v1 SDK (@modelcontextprotocol/sdk), which has no multi round-trip requests.`);
  expect(stdout).toContain('1 skipped');
});

it('applies just the capability-check concern with transforms/client-capabilities.ts', async () => {
  const c = fixtureCases().find((f) => f.name === 'capability-checks')!;
  mkdirSync(path.join(work, 'caps'), { recursive: true });
  const target = path.join(work, 'caps', 'input.ts');
  writeFileSync(target, c.input);
  await jscodeshift('client-capabilities.ts', target);
  const out = readFileSync(target, 'utf8');
  expect(out).toContain(
    '(ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities()',
  );
  expect(out).toContain('await ctx.mcpReq.elicitInput('); // the question itself is not this transform's concern
});

it('applies just the start-up registration concern with transforms/start-up-registrations.ts', async () => {
  const c = fixtureCases().find((f) => f.name === 'conditional-tools-after-initialize')!;
  mkdirSync(path.join(work, 'start-up'), { recursive: true });
  const target = path.join(work, 'start-up', 'input.ts');
  writeFileSync(target, c.input);
  await jscodeshift('start-up-registrations.ts', target);
  const out = readFileSync(target, 'utf8');
  expect(out).not.toContain('getClientCapabilities');
  expect(out).toContain(
    "  registerConditionalTools(server, world);\n\n  // Once the client's capabilities are known\n  server.server.oninitialized = async () => {\n    // Note the session",
  );
  expect(out).toContain('await ctx.mcpReq.elicitInput('); // the question itself is not this transform's concern
});
