// Calls from one module's handlers into another module's exported helper that asks the
// client. Found by the engine (it sees every file); the planner marks each such call.
import path from 'node:path';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { SOURCE_EXTENSIONS } from './discover.ts';

type Helper = { name: string; line: number };

/** The asking helpers a run's modules export, and the imports of them from other modules. */
export class AskingHelperIndex {
  /** Every exported helper's name: a file whose text has none of them cannot import one. */
  private readonly names: readonly string[];

  /**
   * `helpers`: the helpers each module exports, by the module's absolute path (as discovered).
   * `display`: how a module is named in the marker of a call into it.
   */
  constructor(
    private readonly helpers: ReadonlyMap<string, readonly Helper[]>,
    private readonly display: (absolutePath: string) => string,
  ) {
    this.names = [...new Set([...helpers.values()].flat().map((h) => h.name))];
  }

  /** Whether a file's text (or its UTF-8 bytes, before decoding) mentions a helper's name. */
  mentionedIn(text: string | Buffer): boolean {
    return this.names.some((name) => text.includes(name));
  }

  /**
   * The local names `source` imports from the modules of the index, mapped to the helper they
   * stand for. Parses the file: ask only of a file that mentions a helper (mentionedIn).
   */
  importsOf(file: string, source: string): Map<string, { file: string; line: number; name: string }> {
    let analysis;
    try {
      analysis = analyseFile(source, file);
    } catch {
      return new Map(); // a file that does not parse is reported by the main pass
    }
    return this.importsIn(file, analysis);
  }

  /** importsOf, for a file already analysed. */
  importsIn(file: string, analysis: Pick<FileAnalysis, 'importedNames'>): Map<string, { file: string; line: number; name: string }> {
    const found = new Map<string, { file: string; line: number; name: string }>();
    for (const [local, { from, imported }] of analysis.importedNames) {
      if (!from.startsWith('.')) continue;
      const target = this.moduleOf(path.dirname(file), from);
      const helper = target ? this.helpers.get(target)!.find((h) => h.name === imported) : undefined;
      if (target && helper) found.set(local, { file: this.display(target), line: helper.line, name: helper.name });
    }
    return found;
  }

  /**
   * The module of the index that `./helpers.js` names, if any (TypeScript's `.js`-for-`.ts`
   * convention included). Only the index's modules are of use, so the names a specifier may
   * stand for are looked up in it, not on disk.
   */
  private moduleOf(dir: string, specifier: string): string | undefined {
    return moduleFiles(dir, specifier).find((name) => this.helpers.has(name));
  }
}

/** The files a relative specifier may name, in the order they are tried. */
export function moduleFiles(dir: string, specifier: string): string[] {
  const base = path.resolve(dir, specifier);
  const stem = base.replace(/\.(m|c)?(j|t)sx?$/, '');
  return [base, ...SOURCE_EXTENSIONS.map((e) => stem + e), ...SOURCE_EXTENSIONS.map((e) => path.join(base, `index${e}`))];
}
