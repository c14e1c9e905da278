// `npm run bench [-- options]`: whole processes of the real CLI against a plain-Node floor,
// paired in one run. It reports; it asserts nothing (speed is measured, never asserted in tests).
//
// Every measurement is a process as a user starts it, from spawn to exit, module loading and
// all: `node bin/mrtr-codemod.js check .` (the compiled CLI, dist/, as the package installs
// it) in the corpus's folder, and the floor `node bench/floor.mjs .` (plain Node: list the
// files, read them, prefilter, Babel-parse the candidates). Wall time, CPU time (user + system)
// and peak RSS come from /usr/bin/time. Each repetition runs every command once, in turn (the
// order reversed every other repetition), so drift in the machine's load falls on all of them
// alike; ratios are taken within a repetition (command / that repetition's floor, and with
// --baseline command / the same command of the other build) and reported as the median with
// their spread. The repository-shaped corpus, whose commands take about a second, runs more
// repetitions (--repo-reps): a tenth of a second is within its run-to-run spread.
//
// Options:
//   --corpora synthetic,migrated,repo   which corpora (default all three; see bench/README.md)
//   --files 10k        size of the synthetic corpus (and of its migrated copy)
//   --reps 5           repetitions
//   --repo-reps 15     repetitions on the repository-shaped corpus (default: 3 × --reps)
//   --variants floor,check,migrate,migrate-no-types
//   --baseline DIR     another build of the CLI (a folder with bin/ and dist/, e.g. the main
//                      branch built) measured in the same run, interleaved: "before" and "after"
//   --scaling 1k,10k,20k,40k   time and peak memory of migrate (and check) over synthetic corpora
//                      of these sizes (default: not measured)
//   --startup-reps 20 | --no-startup | --startup-only   start-up (bench/startup.ts)
//   --linearity        the in-process linearity check (bench/child.ts, under tsx)
//   --rebuild          generate the corpora again
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCorpus, ensureMigratedCorpus, type CorpusManifest } from './corpus.ts';
import { measureLinearity } from './linearity.ts';
import { ensureRepoCorpus } from './repo-corpus.ts';
import { measureStartup } from './startup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPORA = path.join(ROOT, '.tmp', 'bench-corpus');
const TIME = '/usr/bin/time';
const FLOOR = path.join(ROOT, 'bench', 'floor.mjs');

type CorpusName = 'synthetic' | 'migrated' | 'repo';
type Variant = 'floor' | 'check' | 'migrate' | 'migrate-no-types';

interface Args {
  corpora: CorpusName[];
  files: number;
  reps: number;
  repoReps?: number;
  variants: Variant[];
  baseline?: string;
  scaling: number[];
  startupReps: number;
  startupOnly: boolean;
  linearity: boolean;
  rebuild: boolean;
  seed: number;
}

const count = (v: string) => {
  const n = v.toLowerCase().endsWith('k') ? Number(v.slice(0, -1)) * 1000 : Number(v);
  if (!Number.isInteger(n) || n < 10) throw new Error(`not a file count: ${v}`);
  return n;
};

function parseArgs(argv: string[]): Args {
  const args: Args = {
    corpora: ['synthetic', 'migrated', 'repo'],
    files: 10_000,
    reps: 5,
    variants: ['floor', 'check', 'migrate', 'migrate-no-types'],
    scaling: [],
    startupReps: 20,
    startupOnly: false,
    linearity: false,
    rebuild: false,
    seed: 20260728,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--files') args.files = count(value());
    else if (a === '--corpora') args.corpora = value().split(',').filter(Boolean) as CorpusName[];
    else if (a === '--reps') args.reps = Math.max(1, Number(value()));
    else if (a === '--repo-reps') args.repoReps = Math.max(1, Number(value()));
    else if (a === '--variants')
      args.variants = [
        'floor',
        ...(value()
          .split(',')
          .filter((v) => v !== 'floor') as Variant[]),
      ];
    else if (a === '--baseline') args.baseline = path.resolve(value());
    else if (a === '--scaling') args.scaling = value().split(',').map(count);
    else if (a === '--startup-reps') args.startupReps = Math.max(1, Number(value()));
    else if (a === '--no-startup') args.startupReps = 0;
    else if (a === '--startup-only') args.startupOnly = true;
    else if (a === '--linearity') args.linearity = true;
    else if (a === '--rebuild') args.rebuild = true;
    else if (a === '--seed') args.seed = Number(value());
    else throw new Error(`unknown argument ${a}`);
  }
  for (const c of args.corpora) if (!['synthetic', 'migrated', 'repo'].includes(c)) throw new Error(`--corpora: unknown corpus ${c}`);
  return args;
}

