// Which module of the project builds the server a migrated file's handlers are registered on.
// Tool modules export functions that register tools (`registerArchiveTools(server)`), and the
// module that builds the server imports and calls them, directly or through an index module:
// following the relative imports backwards from the migrated file reaches it. Every file the
// run reads is scanned once, with regular expressions (no parse): its relative imports, and
// whether it builds an MCP server at all.
import path from 'node:path';
import { SOURCE_EXTENSIONS } from './discover.ts';

/** `from './x'`, `export ... from './x'`, `import './x'`, `require('./x')`, `import('./x')`. */
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]*)\1/g;
/** `new McpServer(` or `new Server(` (the low-level server), in a file that uses the SDK. */
const BUILDS_SERVER = /\bnew\s+(?:McpServer|Server)\s*[(<]/;

export class ImportGraph {
  /** Every file noted (the files a specifier may name). */
  private readonly files = new Set<string>();
  /** Relative specifiers by importing file (absolute path). */
  private readonly specifiers = new Map<string, string[]>();
  /** Files whose text builds an MCP server. */
  readonly builders = new Set<string>();
  private importers?: Map<string, string[]>;

  /** Records what one file imports and whether it builds a server. */
  note(file: string, source: string): void {
    this.files.add(file);
    this.importers = undefined;
    if (BUILDS_SERVER.test(source) && source.includes('@modelcontextprotocol/')) this.builders.add(file);
    if (!source.includes("'.") && !source.includes('".')) return;
    const found: string[] = [];
    for (const m of source.matchAll(RELATIVE_SPECIFIER)) found.push(m[2]!);
    if (found.length > 0) this.specifiers.set(file, found);
  }

  /** The relative specifiers a file imports (as written). */
  specifiersOf(file: string): readonly string[] {
    return this.specifiers.get(file) ?? [];
  }

  /**
   * The files that build a server and import `file`, directly or through other modules: the
   * nearest ones on each path (a builder's own importers are not followed). `file` itself
   * when it builds one.
   */
  buildersReaching(file: string): string[] {
    if (this.builders.has(file)) return [file];
    const importers = this.importerIndex();
    const seen = new Set([file]);
    const found = new Set<string>();
    let frontier = [file];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const f of frontier) {
        for (const importer of importers.get(f) ?? []) {
          if (seen.has(importer)) continue;
          seen.add(importer);
          if (this.builders.has(importer)) found.add(importer);
          else next.push(importer);
        }
      }
      frontier = next;
    }
    return [...found].sort();
  }

  /** Importing files by imported file, among the files noted. */
  private importerIndex(): Map<string, string[]> {
    if (this.importers) return this.importers;
    const index = new Map<string, string[]>();
    for (const [file, specifiers] of this.specifiers) {
      for (const specifier of specifiers) {
        const target = resolveAmong(path.dirname(file), specifier, (f) => this.files.has(f));
        if (!target) continue;
        const list = index.get(target);
        if (list) list.push(file);
        else index.set(target, [file]);
      }
    }
    this.importers = index;
    return index;
  }
}

/**
 * The file among those `exists` accepts that a relative specifier names: as written, with
 * TypeScript's `.js`-for-`.ts` convention, without an extension, or a directory's index.
 */
export function resolveAmong(dir: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  const base = path.resolve(dir, specifier);
  const stem = base.replace(/\.(m|c)?(j|t)sx?$/, '');
  const names = [base, ...SOURCE_EXTENSIONS.map((e) => stem + e), ...SOURCE_EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  return names.find(exists);
}
