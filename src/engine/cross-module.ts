// Calls from one module's handlers into another module's exported helper that asks the client
// (a function, or a method of an exported class). Found by the engine (it sees every file):
// the helper is split, and each calling handler asks through its halves, when every such call
// can migrate; otherwise the planner marks each call.
import path from 'node:path';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { walk } from '../analyse/ast.ts';
import { inlineLoad, literalImport } from '../analyse/module-imports.ts';
import { handedInstances, type HandedInstance } from '../analyse/registry-links.ts';
import type { RegistryShape } from '../analyse/tool-registries.ts';
import type { ExternalHelper, HeldBack, LegacyEntryCall, PlanOptions } from '../plan/plan-options.ts';
import type { FilePlan, SiteReport } from '../plan/types.ts';
import { asFileLineRefs } from '../core/line-refs.ts';
import { lineNumberAt } from '../core/vocabulary.ts';
import { SOURCE_EXTENSIONS } from './discover.ts';
import { helperKey, type ExportedHelper } from './helper-keys.ts';
import { calledOutsideAt, keptWithSibling, NOT_ITS_OWN, outsideCalls, unimported, wrappersNamed, type OutsideCalls, type RefusedSplits } from './kept-whole.ts';

export { helperKey, type ExportedHelper } from './helper-keys.ts';
export type { RefusedSplits } from './kept-whole.ts';
/** A registration, in another module, of a module's exported function as a handler. */
export type Registered = NonNullable<PlanOptions['registeredAs']>[number];

/** The asking helpers a run's modules export, and the imports of them from other modules. */
export class AskingHelperIndex {
  /** Every exported helper's name (a method's class name too): a file whose text has none of them cannot import one. */
  private names: readonly string[];
  /** Modules that re-export helpers of the index (`export * from './prompts.js'`), with what they re-export. */
  private readonly reexporters = new Map<string, Array<{ module: string; renamed?: ReadonlyMap<string, string> }>>();
  /** What the pass reads of each file analysed so far, by path (not the analysis: it holds the syntax tree). */
  private readonly links = new Map<string, ModuleLinks | undefined>();

  /**
   * `helpers`: the helpers each module exports, by the module's absolute path (as discovered).
   * `display`: how a module is named in the marker of a call into it.
   */
  constructor(
    private readonly helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
    readonly display: (absolutePath: string) => string,
  ) {
    this.names = [...new Set([...helpers.values()].flat().map((h) => h.name.split('.')[0]!))];
  }

  /**
   * Whether a file's text (or its UTF-8 bytes, before decoding) may reach a helper: it mentions
   * a helper's name, or takes some module whole (`export *`, `import * as`, `import()`,
   * `require()`), which unfollowedIn reads.
   */
  mentionedIn(text: string | Buffer): boolean {
    if (this.names.some((name) => text.includes(name))) return true;
    // Bytes are only a first sieve: the decoded text is asked again.
    return typeof text === 'string' ? WHOLE_RELATIVE_MODULE.test(text) : WHOLE_MODULE.some((word) => text.includes(word));
  }

  /**
   * The local names `source` calls the index's helpers by (`confirm`, `Prompter.confirm` for a
   * method of an imported class), mapped to the helper, its module and its split (only where
   * `approved` holds its key, when given). Parses the file: ask only of a file that mentions a
   * helper (mentionedIn).
   */
  importsOf(file: string, source: string, approved?: ReadonlySet<string>): Map<string, ExternalHelper & { module: string }> {
    const links = this.linksOf(file, source);
    return links ? this.importsIn(file, links, approved) : new Map();
  }

