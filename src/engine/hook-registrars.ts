// The imported functions an initialize hook calls with the server (`registerConditionalTools
// (server)` in `oninitialized`). The hook pass moves a call to start-up only when the function
// only registers, and that function is in another module: the engine, which sees every file of
// the run, shows it here. Its body must only register, through this module's own functions and
// the functions it imports, each shown the same way; anything else (a module outside the run,
// one that does not parse, a re-export, a default export, a call with effects) keeps the call in
// the hook, marked.
import path from 'node:path';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { isFunction, someNode, type FunctionNode } from '../analyse/ast.ts';
import { namedFunctions } from '../analyse/file-index.ts';
import { hookImports } from '../analyse/init-hooks.ts';
import { functionOnlyRegisters } from '../analyse/registrations.ts';
import { rewriteRegistrationGuards } from '../rewrite/registration-guards.ts';
import { moduleFiles } from './cross-module.ts';

/** At most this many modules are read to show that one run's hooks only register. */
const MAX_MODULES = 64;

/** Reads a module of the run by its absolute path (undefined: not in the run, or unreadable). */
export type ReadModule = (absolutePath: string) => string | undefined;

export class HookRegistrars {
  private readonly shown = new Map<string, boolean>();
  private readonly analyses = new Map<string, FileAnalysis | undefined>();

  constructor(private readonly read: ReadModule) {}

  /** The local names of the imported functions `file`'s initialize hooks call that only register. */
  of(file: string, analysis: FileAnalysis): string[] {
    const dir = path.dirname(file);
    return hookImports(analysis)
      .filter(({ from, imported }) => from.startsWith('.') && this.onlyRegisters(this.moduleOf(dir, from), imported))
      .map(({ local }) => local);
  }

  /** Whether `module`'s export `name` is a function whose every statement only registers. */
  private onlyRegisters(module: string | undefined, name: string): boolean {
    if (module === undefined) return false;
    const key = `${module}\0${name}`;
    const known = this.shown.get(key);
    if (known !== undefined) return known;
    // Until shown, a function that reaches itself again is taken not to only register.
    this.shown.set(key, false);
    const result = this.show(module, name);
    this.shown.set(key, result);
    return result;
  }

  private show(module: string, name: string): boolean {
    const analysis = this.analysis(module);
    if (!analysis) return false;
    const local = exportedLocal(analysis, name);
    const functions: Map<string, FunctionNode | 'registers'> = namedFunctions(analysis.index);
    const fn = local === undefined ? undefined : functions.get(local);
    if (fn === undefined || fn === 'registers') return false;
    // The imported functions it (or a function of its module) calls by name, shown in turn.
    const dir = path.dirname(module);
    for (const callee of calledNames(functions)) {
      const imported = analysis.importedNames.get(callee);
      if (!imported || !imported.from.startsWith('.') || imported.imported === '*' || imported.imported === 'default') continue;
      if (this.onlyRegisters(this.moduleOf(dir, imported.from), imported.imported)) functions.set(callee, 'registers');
    }
    return functionOnlyRegisters(fn, functions);
  }

  private analysis(module: string): FileAnalysis | undefined {
    if (this.analyses.has(module)) return this.analyses.get(module);
    let analysis: FileAnalysis | undefined;
    if (this.analyses.size < MAX_MODULES) {
      const source = this.read(module);
      try {
        // As the module's own run leaves it: a guard dropped there moves the capability consts
        // its handlers read into them, and the registrar then only registers.
        const guarded = source === undefined ? undefined : rewriteRegistrationGuards(source, module).output;
        analysis = guarded === undefined ? undefined : analyseFile(guarded, module);
      } catch {
        analysis = undefined; // a module that does not parse shows nothing (its own run reports it)
      }
    }
    this.analyses.set(module, analysis);
    return analysis;
  }

  private moduleOf(dir: string, specifier: string): string | undefined {
    return moduleFiles(dir, specifier).find((file) => this.read(file) !== undefined);
  }
}

/** The module-level name an export stands for: `export function f`, `export const f = () => {}`, `export { g as f }`. */
export function exportedLocal(analysis: FileAnalysis, name: string): string | undefined {
  for (const statement of analysis.program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.source) continue;
    const declaration = statement.declaration;
    if (declaration?.type === 'FunctionDeclaration' && declaration.id?.name === name) return name;
    if (declaration?.type === 'VariableDeclaration' && declaration.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === name)) return name;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== 'ExportSpecifier') continue;
      const exported = specifier.exported.type === 'Identifier' ? specifier.exported.name : specifier.exported.value;
      if (exported === name) return specifier.local.name;
    }
  }
  return undefined;
}

/**
 * The names the module's functions call as statements of their own bodies (`registerEchoTool
 * (server);`), not inside the handlers they register: only such a call can only register.
 */
function calledNames(functions: ReadonlyMap<string, FunctionNode | 'registers'>): Set<string> {
  const names = new Set<string>();
  for (const fn of functions.values()) {
    if (fn === 'registers' || fn.body.type !== 'BlockStatement') continue;
    someNode(
      fn.body,
      (n) => {
        if (n.type === 'ExpressionStatement' && n.expression.type === 'CallExpression' && n.expression.callee.type === 'Identifier')
          names.add(n.expression.callee.name);
        return false;
      },
      isFunction,
    );
  }
  return names;
}
