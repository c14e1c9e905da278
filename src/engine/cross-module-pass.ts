// The cross-module pass of a run, once every candidate is transformed: handlers in other modules
// that call a module's exported asking helper are transformed again, knowing it. Where every
// such call can ask through the helper's halves (and the helper's own module can split it), the
// helper is split and they do; otherwise each call is marked (a handler that still pushes a
// request is never left without a marker). The registries other modules' migrated tool
// definitions are handed to are widened, and modules whose functions other modules register as
// handlers migrate them as such.
import { planKeepingLines, type TransformOptions } from '../transform.ts';
import { failer, newCandidate, runCandidate, type Candidate, type FileOutcome, type RunContext, type RunningTransforms } from './candidate.ts';
import {
  AskingHelperIndex,
  definerModules,
  entryCall,
  helperKey,
  type ExportedHelper,
  type RefusedSplits,
  type RegistriesOf,
  type Registered,
} from './cross-module.ts';
import { approvedAcrossLevels, type Level } from './deep-splits.ts';
import type { Discovery } from './discover.ts';
import type { RunSettings } from './run-options.ts';
import { displayPath, readSource } from './source-files.ts';
import { RegistryAnswers, RegistryModules } from './registry-modules.ts';
import { findUntiedCalls } from './untied-calls.ts';
import type { Placement, StateModules } from './state-modules.ts';
import type { DispatchLinks } from '../plan/plan-options.ts';
import { uniqueCalls } from '../plan/rederive.ts';
import { linkedModules } from './dispatch-links.ts';
import { linksOfUnreached, migratingLinks, noteUnlinked, type DispatchRun } from './dispatch-pass.ts';

/** What the cross-module pass works with, of its run. */
export interface CrossModuleRun {
  context: RunContext;
  cwd: string;
  discovery: Discovery;
  /** The candidates by path; a file the pass migrates that was none joins them (the request-state step sees it). */
  candidates: Map<string, Candidate>;
  maxFileBytes: number;
  modules: StateModules;
  outcomeAt: (i: number) => FileOutcome;
  transforms: RunningTransforms;
  options: Pick<RunSettings, 'onPhase'>;
}

/** A file that may call another module's helper (or define a registry to widen), with its text. */
interface Importer {
  /** Its discovery index. */
  i: number;
  absolutePath: string;
  known?: Candidate;
  read: { bytes: Buffer; source: string };
}

/** A file the cross-module pass transforms again, and what it is told. */
interface AgainFile {
  i: number;
  known?: Candidate;
  read: { bytes: Buffer; source: string };
  externalHelpers?: TransformOptions['externalHelpers'];
  splitExported?: string[];
  widenDefiners?: string[];
  registeredAs?: Registered[];
  registries?: TransformOptions['registries'];
  dispatch?: TransformOptions['dispatch'];
  refusedSplits?: Pick<TransformOptions, 'heldBack' | 'keptWhole' | 'untiedCalls' | 'legacyEntries'>;
}

/**
 * The cross-module pass: which exported helpers to split (every caller can ask through their
 * halves), then every file concerned transformed again, knowing it: the importers, the helper
 * modules that split, the modules whose functions other modules register as handlers, the
 * registries to widen. A file that was no candidate and now migrates a handler is placed with
 * its package's request-state module.
 */