// --- one process -----------------------------------------------------------------------------

interface Sample {
  wallMs: number;
  /** User + system, from /usr/bin/time (undefined without it). */
  cpuMs?: number;
  maxRssKiB?: number;
}

interface Command {
  label: string;
  variant: Variant;
  /** Arguments to node. */
  args: string[];
}

let scratch: string;

/** Runs `node <args>` in `cwd`, stdout discarded (as `> /dev/null`), and times it. */
function runProcess(args: readonly string[], cwd: string, keepStdout = false): Promise<Sample & { stdout: string }> {
  const useTime = existsSync(TIME);
  const timeFile = path.join(scratch, 'time.txt');
  const [file, argv] = useTime ? [TIME, ['-f', '%e %U %S %M', '-o', timeFile, process.execPath, ...args]] : [process.execPath, [...args]];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, argv, { cwd, stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', async (code) => {
      const wallMs = performance.now() - started;
      // 0, or 1 when findings or markers remain; anything else is a failure.
      if (code !== 0 && code !== 1) return reject(new Error(`node ${args.join(' ')} in ${cwd} exited ${code}:\n${stderr.slice(-2000)}`));
      if (!useTime) return resolve({ wallMs, stdout });
      const [, user, system, rss] = (await readFile(timeFile, 'utf8')).trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number, number];
      resolve({ wallMs, cpuMs: (user + system) * 1000, maxRssKiB: rss, stdout });
    });
  });
}

function commandsFor(variants: readonly Variant[], cli: string, label = ''): Command[] {
  const args: Record<Exclude<Variant, 'floor'>, string[]> = {
    check: ['check', '.'],
    migrate: ['migrate', '--dry-run', '.'],
    'migrate-no-types': ['migrate', '--dry-run', '--no-types', '.'],
  };
  return variants
    .filter((v): v is Exclude<Variant, 'floor'> => v !== 'floor')
    .map((variant) => ({ label: `${variant}${label}`, variant, args: [cli, ...args[variant]] }));
}

// --- statistics --------------------------------------------------------------------------------

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number, digits = 0) => n.toFixed(digits);
const spread = (xs: readonly number[], digits = 0) => `${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)})`;

interface Row {
  command: Command;
  samples: Sample[];
}

/** Every command `reps` times, each repetition running all in turn (reversed every other one). */
async function measure(commands: readonly Command[], cwd: string, reps: number): Promise<Row[]> {
  const rows = commands.map((command): Row => ({ command, samples: [] }));
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? rows : [...rows].reverse();
    for (const row of order) row.samples.push(await runProcess(row.command.args, cwd));
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  return rows;
}

function table(rows: readonly Row[]): string {
  const floor = rows.find((r) => r.command.variant === 'floor')!;
  const ratiosTo = (row: Row, to: Row, of: (s: Sample) => number | undefined) => row.samples.map((s, i) => (of(s) ?? NaN) / (of(to.samples[i]!) ?? NaN));
  const ratios = (row: Row, of: (s: Sample) => number | undefined) => ratiosTo(row, floor, of);
  // The same command of the other build (--baseline), measured in the same repetitions.
  const beforeOf = (row: Row) => rows.find((r) => r.command.label === `${row.command.label} (before)`);
  const compared = rows.some((row) => beforeOf(row));
  const lines = [
    `| command | wall ms, median (min–max) | CPU ms, median (min–max) | peak RSS MiB, median (max) | x floor, wall: median (min–max) of paired runs | x floor, CPU |${compared ? ' x before, CPU: median (min–max) of paired runs | x before, peak RSS |' : ''}`,
    `| --- | ---: | ---: | ---: | ---: | ---: |${compared ? ' ---: | ---: |' : ''}`,
  ];
  for (const row of rows) {
    const before = beforeOf(row);
    const cpuVsBefore = before
      ? spread(
          ratiosTo(row, before, (s) => s.cpuMs),
          2,
        )
      : '';
    const rssVsBefore = before ? fmt(median(ratiosTo(row, before, (s) => s.maxRssKiB)), 2) : '';
    const vsBefore = compared ? ` ${cpuVsBefore} | ${rssVsBefore} |` : '';
    const cpu = row.samples.map((s) => s.cpuMs ?? NaN);
    const rss = row.samples.map((s) => (s.maxRssKiB ?? NaN) / 1024);
    const isFloor = row === floor;
    lines.push(
      `| ${row.command.label} | ${spread(row.samples.map((s) => s.wallMs))} | ${spread(cpu)} | ${fmt(median(rss), 1)} (${fmt(Math.max(...rss), 1)}) | ${
        isFloor
          ? '1'
          : spread(
              ratios(row, (s) => s.wallMs),
              2,
            )
      } | ${
        isFloor
          ? '1'
          : spread(
              ratios(row, (s) => s.cpuMs),
              2,
            )
      } |${vsBefore}`,
    );
  }
  return lines.join('\n');
}

