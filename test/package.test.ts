// The published package, as a user gets it: `npm pack`, install the tarball into an empty
// folder, then `npx mrtr-codemod --help` and `npx mrtr-codemod migrate` there. The folder is in
// the system temp directory, away from this project's node_modules, so a dependency missing
// from package.json (or a file missing from "files") cannot be found by accident.
// `npm install` runs with --prefer-offline: the npm cache is enough when it holds the
// dependencies; otherwise npm fetches them from the registry.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELICIT_SERVER } from './engine-samples.ts';

const run = promisify(execFile);
const PROJECT = fileURLToPath(new URL('../', import.meta.url));
const PROJECT_TMP = path.join(PROJECT, '.tmp');
const MINUTES = 60_000;

/** npm settings that may pass through; the rest of an enclosing `npm test`'s npm_* variables (its prefix, its package) must not. */
const KEPT_NPM_SETTINGS = new Set(['cache', 'registry', 'userconfig', 'globalconfig', 'proxy', 'https_proxy', 'noproxy', 'strict_ssl', 'cafile', 'offline', 'prefer_offline']);

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const npm = /^npm_(config_)?(.*)$/i.exec(key);
    if (npm && !(npm[1] && KEPT_NPM_SETTINGS.has(npm[2]!.toLowerCase()))) continue;
    if (key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function sh(command: string, args: string[], cwd: string): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: cleanEnv(), timeout: 3 * MINUTES, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

let packDir: string;
let app: string;
let tarball: string;
let packedFiles: string[];

beforeAll(async () => {
  await mkdir(PROJECT_TMP, { recursive: true });
  packDir = await mkdtemp(path.join(PROJECT_TMP, 'pack-'));
  app = await mkdtemp(path.join(os.tmpdir(), 'mrtr-installed-'));

  const packed = await sh('npm', ['pack', '--json', '--pack-destination', packDir], PROJECT);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(packDir, info!.filename);
  packedFiles = info!.files.map((f) => f.path).sort();

  await writeFile(path.join(app, 'package.json'), `${JSON.stringify({ name: 'empty-app', version: '1.0.0', private: true }, null, 2)}\n`);
  const installed = await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
  expect(installed.code, installed.stderr).toBe(0);
}, 5 * MINUTES);

afterAll(async () => {
  await rm(packDir, { recursive: true, force: true });
  await rm(app, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the launcher, the sources, the transform, README and tsconfig; no tests, fixtures or examples', () => {
    expect(packedFiles).toContain('bin/mrtr-codemod.js');
    expect(packedFiles).toContain('src/cli/main.ts');
    expect(packedFiles).toContain('src/engine/run.ts');
    expect(packedFiles).toContain('transforms/mrtr-handlers.ts');
    expect(packedFiles).toContain('templates/request-state.ts');
    expect(packedFiles).toContain('README.md');
    expect(packedFiles).toContain('tsconfig.json');
    expect(packedFiles).toContain('package.json');
    const stray = packedFiles.filter((f) => /^(test|fixtures|examples|\.tmp|\.ci|node_modules)\//.test(f) || /\.test\.ts$/.test(f));
    expect(stray).toEqual([]);
  });

  it('installed into an empty folder: `npx mrtr-codemod --help` prints the usage', async () => {
    const help = await sh('npx', ['--no-install', 'mrtr-codemod', '--help'], app);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('mrtr-codemod migrate <paths..>');
    const sub = await sh('npx', ['--no-install', 'mrtr-codemod', 'migrate', '--help'], app);
    expect(sub.code, sub.stderr).toBe(0);
    expect(sub.stdout).toContain('--dry-run');
    expect(sub.stdout).toContain('--json');
  });

  it('installed into an empty folder: `npx mrtr-codemod migrate` shows the diff, then migrates', async () => {
    await writeFile(path.join(app, 'server.ts'), ELICIT_SERVER);

    const dry = await sh('npx', ['--no-install', 'mrtr-codemod', 'migrate', '--dry-run', 'server.ts'], app);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.startsWith('--- a/server.ts\n+++ b/server.ts\n@@ ')).toBe(true);
    expect(dry.stdout).toContain("+        answer: inputRequired.elicit({ message: 'Go?'");
    expect(dry.stdout).toContain('--- /dev/null\n+++ b/mrtr-request-state.ts\n');
    expect(dry.stdout).toContain('Files to change: 2 (dry run: nothing written)\n');
    expect(await readFile(path.join(app, 'server.ts'), 'utf8')).toBe(ELICIT_SERVER);

    const real = await sh('npx', ['--no-install', 'mrtr-codemod', 'migrate', 'server.ts'], app);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain('Files changed: 2\n  server.ts\n  mrtr-request-state.ts\n');
    expect(real.stdout).toContain('\nmigrated 1/1 handler\nNext steps:\n');
    expect(await readFile(path.join(app, 'server.ts'), 'utf8')).toContain('inputRequired.elicit(');
    // The request-state module is the packed template's text.
    expect(await readFile(path.join(app, 'mrtr-request-state.ts'), 'utf8')).toContain(await readFile(path.join(PROJECT, 'templates/request-state.ts'), 'utf8'));
  });
});