export async function crossModulePass(run: CrossModuleRun): Promise<void> {
  const helpers = new Map<string, ExportedHelper[]>();
  for (const [absolutePath, c] of run.candidates) {
    const exported = c.exportedHelpers ?? [];
    if (exported.length > 0) helpers.set(absolutePath, exported);
  }
  // The registries other modules' migrated tool definitions are handed to: their types are widened.
  const definers = definerModules(run.candidates, new Set(run.discovery.files));
  // The registries of other modules candidates hand declarations to: their handlers are found.
  const registryModules = registryModulesOf(run);
  const registries = new RegistryAnswers(registryModules, registriesHandedTo(run, registryModules));
  if (helpers.size === 0 && definers.size === 0 && registries.found.size === 0) return;
  run.options.onPhase?.('cross-module', 0);
  // First, plans only: which splits every caller can take (and why the others stay whole), with
  // the exported functions found to ask through a split helper split in turn (deep-splits.ts).
  const inner = new Map<string, string>();
  let files = new Map<Level, { index: AskingHelperIndex; importers: Importer[] }>();
  const levelOf = (told?: (absolutePath: string) => Partial<TransformOptions>) => (all: ReadonlyMap<string, readonly ExportedHelper[]>) => {
    const { index, importers } = levelFiles(run, all, definers);
    const level: Level = {
      index,
      sources: importers.map((f) => ({ absolutePath: f.absolutePath, source: f.read.source })),
      plan: planner(run, importers, told, registries),
    };
    files.set(level, { index, importers });
    return level;
  };
  let refused: RefusedSplits = { calls: new Map(), heldBack: new Map() };
  let { approved, level } = await approvedAcrossLevels(helpers, inner, levelOf(), refused);
  let { index, importers } = files.get(level)!;
  // Methods that ask through a helper with no handler of their module reaching them: handlers
  // of other modules may dispatch to them (dispatch-links.ts). Planned again as handlers.
  const { links, unlinked } = linksOfUnreached(dispatchRun(run, importers), refused, index.display);
  let linked = new Map<string, DispatchLinks>();
  if (links.length > 0) {
    const methods = linkedModules(links, true);
    const toldOf = (module: string) => (methods.has(module) ? { dispatch: methods.get(module)! } : {});
    refused = { calls: new Map(), heldBack: new Map() };
    files = new Map();
    ({ approved, level } = await approvedAcrossLevels(helpers, inner, levelOf(toldOf), refused));
    ({ index, importers } = files.get(level)!);
    const told = planner(run, importers, toldOf, registries);
    const source = (module: string) => level.sources.find((f) => f.absolutePath === module)?.source ?? '';
    const migrating = await migratingLinks(links, (module, dispatch) =>
      told(module, { externalHelpers: index.importsOf(module, source(module), approved), dispatch }),
    );
    linked = linkedModules(migrating);
  }
  noteUnlinked(refused, unlinked, index.display);
  const again = filesToTransformAgain(run, index, approved, importers, helpers, definers, (file, callee) => registryModules.of(file, [callee])?.[0]?.shapes);
  for (const [module, dispatch] of linked) {
    const entry = anyEntry(run, again, importers, module);
    if (entry) again.set(module, { ...entry, dispatch });
  }
  sayWhyKeptWhole(run, again, refused, helpers, approved);
  // Each split helper kept under its name for calls that cannot ask through its halves: its module writes that entry.
  tellHelperModules(run, again, helpers, 'legacyEntries', (key) => (approved.has(key) ? entryCall(refused, key) : undefined));
  sayUntiedCalls(run, again, refused, helpers, approved);
  await sayThroughExported(run, again, refused);
  for (const [module, found] of registries.found) {
    const entry = again.get(module) ?? (run.candidates.has(module) ? againEntry(run, again, module) : undefined);
    if (entry) again.set(module, { ...entry, registries: found });
  }
  await widenRegistryDefiners(run, again, importers, registries, definers);
  await transformAgain(run, again);
  listRerunAtHelpers(run, again);
}

/**
 * Lists what handlers run again on each retry that asked only through another module's split
 * helper on that helper's report, where their question is counted (FilePlan.rerunAtHelpers),
 * each call named with the module it is made in.
 */
function listRerunAtHelpers(run: CrossModuleRun, again: ReadonlyMap<string, AgainFile>): void {
  const byFile = new Map([...again].map(([absolutePath, f]) => [displayPath(run.cwd, absolutePath), run.outcomeAt(f.i)] as const));
  for (const [file, outcome] of byFile)
    for (const { file: helperFile, helper, calls } of outcome.rerunAtHelpers ?? []) {
      // A method's report is named by the method alone (`helper:confirm` of `Prompter.confirm`).
      const handler = `helper:${helper.slice(helper.lastIndexOf('.') + 1)}`;
      const site = byFile.get(helperFile)?.sites.find((s) => s.status === 'migrated' && s.handler === handler);
      if (site) site.rerun = uniqueCalls([...(site.rerun ?? []), ...calls.map((c) => ({ ...c, file: c.file ?? file }))]);
    }
}

/**
 * The modules that type the declarations whose handlers only the registries showed (their
 * modules' first plans found none): widened where no module asked it yet, as for a definer.
 */