  /**
   * The helpers (their keys) a file reaches in ways whose calls the pass cannot follow, so that
   * their split would leave those calls naming a function that is gone: a namespace import of
   * their module (`prompts.confirm(...)`), a re-export (`export * from './prompts.js'`, whose
   * importers are not looked at; a class re-exported keeps its name, so its methods' halves
   * follow), a dynamic `import()` or a `require()` of it (with its line).
   */
  unfollowedIn(file: string, source: string): Array<{ key: string; dynamicAt?: number }> {
    const links = this.linksOf(file, source);
    if (!links) return [];
    const dir = path.dirname(file);
    const keys: Array<{ key: string; dynamicAt?: number }> = [];
    const all = (specifier: string, only?: (owner: string, method: string | undefined) => boolean, dynamicAt?: number) => {
      const module = specifier.startsWith('.') ? this.moduleOf(dir, specifier) : undefined;
      if (!module) return;
      for (const h of this.helpers.get(module)!) {
        const [owner, method] = h.name.split('.') as [string, string | undefined];
        if (!only || only(owner, method)) keys.push({ key: helperKey(module, h.name), ...(dynamicAt ? { dynamicAt } : {}) });
      }
    };
    for (const { from, imported } of links.importedNames.values()) if (imported === '*') all(from);
    // A class's methods keep their class's name when split: a re-export of the class still reaches their halves.
    for (const { from, names, namespace } of links.reexports) all(from, (owner, method) => (namespace || !method) && (!names || names.has(owner)));
    // `const { confirm } = await import('./prompts.js')` binds names whose calls are followed like an import's.
    for (const m of source.matchAll(DYNAMIC_REFERENCE)) if (!links.followedImports.has(m.index)) all(m[2]!, undefined, lineNumberAt(source, m.index));
    return keys;
  }

  /**
   * Notes the modules among `files` that re-export the index's helpers: an import of a helper
   * from one of them is a call of the helper too (never split: unfollowedIn). Returns them.
   */
  noteReexports(files: Iterable<{ absolutePath: string; source: string }>): Set<string> {
    for (const { absolutePath, source } of files) {
      const links = this.linksOf(absolutePath, source);
      for (const r of links?.reexports ?? []) {
        const module = r.from.startsWith('.') ? this.moduleOf(path.dirname(absolutePath), r.from) : undefined;
        if (!module || r.namespace) continue;
        this.reexporters.set(absolutePath, [...(this.reexporters.get(absolutePath) ?? []), { module, ...(r.renamed ? { renamed: r.renamed } : {}) }]);
        if (r.renamed) this.names = [...new Set([...this.names, ...r.renamed.keys()])];
      }
    }
    return new Set(this.reexporters.keys());
  }

  /**
   * The helpers an import of `imported` from a module that re-exports them names, with their
   * module: the function of that name, or the methods of the class of that name.
   */
  private reexported(dir: string, from: string, imported: string): { module: string; helpers: ExportedHelper[] } | undefined {
    const reexporter = moduleOf(dir, from, this.reexporters);
    for (const { module, renamed } of reexporter ? this.reexporters.get(reexporter)! : []) {
      const name = renamed ? renamed.get(imported) : imported;
      const helpers = this.helpers.get(module)!.filter((h) => h.name === name || h.name.startsWith(`${name}.`));
      if (helpers.length > 0) return { module, helpers };
    }
    return undefined;
  }

  /** A file's links, read once for the pass (undefined when it does not parse: the main pass reports it). */
  private linksOf(file: string, source: string): ModuleLinks | undefined {
    if (!this.links.has(file)) {
      let links: ModuleLinks | undefined;
      try {
        links = moduleLinks(analyseFile(source, file));
      } catch {
        links = undefined;
      }
      this.links.set(file, links);
    }
    return this.links.get(file);
  }

