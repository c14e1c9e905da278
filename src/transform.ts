// The whole pipeline for one file's text, without a file system: analyse → plan → rewrite.
import type { ArrowFunctionExpression } from '@babel/types';
import { analyseFile, type FileAnalysis } from './analyse/analyse-file.ts';
import { receiversOnly, type LocalTypeFact, type TypeFacts, type TypeQuestions } from './analyse/type-facts.ts';
import { planFile } from './plan/plan-file.ts';
import {
  blockFacts,
  type BlockBodies,
  expressionBodies,
  migratedOf,
  planOfFile,
  withBlockReasons,
  withBlockBodies as blockBodiesOf,
} from './plan/block-bodies.ts';
import type { PlanOptions } from './plan/plan-options.ts';
import type { FilePlan, HandlerPlan } from './plan/types.ts';
import { rewriteCapabilityChecks } from './rewrite/client-capabilities.ts';
import { rewriteInitHooks } from './rewrite/init-hooks.ts';
import { rewriteRegistrationGuards } from './rewrite/registration-guards.ts';
import { applyEdits, type EditedText, editedText, rewriteEdits } from './rewrite/rewrite.ts';
import { rewriteEntryPoints, type EntryPointReport } from './rewrite/entry-points.ts';
import { hasLineRefs, resolveFileLineRefs, resolveLineRefs } from './core/line-refs.ts';
import { positionMap } from './core/position-map.ts';
import type { Edit } from './core/vocabulary.ts';

export interface TransformResult {
  output: string;
  plan: FilePlan;
  changed: boolean;
  /** The output as splices into a text that parsed (see src/engine/verify-output.ts). */
  edited: EditedText;
  /** The entry points of the file (stdio and HTTP transports): rewritten to serve both eras, or marked. */
  entryPoints: EntryPointReport[];
  /** The text their lines are in (the input, unless an earlier step of the rewrite changed it). */
  entryPointsBase: string;
}

/** Choices a user makes about the migration (the CLI's flags). */
export interface TransformOptions {
  /** `flag` leaves sampling sites in place with a marker instead of migrating them. */
  sampling?: 'migrate' | 'flag';
  /** Callees declared idempotent (`--idempotent NAME`): a call of one may run again on a retry (see analyse/idempotent.ts). */
  idempotent?: readonly string[];
  /** Asking helpers of other modules, by the local name this file imports them under (the engine finds them). */
  externalHelpers?: PlanOptions['externalHelpers'];
  /** Exported asking helpers of this file to split: every other module's handler can ask through them (the engine found). */
  splitExported?: readonly string[];
  /** Functions of this file other modules hand their migrated tool definitions to: their handler type is widened. */
  widenDefiners?: readonly string[];
  /** The specifier through which this file reaches a module of the project that stays on the v1 SDK. */
  v1Through?: string;
  /** This file's exported functions other modules register as handlers, and how. */
  registeredAs?: PlanOptions['registeredAs'];
  /** Other modules' tool registries this file hands declarations to (the engine found them). */
  registries?: PlanOptions['registries'];
  /** This file's part in dispatches across modules (the engine linked them). */
  dispatch?: PlanOptions['dispatch'];
  /** Where the request-state module is (default: beside the file), and whether the engine wires its verifier elsewhere. */
  stateModule?: PlanOptions['stateModule'];
  /** A TypeScript file whose SDK types cannot resolve (its packages are not installed): a receiver in doubt says to install them. */
  typesMissing?: boolean;
  /** Functions this file imports that only register (the engine showed it): an initialize hook's call of one moves to start-up. */
  registersOnly?: readonly string[];
  /** Handlers that could not ask through another module's helper had it been split, with why (the engine found). */
  heldBack?: PlanOptions['heldBack'];
  /** This file's exported helpers the engine keeps whole, with the call of each that cannot migrate. */
  keptWhole?: PlanOptions['keptWhole'];
  /** This file's exported helpers split with a legacy entry, with the first call that still uses it. */
  legacyEntries?: PlanOptions['legacyEntries'];
  /** This file's exported asking methods no handler was shown to call, with a call of that name the engine could not tie to their class. */
  untiedCalls?: PlanOptions['untiedCalls'];
  /**
   * The lines of other modules markers and reasons name are left as references, for the engine
   * to place once it knows the text the user reads there (src/engine/other-module-lines.ts);
   * else the lines of their planned texts.
   */
  otherModuleLinesLater?: boolean;
}