// --- what the commands found (one unmeasured run each, in JSON) ----------------------------------

async function findingsLine(cli: string, cwd: string, label: string): Promise<string> {
  const check = JSON.parse((await runProcess([cli, 'check', '--format', 'json', '.'], cwd, true)).stdout) as {
    summary: { filesScanned: number; findings: number; filesWithFindings: number; errors: number };
  };
  const migrate = JSON.parse((await runProcess([cli, 'migrate', '--dry-run', '--json', '.'], cwd, true)).stdout) as {
    filesScanned: number;
    changedFiles: unknown[];
    sites: { total: number; migrated: number; marked: number };
    errors: unknown[];
  };
  const s = check.summary;
  return `${label}check: ${s.findings} findings in ${s.filesWithFindings} of ${s.filesScanned} files, ${s.errors} errors; migrate --dry-run: ${migrate.changedFiles.length} files changed, ${migrate.sites.total} sites (${migrate.sites.migrated} migrated, ${migrate.sites.marked} marked), ${migrate.errors.length} errors.`;
}

// --- the report ----------------------------------------------------------------------------------

interface Corpus {
  name: CorpusName;
  dir: string;
  manifest: CorpusManifest;
  title: string;
}

function describeCorpus(c: Corpus): string {
  const m = c.manifest;
  return `${m.files} source files, ${fmt(m.totalBytes / 1e6, 1)} MB; ${m.candidates} candidates (files that pass the prefilter), ${fmt(m.candidateBytes / 1e6, 2)} MB; ${JSON.stringify(m.kinds)}.`;
}

async function corpusSection(corpus: Corpus, args: Args, cli: string): Promise<string> {
  const commands: Command[] = [{ label: 'floor', variant: 'floor', args: [FLOOR, '.'] }];
  const variants = corpus.name === 'migrated' ? args.variants.filter((v) => v === 'check') : args.variants;
  for (const command of commandsFor(variants, cli)) {
    commands.push(command);
    if (args.baseline) commands.push(...commandsFor([command.variant], path.join(args.baseline, 'bin', 'mrtr-codemod.js'), ' (before)'));
  }
  process.stderr.write(`${corpus.name}: warm-up…\n`);
  // Unmeasured: the page cache warm, and what each build finds (the same, or the report says so).
  const found = [await findingsLine(cli, corpus.dir, args.baseline ? 'after: ' : '')];
  if (args.baseline) found.push(await findingsLine(path.join(args.baseline, 'bin', 'mrtr-codemod.js'), corpus.dir, 'before: '));
  await runProcess([FLOOR, '.'], corpus.dir);
  const reps = corpus.name === 'repo' ? (args.repoReps ?? args.reps * 3) : args.reps;
  process.stderr.write(`${corpus.name}: ${commands.map((c) => c.label).join(', ')} × ${reps}`);
  const rows = await measure(commands, corpus.dir, reps);
  return [`### ${corpus.title}`, '', `Corpus: ${describeCorpus(corpus)} ${reps} paired runs.`, '', ...found.map((line) => `${line}  `), '', table(rows)].join(
    '\n',
  );
}

