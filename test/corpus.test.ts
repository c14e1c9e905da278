// The corpus of servers in real shapes (test/corpus, see test/support/corpus.ts), each copied
// outside this checkout so that nothing resolves from node_modules, as in a fresh clone: no
// legacy request is missed, none is migrated where no request can answer, every output
// parses, a second run changes nothing, `check` fails while a request is still pushed, and
// the migrated files typecheck once the SDK is installed.
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, parseSource } from '../src/analyse/parse.ts';
import { runCodemod } from '../src/engine/run.ts';
import { cli } from './support/cli.ts';
import { corpusProjects, describeOutcome, measureProject, removeScratch, scratchCopy, tally, type ProjectMeasure } from './support/corpus.ts';
import { typecheck } from './support/typecheck.ts';
import { checkoutScratch } from './support/scratch.ts';

const projects = corpusProjects();
const measures = new Map<string, { measure: ProjectMeasure; dir: string }>();

// Each run whose plan asks the checker reads the SDK's declarations (those the package carries:
// nothing is installed), some seconds a project on a busy machine.
beforeAll(async () => {
  for (const project of projects) {
    const dir = scratchCopy(project);
    measures.set(project, { measure: await measureProject(project, dir), dir });
  }
}, 600_000);

afterAll(() => {
  for (const { dir } of measures.values()) removeScratch(dir);
});

const sources = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(m|c)?(t|j)sx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));

describe.each(projects)('corpus project %s', (project) => {
  it('runs without errors, misses no site and migrates none where no request can answer', () => {
    const { measure } = measures.get(project)!;
    expect(measure.result.errors).toEqual([]);
    expect(measure.outcomes.filter((o) => o.status === 'missed').map((o) => describeOutcome(project, o))).toEqual([]);
    const t = tally([measure]);
    expect(t.migratedWithoutRequest).toBe(0);
    expect(measure.unexpected).toEqual([]);
  });

  it('has every site end as its comment says', () => {
    const { measure } = measures.get(project)!;
    expect(measure.outcomes.filter((o) => !o.ok).map((o) => describeOutcome(project, o))).toEqual([]);
  });

  it('leaves outputs that parse and that a second run does not change', async () => {
    const { dir } = measures.get(project)!;
    for (const file of sources(dir)) expect(() => parseSource(readFileSync(file, 'utf8'), dialectOf(file)), file).not.toThrow();
    const again = await runCodemod({ paths: ['.'], cwd: dir, write: false });
    expect(again.changed.map((c) => c.path)).toEqual([]);
  });

  it('fails `check` (through the CLI) while a request is still pushed or a marker is left, and only then', async () => {
    const { dir, measure } = measures.get(project)!;
    const { code } = await cli(dir, 'check', '.');
    const open = measure.outcomes.some((o) => o.status !== 'migrated') || sources(dir).some((f) => readFileSync(f, 'utf8').includes('@mrtr-todo'));
    expect(code).toBe(open ? 1 : 0);
  });
});

it('typechecks every migrated TypeScript file once the SDK is installed', () => {
  // Under this checkout, where node_modules holds the SDK's v2 packages.
  const installed = checkoutScratch('corpus-typecheck-');
  try {
    for (const [project, { dir }] of measures) cpSync(dir, path.join(installed, project), { recursive: true });
    const files = sources(installed).filter((f) => /\.(m|c)?tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    expect(typecheck(files).map((d) => d.replace(installed, ''))).toEqual([]);
  } finally {
    rmSync(installed, { recursive: true, force: true });
  }
});
