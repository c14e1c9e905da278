// The published package, as a user gets it by the README's commands: `npm pack` (which builds
// dist/, once) writes the tarball beside a server project of the user's, where
// `npm install --save-dev <tarball>` installs it; then its compiled bin runs `--help`, `check`
// and `migrate` there (which writes the request-state module from the packed template), the
// README's `npx --package=<tarball>` line runs it in another project with nothing installed,
// the README's GitHub Actions steps run, and ESLint lints the project with the README's
// eslint.config.mjs files: the three lines (in a CommonJS project, on TypeScript with no
// parser of its own), and beside typescript-eslint's config. The folders are in the system
// temp directory, away from this project's node_modules, so a dependency missing from
// package.json (or a file missing from "files") cannot be found by accident. (The README's
// install from git is run by test/install-git.test.ts.)
//
// No network: npm's registry is this project's lockfile, served from the npm cache that
// `npm ci` filled for this project (test/support/user-npm.ts).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eslintRuleName } from '../src/eslint/index.ts';
import { messageWithHint, type CheckReport } from '../src/report/formats/check-report.ts';
import { stateModuleText } from '../src/rewrite/state-module.ts';
import { ELICIT_SERVER } from './engine-samples.ts';
import { putFile } from './support/scratch.ts';
import { MINUTES, PROJECT, shellLines, userNpm, type Ran, type UserNpm } from './support/user-npm.ts';

const README = await readFile(path.join(PROJECT, 'README.md'), 'utf8');

let npm: UserNpm;
/** A program run as the user would, in `cwd`. */
const sh = (command: string, args: string[], cwd: string): Promise<Ran> => npm.sh(command, args, cwd);
/** The installed command, as `npx --no-install mrtr-codemod` finds it in the folder (never fetched). */
const codemod = (cwd: string, ...args: string[]) => sh('npx', ['--no-install', 'mrtr-codemod', ...args], cwd);

/** A server whose handler carries an unannotated local across its question: migrate asks the checker (its thread) for its type. */
const TIMED_SERVER = `import { McpServer } from '@modelcontextprotocol/server';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'timed', version: '1.0.0' });
  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {
    const started = Date.now();
    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: \`\${answer.action} after \${Date.now() - started} ms\` }] };
  });
  return server;
}
`;

