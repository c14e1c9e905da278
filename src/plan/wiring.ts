// Edits outside the handlers: the imports a migrated file needs (the names it uses from
// @modelcontextprotocol/server, and mrtrResume from the request-state module), and the
// request-state verifier wired into each `new McpServer(...)` of the file. This decides what
// they are; src/rewrite/edits writes them.
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { codeStyleOf, type CodeStyle } from '../analyse/code-style.ts';
import { importedFrom, importToMergeInto, isImported, type ModuleSystem, moduleSystemOf, stateModuleSpecifier } from '../analyse/module-imports.ts';
import { SERVER_PACKAGE, STATE_EXPORTS } from '../analyse/sdk-surface.ts';
import { type Edit, eolOf } from '../core/vocabulary.ts';
import { addImport, rewriteImport } from '../rewrite/edits/imports.ts';
import { markerComment } from '../rewrite/edits/marker-comment.ts';
import { maybeAskNamesType } from './maybe-ask-split.ts';
import { wireVerifier } from '../rewrite/edits/verifier.ts';
import type { StateModuleOptions } from './plan-options.ts';
import { markerLine, refuse, type Refusal } from './refusal.ts';
import type { HandlerPlan } from './types.ts';

/** What the rewrite names outside the migrated handlers' own lines, besides mrtrResume. */
export interface UsedOutside {
  /** `inputRequired` itself: URL throws returned as input requests, helpers split for other modules. */
  builders: boolean;
  /** Names of the server package: types (`type InputRequiredResult` of a widened definer, a split helper's answer type), and guards (`isInputRequiredResult`). */
  serverTypes: readonly string[];
  /** Names of modules the file imports already (a split helper's halves, the type a lifted local is restored with). */
  moduleNames: ReadonlyArray<{ name: string; from: string; type: boolean }>;
}

export interface FileEdits {
  edits: Edit[];
  style: CodeStyle;
  /** The migrated handlers' verifier is wired neither here nor (as the engine says) elsewhere. */
  unwired: boolean;
  /** How this file imports the request-state module. */
  stateSpecifier: string;
}

/**
 * The imports and wiring of a file whose handlers `planned` migrated (and whose other edits use
 * what `outside` says). A name the migration adds that the file already declares is refused.
 */
export function fileEdits(
  analysis: FileAnalysis,
  options: { typeFacts?: unknown; stateModule?: StateModuleOptions },
  planned: HandlerPlan[],
  outside: UsedOutside,
  /** Import specifiers the migration leaves unused, by local name, by the import's start. */
  importDrops: ReadonlyMap<number, ReadonlySet<string>> = new Map(),
): FileEdits | (Refusal & { style: CodeStyle }) {
  const { source, program } = analysis;
  const style = codeStyleOf(source, program);
  const { missing: serverNames, wanted } = serverNamesToImport(analysis, planned, outside);
  const drops = keptWanted(program, importDrops, wanted);
  const writing: ImportWriting = { analysis, system: moduleSystemOf(analysis.fileName, program), style, drops };
  const stateSpecifier = stateModuleSpecifier(analysis.fileName, program, options.stateModule?.path);
  const wiring = verifierWiring(analysis, planned, options.stateModule);
  const haveState = importedFrom(program, stateSpecifier);
  const newStateNames = wiring.stateNames.filter((name) => !isImported(haveState, name));
  const clash = importClash(analysis, serverNames, newStateNames, haveState);
  if (clash) return Object.assign(clash, { style });

  const edits = [...wiring.edits, ...importEdits(writing, serverNames, outside.moduleNames)];
  if (newStateNames.length > 0) {
    const edit = addImport(source, program, writing.system, style, stateSpecifier, newStateNames, drops);
    // Where the verifier could not be wired, the import says what is left to do.
    if (wiring.unwired && edit.text.startsWith(eolOf(source))) edit.text = eolOf(source) + serverElsewhereComment() + edit.text;
    edits.push(edit);
  }
  return { edits, style, unwired: wiring.unwired, stateSpecifier };
}

/**
 * The verifier wired into each `new McpServer(...)` of a file with migrated handlers, the names
 * the file then takes from the state module, and whether its verifier is wired nowhere.
 */
