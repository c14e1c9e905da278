// The import graph (src/engine/import-graph.ts) resolves only the specifiers that may name a
// module, not every specifier of the project: held here to the plain definition, resolving
// every specifier of every file, on generated projects.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moduleFiles } from '../src/engine/cross-module.ts';
import { ImportGraph, resolveAmong } from '../src/engine/import-graph.ts';

const ROOT = path.resolve('/project');
const FOLDERS = ['', 'src', 'src/tools', 'src/tools/admin', 'lib'];
const NAMES = ['index', 'server', 'tools', 'ask', 'ask.service', 'admin'];
const EXTENSIONS = ['.ts', '.js', '.mjs', '.tsx', '.cts'];

/** A project: files, each importing some specifiers, some building a server. */
const project = fc
  .uniqueArray(
    fc
      .tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES), fc.constantFrom(...EXTENSIONS))
      .map(([folder, name, ext]) => path.join(ROOT, folder, name + ext)),
    { minLength: 1, maxLength: 14 },
  )
  .chain((files) =>
    fc.tuple(
      fc.constant(files),
      fc.array(
        fc.record({
          specifiers: fc.array(
            fc.oneof(
              fc
                .tuple(
                  fc.constantFrom('./', '../', '../../', './tools/', './admin/'),
                  fc.constantFrom(...NAMES),
                  fc.constantFrom('', '.js', '.ts', '.mjs', '/'),
                )
                .map(([up, name, ext]) => `${up}${name}${ext}`),
              fc.constantFrom('.', '..', './', '../tools', './tools', '../admin/index.js'),
            ),
            { maxLength: 3 },
          ),
          form: fc.constantFrom('import', 'export', 'require', 'dynamic', 'side-effect', 'commented'),
          builds: fc.boolean(),
        }),
        { minLength: files.length, maxLength: files.length },
      ),
    ),
  );

function sourceOf(specifiers: readonly string[], form: string, builds: boolean): string {
  const lines = specifiers.map((s, i) => {
    switch (form) {
      case 'import':
        return `import { a${i} } from '${s}';`;
      case 'export':
        return `export * from "${s}";`;
      case 'require':
        return `const a${i} = require( '${s}' );`;
      case 'dynamic':
        return `const a${i} = await import('${s}');`;
      case 'side-effect':
        return `import '${s}';`;
      default:
        return `import {\n  a${i},\n} from /* the helpers */ '${s}';`;
    }
  });
  if (builds) lines.push("import { McpServer } from '@modelcontextprotocol/server';", "const server = new McpServer({ name: 's', version: '1' });");
  return lines.join('\n') + '\n';
}

describe('the import graph', () => {
  it('finds the importers and builders the plain definition finds', () => {
    fc.assert(
      fc.property(project, ([files, contents]) => {
        const graph = new ImportGraph();
        const specifiers = new Map<string, string[]>();
        files.forEach((file, i) => {
          const { specifiers: written, form, builds } = contents[i]!;
          graph.note(file, sourceOf(written, form, builds));
          specifiers.set(file, written);
          expect(graph.specifiersOf(file)).toEqual(written);
        });
        const noted = new Set(files);
        // Importers by the plain definition: every specifier of every file resolved.
        const importersOf = (target: string) =>
          files.filter((f) => specifiers.get(f)!.some((s) => resolveAmong(path.dirname(f), s, (x) => noted.has(x)) === target));
        const builders = new Set(files.filter((_, i) => contents[i]!.builds));
        for (const target of files) {
          let expected: string[];
          if (builders.has(target)) expected = [target];
          else {
            const seen = new Set([target]);
            const found = new Set<string>();
            let frontier = [target];
            while (frontier.length > 0) {
              frontier = frontier.flatMap((f) => importersOf(f).filter((i) => !seen.has(i) && Boolean(seen.add(i))));
              for (const f of frontier) if (builders.has(f)) found.add(f);
              frontier = frontier.filter((f) => !builders.has(f));
            }
            expected = [...found].sort();
          }
          expect(graph.buildersReaching(target)).toEqual(expected);
        }
        // Files that may import a module of a set (the cross-module pass reads only these).
        for (const targets of [new Set(files.slice(0, 1)), new Set(files.filter((_, i) => i % 2 === 1))]) {
          const expected = files.filter((f) => specifiers.get(f)!.some((s) => moduleFiles(path.dirname(f), s).some((name) => targets.has(name))));
          expect([...graph.filesImportingAny(targets)].sort()).toEqual(expected.sort());
        }
      }),
      { numRuns: 300 },
    );
  });
});
