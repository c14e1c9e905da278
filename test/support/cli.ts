// Running the CLI (its entry, from the sources) and git from tests.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The CLI run from the TypeScript sources (./source-cli.js); the packed tarball's bin runs dist/ (test/package.test.ts). */
export const BIN = fileURLToPath(new URL('./source-cli.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in `cwd`; a non-zero exit is returned, not thrown. The colour environment is
 * ours to choose: NO_COLOR and FORCE_COLOR are not inherited, and NO_COLOR=1 is the default.
 */
export async function runCli(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = { NO_COLOR: '1' },
  /** Another user to run as (root may start a process as another). */
  user?: { uid: number; gid: number },
): Promise<CliRun> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env: { ...base, ...env }, ...user });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The CLI with colour off: `cli(dir, 'migrate', '.')`. */
export function cli(cwd: string, ...args: string[]): Promise<CliRun> {
  return runCli(cwd, args);
}

/** git with a fixed identity and no signing, so commits work on any machine. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.name=mrtr test', '-c', 'user.email=mrtr@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd });
  return stdout;
}