export function transformSource(source: string, fileName: string, typeFacts?: TypeFacts, options: TransformOptions = {}): TransformResult {
  const analysis = analyseFile(source, fileName);
  const plan = planFile(analysis, planOptions(options, typeFacts));
  const planned = withBlockBodies(analysis, plan, (text, bodies) => {
    const blocked = analyseFile(text, fileName);
    return { analysis: blocked, plan: planFile(blocked, planOptions(options, typeFacts && blockFacts(typeFacts, bodies))) };
  });
  return rewritten(planned.analysis, planned.plan, options, planned.linesOf);
}

/** What a file's plan was made on: its analysis, and the text the plan's lines are of when that is another (block-bodies.ts). */
export interface Planned {
  analysis: FileAnalysis;
  plan: FilePlan;
  linesOf?: string;
}

/**
 * The plan, or, where it refused handlers only for their expression bodies, the plan of the text
 * with those bodies written as blocks (`planText`), when that migrates them: its lines those of
 * the file (see plan/block-bodies.ts). The ESLint rule plans so too.
 */
export function withBlockBodies<P extends Planned | Promise<Planned>>(
  analysis: FileAnalysis,
  plan: FilePlan,
  planText: (text: string, bodies: BlockBodies) => P,
): P extends Promise<Planned> ? Promise<Planned> : Planned {
  type Out = P extends Promise<Planned> ? Promise<Planned> : Planned;
  // Those still refused keep their expression, and say what refuses them: planned once more without them.
  let reasons: FilePlan | undefined;
  const told = (planned: Planned, bodies?: BlockBodies): Planned =>
    reasons ? { ...planned, plan: withBlockReasons(analysis, planned.plan, reasons, bodies) } : planned;
  const attempt = (arrows: ArrowFunctionExpression[], last: boolean): Planned | Promise<Planned> => {
    if (arrows.length === 0) return told({ analysis, plan });
    const bodies = blockBodiesOf(analysis.source, arrows, plan);
    const judged = (next: Planned): Planned | Promise<Planned> => {
      const migrated = migratedOf(arrows, next.plan, bodies);
      const inFile = planOfFile(next.plan, analysis.source, bodies);
      if (migrated.length === arrows.length) return told({ analysis: next.analysis, plan: inFile, linesOf: analysis.source }, bodies);
      reasons ??= inFile;
      return last ? told({ analysis, plan }) : attempt(migrated, true);
    };
    const next = planText(bodies.text, bodies);
    return next instanceof Promise ? next.then(judged) : judged(next as Planned);
  };
  return attempt(expressionBodies(analysis, plan), false) as Out;
}

function planOptions(options: TransformOptions, typeFacts?: TypeFacts, sitesOnly?: () => boolean): PlanOptions {
  return {
    typeFacts,
    sampling: options.sampling,
    ...(options.idempotent ? { idempotent: options.idempotent } : {}),
    externalHelpers: options.externalHelpers,
    stateModule: options.stateModule,
    ...(options.splitExported ? { splitExported: new Set(options.splitExported) } : {}),
    ...(options.widenDefiners ? { widenDefiners: new Set(options.widenDefiners) } : {}),
    ...(options.v1Through ? { v1Through: options.v1Through } : {}),
    ...(options.typesMissing ? { typesMissing: true } : {}),
    ...(options.registeredAs ? { registeredAs: options.registeredAs } : {}),
    ...(options.registries ? { registries: options.registries } : {}),
    ...(options.dispatch ? { dispatch: options.dispatch } : {}),
    ...(options.heldBack ? { heldBack: options.heldBack } : {}),
    ...(options.keptWhole ? { keptWhole: options.keptWhole } : {}),
    ...(options.legacyEntries ? { legacyEntries: options.legacyEntries } : {}),
    ...(options.untiedCalls ? { untiedCalls: options.untiedCalls } : {}),
    ...(sitesOnly ? { sitesOnly } : {}),
  };
}

