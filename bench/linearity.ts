// `npm run bench -- --linearity`: whether cost is linear in candidate bytes, in process.
//
// Corpora of candidates only, the same 120 servers copied 1, 2 and 4 times. Each variant runs
// in its own child (`node --import tsx bench/child.ts <variant> <dir>`, the sources under tsx),
// which first runs over a separate warm-up corpus (unmeasured: modules loaded, JIT warm, the
// checker started once) and then over the measured one, so the measured span holds only what
// grows with the input. CPU time of that span (user + system, from process.cpuUsage) is
// compared: linear cost shows as a marginal ratio near 2.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { ChildReport } from './child.ts';
import { ensureLinearityCorpus } from './corpus.ts';

/** Servers in the 1x linearity corpus (about 1.3 MB). */
const LINEAR_SERVERS = 120;
const VARIANTS = ['floor', 'check-analysis', 'migrate'] as const;

function runChild(root: string, variant: string, dir: string, warm: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'child.ts'), variant, dir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_WARM: warm },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`${variant} failed (exit ${code}):\n${stderr}`));
      resolve(JSON.parse(line) as ChildReport);
    });
  });
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

export async function measureLinearity(root: string, corpora: string, reps: number, seed: number, rebuild: boolean): Promise<string> {
  const warm = path.join(corpora, 'linear-warm');
  await ensureLinearityCorpus(warm, 200, 1, seed + 1, rebuild);
  const lin = await Promise.all(
    [1, 2, 4].map(async (copies) => ({
      copies,
      dir: path.join(corpora, `linear-${copies}x`),
      manifest: await ensureLinearityCorpus(path.join(corpora, `linear-${copies}x`), LINEAR_SERVERS, copies, seed, rebuild),
    })),
  );
  // The least CPU time of the runs: the least disturbed by other load.
  const least = new Map<string, number>();
  process.stderr.write('linearity');
  for (let rep = 0; rep < reps; rep++) {
    for (const l of lin) {
      for (const variant of VARIANTS) {
        const report = await runChild(root, variant, l.dir, warm);
        const key = `${variant} ${l.copies}`;
        least.set(key, Math.min(least.get(key) ?? Infinity, report.cpuMs ?? report.workMs));
      }
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  const lines = [
    `### Linearity in candidate bytes (in process; candidates only: the same ${LINEAR_SERVERS} servers copied 1, 2, 4 times)`,
    '',
    'CPU ms of the measured span, after a warm-up over another corpus in the same process; the least of the runs.',
    '',
    '| variant | 1x CPU ms | 2x CPU ms | 4x CPU ms | 2x/1x | 4x/2x | marginal 2x→4x / 1x→2x |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const variant of VARIANTS) {
    const [t1, t2, t4] = [1, 2, 4].map((c) => least.get(`${variant} ${c}`)!) as [number, number, number];
    lines.push(`| ${variant} | ${fmt(t1)} | ${fmt(t2)} | ${fmt(t4)} | ${fmt(t2 / t1, 2)} | ${fmt(t4 / t2, 2)} | ${fmt((t4 - t2) / (t2 - t1), 2)} |`);
  }
  lines.push(
    '',
    `Candidate bytes: ${lin.map((l) => `${l.copies}x = ${fmt(l.manifest.candidateBytes / 1e6, 2)} MB`).join(', ')}. Linear cost: a marginal ratio ≈ 2.`,
  );
  return lines.join('\n');
}