/** A server on the v1 SDK: migrate runs the official v1-to-v2 codemod first (loaded only then). */
const V1_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createServer() {
  const server = new McpServer({ name: 'v1', version: '1.0.0' });
  server.registerTool('go', { description: 'Ask first' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;

/** A tool that asks through a server its module knows only by a project interface declared in another module (src/context.ts), and the module that builds that server. */
const KIT_CONTEXT = `import type { McpServer } from '@modelcontextprotocol/server';

export interface Kit {
  server: McpServer;
}
`;
const KIT_TOOL = `import * as z from 'zod/v4';
import type { Kit } from './context.js';

export function registerTag(kit: Kit): void {
  kit.server.registerTool('tag', { inputSchema: z.object({ note: z.string() }) }, async ({ note }) => {
    const label = note.trim();
    const answer = await kit.server.server.elicitInput({ message: \`Tag \${label}?\`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: \`\${answer.action} \${label}\` }] };
  });
}
`;

const KIT_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { registerTag } from './tool.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'kit', version: '1.0.0' });
  registerTag({ server });
  return server;
}
`;

/** For the ESLint run: a legacy request in TypeScript and in JavaScript, a marker of each kind, and a clean module. */
const LINTED = {
  'lint/server.ts': ELICIT_SERVER,
  'lint/server.mjs': `import { McpServer } from '@modelcontextprotocol/server';

export function createServer() {
  const server = new McpServer({ name: 'js', version: '1.0.0' });
  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`,
  'lint/todo.js': `// @mrtr-todo(closure): the request is made inside a callback. Next: migrate by hand.
export const later = 1;
`,
  'lint/official.js': `// @mcp-codemod-error 100% manual, see: the v2 guide
export const v1 = 1;
`,
  'lint/clean.js': `export const total = (items) => items.reduce((sum, item) => sum + item.price, 0);
`,
};

/** What typescript-eslint's recommended rules report in a TypeScript server: an `any`. */
const TYPED_SERVER = `${ELICIT_SERVER}
export function loose(value: any): void {
  console.log(value);
}
`;

/** The \`\`\`js blocks of the README's ESLint section: its eslint.config.mjs files. */
function eslintConfigs(): string[] {
  const section = README.slice(README.indexOf('\n### In ESLint\n'), README.indexOf('\n## ', README.indexOf('\n### In ESLint\n')));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((block) => block[1]!);
}

/** ESLint's JSON output as `file rule` lines, in order. */
function eslintFindings(stdout: string, cwd: string): string[] {
  const results = JSON.parse(stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; message: string }> }>;
  return results.flatMap((r) => r.messages.map((m) => `${path.relative(cwd, r.filePath).split(path.sep).join('/')} ${m.ruleId ?? `(fatal) ${m.message}`}`));
}

/**
 * A preload (`node --require`) that appends every module file the process loads, required or
 * imported, in every thread, to the file MRTR_TRACE names.
 */
const TRACE_LOADS = `const Module = require('node:module');
const fs = require('node:fs');
const out = process.env.MRTR_TRACE;
const resolve = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolve.apply(this, args);
  fs.appendFileSync(out, file + '\\n');
  return file;
};
// The launcher reads the bundled CLI and compiles it itself (src/cli/bundle-loader.ts).
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string') fs.appendFileSync(out, file + '\\n');
  return readFileSync.call(this, file, ...rest);
};
Module.register('data:text/javascript,' + encodeURIComponent(\`
  import { appendFileSync } from 'node:fs';
  export async function resolve(specifier, context, next) {
    const result = await next(specifier, context);
    appendFileSync(\${JSON.stringify(out)}, result.url + '\\\\n');
    return result;
  }\`));
`;

/**
 * npm's script shell for the pack: runs each lifecycle script with sh, and notes in
 * MRTR_SCRIPT_LOG whether it built the package (rewrote MRTR_BUILT_FILE).
 */
const RECORD_SCRIPTS = `#!/usr/bin/env node
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const built = () => (fs.existsSync(process.env.MRTR_BUILT_FILE) ? fs.statSync(process.env.MRTR_BUILT_FILE).mtimeMs : 0);
const before = built();
const ran = spawnSync('/bin/sh', process.argv.slice(2), { stdio: 'inherit' });
fs.appendFileSync(process.env.MRTR_SCRIPT_LOG, JSON.stringify({ script: process.env.npm_lifecycle_event, built: built() !== before }) + '\\n');
process.exit(ran.status ?? 1);
`;

/** The scratch folder: the tarball where a checkout would have it (mrtr-codemod/), and a user's server project beside it. */
let root: string;
let checkout: string;
let appDir: string;
let tarball: string;
let packedFiles: string[];
let tarballBytes: number;
let packScripts: Array<{ script: string; built: boolean }>;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mrtr-installed-'));
  npm = await userNpm(root);
  checkout = path.join(root, 'mrtr-codemod');
  appDir = path.join(root, 'my-server');
  await mkdir(checkout);
  await mkdir(appDir);
  const recorder = await putFile(root, 'record-scripts.cjs', RECORD_SCRIPTS, 0o755);
  const log = path.join(root, 'scripts.log');
  await writeFile(log, '');
  const packed = await npm.sh('npm', ['pack', '--json', '--pack-destination', checkout, '--script-shell', recorder], PROJECT, {
    MRTR_SCRIPT_LOG: log,
    MRTR_BUILT_FILE: path.join(PROJECT, 'dist', 'cli', 'main.js'),
  });
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; size: number; files: { path: string }[] }[];
  tarball = info!.filename;
  tarballBytes = info!.size;
  packedFiles = info!.files.map((f) => f.path).sort();
  packScripts = (await readFile(log, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { script: string; built: boolean });

  // A project as `npm init -y` leaves it: CommonJS (no "type"), nothing installed.
  await writeFile(path.join(appDir, 'package.json'), `${JSON.stringify({ name: 'my-server', version: '1.0.0', private: true }, null, 2)}\n`);
  const installed = await npm.line(`npm install --save-dev ../mrtr-codemod/${tarball}`, appDir);
  expect(installed.code, `${installed.stderr}\n(the npm cache must hold this project's dependencies: run \`npm ci\` in the project first)`).toBe(0);
}, 5 * MINUTES);

afterAll(async () => {
  await npm?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the launcher, compiled JavaScript with declarations, the request-state template, and README; no TypeScript sources, tests, fixtures or build files', () => {
    for (const file of [
      'bin/mrtr-codemod.js',
      'dist/cli/main.js',
      'dist/cli/main.bundle.cjs',
      'dist/cli/main.bundle.cache',
      'dist/rewrite/state-module-bodies.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/eslint/index.js',
      'dist/eslint/index.d.ts',
      'dist/analyse/type-facts-worker.js',
      'dist/analyse/babel.cjs',
      'dist/transforms/mrtr-handlers.js',
      'dist/rewrite/state-module.js',
      'templates/request-state.ts',
      'README.md',
      'package.json',
    ]) {
      expect(packedFiles).toContain(file);
    }
    // templates/ is data: the run reads it to write the request-state module.
    const stray = packedFiles.filter(
      (f) =>
        /^(src|test|fixtures|examples|bench|scripts|\.tmp|\.ci|node_modules)\//.test(f) ||
        (/\.(c|m)?tsx?$/.test(f) && !/\.d\.(c|m)?ts$/.test(f) && !f.startsWith('templates/')) ||
        /^tsconfig/.test(f),
    );
    expect(stray).toEqual([]);
    expect(tarballBytes).toBeGreaterThan(0);
  });

  it("carries the target SDK's declarations for the checker: declarations, licences and names only", () => {
    const carried = packedFiles.filter((f) => f.startsWith('dist/sdk-types/'));
    for (const file of [
      'dist/sdk-types/manifest.json',
      'dist/sdk-types/@modelcontextprotocol/server/dist/index.d.mts',
      'dist/sdk-types/@modelcontextprotocol/server/LICENSE',
      'dist/sdk-types/@modelcontextprotocol/core/dist/index.d.mts',
      'dist/sdk-types/zod/index.d.cts',
      'dist/sdk-types/zod/LICENSE',
    ])
      expect(carried).toContain(file);
    expect(carried.filter((f) => !/(\.d\.[cm]?ts|\/package\.json|\/LICENSE|\/manifest\.json)$/.test(f))).toEqual([]);
  });

  it('is built once by `npm pack`: prepack builds it, and prepare, which npm pack runs next, does not again', () => {
    expect(packScripts).toEqual([
      { script: 'prepack', built: true },
      { script: 'prepare', built: false },
    ]);
  });

  it('installs with its dependencies and none of the development ones: no tsx, no jscodeshift (an optional peer)', async () => {
    const manifest = JSON.parse(await readFile(path.join(appDir, 'node_modules', 'mrtr-codemod', 'package.json'), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(manifest.dependencies!)).not.toContain('tsx');
    expect(manifest.peerDependenciesMeta).toEqual({ eslint: { optional: true }, jscodeshift: { optional: true } });
    expect(existsSync(path.join(appDir, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(path.join(appDir, 'node_modules', 'jscodeshift'))).toBe(false);
    expect(existsSync(path.join(appDir, 'node_modules', 'typescript'))).toBe(true);
  });

  it("the bundled CLI prints what its modules print, yargs's translations included", async () => {
    // In German: yargs finds its translations where it is installed, not beside the bundle.
    const german = (entry: string, ...args: string[]) =>
      sh(
        'env',
        ['-u', 'LC_ALL', '-u', 'LC_MESSAGES', '-u', 'LANGUAGE', 'LANG=de_DE.UTF-8', process.execPath, `node_modules/mrtr-codemod/${entry}`, ...args],
        appDir,
      );
    const viaBundle = await german('bin/mrtr-codemod.js', 'migrate');
    expect(viaBundle.stderr).toContain('Nicht genügend Argumente');
    expect(viaBundle).toEqual(await german('dist/cli/main.js', 'migrate'));
    const help = await german('bin/mrtr-codemod.js', 'check', '--help', '--format', 'json');
    expect(help.stdout).toContain('Optionen:');
    expect(help).toEqual(await german('dist/cli/main.js', 'check', '--help', '--format', 'json'));
  });

  it('`npx mrtr-codemod --help` prints the usage', async () => {
    const help = await codemod(appDir, '--help');
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('mrtr-codemod migrate <paths..>');
    expect(help.stdout).toContain('mrtr-codemod check <paths..>');
    const sub = await codemod(appDir, 'migrate', '--help');
    expect(sub.code, sub.stderr).toBe(0);
    expect(sub.stdout).toContain('--dry-run');
  });

  it("the README's install commands are the ones run here, and they run as written", async () => {
    const lines = shellLines(README, '## Install');
    expect(lines).toEqual([
      'npm ci && npm pack', // this checkout's npm ci made the cache the registry here serves; beforeAll packs it
      `npx --package=../mrtr-codemod/${tarball} mrtr-codemod migrate --dry-run src/`,
      `npm install --save-dev ../mrtr-codemod/${tarball}`, // run by beforeAll
      'npm install --save-dev "git+$(git -C ../mrtr-codemod remote get-url origin)"', // run by test/install-git.test.ts
      'npx --no-install mrtr-codemod migrate --dry-run src/',
    ]);
    const dryRun = (ran: Ran) => {
      expect(ran.code, ran.stderr).toBe(0);
      // The project imports the server without declaring it: package.json gets it, first in the patch.
      expect(ran.stdout.startsWith('--- a/package.json\n+++ b/package.json\n@@ ')).toBe(true);
      expect(ran.stdout).toMatch(/\n\+.*"@modelcontextprotocol\/server": ?"\^2\.4\.0"/);
      expect(ran.stdout).toContain('\n--- a/src/server.ts\n+++ b/src/server.ts\n@@ ');
      expect(ran.stdout).toContain("+        answer: inputRequired.elicit({ message: 'Go?'");
      expect(ran.stderr).toContain('Files to change: 3 (dry run: nothing written)\n');
    };
    // In a project with nothing installed, npx installs the tarball in its own cache.
    const bare = path.join(root, 'bare-server');
    await putFile(bare, 'package.json', '{ "name": "bare-server", "version": "1.0.0", "private": true }\n');
    await putFile(bare, 'src/server.ts', ELICIT_SERVER);
    dryRun(await npm.line(lines[1]!, bare));
    expect(existsSync(path.join(bare, 'node_modules'))).toBe(false);
    // In the project it is installed in.
    await putFile(appDir, 'src/server.ts', ELICIT_SERVER);
    dryRun(await npm.line(lines[4]!, appDir));
  });

  it("the README's GitHub Actions steps install it with the project's devDependencies, then check writes its SARIF log", async () => {
    const workflow = README.slice(README.indexOf('```yaml\n'), README.indexOf('\n```', README.indexOf('```yaml\n')));
    const steps = [...workflow.matchAll(/^ +(?:- )?run: (.*?)(?: +#.*)?$/gm)].map((m) => m[1]!);
    expect(steps).toEqual(['npm ci', 'npx --no-install mrtr-codemod check --format sarif --output-file mrtr.sarif .']);
    // The repository CI checks out: the project with mrtr-codemod among its devDependencies and its lockfile, nothing installed.
    const ci = path.join(root, 'ci-server');
    for (const file of ['package.json', 'package-lock.json']) await putFile(ci, file, await readFile(path.join(appDir, file)));
    await putFile(ci, 'src/server.ts', ELICIT_SERVER);
    const install = await npm.line(steps[0]!, ci);
    expect(install.code, install.stderr).toBe(0);
    const check = await npm.line(steps[1]!, ci);
    expect(check.code, check.stderr).toBe(1); // findings: the workflow goes on to the upload
    const sarif = JSON.parse(await readFile(path.join(ci, 'mrtr.sarif'), 'utf8')) as {
      runs: Array<{
        tool: { driver: { name: string } };
        results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
      }>;
    };
    expect(sarif.runs.map((r) => r.tool.driver.name)).toEqual(['mrtr-codemod']);
    expect(sarif.runs[0]!.results.map((r) => `${r.locations[0]!.physicalLocation.artifactLocation.uri} ${r.ruleId}`)).toEqual(['src/server.ts legacy-request']);
  });

  it('`npx mrtr-codemod check` fails on a legacy request, `migrate` rewrites it (the checker naming a lifted local from its thread), then check passes', async () => {
    await putFile(appDir, 'src/server.ts', ELICIT_SERVER);
    await putFile(appDir, 'src/timed.ts', TIMED_SERVER);
    const before = await codemod(appDir, 'check', 'src');
    expect(before.code, before.stderr).toBe(1);
    expect(before.stdout).toContain('src/server.ts:6:26  legacy-request  elicitation request still awaited from the client in tool:go');
    expect(before.stdout.trimEnd().split('\n').at(-1)).toBe(
      'mrtr-codemod check: 2 findings in 2 files (2 can be rewritten by `mrtr-codemod migrate`), 0 errors, 2 files checked',
    );

    const dry = await codemod(appDir, 'migrate', '--dry-run', 'src');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.startsWith('--- a/package.json\n+++ b/package.json\n@@ ')).toBe(true);
    expect(dry.stdout).toContain('\n--- a/src/server.ts\n+++ b/src/server.ts\n@@ ');
    expect(dry.stdout).toContain("+        answer: inputRequired.elicit({ message: 'Go?'");
    expect(dry.stdout).toContain('+    const { started } = mrtr.locals<{ started: number }>();');
    expect(dry.stdout).toContain('--- /dev/null\n+++ b/src/mrtr-request-state.ts\n');
    expect(dry.stderr).toContain('Files to change: 4 (dry run: nothing written)\n');
    expect(await readFile(path.join(appDir, 'src/server.ts'), 'utf8')).toBe(ELICIT_SERVER);
    expect(existsSync(path.join(appDir, 'src/mrtr-request-state.ts'))).toBe(false);

    const real = await codemod(appDir, 'migrate', 'src');
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain('Files changed: 4\n  package.json\n  src/server.ts\n  src/timed.ts\n  src/mrtr-request-state.ts\n');
    expect(real.stdout).toContain('\nmigrated 2/2 handlers\nNext steps:\n');
    expect(JSON.parse(await readFile(path.join(appDir, 'package.json'), 'utf8'))).toMatchObject({ dependencies: { '@modelcontextprotocol/server': '^2.4.0' } });
    expect(await readFile(path.join(appDir, 'src/server.ts'), 'utf8')).toContain("import { mrtrResume, mrtrVerify } from './mrtr-request-state.js';");
    // The request-state module is the packed template's text, found from dist/ at run time.
    expect(await readFile(path.join(appDir, 'src/mrtr-request-state.ts'), 'utf8')).toContain(
      await readFile(path.join(PROJECT, 'templates/request-state.ts'), 'utf8'),
    );
    const after = await codemod(appDir, 'check', 'src');
    expect(after.code, after.stdout).toBe(0);
  });

  it("`migrate` gives a fresh clone the run an installed checkout gets: the SDK's types come from the declarations it carries", async () => {
    const migrateIn = async (project: string) => {
      await putFile(appDir, `${project}/src/context.ts`, KIT_CONTEXT);
      await putFile(appDir, `${project}/src/tool.ts`, KIT_TOOL);
      await putFile(appDir, `${project}/src/server.ts`, KIT_SERVER);
      return sh(
        process.execPath,
        [path.join(appDir, 'node_modules', 'mrtr-codemod', 'bin', 'mrtr-codemod.js'), 'migrate', '--dry-run', 'src'],
        path.join(appDir, project),
      );
    };
    // Installed: the SDK and zod in the project's node_modules, as npm puts them (this project's copies, linked).
    for (const pkg of ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod']) {
      await mkdir(path.join(appDir, 'installed', 'node_modules', path.dirname(pkg)), { recursive: true });
      await symlink(path.join(PROJECT, 'node_modules', pkg), path.join(appDir, 'installed', 'node_modules', pkg), 'dir');
    }
    expect(existsSync(path.join(appDir, 'node_modules', '@modelcontextprotocol', 'server'))).toBe(false);
    const fresh = await migrateIn('fresh');
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain("+    const mrtr = await mrtrResume(ctx, 'tool:tag', ['answer'], { note }, kit.server);");
    // `label` only derives from the argument: it is made again on the retry, never carried.
    expect(fresh.stdout).toContain("+      return mrtr.ask('answer', {}, {");
    expect(fresh.stdout).not.toContain('mrtr.locals');
    expect(fresh).toEqual(await migrateIn('installed'));
  });

  it('`migrate` moves a v1 server to v2 first with the official codemod, which it loads from its dependencies', async () => {
    await putFile(
      appDir,
      'v1/package.json',
      `${JSON.stringify({ name: 'v1-server', private: true, dependencies: { '@modelcontextprotocol/sdk': '^1.32.2' } }, null, 2)}\n`,
    );
    await putFile(appDir, 'v1/server.mjs', V1_SERVER);
    const dry = await codemod(appDir, 'migrate', '--dry-run', 'v1');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("-import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';");
    // The official codemod's import of the v2 package, merged with what the MRTR pass imports.
    expect(dry.stdout).toContain("+import { McpServer, inputRequired } from '@modelcontextprotocol/server';\n");
    expect(dry.stdout).toContain('+        answer: inputRequired.elicit(');
    expect(dry.stdout).toContain('-    "@modelcontextprotocol/sdk": "^1.32.2"\n+    "@modelcontextprotocol/server": "^2.4.0"\n');
    // The package is JavaScript (an ES module, no "type"): its request-state module is the template as .mjs,
    // the text the build kept (dist/rewrite/state-module-bodies.json) being the template's transpile.
    expect(dry.stdout).toContain('--- /dev/null\n+++ b/v1/mrtr-request-state.mjs\n');
    const created = dry.stdout.split('+++ b/v1/mrtr-request-state.mjs\n')[1]!.split(/\n(?=diff |--- )/)[0]!;
    expect(
      created
        .split('\n')
        .filter((line) => line.startsWith('+'))
        .map((line) => `${line.slice(1)}\n`)
        .join(''),
    ).toBe(stateModuleText('esm'));
  });

  it('loads TypeScript, the official codemod and jscodeshift only when a run needs them', async () => {
    await putFile(appDir, 'trace.cjs', TRACE_LOADS);
    await putFile(appDir, 'plain/server.ts', ELICIT_SERVER);
    await putFile(appDir, 'lifting/timed.ts', TIMED_SERVER);
    const loads = async (...args: string[]) => {
      const trace = path.join(appDir, `trace-${args.join('-').replace(/\W+/g, '_')}.txt`);
      await writeFile(trace, '');
      const ran = await sh(
        'env',
        [`MRTR_TRACE=${trace}`, process.execPath, '--require', './trace.cjs', 'node_modules/mrtr-codemod/bin/mrtr-codemod.js', ...args],
        appDir,
      );
      expect([0, 1], ran.stderr).toContain(ran.code);
      const files = (await readFile(trace, 'utf8')).split('\n');
      // A package (`yargs`) or a file of one (`mrtr-codemod/dist/cli/main.bundle.cjs`).
      return (name: string) => files.some((f) => f.includes(`/node_modules/${name}/`) || f.endsWith(`/node_modules/${name}`));
    };
    const heavy = ['typescript', '@modelcontextprotocol/codemod', 'jscodeshift'];
    const help = await loads('--help');
    expect(heavy.filter(help)).toEqual([]);
    expect(help('mrtr-codemod')).toBe(true); // the trace sees what loads
    expect(help('@babel/parser')).toBe(false);
    // The help is the text the build kept from yargs (src/cli/quick-help.ts): yargs is not loaded for it.
    expect(help('yargs')).toBe(false);
    const check = await loads('check', 'plain');
    expect(heavy.filter(check)).toEqual([]);
    // The CLI runs as the one file the build bundled (scripts/bundle-cli.js): its modules, yargs and Babel are inside.
    expect(check('mrtr-codemod/dist/cli/main.bundle.cjs')).toBe(true);
    expect(check('mrtr-codemod/dist/engine/run.js')).toBe(false);
    expect(check('@babel/parser/lib/index.js')).toBe(false);
    // (yargs's folder is looked up, for its translations; its code is not loaded from there.)
    expect(check('yargs/index.mjs')).toBe(false);
    // A migration that lifts an unannotated local asks the checker (its thread loads TypeScript); a v1 file runs the official codemod
    // (the package being JavaScript, its request-state module is the template's transpile the build kept).
    expect(heavy.filter(await loads('migrate', '--dry-run', 'lifting'))).toEqual(['typescript']);
    expect(heavy.filter(await loads('migrate', '--dry-run', 'v1'))).toEqual(['@modelcontextprotocol/codemod']);
  });

  it('compiles the bundled CLI from the code cache the build made for it, and afresh once the bundle is edited', async () => {
    const cliDir = path.join(appDir, 'node_modules', 'mrtr-codemod', 'dist', 'cli');
    const loader = pathToFileURL(path.join(cliDir, 'bundle-loader.js')).href;
    // The launcher's V8 flags, which the cache was made with.
    const cacheUse = async (bundle: string) => {
      const script = `require('node:v8').setFlagsFromString('--no-allocation-site-pretenuring'); import(${JSON.stringify(loader)}).then((m) => process.stdout.write(m.loadBundle(${JSON.stringify(bundle)}).cache));`;
      const ran = await sh(process.execPath, ['-e', script], appDir);
      expect(ran.code, ran.stderr).toBe(0);
      return ran.stdout;
    };
    const bundle = path.join(cliDir, 'main.bundle.cjs');
    expect(await cacheUse(bundle)).toBe('used');
    // Edited in place to a text of the same length (which V8 alone would take the cache for).
    const text = await readFile(bundle, 'utf8');
    expect(text).toContain('too large to analyse');
    const edited = path.join(cliDir, 'main.bundle.edited.cjs');
    await writeFile(edited, text.replace('too large to analyse', 'too large to analyze'));
    await writeFile(path.join(cliDir, 'main.bundle.edited.cache'), await readFile(path.join(cliDir, 'main.bundle.cache')));
    expect(await cacheUse(edited)).toBe('none');
  });

  it('the jscodeshift transform in dist/ runs under the stock jscodeshift runner', async () => {
    await putFile(appDir, 'shift/server.ts', ELICIT_SERVER);
    const jscodeshift = path.join(PROJECT, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
    const transform = path.join(appDir, 'node_modules', 'mrtr-codemod', 'dist', 'transforms', 'mrtr-handlers.js');
    const shifted = await sh(process.execPath, [jscodeshift, '-t', transform, '--parser=tsx', '--run-in-band', 'shift/server.ts'], appDir);
    expect(shifted.code, shifted.stderr).toBe(0);
    expect(shifted.stdout).toContain('1 ok');
    // The transform writes only the file it is given, and says the module it imports is still to be written.
    expect(shifted.stdout).toContain('imports the request-state module ./mrtr-request-state.js, which does not exist yet');
    expect(await readFile(path.join(appDir, 'shift/server.ts'), 'utf8')).toContain("answer: inputRequired.elicit({ message: 'Go?'");
  });

  it("ESLint, with the README's three-line eslint.config.mjs in a CommonJS project, lints TypeScript as it is and reports what check reports", async () => {
    const installed = await npm.line('npm install --save-dev eslint', appDir);
    expect(installed.code, installed.stderr).toBe(0);
    for (const [file, text] of Object.entries(LINTED)) await putFile(appDir, file, text);
    const [threeLines] = eslintConfigs();
    expect(threeLines).toBe("// eslint.config.mjs\nimport mrtr from 'mrtr-codemod/eslint';\nexport default [mrtr.configs.recommended];\n");
    await writeFile(path.join(appDir, 'eslint.config.mjs'), threeLines!);
    // No typescript-eslint here: the TypeScript file is read by the config's own parser.
    expect(existsSync(path.join(appDir, 'node_modules', '@typescript-eslint'))).toBe(false);
    const linted = await sh('npx', ['--no-install', 'eslint', '--format', 'json', 'lint'], appDir);
    expect(linted.code, linted.stderr).toBe(1);
    const eslint = (
      JSON.parse(linted.stdout) as Array<{ filePath: string; messages: Array<{ line: number; column: number; ruleId: string; message: string }> }>
    )
      .flatMap((r) => r.messages.map((m) => [path.relative(appDir, r.filePath).split(path.sep).join('/'), m.line, m.column, m.ruleId, m.message]))
      .sort();
    const checked = await codemod(appDir, 'check', '--format', 'json', 'lint');
    expect(checked.code, checked.stderr).toBe(1);
    const fromCheck = (JSON.parse(checked.stdout) as CheckReport).findings
      .map((f) => [f.file, f.line, f.column, `mrtr-codemod/${eslintRuleName(f.ruleId)}`, messageWithHint(f)])
      .sort();
    expect(eslint).toEqual(fromCheck);
    expect(eslint.map((m) => `${m[0]} ${m[3]}`)).toEqual([
      'lint/official.js mrtr-codemod/mcp-codemod-error',
      'lint/server.mjs mrtr-codemod/legacy-request',
      'lint/server.ts mrtr-codemod/legacy-request',
      'lint/todo.js mrtr-codemod/mrtr-todo-closure',
    ]);
  });

  it("ESLint, with the README's eslint.config.mjs beside typescript-eslint's config: typescript-eslint's rules still report", async () => {
    const installed = await npm.line('npm install --save-dev typescript-eslint', appDir);
    expect(installed.code, installed.stderr).toBe(0);
    const [, withTypeScriptEslint] = eslintConfigs();
    expect(withTypeScriptEslint).toContain("import tseslint from 'typescript-eslint';");
    await writeFile(path.join(appDir, 'eslint.config.mjs'), withTypeScriptEslint!);
    await putFile(appDir, 'typed/server.ts', TYPED_SERVER);
    const linted = await sh('npx', ['--no-install', 'eslint', '--format', 'json', 'typed'], appDir);
    expect(linted.code, linted.stderr).toBe(1);
    expect(eslintFindings(linted.stdout, appDir)).toEqual([
      'typed/server.ts mrtr-codemod/legacy-request',
      'typed/server.ts @typescript-eslint/no-explicit-any',
    ]);
  });

  it('types the programmatic API for a TypeScript project (declarations through `exports`)', async () => {
    await writeFile(
      path.join(appDir, 'tsconfig.json'),
      `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [] }, files: ['api.ts'] }, null, 2)}\n`,
    );
    await writeFile(
      path.join(appDir, 'api.ts'),
      [
        "import { collectCheckReport, runCodemod, transformSource, type RunResult } from 'mrtr-codemod';",
        "const result: RunResult = await runCodemod({ paths: ['src'], cwd: '.', write: false });",
        "const findings: number = (await collectCheckReport(['src'], '.')).findings.length;",
        "const output: string = transformSource('', 'a.ts').output;",
        'export const summary = [result.changed.length, findings, output.length];',
        '// @ts-expect-error: a run needs to know whether to write',
        "void runCodemod({ paths: ['src'], cwd: '.' });",
        '',
      ].join('\n'),
    );
    // An ES module project now (`await` at the top of api.ts).
    const manifest = JSON.parse(await readFile(path.join(appDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(appDir, 'package.json'), `${JSON.stringify({ ...manifest, type: 'module' }, null, 2)}\n`);
    const tsc = await sh(process.execPath, [path.join(appDir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], appDir);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });
});