const ALWAYS = () => true;

/**
 * The rewritten file. A line of the file a marker or a reason names is named where the text
 * written has it: the file is rewritten once to learn where its lines go, then, when a marker
 * names one, with those lines (a reason is not written in the file).
 */
function rewritten(analysis: FileAnalysis, planned: FilePlan, options: TransformOptions, linesOf = analysis.source): TransformResult {
  const plan = options.otherModuleLinesLater ? planned : markersMapped(planned, otherModuleLinesAsGiven);
  if (!reportsLines(plan)) return rewrittenOnce(analysis, plan, options);
  const placed = (output: string) => {
    const lineOf = positionMap(linesOf, output);
    return markersMapped(plan, (text) => resolveLineRefs(text, (line) => lineOf(line, 1).line));
  };
  if (!markersNameLines(plan)) {
    const first = rewrittenOnce(analysis, plan, options);
    return { ...first, plan: placed(first.output) };
  }
  // Written again with its lines: only the first text is used (what the output check needs of
  // it is not worked out), and a handler without markers, the same plan both times, is written once.
  const rendered = new Map<HandlerPlan, Edit[]>();
  const first = rewrittenText(analysis, plan, options, rendered);
  return rewrittenOnce(analysis, placed(first.output), options, rendered);
}

/** Whether a marker of the plan names a line (resolveLineRefs). */
function markersNameLines(plan: FilePlan): boolean {
  return plan.markers.some((m) => hasLineRefs(m.text)) || plan.handlers.some((h) => h.markers?.some((m) => hasLineRefs(m.text)));
}

/** Whether a marker or a site's words name a line (resolveLineRefs). */
function reportsLines(plan: FilePlan): boolean {
  const words = (s: FilePlan['sites'][number]) => [s.marker, s.reason, s.next].some((t) => t !== undefined && hasLineRefs(t));
  return markersNameLines(plan) || plan.sites.some(words);
}

/**
 * The plan with the lines its markers and reasons name made those `lineOf` says (the planned
 * text's own, for a plan that is not written), and those of other modules the lines their
 * planned texts have, unless the engine places them (`otherModuleLinesLater`).
 */
export function withLines(plan: FilePlan, lineOf: (line: number) => number = (line) => line, otherModuleLinesLater = false): FilePlan {
  return markersMapped(plan, (text) => {
    const own = resolveLineRefs(text, lineOf);
    return otherModuleLinesLater ? own : otherModuleLinesAsGiven(own);
  });
}

function otherModuleLinesAsGiven(text: string): string {
  return resolveFileLineRefs(text, (_, line) => line);
}

/** The plan with `map` applied to the text of each of its markers (and its sites' reasons and next steps). */
function markersMapped(plan: FilePlan, map: (text: string) => string): FilePlan {
  const marker = <M extends { text: string }>(m: M): M => ({ ...m, text: map(m.text) });
  return {
    ...plan,
    markers: plan.markers.map(marker),
    handlers: plan.handlers.map((h) => (h.markers ? { ...h, markers: h.markers.map(marker) } : h)),
    sites: plan.sites.map((s) => ({
      ...s,
      ...(s.marker === undefined ? {} : { marker: map(s.marker) }),
      ...(s.reason === undefined ? {} : { reason: map(s.reason) }),
      ...(s.next === undefined ? {} : { next: map(s.next) }),
    })),
  };
}

