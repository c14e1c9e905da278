// Calls from one module's handlers into another module's exported helper that asks the
// client. Found by the engine (it sees every file); the planner marks each such call.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { analyseFile } from '../analyse/analyse-file.ts';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/**
 * The local names `source` imports from modules in `helpers` (by absolute path), mapped to the
 * helper they stand for. Cheap when nothing matches: a text test before any parse.
 */
export function findAskingHelperImports(
  file: string,
  source: string,
  helpers: ReadonlyMap<string, ReadonlyArray<{ name: string; line: number }>>,
  display: (absolutePath: string) => string,
): Map<string, { file: string; line: number; name: string }> {
  const found = new Map<string, { file: string; line: number; name: string }>();
  const names = new Set([...helpers.values()].flat().map((h) => h.name));
  if (![...names].some((n) => source.includes(n))) return found;
  let analysis;
  try {
    analysis = analyseFile(source, file);
  } catch {
    return found; // a file that does not parse is reported by the main pass
  }
  for (const [local, { from, imported }] of analysis.importedNames) {
    if (!from.startsWith('.')) continue;
    const target = resolveModule(path.dirname(file), from);
    const helper = target ? helpers.get(target)?.find((h) => h.name === imported) : undefined;
    if (target && helper) found.set(local, { file: display(target), line: helper.line, name: helper.name });
  }
  return found;
}

/** `./helpers.js` → the source file it names (TypeScript's `.js`-for-`.ts` convention included). */
function resolveModule(dir: string, specifier: string): string | undefined {
  const base = path.resolve(dir, specifier);
  const stem = base.replace(/\.(m|c)?(j|t)sx?$/, '');
  const candidates = [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  return candidates.find((c) => EXTENSIONS.some((e) => c.endsWith(e)) && existsSync(c));
}