async function widenRegistryDefiners(
  run: CrossModuleRun,
  again: Map<string, AgainFile>,
  importers: readonly Importer[],
  registries: RegistryAnswers,
  widened: ReadonlyMap<string, Set<string>>,
): Promise<void> {
  const plan = planner(run, importers);
  const discovered = new Set(run.discovery.files);
  for (const [module, found] of registries.found) {
    const entry = again.get(module);
    if (!entry) continue;
    const { externalHelpers, splitExported } = entry;
    const planned = await plan(module, { registries: found, ...(externalHelpers ? { externalHelpers } : {}), ...(splitExported ? { splitExported } : {}) });
    for (const [definer, names] of definerModules(new Map([[module, { definers: planned?.definers }]]), discovered)) {
      const missing = [...names].filter((name) => !widened.get(definer)?.has(name));
      const target = missing.length > 0 ? anyEntry(run, again, importers, definer) : undefined;
      if (target) again.set(definer, { ...target, widenDefiners: [...new Set([...(target.widenDefiners ?? []), ...missing])] });
    }
  }
}

/** The index of `helpers` (the modules re-exporting them noted) and the files that may import them. */
function levelFiles(
  run: CrossModuleRun,
  helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
  definers: ReadonlyMap<string, Set<string>>,
): { index: AskingHelperIndex; importers: Importer[] } {
  const index = new AskingHelperIndex(helpers, (p) => displayPath(run.cwd, p));
  // Modules that re-export a helper: a module importing it from one of them calls it too.
  const reexporters = index.noteReexports(
    [...run.modules.graph.filesImportingAny(new Set(helpers.keys()))].flatMap((absolutePath) => {
      const read =
        run.candidates.get(absolutePath)?.input ??
        readSource(absolutePath, (bytes) => bytes.length <= run.maxFileBytes && WHOLE_EXPORT.test(bytes.toString('latin1')))?.source;
      return read === undefined ? [] : [{ absolutePath, source: read }];
    }),
  );
  return { index, importers: possibleImporters(run, index, new Set([...helpers.keys(), ...reexporters]), definers) };
}

/** The registries of the run's modules, each read (from its text in the run, or from disk) when first asked about. */
function registryModulesOf(run: CrossModuleRun): RegistryModules {
  const discovered = new Set(run.discovery.files);
  const texts = new Map<string, string | undefined>();
  return new RegistryModules((file) => {
    if (!discovered.has(file)) return undefined;
    if (!texts.has(file)) texts.set(file, run.candidates.get(file)?.input ?? readSource(file, (bytes) => bytes.length <= run.maxFileBytes)?.source);
    return texts.get(file);
  });
}

/** For each candidate that asked (its plan's registryQuestions), the registries of other modules it hands declarations to. */
function registriesHandedTo(run: CrossModuleRun, modules: RegistryModules): Map<string, NonNullable<TransformOptions['registries']>> {
  const found = new Map<string, NonNullable<TransformOptions['registries']>>();
  const asking = [...run.candidates].filter(([, c]) => c.registryQuestions);
  for (const [absolutePath, c] of asking) {
    const registries = modules.of(absolutePath, c.registryQuestions!);
    if (registries) found.set(absolutePath, registries);
  }
  return found;
}

/** The files that may import a module's exported helper, and the modules that define a registry to widen. */
function possibleImporters(
  run: CrossModuleRun,
  index: AskingHelperIndex,
  helperModules: ReadonlySet<string>,
  definers: ReadonlyMap<string, Set<string>>,
): Importer[] {
  const { discovery, candidates, maxFileBytes } = run;
  // The files whose relative imports (read with their text, see import-graph.ts) may name a
  // module that exports (or re-exports) a helper: no other file imports one.
  const mayImport = run.modules.graph.filesImportingAny(helperModules);
  const importers: Importer[] = [];
  for (let i = 0; i < discovery.files.length; i++) {
    const absolutePath = discovery.files[i]!;
    const known = candidates.get(absolutePath);
    const definer = definers.has(absolutePath);
    if (!known && !definer && !mayImport.has(absolutePath)) continue;
    // A file that names no helper cannot import one. A file the main pass did not transform
    // is read again, but decoded (and parsed) only when its bytes name one, within the size
    // a candidate may have.
    const read = known
      ? { bytes: known.bytes, source: known.input }
      : readSource(absolutePath, (bytes) => bytes.length <= maxFileBytes && (definer || index.mentionedIn(bytes)));
    if (read === undefined || (known && !definer && !index.mentionedIn(read.source))) continue;
    importers.push({ i, absolutePath, known, read });
  }
  return importers;
}