function rewrittenOnce(analysis: FileAnalysis, plan: FilePlan, options: TransformOptions, rendered?: Map<HandlerPlan, Edit[]>): TransformResult {
  const { source } = analysis;
  const { edits, migrated, guards, capabilities, hooks, entries, output } = rewrittenText(analysis, plan, options, rendered);
  const changed = output !== source;
  // The last text parsed and the splices since: the output check parses only what they change
  // (a pass that did not parse its text left it as it was).
  const passes = [
    { input: migrated, pass: guards },
    { input: guards.output, pass: capabilities },
    { input: capabilities.output, pass: hooks },
    { input: hooks.output, pass: entries },
  ];
  const last = passes.reverse().find((p) => p.pass.parsed);
  const edited = !changed
    ? { base: source, edits: [] }
    : last?.pass.parsed
      ? editedText(last.input, last.pass.parsed.program, last.pass.parsed.edits)
      : editedText(source, analysis.program, edits);
  return { output, plan, changed, edited, entryPoints: entries.entries, entryPointsBase: hooks.output };
}

/** The plan's splices, the text they make, and each later pass over it. */
function rewrittenText(analysis: FileAnalysis, plan: FilePlan, options: TransformOptions, rendered?: Map<HandlerPlan, Edit[]>) {
  const { source, fileName } = analysis;
  const edits = rewriteEdits(source, plan, rendered);
  const migrated = applyEdits(source, edits);
  // Separate concerns on the rewritten text, each on the last one's output (the analysis is
  // reused while nothing changed): registrations made where the server is built first, those
  // guarded by the client's capabilities registering for every client (a handler's read of a
  // guard's const becomes a read of the capabilities)...
  const guards = rewriteRegistrationGuards(migrated, fileName, migrated === source ? analysis : undefined);
  // ...then capability reads inside handlers read the request's capabilities...
  const capabilities = rewriteCapabilityChecks(guards.output, fileName, guards.output === source ? analysis : undefined);
  // ...and those made in an initialize hook move to start-up. Last, the entry points: stdio
  // served through serveStdio, HTTP routes through createMcpHandler first.
  const hooks = rewriteInitHooks(capabilities.output, fileName, capabilities.output === source ? analysis : undefined, options.registersOnly);
  const entries = rewriteEntryPoints(hooks.output, fileName, hooks.output === source ? analysis : undefined);
  return { edits, migrated, guards, capabilities, hooks, entries, output: entries.output };
}

/** Supplies type facts for a file; the engine shares one across a run. */
export interface TypeFactsSource {
  /** Answers `questions` about the file (a question not asked has no answer). */
  forFile(fileName: string, source: string, questions: TypeQuestions): Promise<TypeFacts>;
  /** Every file has been read: answer the questions that wait now, and later ones as they come. */
  flush?(): void;
  /** The engine waits for answers before it starts more files: answer the questions that wait now. */
  hurry?(): void;
  /**
   * The answer this source gives about every local without asking, where no site of the file
   * would migrate (a lint's): the planner then asks only about receivers, and a file that
   * doubts none is planned once. Where a site would, it asks what migrate asks, and the source
   * answers as the checker does, so that a lint says what migrate would do.
   */
  readonly everyLocal?: LocalTypeFact;
  /** Releases what the source holds (a worker thread); called at the end of a run. */
  close?(): Promise<void>;
}

/**
 * Transforms one file, asking the type checker only when the plan asks a question only types
 * answer: the type and JSON-safety of a local that travels in requestState, or whether a
 * look-alike receiver is an MCP SDK object. Everything else never loads the compiler.
 */
export async function transformWithTypes(
  source: string,
  fileName: string,
  types?: TypeFactsSource,
  options: TransformOptions = {},
  onAnalysis?: (analysis: FileAnalysis) => void,
): Promise<TransformResult> {
  const asked = askTypes(source, fileName, types, options, onAnalysis);
  const planned = await plannedAsked(asked, types, options);
  return rewritten(planned.analysis, planned.plan, options, planned.linesOf);
}

/**
 * The plan of one file, asking the type checker as transformWithTypes does, without the
 * rewrite: a lint needs the sites, not the rewritten text.
 */
export async function planWithTypes(
  source: string,
  fileName: string,
  types?: TypeFactsSource,
  options: TransformOptions = {},
  onAnalysis?: (analysis: FileAnalysis) => void,
): Promise<FilePlan> {
  return planAsked(askTypes(source, fileName, types, options, onAnalysis, true), types, options, true);
}