  /** importsOf, for a file already analysed. */
  importsIn(
    file: string,
    analysis: Pick<FileAnalysis, 'importedNames'> & Partial<Pick<ModuleLinks, 'dynamicImports' | 'dynamicWhole'>>,
    approved?: ReadonlySet<string>,
  ): Map<string, ExternalHelper & { module: string }> {
    const found = new Map<string, ExternalHelper & { module: string }>();
    const dynamic = analysis.dynamicImports ?? new Map<string, { from: string; imported: string }>();
    for (const [local, { from, imported }] of [...analysis.importedNames, ...dynamic]) {
      if (!from.startsWith('.')) continue;
      const module = this.moduleOf(path.dirname(file), from);
      if (!module) {
        const through = this.reexported(path.dirname(file), from, imported);
        for (const helper of through?.helpers ?? []) {
          const method = helper.name.split('.')[1];
          // A function's halves are not looked for through the re-export (unfollowedIn): it is called whole.
          found.set(method ? `${local}.${method}` : local, {
            file: this.display(through!.module),
            line: helper.line,
            name: helper.name,
            module: through!.module,
            ...kindOf(helper),
            ...(method ? splitOf(helper, helperKey(through!.module, helper.name), approved) : {}),
          });
        }
        continue;
      }
      for (const helper of this.helpers.get(module)!) {
        // `import * as prompts`: `prompts.confirm(...)` calls it, never through halves (unfollowedIn).
        if (imported === '*' && !helper.name.includes('.')) {
          const dynamic = analysis.dynamicWhole?.has(local) ? { dynamic: true as const } : {};
          found.set(`${local}.${helper.name}`, { file: this.display(module), line: helper.line, name: helper.name, module, ...kindOf(helper), ...dynamic });
          continue;
        }
        const [owner, method] = helper.name.split('.') as [string, string | undefined];
        if (owner !== imported) continue;
        const how = analysis.dynamicWhole?.has(local) ? { dynamic: true as const } : splitOf(helper, helperKey(module, helper.name), approved);
        found.set(method ? `${local}.${method}` : local, {
          file: this.display(module),
          line: helper.line,
          name: helper.name,
          module,
          ...kindOf(helper),
          ...how,
        });
      }
    }
    return found;
  }

  /**
   * The registrations in `source` of the index's helpers as handlers (`registerTool('x',
   * config, handleX)`, `handleX` imported): by the helper's module, what the module is told.
   */
  registrationsOf(file: string, source: string, registries?: RegistriesOf): Map<string, Registered[]> {
    const found = new Map<string, Registered[]>();
    const links = this.linksOf(file, source);
    if (!links) return found;
    for (const [module, entry] of this.instancesIn(file, links, registries)) found.set(module, [...(found.get(module) ?? []), entry]);
    for (const r of links.importedRegistrations) {
      const { from, imported } = links.importedNames.get(r.local)!;
      const module = this.moduleOf(path.dirname(file), from);
      if (!module || !this.helpers.get(module)!.some((h) => h.name === imported)) continue;
      const entry: Registered = {
        name: imported,
        kind: r.kind,
        registered: r.name,
        ...(r.ctxIndex === undefined ? {} : { ctxIndex: r.ctxIndex }),
        ...(r.lowLevel ? { lowLevel: true } : {}),
      };
      found.set(module, [...(found.get(module) ?? []), entry]);
    }
    return found;
  }

  /**
   * Instances of the index's classes that `file` hands to a registry (its own, or one it reads
   * through `registries`): by the class's module, the class as a registered declaration.
   */
  private instancesIn(file: string, links: ModuleLinks, registries: RegistriesOf | undefined): Array<[string, Registered]> {
    const found = new Map<string, [string, Registered]>();
    for (const handed of links.handed) {
      const { from, imported } = links.importedNames.get(handed.cls)!;
      const module = this.moduleOf(path.dirname(file), from);
      if (!module || !this.helpers.get(module)!.some((h) => h.name.startsWith(`${imported}.`))) continue;
      const via = 'via' in handed ? links.importedNames.get(handed.via) : undefined;
      const shapes = 'shapes' in handed ? handed.shapes : via && registries?.(file, { local: handed.via, ...via });
      if (shapes?.length) found.set(helperKey(module, imported), [module, { name: imported, kind: shapes[0]!.kind, registered: imported, instance: shapes }]);
    }
    return [...found.values()];
  }

  private moduleOf(dir: string, specifier: string): string | undefined {
    return moduleOf(dir, specifier, this.helpers);
  }
}

/** The shapes of the registries a function another module imports hands its arguments to (see registry-modules.ts). */
export type RegistriesOf = (file: string, callee: { local: string; from: string; imported: string }) => readonly RegistryShape[] | undefined;

/** Words of a module taken whole: a file with none of them (and no helper's name) reaches no helper. */
const WHOLE_MODULE = ['export *', 'import *', 'import(', 'require('];

/** A module of the project taken whole: `import * as x from './m'`, `export * from './m'`, `import('./m')`, `require('./m')`. */
const WHOLE_RELATIVE_MODULE = /\b(?:import|export)\s*\*[^;'"]{0,200}from\s*['"]\.|\b(?:import|require)\s*\(\s*['"]\./;

/**
 * What the pass reads of a module: the names it imports, the imported functions it registers as
 * handlers, and what it re-exports from where (`names` undefined: everything).
 */
