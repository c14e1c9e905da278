// Which module of the project builds the server a migrated file's handlers are registered on.
// Tool modules export functions that register tools (`registerArchiveTools(server)`), and the
// module that builds the server imports and calls them, directly or through an index module:
// following the relative imports backwards from the migrated file reaches it. Every file the
// run reads is scanned once, with regular expressions (no parse): its relative imports, and
// whether it builds an MCP server at all.
import path from 'node:path';
import { moduleFiles } from './cross-module.ts';

/**
 * `from './x'`, `export ... from './x'`, `import './x'`, `require('./x')`, `import('./x')`, with
 * comments allowed where the grammar allows them; every specifier that starts with a dot
 * (`.` and `..` name a folder's index module).
 */
const RELATIVE_SPECIFIER = /(?:\bfrom|\bimport\s*\(?|\brequire\s*\()\s*(?:\/\*(?:[^*]|\*(?!\/))*\*\/\s*|\/\/[^\n]*\n\s*)*(['"])(\.[^'"\n]*)\1/g;
/** `new McpServer(` or `new Server(` (the low-level server), in a file that uses the SDK. */
const BUILDS_SERVER = /\bnew\s+(?:McpServer|Server)\s*[(<]/;
/** A source file's extension, as a specifier may write it (`./x.js` names `x.ts` too). */
const SOURCE_EXTENSION = /\.(m|c)?(j|t)sx?$/;

export class ImportGraph {
  /** Every file noted (the files a specifier may name). */
  private readonly files = new Set<string>();
  /** Relative specifiers by importing file (absolute path). */
  private readonly specifiers = new Map<string, string[]>();
  /** Files whose text builds an MCP server. */
  readonly builders = new Set<string>();
  /** Each specifier, with its file, by the name it ends in (see byLastName). */
  private lastNames?: Map<string, Array<{ file: string; specifier: string }>>;
  /** Importing files by imported file, as found so far. */
  private readonly importers = new Map<string, string[]>();

  /** Records what one file imports and whether it builds a server. */
  note(file: string, source: string): void {
    this.files.add(file);
    this.lastNames = undefined;
    this.importers.clear();
    if (source.includes('@modelcontextprotocol/') && BUILDS_SERVER.test(source)) this.builders.add(file);
    if (!source.includes("'.") && !source.includes('".')) return;
    const found: string[] = [];
    // A copy of each specifier: a match is a slice of the file's text and would keep all of it
    // alive for the whole run (tens of megabytes over a large project).
    for (const m of source.matchAll(RELATIVE_SPECIFIER)) found.push(` ${m[2]!}`.slice(1));
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
    const seen = new Set([file]);
    const found = new Set<string>();
    let frontier = [file];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const f of frontier) {
        for (const importer of this.importersOf(f)) {
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

  /**
   * The files with a relative specifier that may name one of `targets` (moduleFiles: as
   * written, with another source extension, or a folder's index module), whether or not
   * another file is found first under it.
   */
  filesImportingAny(targets: ReadonlySet<string>): Set<string> {
    const importers = new Set<string>();
    for (const target of targets) {
      for (const { file, specifier } of this.mayName(target)) {
        if (!importers.has(file) && moduleFiles(path.dirname(file), specifier).some((name) => targets.has(name))) importers.add(file);
      }
    }
    return importers;
  }

  /** The files noted that `file`'s relative specifiers name (resolveAmong). */
  importsOf(file: string): string[] {
    const exists = (f: string) => this.files.has(f);
    const found = new Set<string>();
    for (const specifier of this.specifiersOf(file)) {
      const module = resolveAmong(path.dirname(file), specifier, exists);
      if (module !== undefined && module !== file) found.add(module);
    }
    return [...found];
  }

  /** The files whose specifiers name `file`, among the files noted (resolveAmong). */
  importersOf(file: string): string[] {
    let found = this.importers.get(file);
    if (found) return found;
    found = [];
    const exists = (f: string) => this.files.has(f);
    for (const { file: importer, specifier } of this.mayName(file)) {
      if (resolveAmong(path.dirname(importer), specifier, exists) === file && !found.includes(importer)) found.push(importer);
    }
    this.importers.set(file, found);
    return found;
  }

  /**
   * The specifiers that may name `target`: those that end in its name (the extension aside), in
   * its folder's name when it is an index module, or in `.`, `..` or `/`. Resolving only these,
   * not every specifier of the project, keeps the search in proportion to what it finds.
   */
  private mayName(target: string): Array<{ file: string; specifier: string }> {
    const byName = (this.lastNames ??= this.indexByLastName());
    const base = path.basename(target);
    const names = new Set([base.replace(SOURCE_EXTENSION, ''), '', '.', '..']);
    if (base.startsWith('index.')) names.add(path.basename(path.dirname(target)));
    return [...names].flatMap((name) => byName.get(name) ?? []);
  }

  private indexByLastName(): Map<string, Array<{ file: string; specifier: string }>> {
    const index = new Map<string, Array<{ file: string; specifier: string }>>();
    for (const [file, specifiers] of this.specifiers) {
      for (const specifier of specifiers) {
        const name = specifier.slice(specifier.lastIndexOf('/') + 1).replace(SOURCE_EXTENSION, '');
        const list = index.get(name);
        if (list) list.push({ file, specifier });
        else index.set(name, [{ file, specifier }]);
      }
    }
    return index;
  }
}

/**
 * The file among those `exists` accepts that a relative specifier names: as written, with
 * TypeScript's `.js`-for-`.ts` convention, without an extension, or a directory's index.
 */
export function resolveAmong(dir: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  return moduleFiles(dir, specifier).find(exists);
}