/** A module that re-exports from another (`export * from`, `export { a } from`). */
const WHOLE_EXPORT = /\bexport\s*(\*|\{[^}]*\})\s*from\b/;

/**
 * Plans a file with the given options (and what `told` tells it), writing nothing (for
 * approvedSplits). A file whose plan asks which registries it hands declarations to (a function
 * of it that asks through a split helper, called from a factory's handler) is planned again
 * with them, so that the handler is known as one.
 */
function planner(
  run: CrossModuleRun,
  importers: readonly Importer[],
  told: (absolutePath: string) => Partial<TransformOptions> = () => ({}),
  registries?: RegistryAnswers,
) {
  const { context, candidates } = run;
  const inputs = new Map(importers.map((f) => [f.absolutePath, f.read.source] as const));
  return async (absolutePath: string, transform: Partial<TransformOptions>) => {
    const source = inputs.get(absolutePath) ?? candidates.get(absolutePath)?.input;
    if (source === undefined) return undefined;
    try {
      const options = { ...context.transform, ...told(absolutePath), ...transform };
      const plan = await planKeepingLines(source, absolutePath, context.types, options);
      const found = plan.registryQuestions && registries?.of(absolutePath, plan.registryQuestions);
      return found ? await planKeepingLines(source, absolutePath, context.types, { ...options, registries: found }) : plan;
    } catch {
      return undefined; // reported by the main pass
    }
  };
}

/** The files to transform again, by path: importers with the approved splits, helper modules splitting them, modules registered elsewhere. */
function filesToTransformAgain(
  run: CrossModuleRun,
  index: AskingHelperIndex,
  approved: ReadonlySet<string>,
  importers: readonly Importer[],
  helpers: ReadonlyMap<string, ExportedHelper[]>,
  definers: ReadonlyMap<string, Set<string>>,
  registries: RegistriesOf,
): Map<string, AgainFile> {
  const split = new Map<string, string[]>();
  for (const [module, list] of helpers) {
    const names = list.filter((h) => approved.has(helperKey(module, h.name))).map((h) => h.name);
    if (names.length > 0) split.set(module, names);
  }
  // Exported helpers another module registers as handlers: their module migrates them as such.
  const registered = new Map<string, Registered[]>();
  for (const f of importers)
    for (const [module, list] of index.registrationsOf(f.absolutePath, f.read.source, registries))
      registered.set(module, [...(registered.get(module) ?? []), ...list]);
  const again = new Map<string, AgainFile>();
  for (const f of importers) {
    const externalHelpers = index.importsOf(f.absolutePath, f.read.source, approved);
    const widen = definers.get(f.absolutePath);
    if (externalHelpers.size > 0 || widen)
      again.set(f.absolutePath, {
        i: f.i,
        known: f.known,
        read: f.read,
        ...(externalHelpers.size > 0 ? { externalHelpers } : {}),
        ...(widen ? { widenDefiners: [...widen] } : {}),
      });
  }
  for (const [module, names] of split) again.set(module, { ...againEntry(run, again, module), splitExported: names });
  for (const [module, list] of registered) again.set(module, { ...againEntry(run, again, module), registeredAs: list });
  return again;
}

/** What the dispatch links read of the run: the texts of its candidates and importers, its import graph. */
function dispatchRun(run: CrossModuleRun, importers: readonly Importer[]): DispatchRun {
  const inputs = new Map(importers.map((f) => [f.absolutePath, f.read.source] as const));
  return {
    files: run.discovery.files,
    graph: run.modules.graph,
    textOf: (module) => inputs.get(module) ?? run.candidates.get(module)?.input,
    planned: [...inputs.keys(), ...run.candidates.keys()],
    maxFileBytes: run.maxFileBytes,
  };
}

/** A file's entry in the files to transform again, whether or not it was a candidate or an importer (read from disk then). */
function anyEntry(run: CrossModuleRun, again: ReadonlyMap<string, AgainFile>, importers: readonly Importer[], module: string): AgainFile | undefined {
  const known = again.get(module);
  if (known) return known;
  if (run.candidates.has(module)) return againEntry(run, again, module);
  const importer = importers.find((f) => f.absolutePath === module);
  const read = importer?.read ?? readSource(module, (bytes) => bytes.length <= run.maxFileBytes);
  return read && { i: run.discovery.files.indexOf(module), read };
}