interface ModuleLinks {
  importedNames: FileAnalysis['importedNames'];
  /** Names taken from a module with `import()`: `const { confirm } = await import('./prompts.js')` (a namespace: `imported` is `*`). */
  dynamicImports: FileAnalysis['importedNames'];
  /** The offsets of the `import(...)` calls whose names are all bound so, by name: their calls are followed. */
  followedImports: ReadonlySet<number>;
  /** The names bound by the other `import(...)` calls (the module, or a name beside a rest element): never split. */
  dynamicWhole: ReadonlySet<string>;
  importedRegistrations: FileAnalysis['importedRegistrations'];
  /** Instances of imported classes it hands to registries. */
  handed: HandedInstance[];
  /** `names`: the local names re-exported (undefined: everything); `renamed`: each exported name's local one; `namespace`: `export * as x`. */
  reexports: Array<{ from: string; names?: ReadonlySet<string>; renamed?: ReadonlyMap<string, string>; namespace?: true }>;
}

function moduleLinks(analysis: FileAnalysis): ModuleLinks {
  const reexports: ModuleLinks['reexports'] = [];
  for (const statement of analysis.program.body) {
    if (statement.type === 'ExportAllDeclaration') reexports.push({ from: statement.source.value });
    if (statement.type !== 'ExportNamedDeclaration' || !statement.source) continue;
    if (statement.specifiers.some((s) => s.type === 'ExportNamespaceSpecifier')) {
      reexports.push({ from: statement.source.value, namespace: true });
      continue;
    }
    const names = new Set(statement.specifiers.map((s) => (s.type === 'ExportSpecifier' ? s.local.name : '*')));
    const renamed = new Map(
      statement.specifiers.flatMap((s) =>
        s.type === 'ExportSpecifier' ? [[s.exported.type === 'Identifier' ? s.exported.name : s.exported.value, s.local.name] as const] : [],
      ),
    );
    reexports.push({ from: statement.source.value, ...(names.has('*') ? {} : { names, renamed }) });
  }
  const dynamic = dynamicImports(analysis.program);
  return {
    importedNames: analysis.importedNames,
    dynamicImports: dynamic.names,
    followedImports: dynamic.followed,
    dynamicWhole: dynamic.whole,
    importedRegistrations: analysis.importedRegistrations,
    handed: handedInstances(analysis.index, analysis.importedNames, analysis.registries),
    reexports,
  };
}

/**
 * The names bound from `await import('./m')` anywhere in the module, by the local name (scopes
 * aside: a call of one is at most marked), and the offsets of the `import(...)` calls that bind
 * plain names alone (`const { a, b: c } = await import('./m')`): nothing else of the module
 * escapes them, so a split of its helpers can be followed there (dynamic-imports.ts).
 */
function dynamicImports(program: FileAnalysis['program']): { names: FileAnalysis['importedNames']; followed: Set<number>; whole: Set<string> } {
  const names: FileAnalysis['importedNames'] = new Map();
  const followed = new Set<number>();
  const whole = new Set<string>();
  walk(program, (node) => {
    // `(await import('./m')).confirm(...)`: the module, read whole where it is loaded.
    const inline = node.type === 'MemberExpression' ? inlineLoad(node.object) : undefined;
    if (inline) {
      names.set(inline.name, { from: inline.from, imported: '*' });
      whole.add(inline.name);
    }
    if (node.type !== 'VariableDeclarator') return undefined;
    const load = literalImport(node.init);
    if (!load) return undefined;
    if (node.id.type === 'Identifier') {
      names.set(node.id.name, { from: load.from, imported: '*' });
      whole.add(node.id.name);
    }
    if (node.id.type !== 'ObjectPattern') return undefined;
    const plain = node.id.properties.every((p) => p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && p.value.type === 'Identifier');
    if (plain) followed.add(load.at);
    for (const p of node.id.properties)
      if (p.type === 'ObjectProperty' && p.key.type === 'Identifier' && p.value.type === 'Identifier') {
        names.set(p.value.name, { from: load.from, imported: p.key.name });
        if (!plain) whole.add(p.value.name);
      }
    return undefined;
  });
  return { names, followed, whole };
}

