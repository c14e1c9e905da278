// Start-up, as a user meets it: the compiled CLI (bin/mrtr-codemod.js running dist/, what the
// package installs) against `node -e 0`, paired in one run. Each repetition runs every command
// once, in turn, so drift in the machine's load falls on all of them alike; the ratios are of
// medians over the repetitions. Wall time is what a user waits; CPU time (user + system, from
// /usr/bin/time when it is installed) moves less with other load on a shared machine.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { ensureCorpus, type CorpusManifest } from './corpus.ts';

const TIME = '/usr/bin/time';
/** The small project `check` starts on: 50 files, about a tenth of them MCP servers. */
const PROJECT_FILES = 50;
const PROJECT_SERVER_SHARE = 0.1;

interface Command {
  label: string;
  args: string[];
  cwd: string;
  /** The limit on its ratio to `node -e 0`, if it has one. */
  target?: number;
}

interface Timing {
  wallMs: number;
  cpuMs?: number;
}

function runOnce(command: Command): Promise<Timing> {
  const useTime = existsSync(TIME);
  const [file, args] = useTime ? [TIME, ['-f', 'BENCH-CPU %U %S', process.execPath, ...command.args]] : [process.execPath, command.args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { cwd: command.cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      // 0, or 1 for `check` with findings; anything else is a failure of the command.
      if (code !== 0 && code !== 1) return reject(new Error(`${command.label} failed (exit ${code}):\n${stderr}`));
      const cpu = /BENCH-CPU ([\d.]+) ([\d.]+)/.exec(stderr);
      resolve({ wallMs, ...(cpu ? { cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 } : {}) });
    });
  });
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** Measures start-up and returns its section of the report (Markdown). */
export async function measureStartup(root: string, corpora: string, reps: number, seed: number, rebuild: boolean, baseline?: string): Promise<string> {
  const bin = path.join(root, 'bin', 'mrtr-codemod.js');
  if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm run bench does)');
  const projectDir = path.join(corpora, `startup-${PROJECT_FILES}`);
  const manifest: CorpusManifest = await ensureCorpus(projectDir, PROJECT_FILES, seed, rebuild, PROJECT_SERVER_SHARE);
  await mkdir(corpora, { recursive: true });
  const emptyDir = await mkdtemp(path.join(corpora, 'startup-empty-'));
  const cliCommands = (cli: string, suffix: string): Command[] => [
    { label: `mrtr-codemod --help${suffix}`, args: [cli, '--help'], cwd: root, target: 2 },
    { label: `mrtr-codemod --version${suffix}`, args: [cli, '--version'], cwd: root },
    { label: `mrtr-codemod check . (${PROJECT_FILES}-file project)${suffix}`, args: [cli, 'check', '.'], cwd: projectDir, target: 3 },
    { label: `mrtr-codemod check . (empty folder)${suffix}`, args: [cli, 'check', '.'], cwd: emptyDir },
    { label: `mrtr-codemod migrate --dry-run . (${PROJECT_FILES}-file project)${suffix}`, args: [cli, 'migrate', '--dry-run', '.'], cwd: projectDir },
  ];
  const after = cliCommands(bin, baseline ? ' (after)' : '');
  const before = baseline ? cliCommands(path.join(baseline, 'bin', 'mrtr-codemod.js'), ' (before)') : [];
  // Each command of this build beside the same command of the baseline, when there is one.
  const commands: Command[] = [
    { label: 'node -e 0', args: ['-e', '0'], cwd: root },
    ...after.flatMap((command, i) => (before[i] ? [command, before[i]!] : [command])),
  ];
  try {
    // Unmeasured: the page cache warm for every file the commands read.
    for (const command of commands) await runOnce(command);
    const timings = commands.map((): Timing[] => []);
    for (let rep = 0; rep < reps; rep++) {
      for (const [i, command] of commands.entries()) timings[i]!.push(await runOnce(command));
    }
    return startupReport(commands, timings, manifest, reps);
  } finally {
    await rm(emptyDir, { recursive: true, force: true });
  }
}

function startupReport(commands: readonly Command[], timings: readonly Timing[][], manifest: CorpusManifest, reps: number): string {
  const wall = timings.map((runs) => median(runs.map((t) => t.wallMs)));
  const cpu = timings.map((runs) => (runs.every((t) => t.cpuMs !== undefined) ? median(runs.map((t) => t.cpuMs!)) : undefined));
  const lines = [
    `### Start-up (the compiled CLI against \`node -e 0\`, ${reps} paired runs)`,
    '',
    `Project: ${manifest.files} files (${fmt(manifest.totalBytes / 1e3)} KB), ${manifest.candidates} of them mention the legacy surface (kinds ${JSON.stringify(manifest.kinds)}).`,
    '',
    '| command | wall ms (median) | wall ms (min–max) | CPU ms (median) | x node -e 0 (wall) | x node -e 0 (CPU) | target (wall) |',
    '| --- | ---: | --- | ---: | ---: | ---: | --- |',
  ];
  commands.forEach((command, i) => {
    const runs = timings[i]!.map((t) => t.wallMs);
    const ratio = wall[i]! / wall[0]!;
    const cpuRatio = cpu[i] !== undefined && cpu[0] ? fmt(cpu[i]! / cpu[0], 2) : 'n/a';
    const target = command.target === undefined ? '' : `≤ ${command.target}x: ${ratio <= command.target ? 'met' : 'MISSED'}`;
    lines.push(
      `| ${command.label} | ${fmt(wall[i]!)} | ${fmt(Math.min(...runs))}–${fmt(Math.max(...runs))} | ${cpu[i] === undefined ? 'n/a' : fmt(cpu[i]!)} | ${fmt(ratio, 2)} | ${cpuRatio} | ${target} |`,
    );
  });
  return lines.join('\n');
}
