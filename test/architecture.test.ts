// The shape of src/ and transforms/: no import cycle, and each layer imports only what is below it (the layers
// and why are in test/support/import-graph.ts). The checks are tried on small graphs first, so
// that a pass over src/ means something.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, layerOf, layerViolations } from './support/import-graph.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the import checks', () => {
  it('find a cycle, a type-only one or one through several modules', () => {
    const graph = new Map([
      ['plan/a.ts', ['plan/b.ts']],
      ['plan/b.ts', ['plan/c.ts', 'core/x.ts']],
      ['plan/c.ts', ['plan/a.ts']],
      ['core/x.ts', []],
      ['analyse/self.ts', ['analyse/self.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['plan/a.ts', 'plan/b.ts', 'plan/c.ts'], ['analyse/self.ts']]);
    expect(
      importCycles(
        new Map([
          ['plan/a.ts', ['plan/b.ts']],
          ['plan/b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('find an import up the layers, and a module of no layer', () => {
    const graph = new Map([
      ['analyse/find.ts', ['plan/types.ts', 'core/vocabulary.ts']],
      ['engine/run.ts', ['report/summary.ts', 'plan/types.ts']],
      ['eslint/index.ts', ['cli/check-command.ts']],
      ['plan/wiring.ts', ['rewrite/edits/imports.ts', 'rewrite/rewrite.ts']],
      ['rewrite/edits/imports.ts', ['plan/types.ts']],
      ['misc.ts', []],
    ]);
    expect(layerViolations(graph)).toEqual([
      'analyse/find.ts (analyse) imports plan/types.ts (plan)',
      'engine/run.ts (engine) imports report/summary.ts (report)',
      'eslint/index.ts (eslint) imports cli/check-command.ts (cli)',
      'plan/wiring.ts (plan) imports rewrite/rewrite.ts (rewrite)',
      'rewrite/edits/imports.ts (edits) imports plan/types.ts (plan)',
      'misc.ts belongs to no layer',
    ]);
  });

  it('place a module by its folder, or by its name at the top', () => {
    expect(layerOf('report/formats/sarif.ts')).toBe('report');
    expect(layerOf('transform.ts')).toBe('pipeline');
    expect(layerOf('package-version.ts')).toBe('core');
    expect(layerOf('rewrite/edits/imports.ts')).toBe('edits');
    expect(layerOf('rewrite/render-handler.ts')).toBe('rewrite');
    expect(layerOf('transformer.ts')).toBeUndefined();
  });
});

describe('src/ and transforms/', () => {
  const graph = importGraph(ROOT);

  it('is read whole', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('transform.ts')).toContain('plan/plan-file.ts');
    expect(graph.get('transforms/mrtr-handlers.ts')).toContain('transform.ts');
  });

  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('imports down the layers only', () => {
    expect(layerViolations(graph)).toEqual([]);
  });
});