/** A candidate's entry in the files to transform again: the one it has, or a new one from its first read. */
function againEntry(run: CrossModuleRun, again: ReadonlyMap<string, AgainFile>, module: string): AgainFile {
  const known = run.candidates.get(module)!;
  return again.get(module) ?? { i: run.discovery.files.indexOf(module), known, read: { bytes: known.bytes, source: known.input } };
}

/**
 * Tells the files concerned why a helper its module could split stays whole: each importer, the
 * refusals of its handlers that could not ask through the halves and the call that keeps each
 * helper it calls whole; each helper's module, that call.
 */
function sayWhyKeptWhole(
  run: CrossModuleRun,
  again: Map<string, AgainFile>,
  refused: RefusedSplits,
  helpers: ReadonlyMap<string, ExportedHelper[]>,
  approved: ReadonlySet<string>,
): void {
  if (refused.calls.size === 0) return;
  for (const [absolutePath, f] of again) {
    const heldBack = refused.heldBack.get(absolutePath);
    const externalHelpers = f.externalHelpers && keptWholeIn(f.externalHelpers, refused);
    again.set(absolutePath, { ...f, ...(externalHelpers ? { externalHelpers } : {}), ...(heldBack ? { refusedSplits: { heldBack } } : {}) });
  }
  tellHelperModules(run, again, helpers, 'keptWhole', (key) => (approved.has(key) ? undefined : refused.calls.get(key)));
}

type ByHelper = 'keptWhole' | 'legacyEntries';

/** Tells each helper's module, in `field` of its refusedSplits, what `of` says of each of its helpers (by key), where it says anything. */
function tellHelperModules<F extends ByHelper>(
  run: CrossModuleRun,
  again: Map<string, AgainFile>,
  helpers: ReadonlyMap<string, ExportedHelper[]>,
  field: F,
  of: (key: string) => NonNullable<TransformOptions[F]>[string] | undefined,
): void {
  for (const [module, list] of helpers) {
    const told = list.flatMap((h) => {
      const said = of(helperKey(module, h.name));
      return said ? [[h.name, said] as const] : [];
    });
    if (told.length === 0) continue;
    const entry = againEntry(run, again, module);
    again.set(module, { ...entry, refusedSplits: { ...entry.refusedSplits, [field]: Object.fromEntries(told) } });
  }
}

/**
 * Tells each file that imports an exported function kept from asking through a helper (a
 * function of another module, no handler: refused.exportedCallers) about it, so that its
 * handlers' calls of it are marked, naming the function and what it calls. An exported function
 * of such a file that calls it, no handler either, is told to its importers in turn.
 */
async function sayThroughExported(run: CrossModuleRun, again: Map<string, AgainFile>, refused: RefusedSplits): Promise<void> {
  const told = new Set<string>();
  for (let callers = refused.exportedCallers; callers && callers.size > 0;) {
    for (const [module, list] of callers) for (const c of list) told.add(helperKey(module, c.name));
    const index = new AskingHelperIndex(callers, (p) => displayPath(run.cwd, p));
    const importers = possibleImporters(run, index, new Set(callers.keys()), new Map());
    const next = new Map<string, Array<ExportedHelper & { through: string }>>();
    const plan = planner(run, importers);
    for (const f of importers) {
      const found = index.importsOf(f.absolutePath, f.read.source);
      if (found.size === 0) continue;
      const through = new Map([...found].map(([local, h]) => [local, { ...h, ...throughOf(callers!, h.module, h.name) }] as const));
      const entry = again.get(f.absolutePath) ?? { i: f.i, known: f.known, read: f.read };
      const externalHelpers = new Map([...(entry.externalHelpers ?? []), ...through]);
      again.set(f.absolutePath, { ...entry, externalHelpers });
      const planned = await plan(f.absolutePath, { externalHelpers });
      for (const call of planned?.externalCalls ?? []) {
        const unreached = call.unreached;
        if (unreached?.reach !== 'exported' || told.has(helperKey(f.absolutePath, unreached.caller))) continue;
        const list = next.get(f.absolutePath) ?? [];
        const kind = [...through.values()].find((h) => h.name === call.name)?.kind;
        const caller = { name: unreached.caller, line: unreached.line, through: call.name, ...(kind ? { kind } : {}) };
        if (!list.some((c) => c.name === caller.name)) next.set(f.absolutePath, [...list, caller]);
      }
    }
    callers = next;
  }
}