async function scalingSection(args: Args, cli: string): Promise<string> {
  const lines = [
    `### Scaling: the synthetic corpus at ${args.scaling.map((n) => `${n / 1000}k`).join(', ')} files`,
    '',
    `Medians of ${args.reps} paired runs; peak RSS is the median (max in brackets). The slope is the growth of peak RSS per 1,000 files between the smallest and the largest corpus.`,
    '',
    '| files | command | wall ms | CPU ms | peak RSS MiB | x floor (wall) |',
    '| ---: | --- | ---: | ---: | ---: | ---: |',
  ];
  const peaks = new Map<string, Array<{ files: number; rss: number }>>();
  for (const files of args.scaling) {
    const dir = path.join(CORPORA, `files-${files}`);
    await ensureCorpus(dir, files, args.seed, args.rebuild);
    const commands: Command[] = [{ label: 'floor', variant: 'floor', args: [FLOOR, '.'] }];
    for (const command of commandsFor(
      args.variants.filter((v) => v === 'check' || v === 'migrate'),
      cli,
    )) {
      commands.push(command);
      if (args.baseline) commands.push(...commandsFor([command.variant], path.join(args.baseline, 'bin', 'mrtr-codemod.js'), ' (before)'));
    }
    await runProcess([FLOOR, '.'], dir);
    process.stderr.write(`scaling ${files}: ${commands.map((c) => c.label).join(', ')} × ${args.reps}`);
    const rows = await measure(commands, dir, args.reps);
    const floor = rows[0]!;
    for (const row of rows) {
      const rss = row.samples.map((s) => (s.maxRssKiB ?? NaN) / 1024);
      const ratio = median(row.samples.map((s, i) => s.wallMs / floor.samples[i]!.wallMs));
      lines.push(
        `| ${files} | ${row.command.label} | ${fmt(median(row.samples.map((s) => s.wallMs)))} | ${fmt(median(row.samples.map((s) => s.cpuMs ?? NaN)))} | ${fmt(median(rss), 1)} (${fmt(Math.max(...rss), 1)}) | ${fmt(ratio, 2)} |`,
      );
      const list = peaks.get(row.command.label) ?? [];
      list.push({ files, rss: median(rss) });
      peaks.set(row.command.label, list);
    }
  }
  lines.push('');
  for (const [label, list] of peaks) {
    const first = list[0]!;
    const last = list[list.length - 1]!;
    if (last.files > first.files)
      lines.push(
        `- ${label}: ${fmt(first.rss)} MiB at ${first.files} files, ${fmt(last.rss)} MiB at ${last.files}: ${fmt(((last.rss - first.rss) / (last.files - first.files)) * 1000, 2)} MiB per 1,000 files.`,
      );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const cli = path.join(ROOT, 'bin', 'mrtr-codemod.js');
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm run bench does)');
  if (args.baseline && !existsSync(path.join(args.baseline, 'dist', 'cli', 'main.js')))
    throw new Error(`--baseline ${args.baseline}: no dist/cli/main.js there (build it first)`);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mrtr-bench-'));
  try {
    const out: string[] = [`## mrtr-codemod bench — ${new Date().toISOString()}`, ''];
    out.push(
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${os
        .loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')} at the start; ${args.reps} paired runs${args.baseline ? `; "before" is ${path.relative(ROOT, args.baseline) || args.baseline}` : ''}.`,
    );
    if (args.startupOnly) {
      out.push('', await measureStartup(ROOT, CORPORA, args.startupReps || 20, args.seed, args.rebuild, args.baseline));
    } else {
      const corpora: Corpus[] = [];
      const syntheticDir = path.join(CORPORA, `files-${args.files}`);
      const synthetic =
        args.corpora.includes('synthetic') || args.corpora.includes('migrated')
          ? await ensureCorpus(syntheticDir, args.files, args.seed, args.rebuild)
          : undefined;
      if (args.corpora.includes('synthetic'))
        corpora.push({ name: 'synthetic', dir: syntheticDir, manifest: synthetic!, title: `Synthetic corpus, ${args.files} files` });
      if (args.corpora.includes('migrated')) {
        const dir = path.join(CORPORA, `files-${args.files}-migrated`);
        corpora.push({
          name: 'migrated',
          dir,
          manifest: await ensureMigratedCorpus(syntheticDir, dir, synthetic!, cli, args.rebuild),
          title: `The synthetic corpus after \`migrate --no-types\` (what \`check\` guards in CI after a migration)`,
        });
      }
      if (args.corpora.includes('repo'))
        corpora.push({
          name: 'repo',
          dir: path.join(CORPORA, 'repo'),
          manifest: await ensureRepoCorpus(path.join(CORPORA, 'repo'), args.seed, args.rebuild),
          title: 'Repository-shaped corpus (a git monorepo: many files, 7 candidates, 4 tsconfig projects, nested .gitignore files)',
        });
      for (const corpus of corpora) out.push(await corpusSection(corpus, args, cli), '');
      if (args.scaling.length > 0) out.push(await scalingSection(args, cli), '');
      if (args.linearity) out.push(await measureLinearity(ROOT, CORPORA, args.reps, args.seed, args.rebuild), '');
      if (args.startupReps > 0) out.push(await measureStartup(ROOT, CORPORA, args.startupReps, args.seed, args.rebuild, args.baseline));
    }
    const text = out.join('\n') + '\n';
    process.stdout.write(text);
    await writeFile(path.join(ROOT, '.tmp', `bench-results-${new Date().toISOString().replace(/[:.]/g, '-')}.md`), text);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