function verifierWiring(
  analysis: FileAnalysis,
  planned: HandlerPlan[],
  stateModule?: StateModuleOptions,
): { edits: Edit[]; stateNames: string[]; unwired: boolean } {
  if (planned.length === 0) return { edits: [], stateNames: [], unwired: false };
  const edits: Edit[] = [];
  let wiredHere = false;
  for (const construction of analysis.serverConstructions) {
    const wiring = wireVerifier(analysis.source, construction);
    if (wiring === undefined) continue;
    wiredHere = true;
    edits.push(...wiring);
  }
  const stateNames = wiredHere ? [STATE_EXPORTS.resume, STATE_EXPORTS.verify] : [STATE_EXPORTS.resume];
  return { edits, stateNames, unwired: !wiredHere && !stateModule?.verifierWiredElsewhere };
}

/**
 * The names the migration uses from the server package (`type X` for a type), and those the
 * file does not import yet.
 */
function serverNamesToImport(analysis: FileAnalysis, planned: HandlerPlan[], outside: UsedOutside): { missing: string[]; wanted: string[] } {
  const typeImports = new Set<string>(outside.serverTypes);
  // A helper's request half builds its question, and its result half may name the answer's type.
  const requests = planned.flatMap((h) => h.points.flatMap((p) => p.requests));
  for (const h of planned) if (h.returnTypeEdit) typeImports.add('type InputRequiredResult');
  for (const r of requests)
    if (analysis.typed && (!r.maybeAsk || maybeAskNamesType(r))) for (const t of r.resultType.split('|')) typeImports.add(`type ${t.trim()}`);
  const types = [...typeImports].filter((t) => /^type [A-Z]\w*( as [A-Z]\w*)?$/.test(t));
  // Values named outside the handlers (`isInputRequiredResult` of a command dispatch, see dispatch.ts).
  const values = outside.serverTypes.filter((t) => /^is[A-Z]\w*$/.test(t));
  const wanted = [...(requests.some((r) => !r.maybeAsk) || outside.builders ? ['inputRequired'] : []), ...values, ...types];
  const have = importedFrom(analysis.program, SERVER_PACKAGE);
  return { missing: wanted.filter((name) => !isImported(have, name)), wanted };
}

/**
 * The server package's specifiers left unused by the removed code, but for those the migration
 * uses (`ServerContext` that only a removed cast named, now typing an added context parameter).
 */
function keptWanted(
  program: FileAnalysis['program'],
  drops: ReadonlyMap<number, ReadonlySet<string>>,
  wanted: readonly string[],
): Map<number, ReadonlySet<string>> {
  const used = new Set(wanted.map((name) => name.replace(/^type /, '')));
  const kept = new Map<number, ReadonlySet<string>>();
  for (const [start, names] of drops) {
    const statement = program.body.find((s) => s.start === start);
    const fromServer = statement?.type === 'ImportDeclaration' && statement.source.value === SERVER_PACKAGE;
    const left = fromServer ? new Set([...names].filter((name) => !used.has(name))) : names;
    if (left.size > 0) kept.set(start, left);
  }
  return kept;
}

/** A name the migration would import that the file declares already, or imports as a type only where a value is needed. */
function importClash(analysis: FileAnalysis, serverNames: string[], newStateNames: string[], haveState: ReadonlyMap<string, unknown>): Refusal | undefined {
  // A name the SDK import binds is the SDK's own for serverNames, but a clash for the state module's.
  const clash =
    serverNames
      .map((n) => n.replace(/^type /, ''))
      .find((name) => analysis.declaredAnywhere.has(name) && !analysis.serverImported.has(name) && !haveState.has(name)) ??
    newStateNames.find((name) => analysis.declaredAnywhere.has(name));
  if (clash) {
    return refuse('name-clash', 'declaredInModule', { name: clash });
  }
  // `import type { inputRequired }`: a second import of the name would not compile.
  const haveServer = importedFrom(analysis.program, SERVER_PACKAGE);
  const typeOnly = serverNames.find((name) => !name.startsWith('type ') && haveServer.get(name) === 'type');
  return typeOnly ? refuse('name-clash', 'typeOnlyImport', { name: typeOnly }) : undefined;
}