/**
 * The plan of one file as planWithTypes makes it, its markers' lines left to place: for a plan
 * whose refusals a later plan of the file writes (see PlanOptions.heldBack).
 */
export async function planKeepingLines(source: string, fileName: string, types?: TypeFactsSource, options: TransformOptions = {}): Promise<FilePlan> {
  return (await plannedAsked(askTypes(source, fileName, types, options, undefined, true), types, options, true)).plan;
}

/** A file analysed, with its questions put to the type checker (or the plan, when it asks none). */
export interface AskedFile {
  analysis: FileAnalysis;
  /** The answers to come. */
  facts?: Promise<TypeFacts>;
  /** The plan, made with `options`, when the file asks nothing. */
  plan?: FilePlan;
  options: TransformOptions;
}

/**
 * Analyses a file and puts its questions to `types` at once. The engine asks so while it is
 * still reading (before it knows where the request-state module goes, which the questions do
 * not depend on): the checker then starts sooner. Finish with transformAsked or planAsked.
 */
export function askTypes(
  source: string,
  fileName: string,
  types: TypeFactsSource | undefined,
  options: TransformOptions = {},
  onAnalysis?: (analysis: FileAnalysis) => void,
  sitesOnly = false,
): AskedFile {
  // One parse: every plan of the file shares it (and a caller that wants it, see RunSettings.onAnalysed).
  const analysis = analyseFile(source, fileName);
  onAnalysis?.(analysis);
  if (!types) return { analysis, plan: planFile(analysis, planOptions(options, undefined, sitesOnly ? ALWAYS : undefined)), options };
  const step = planOrQuestions(analysis, options, sitesOnly, types.everyLocal);
  if ('plan' in step) return { analysis, plan: step.plan, options };
  return { analysis, facts: types.forFile(fileName, source, step.questions), options };
}

/** The rewritten file once its answers have come, with `options` (the request-state module's place included). */
export async function transformAsked(asked: AskedFile, types: TypeFactsSource | undefined, options: TransformOptions): Promise<TransformResult> {
  const planned = await plannedAsked(asked, types, options);
  return rewritten(planned.analysis, planned.plan, options, planned.linesOf);
}

/**
 * The plan of an asked file with `options` (`sitesOnly`: only its sites will be used), its
 * markers and reasons naming the lines `lineOf` says the planned text's are on (by default its
 * own: the engine gives those of the file on disk, for a v1 file it upgraded in memory).
 */
export async function planAsked(
  asked: AskedFile,
  types: TypeFactsSource | undefined,
  options: TransformOptions,
  sitesOnly = false,
  lineOf?: (line: number) => number,
): Promise<FilePlan> {
  return withLines((await plannedAsked(asked, types, options, sitesOnly)).plan, lineOf, options.otherModuleLinesLater);
}

/** planAsked's plan, its markers' lines left to place (see withLines), with what it was made on. */
async function plannedAsked(asked: AskedFile, types: TypeFactsSource | undefined, options: TransformOptions, sitesOnly = false): Promise<Planned> {
  const plan = await plannedOnce(asked, types, options, sitesOnly);
  return withBlockBodies(asked.analysis, plan, (text) =>
    (async () => {
      const blocked = askTypes(text, asked.analysis.fileName, types, options, undefined, sitesOnly);
      return { analysis: blocked.analysis, plan: await plannedOnce(blocked, types, options, sitesOnly) };
    })(),
  );
}