/** What the calls of an exported function kept from asking through a helper are told: that helper, and why the function cannot be split if it could ask through it. */
function throughOf(
  callers: ReadonlyMap<string, ReadonlyArray<ExportedHelper & { through: string; why?: string }>>,
  module: string,
  name: string,
): { through: string; throughWhy?: string } {
  const caller = callers.get(module)!.find((c) => c.name === name)!;
  return { through: caller.through, ...(caller.why ? { throughWhy: caller.why } : {}) };
}

/** Tells each helper's module the calls of its exported methods no handler was shown to call that the run could not tie to their class. */
function sayUntiedCalls(
  run: CrossModuleRun,
  again: Map<string, AgainFile>,
  refused: RefusedSplits,
  helpers: ReadonlyMap<string, ExportedHelper[]>,
  approved: ReadonlySet<string>,
): void {
  const uncalled = (module: string, h: ExportedHelper) =>
    h.split && h.name.includes('.') && !approved.has(helperKey(module, h.name)) && !refused.calls.has(helperKey(module, h.name));
  const methods = new Map([...helpers].map(([module, list]) => [module, list.filter((h) => uncalled(module, h)).map((h) => h.name)] as const));
  const found = findUntiedCalls({ cwd: run.cwd, files: run.discovery.files, candidates: run.candidates, maxFileBytes: run.maxFileBytes }, methods);
  for (const [module, untiedCalls] of found) {
    const entry = againEntry(run, again, module);
    again.set(module, { ...entry, refusedSplits: { ...entry.refusedSplits, untiedCalls } });
  }
}

/** The helpers a file imports, each its module could split but that stays whole told the call that keeps it. */
function keptWholeIn(helpers: NonNullable<TransformOptions['externalHelpers']>, refused: RefusedSplits): NonNullable<TransformOptions['externalHelpers']> {
  return new Map(
    [...helpers].map(([local, h]) => {
      const call = h.proposed && 'module' in h ? refused.calls.get(helperKey(h.module as string, h.name)) : undefined;
      return [local, call ? { ...h, keptWhole: call } : h];
    }),
  );
}

/** Transforms the files again, together; their new outcomes replace those of the main pass. */
async function transformAgain(run: CrossModuleRun, again: ReadonlyMap<string, AgainFile>): Promise<void> {
  // A file that was no candidate: placed now (it may migrate a handler through another module's helper).
  const late = [...again].filter(([, f]) => !f.known);
  const placements = late.length > 0 ? await run.modules.place(late.map(([absolutePath, f]) => ({ absolutePath, source: f.read.source }))) : undefined;
  for (const [absolutePath, f] of again) {
    // Started together, so the files that need type facts share one round of the checker.
    run.transforms.track(transformFileAgain(run, absolutePath, f, placements?.get(absolutePath)));
  }
  await run.transforms.settle();
}

function transformFileAgain(run: CrossModuleRun, absolutePath: string, f: AgainFile, placement: Placement | undefined): Promise<void> {
  const outcome: FileOutcome = { sites: [], errors: [] };
  const extra = {
    ...(f.externalHelpers ? { externalHelpers: f.externalHelpers } : {}),
    ...(f.splitExported ? { splitExported: f.splitExported } : {}),
    ...(f.widenDefiners ? { widenDefiners: f.widenDefiners } : {}),
    ...(f.registeredAs ? { registeredAs: f.registeredAs } : {}),
    ...(f.registries ? { registries: f.registries } : {}),
    ...(f.dispatch ? { dispatch: f.dispatch } : {}),
    ...(f.refusedSplits ? { refusedSplits: f.refusedSplits } : {}),
  };
  const rerun: Candidate = f.known
    ? { ...f.known, outcome, fail: failer(f.known.file, outcome), ...extra }
    : { ...newCandidate(run.context, { absolutePath, file: displayPath(run.cwd, absolutePath), ...f.read }, outcome), ...extra, placement };
  const reported = run.outcomeAt(f.i);
  reported.sites = [];
  reported.changed = undefined;
  reported.errors = [];
  reported.rerunAtHelpers = undefined;
  return runCandidate(rerun).then(() => {
    Object.assign(reported, outcome);
    // What the request-state step needs of the file: what is on disk, what it imports.
    const settled = f.known ?? { ...rerun, outcome: reported };
    Object.assign(settled, { bytes: rerun.bytes, importsStateModule: rerun.importsStateModule });
    if (!f.known && rerun.importsStateModule) run.candidates.set(absolutePath, settled);
  });
}