/** What writing the file's imports needs: the file, its module system and style, and the specifiers the migration leaves unused. */
interface ImportWriting {
  analysis: FileAnalysis;
  system: ModuleSystem;
  style: CodeStyle;
  /** Import specifiers the migration leaves unused, by local name, by the import's start. */
  drops: ReadonlyMap<number, ReadonlySet<string>>;
}

/** The server package's names and other modules' names added to the file's imports, and the imports that lose names rewritten. */
function importEdits(writing: ImportWriting, serverNames: string[], moduleNames: UsedOutside['moduleNames']): Edit[] {
  const { analysis, system, style, drops } = writing;
  const { source, program } = analysis;
  const edits: Edit[] = [];
  const merged = new Set<number>();
  if (serverNames.length > 0 && serverNames.every((n) => n.startsWith('type '))) {
    // Types alone (a handler asking only through helpers' halves) join a type-only import of the package.
    const edit = moduleImport(writing, SERVER_PACKAGE, new Map(serverNames.map((n) => [n.slice('type '.length), true])));
    if (edit) merged.add(edit.target);
    if (edit) edits.push(edit.edit);
  } else if (serverNames.length > 0) {
    const target = importToMergeInto(program, SERVER_PACKAGE);
    if (target) merged.add(target.start!);
    edits.push(addImport(source, program, system, style, SERVER_PACKAGE, serverNames, drops));
  }
  for (const [from, names] of byModule(moduleNames)) {
    const edit = moduleImport(writing, from, names);
    if (!edit) continue;
    merged.add(edit.target);
    edits.push(edit.edit);
  }
  for (const [start, drop] of drops) {
    const statement = program.body.find((s) => s.start === start);
    const edit = !merged.has(start) && statement?.type === 'ImportDeclaration' ? rewriteImport(source, statement, drop) : undefined;
    if (edit) edits.push(edit);
  }
  return edits;
}

/** Names to import, by module, each once (a value import where any of its uses is a value). */
function byModule(names: UsedOutside['moduleNames']): Map<string, Map<string, boolean>> {
  const found = new Map<string, Map<string, boolean>>();
  for (const { name, from, type } of names) {
    const list = found.get(from) ?? new Map<string, boolean>();
    list.set(name, (list.get(name) ?? true) && type);
    found.set(from, list);
  }
  return found;
}

/**
 * `names` (name → type only) added to the file's import of `from`, the names already imported
 * left out: merged into its import that lists names (its type-only one for types only), else
 * a new import. `target`: the import statement the edit rewrites, if any.
 */
function moduleImport(writing: ImportWriting, from: string, names: ReadonlyMap<string, boolean>): { edit: Edit; target: number } | undefined {
  const { analysis, system, style, drops } = writing;
  const { source, program } = analysis;
  const have = importedFrom(program, from);
  const missing = [...names].filter(([name, type]) => !isImported(have, type ? `type ${name}` : name));
  if (missing.length === 0) return undefined;
  const typeImport =
    missing.every(([, type]) => type) && !importToMergeInto(program, from)
      ? program.body.find((s) => s.type === 'ImportDeclaration' && s.source.value === from && s.importKind === 'type' && s.specifiers.length > 0)
      : undefined;
  if (typeImport?.type === 'ImportDeclaration') {
    const edit = rewriteImport(
      source,
      typeImport,
      drops.get(typeImport.start!) ?? new Set(),
      missing.map(([name]) => name),
    );
    if (edit) return { edit, target: typeImport.start! };
  }
  const target = importToMergeInto(program, from);
  const edit = addImport(
    source,
    program,
    system,
    style,
    from,
    missing.map(([name, type]) => (type ? `type ${name}` : name)),
    drops,
  );
  return { edit, target: target?.start ?? -1 };
}

/**
 * The marker above the state module's import of a file whose server is built elsewhere. Its
 * next step names no module path: that is the run's choice for the whole package (a file
 * linted alone cannot know it), and this file's import of mrtrResume names it already.
 */
function serverElsewhereComment(): string {
  const refusal = refuse('server-elsewhere', 'verifierNotWired');
  return markerComment({ indent: '', code: refusal.code, text: markerLine(refusal) });
}