/** `import('./x')` and `require('./x')`: a module reached whole, whatever it is called by afterwards. */
const DYNAMIC_REFERENCE = /\b(?:import|require)\s*\(\s*(['"])(\.[^'"\n]*)\1/g;

/**
 * The module among `known` that `./helpers.js` names, if any (TypeScript's `.js`-for-`.ts`
 * convention included). Only those modules are of use, so the names a specifier may stand for
 * are looked up among them, not on disk.
 */
function moduleOf(dir: string, specifier: string, known: { has(name: string): boolean }): string | undefined {
  return moduleFiles(dir, specifier).find((name) => known.has(name));
}

/** The files a relative specifier may name, in the order they are tried. */
export function moduleFiles(dir: string, specifier: string): string[] {
  const base = path.resolve(dir, specifier);
  const stem = base.replace(/\.(m|c)?(j|t)sx?$/, '');
  return [base, ...SOURCE_EXTENSIONS.map((e) => stem + e), ...SOURCE_EXTENSIONS.map((e) => path.join(base, `index${e}`))];
}

/** The modules (among `discovered`) that define the registries candidates' migrated tool definitions are handed to, with the definer names. */
export function definerModules(
  candidates: ReadonlyMap<string, { definers?: FilePlan['definers'] }>,
  discovered: ReadonlySet<string>,
): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const [file, c] of candidates) {
    for (const d of c.definers ?? []) {
      if (!d.from.startsWith('.')) continue;
      const module = moduleOf(path.dirname(file), d.from, discovered);
      if (module) found.set(module, (found.get(module) ?? new Set()).add(d.name));
    }
  }
  return found;
}

/**
 * Which proposed splits to make: a helper is split when its own module can split it (its own
 * handlers included) and every call of it from another module's handler migrates. `plan` plans
 * a file with the given options without writing anything.
 */
export async function approvedSplits(
  index: AskingHelperIndex,
  helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
  importers: ReadonlyArray<{ absolutePath: string; source: string }>,
  plan: SplitPlanner,
  refused: RefusedSplits = { calls: new Map(), heldBack: new Map() },
  inner: ReadonlyMap<string, string> = new Map(),
): Promise<Set<string>> {
  const approved = new Set<string>();
  for (const [module, list] of helpers) for (const h of list) if (h.split) approved.add(helperKey(module, h.name));
  if (approved.size === 0) return approved;
  // The helper's own module, told to split them all: what it cannot (its own handlers) is out.
  for (const [module, list] of helpers) {
    const proposed = list.filter((h) => h.split).map((h) => h.name);
    if (proposed.length === 0) continue;
    const own = await plan(module, { splitExported: proposed }, approved);
    for (const name of proposed) if (!own?.splitExported.includes(name)) approved.delete(helperKey(module, name));
  }
  // A helper some module reaches in a way whose calls cannot follow its split stays whole.
  for (const { absolutePath, source } of importers)
    for (const { key, dynamicAt } of index.unfollowedIn(absolutePath, source)) {
      approved.delete(key);
      if (dynamicAt && !refused.calls.has(key)) refused.calls.set(key, { file: index.display(absolutePath), line: dynamicAt, code: 'import()', dynamic: true });
    }
  // So does one no module of the run imports by name: what calls it is out of sight (a path
  // alias, a file outside the paths given) and would be left calling a function that is gone.
  const imported = new Set(
    importers.flatMap(({ absolutePath, source }) => [...index.importsOf(absolutePath, source).values()].map((h) => helperKey(h.module, h.name))),
  );
  // Unless its module can keep it under its name for them (a legacy entry).
  for (const [module, list] of helpers) {
    const seen = new Set(list.filter((h) => imported.has(helperKey(module, h.name))).map((h) => h.line));
    for (const h of list) {
      if (seen.has(h.line)) continue;
      const outside = { file: index.display(module), line: h.line, outside: true as const };
      if (!keptAsEntry(helpers, refused, helperKey(module, h.name), `${module}\0outside`, outside))
        unimported(approved, refused, inner, index.display(module), module, h);
    }
  }
  // Every other module's calls: one that does not migrate keeps its helper whole. A helper kept
  // whole blocks the handlers that call it, and with them their calls of the others: planned
  // again until every call of a helper still approved migrates. An importer's plan depends on
  // the approvals of the helpers it imports alone, so only the importers of a helper dropped in
  // a round can plan otherwise in the next: only they are planned again.
  // A module's plan depends on the approvals of its own functions that ask through another's too (`inner`).
  const reached = new Map(importers.map((f) => [f, [...importedKeys(index, f), ...ownKeys(helpers, f.absolutePath, inner)]] as const));
  const askedThrough = new Map<string, Set<string>>();
  const outside: OutsideCalls = { calls: new Map(), seen: new Set() };
  for (let planning = importers; approved.size > 0 && planning.length > 0;) {
    const before = [...approved];
    await refuseUnmigratedCalls(index, approved, planning, plan, refused, askedThrough, inner, helpers, outside);
    for (const [module, list] of helpers) {
      const kept = new Set(splitTogether(list, new Set(list.filter((h) => approved.has(helperKey(module, h.name))).map((h) => h.name))));
      for (const h of list) if (!kept.has(h.name)) keptWithSibling(approved, refused, list, index.display(module), module, h);
    }
    dropWithoutInner(approved, inner, refused);
    const dropped = new Set(before.filter((key) => !approved.has(key)));
    planning = dropped.size === 0 ? [] : importers.filter((f) => reached.get(f)!.some((key) => dropped.has(key)));
  }
  // And so does one no handler of the run asks through: an import of its class (a `new`, a
  // type) calls none of its methods, and their callers are then out of sight. (Not one kept
  // under its name for such calls that its own module's handlers ask through.)
  const asked = new Set([...askedThrough.values()].flatMap((keys) => [...keys]));
  const ownAsked = (module: string, h: ExportedHelper) => h.reached && entryCall(refused, helperKey(module, h.name)) !== undefined;
  for (const [module, list] of helpers) {
    const lines = new Set(list.filter((h) => asked.has(helperKey(module, h.name)) || ownAsked(module, h)).map((h) => h.line));
    for (const h of list) if (!lines.has(h.line)) approved.delete(helperKey(module, h.name));
  }
  outsideCalls(refused, outside, inner);
  wrappersNamed(refused, inner, helpers, (module) => index.display(module));
  return approved;
}

/**
 * Plans a file with the given options, writing nothing; `approved`: the splits approved so far
 * (a module whose functions ask through another's helpers plans with them: deep-splits.ts).
 */
export type SplitPlanner = (
  absolutePath: string,
  options: { externalHelpers?: Map<string, ExternalHelper>; splitExported?: string[] },
  approved: ReadonlySet<string>,
) => Promise<FilePlan | undefined>;

/**
 * Drops from `approved` each function that asks through another's helper (`inner`, by key) that
 * is not approved, until none is left; the call that keeps the helper whole keeps it whole too.
 */
function dropWithoutInner(approved: Set<string>, inner: ReadonlyMap<string, string>, refused: RefusedSplits): void {
  for (let again = true; again;) {
    again = false;
    for (const [key, through] of inner)
      if (approved.has(key) && !approved.has(through)) {
        approved.delete(key);
        const call = refused.calls.get(through);
        if (call && !refused.calls.has(key)) refused.calls.set(key, call);
        again = true;
      }
  }
}

/** The keys of a module's own functions that ask through another module's helper. */
function ownKeys(helpers: ReadonlyMap<string, readonly ExportedHelper[]>, module: string, inner: ReadonlyMap<string, string>): string[] {
  return (helpers.get(module) ?? []).map((h) => helperKey(module, h.name)).filter((key) => inner.has(key));
}

/** The helpers (their keys) a file imports, whatever their approval. */
function importedKeys(index: AskingHelperIndex, file: { absolutePath: string; source: string }): string[] {
  return [...index.importsOf(file.absolutePath, file.source).values()].map((h) => helperKey(h.module, h.name));
}

/**
 * Removes from `approved` each helper some importer's call of which, planned with the helpers
 * `approved` splits, does not migrate; notes in `refused` why (the refusal of its handler), and
 * in `askedThrough` (by importer) the helpers its handlers' migrated calls ask through.
 */
async function refuseUnmigratedCalls(
  index: AskingHelperIndex,
  approved: Set<string>,
  importers: ReadonlyArray<{ absolutePath: string; source: string }>,
  plan: SplitPlanner,
  refused: RefusedSplits,
  askedThrough: Map<string, Set<string>>,
  inner: ReadonlyMap<string, string>,
  helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
  outside: OutsideCalls,
): Promise<void> {
  const keys: Array<{ key: string; importer: string; at?: LegacyEntryCall }> = [];
  await Promise.all(
    importers.map(async ({ absolutePath, source }) => {
      const asked = new Set<string>();
      askedThrough.set(absolutePath, asked);
      const externalHelpers = index.importsOf(absolutePath, source, approved);
      if (![...externalHelpers.values()].some((h) => h.split)) return;
      const planned = await plan(absolutePath, { externalHelpers }, approved);
      if (!planned) return;
      noteWrappers(refused, absolutePath, planned, externalHelpers);
      const byName = new Map([...externalHelpers.values()].map((h) => [`${h.file}\0${h.name}`, h.module] as const));
      for (const call of planned.externalCalls.map((c) => toldElsewhere(c, index.display(absolutePath)))) {
        const module = byName.get(`${call.file}\0${call.name}`);
        if (module && call.migrated) {
          asked.add(helperKey(module, call.name));
          outside.seen.add(helperKey(module, call.name));
        }
        if (call.migrated || !module) continue;
        const key = helperKey(module, call.name);
        const marked = planned.sites.filter((s) => s.status === 'marked' && s.handler !== undefined && s.handler === call.handler);
        const own = marked.find((s) => !NOT_ITS_OWN.has(s.code ?? ''));
        const line = call.line ?? call.unreached?.line ?? call.named ?? (own ?? marked[0])?.line;
        keys.push({ key, importer: absolutePath, ...(line !== undefined ? { at: { file: index.display(absolutePath), line } } : {}) });
        if (own) refused.heldBack.set(absolutePath, { ...refused.heldBack.get(absolutePath), [own.handler!]: heldBackOf(own) });
        // A function that would ask through the helper, kept whole: what keeps it whole keeps the helper whole.
        const wrapper = call.unreached && helperKey(absolutePath, call.unreached.caller);
        const whole = wrapper && inner.has(wrapper) ? refused.calls.get(wrapper) : undefined;
        if (whole && !refused.calls.has(key)) refused.calls.set(key, whole);
        const site = own ?? marked[0];
        if (site && !refused.calls.has(key)) refused.calls.set(key, { file: index.display(absolutePath), line: site.line, code: site.code ?? '' });
        if (call.unreached?.reach === 'exported' && !(wrapper && inner.has(wrapper)))
          noteExportedCaller(refused, absolutePath, call.unreached, call.name, externalHelpers);
        if (site) {
          outside.seen.add(key);
          continue;
        }
        if (call.unreached && !refused.calls.has(key))
          refused.calls.set(key, {
            file: index.display(absolutePath),
            line: call.unreached.line,
            code: '',
            caller: call.unreached.caller,
            ...(call.unreached.reach ? { callerReach: call.unreached.reach } : {}),
            ...(call.unreached.why ? { why: call.unreached.why } : {}),
          });
        // A call in a function handlers reach that stays a call (a wrapper that cannot be split): its marker says why.
        const at = call.unreached ? undefined : planned.sites.find((s) => s.status === 'marked' && s.line === call.line);
        if (at && !refused.calls.has(key)) refused.calls.set(key, { file: index.display(absolutePath), line: at.line, code: at.code ?? '' });
        // Anything else is a call outside any handler and any named function (a test's callback): the reason
        // given only when there is none better (outsideCalls).
        if (at || call.unreached) outside.seen.add(key);
        else if (call.line !== undefined && !outside.calls.has(key))
          outside.calls.set(key, calledOutsideAt(helpers, inner, key, index.display(absolutePath), call.line, index));
      }
    }),
  );
  // An importer planned again says anew which of its calls need an entry.
  for (const byImporter of refused.entries?.values() ?? []) for (const { absolutePath } of importers) byImporter.delete(absolutePath);
  for (const { key, importer, at } of keys) if (!keptAsEntry(helpers, refused, key, importer, at)) approved.delete(key);
}

/**
 * Whether the helper `key` stays split though a call (`at`) cannot ask through its halves: its
 * module can keep it under its name for that call (a legacy entry). Notes the first such call.
 */
function keptAsEntry(
  helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
  refused: RefusedSplits,
  key: string,
  importer: string,
  at: LegacyEntryCall | undefined,
): boolean {
  const [module, name] = key.split('\0') as [string, string];
  if (!at || !helpers.get(module)?.some((h) => h.name === name && h.entry)) return false;
  const byImporter = (refused.entries ??= new Map()).get(key) ?? new Map<string, LegacyEntryCall>();
  refused.entries.set(key, byImporter);
  if (!byImporter.has(importer)) byImporter.set(importer, at);
  return true;
}

/** The first call of a helper that still needs its legacy entry, if any does. */
export function entryCall(refused: RefusedSplits, key: string): LegacyEntryCall | undefined {
  return refused.entries?.get(key)?.values().next().value;
}

/**
 * A call as other modules' reports are told of it: the lines its `why` names are lines of its
 * module `file` (its own references would be read as theirs: core/line-refs.ts).
 */
function toldElsewhere(call: FilePlan['externalCalls'][number], file: string): FilePlan['externalCalls'][number] {
  const why = call.unreached?.why;
  return why === undefined ? call : { ...call, unreached: { ...call.unreached!, why: asFileLineRefs(why, file) } };
}

/** Notes the exported functions of `module` that would ask through a split helper it imports (refused.wrappers); never forgets one. */
function noteWrappers(refused: RefusedSplits, module: string, planned: FilePlan, imported: ReadonlyMap<string, ExternalHelper & { module: string }>): void {
  for (const h of planned.exportedHelpers) {
    const through = h.asksThrough && h.split ? [...imported.values()].find((i) => i.name === h.asksThrough && i.split) : undefined;
    if (!through) continue;
    const wrappers = (refused.wrappers ??= new Map<string, Array<ExportedHelper & { inner: string }>>());
    const list = wrappers.get(module) ?? [];
    if (!list.some((w) => w.name === h.name)) wrappers.set(module, [...list, { ...h, inner: helperKey(through.module, through.name) }]);
  }
}

/** Notes an exported function of `module`, no handler, that calls the imported helper `name` (refused.exportedCallers). */
function noteExportedCaller(
  refused: RefusedSplits,
  module: string,
  unreached: { caller: string; line: number; why?: string },
  name: string,
  imported: ReadonlyMap<string, ExternalHelper>,
): void {
  const callers = (refused.exportedCallers ??= new Map<string, Array<ExportedHelper & { through: string }>>());
  const list = callers.get(module) ?? [];
  if (list.some((c) => c.name === unreached.caller)) return;
  const kind = [...imported.values()].find((h) => h.name === name)?.kind;
  const why = unreached.why ? { why: unreached.why } : {};
  callers.set(module, [...list, { name: unreached.caller, line: unreached.line, through: name, ...(kind ? { kind } : {}), ...why }]);
}

function heldBackOf(site: SiteReport): HeldBack {
  return { code: site.code!, reason: site.reason ?? '', next: site.next ?? '', marker: site.marker ?? '' };
}

/**
 * The names of `approved` that one module can split: the helpers on the way to one request are
 * split together or not at all (they build on each other's halves), and they share the
 * request's line. (The ESLint rule decides a module's splits with this too.)
 */
export function splitTogether(list: readonly ExportedHelper[], approved: ReadonlySet<string>): string[] {
  const refusedLines = new Set(list.filter((h) => !approved.has(h.name)).map((h) => h.line));
  return list.filter((h) => approved.has(h.name) && !refusedLines.has(h.line)).map((h) => h.name);
}

/** How a call of a helper is told of its split: made (`approved` holds its key, or nothing is approved yet) or only proposed. */
function splitOf(helper: ExportedHelper, key: string, approved: ReadonlySet<string> | undefined): Pick<ExternalHelper, 'split' | 'proposed'> {
  if (!helper.split) return {};
  return !approved || approved.has(key) ? { split: helper.split } : { proposed: helper.split };
}

/** What an exported helper asks for, when its module said (the advice to its callers depends on it). */
function kindOf(helper: ExportedHelper): Pick<ExternalHelper, 'kind'> {
  return helper.kind ? { kind: helper.kind } : {};
}