async function plannedOnce(asked: AskedFile, types: TypeFactsSource | undefined, options: TransformOptions, sitesOnly: boolean): Promise<FilePlan> {
  const { analysis } = asked;
  // The questions depend on the file and the options, but not on where the module is.
  const sameQuestions = sameBesidesModule(asked.options, options);
  if (asked.facts && sameQuestions) return planWithFacts(analysis, await asked.facts, options, sitesOnly);
  if (asked.plan && asked.options === options) return asked.plan;
  // Asked with other options (before the module's place was known): planned again, asking nothing.
  if (!types) return planFile(analysis, planOptions(options, undefined, sitesOnly ? ALWAYS : undefined));
  const step = planOrQuestions(analysis, options, sitesOnly, types.everyLocal);
  if ('plan' in step) return step.plan;
  return planWithFacts(analysis, await types.forFile(analysis.fileName, analysis.source, step.questions), options, sitesOnly);
}

function sameBesidesModule(a: TransformOptions, b: TransformOptions): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof TransformOptions>);
  return [...keys].every((key) => key === 'stateModule' || a[key] === b[key]);
}

/**
 * The plan when type facts would play no part in it (a JavaScript file, or no question asked),
 * else the questions whose answers it needs (then plan with planWithFacts). For a caller that
 * answers them its own way (the ESLint rule answers at once, in its own thread).
 */
export function planOrQuestions(
  analysis: FileAnalysis,
  options: TransformOptions = {},
  sitesOnly = false,
  everyLocal?: LocalTypeFact,
): { plan: FilePlan } | { questions: TypeQuestions } {
  if (!analysis.typed) return { plan: planFile(analysis, planOptions(options, undefined, sitesOnly ? ALWAYS : undefined)) };
  const { questions, plan } = questionsOf(analysis, options, sitesOnly, everyLocal);
  return asksNothing(questions) ? { plan } : { questions };
}

function asksNothing(questions: TypeQuestions): boolean {
  return questions.locals.length === 0 && questions.receivers.length === 0 && questions.methods!.length === 0 && questions.values!.length === 0;
}

/** The plan with the answers to planOrQuestions's questions (`sitesOnly`: only its sites will be used). */
export function planWithFacts(analysis: FileAnalysis, facts: TypeFacts, options: TransformOptions = {}, sitesOnly = false): FilePlan {
  return planFile(analysis, planOptions(options, facts, sitesOnly ? ALWAYS : undefined));
}

/**
 * The questions the plan with type facts will ask, found by planning once over facts that
 * answer everything permissively (every local typed and JSON-safe, every receiver the SDK's):
 * that plan asks about every local and receiver any answer could lead the real one to ask.
 */
function questionsOf(
  analysis: FileAnalysis,
  options: TransformOptions,
  sitesOnly: boolean,
  everyLocal?: LocalTypeFact,
): { questions: TypeQuestions; plan: FilePlan } {
  const questions: TypeQuestions = { locals: [], receivers: [], methods: [], values: [] };
  const asked = new Set<string>();
  const once = (key: string) => !asked.has(key) && Boolean(asked.add(key));
  const recording: TypeFacts = {
    local: (name, start) => {
      if (once(`local ${start} ${name}`)) questions.locals.push({ name, start });
      return everyLocal ?? { text: 'unknown', jsonSafe: true, primitive: true };
    },
    fromSdk: (start, end) => {
      if (once(`receiver ${start} ${end}`)) questions.receivers.push({ start, end });
      return true;
    },
    // Every read taken for a standard-library one: the plan then asks about every local that
    // would travel if the checker says otherwise (see carriedAcross).
    readsOnly: (start, end, method) => {
      if (once(`method ${start} ${end} ${method}`)) questions.methods!.push({ start, end, method });
      return true;
    },
    thenable: (start, end) => {
      if (once(`value ${start} ${end}`)) questions.values!.push({ start, end });
      return true;
    },
  };
  // A plan that asked a question is thrown away for the one with the answers: its edits are never used.
  const unused = () => sitesOnly || !asksNothing(everyLocal ? receiversOnly(questions) : questions);
  const plan = planFile(analysis, planOptions(options, recording, unused));
  // A lint needs the types of what would travel only where a site would migrate (it then says
  // what migrate would do with them); where none would, the locals' types change nothing.
  if (everyLocal && !plan.sites.some((site) => site.status === 'migrated')) return { questions: receiversOnly(questions), plan };
  return { questions, plan };
}
