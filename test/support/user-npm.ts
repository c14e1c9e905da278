// npm and npx as a user runs them, in a scratch folder of a test's own: with no setting of
// this project's run passed on (an enclosing `npm test`'s prefix or package), a cache of the
// folder's own, and the registry of this project's lockfile on the loopback interface
// (./lockfile-registry.ts): no network, and nothing written to the user's npm cache.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { serveLockfile, type LockfileRegistry } from './lockfile-registry.ts';

const run = promisify(execFile);
export const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
export const MINUTES = 60_000;

/** npm settings that may pass through; the rest of an enclosing `npm test`'s npm_* variables (its prefix, its package) must not. */
const KEPT_NPM_SETTINGS = new Set(['cache', 'registry', 'userconfig', 'globalconfig', 'proxy', 'https_proxy', 'noproxy', 'strict_ssl', 'cafile']);

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const npm = /^npm_(config_)?(.*)$/i.exec(key);
    if (npm && !(npm[1] && KEPT_NPM_SETTINGS.has(npm[2]!.toLowerCase()))) continue;
    if (key === 'INIT_CWD' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function exec(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 3 * MINUTES): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env, timeout, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export interface UserNpm {
  /** Runs a program (npm, npx, node, git) as the user would. */
  sh(command: string, args: readonly string[], cwd: string, extraEnv?: NodeJS.ProcessEnv, timeout?: number): Promise<Ran>;
  /** Runs a command line through the shell, as typed (a README's line). */
  line(commandLine: string, cwd: string, timeout?: number): Promise<Ran>;
  /** What the registry was asked for and does not hold (an optional peer nothing installs is asked for too). */
  misses(): readonly string[];
  close(): Promise<void>;
}

/** npm for a user whose scratch folder is `root` (its cache and settings go there). */
export async function userNpm(root: string): Promise<UserNpm> {
  const outer = cleanEnv();
  const cache = (await exec('npm', ['config', 'get', 'cache'], PROJECT, outer)).stdout.trim();
  const registry: LockfileRegistry = await serveLockfile(path.join(PROJECT, 'package-lock.json'), cache);
  // No user settings: a scope mapped to another registry there would reach past this one.
  await writeFile(path.join(root, 'npmrc'), '');
  const env = {
    ...outer,
    npm_config_registry: `${registry.url}/`,
    npm_config_cache: path.join(root, 'npm-cache'),
    npm_config_userconfig: path.join(root, 'npmrc'),
  };
  return {
    sh: (command, args, cwd, extraEnv = {}, timeout) => exec(command, args, cwd, { ...env, ...extraEnv }, timeout),
    line: (commandLine, cwd, timeout) => exec('sh', ['-c', commandLine], cwd, env, timeout),
    misses: () => registry.misses,
    close: () => registry.close(),
  };
}

/** The lines of the ```sh blocks of a README section (from its heading to the next of its level), comments dropped. */
export function shellLines(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`no section ${heading}`);
  const level = /^#+/.exec(heading)![0];
  const next = readme.slice(start + heading.length + 2).search(new RegExp(`^${level} `, 'm'));
  const section = next === -1 ? readme.slice(start) : readme.slice(start, start + heading.length + 2 + next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    block[1]!
      .split('\n')
      .map((line) => line.replace(/\s+#\s.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}
