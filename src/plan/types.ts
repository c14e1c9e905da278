// The plan is the contract between analysis and rewriting: everything the rewriter needs,
// as offsets into the original source plus rendered snippets. It holds no AST nodes, so a
// plan can be inspected, serialised into a report, and rendered without re-analysing.
import type { Edit, InputKind, Span } from '../core/vocabulary.ts';
import type { CodeStyle } from '../analyse/code-style.ts';
import type { PushTemplate } from '../analyse/find-sites.ts';
import type { StatementFacts } from './resume-facts.ts';
import type { SecretLocal } from './secrets.ts';

/**
 * How the awaited value was used at the suspension point. `declare` keeps the declaration's
 * target as written: an identifier (`name`) or a pattern (`pattern`, e.g. `{ roots }` or the
 * `[a, b]` of an awaited Promise.all).
 */
export type Binding =
  | { form: 'declare'; kind: 'const' | 'let' | 'var'; name?: string; pattern?: string; names?: string[]; elements?: string[]; annotation?: string }
  | { form: 'assign'; name: string }
  | { form: 'discard' }
  | { form: 'return' };

export interface LiftedLocal {
  name: string;
  /** Restored with `let` when the original was reassignable. */
  mutable: boolean;
  /** TypeScript type text for the typed state; undefined in JavaScript. */
  typeText?: string;
  /** Names `typeText` uses that the module must import (as types) from one of its imports. */
  typeImports?: Array<{ name: string; from: string }>;
  /** The type it was declared with, where a guard before the question narrowed `typeText` from it. */
  declaredType?: string;
}

/** One embedded request of a round. */
export interface PlannedRequest {
  /** inputRequests key. */
  key: string;
  kind: InputKind;
  /** `inputRequired.elicit({...})`, the embedded request, rendered from the original arguments. */
  requestText: string;
  /** Where the request's params begin in the source (to keep literal lines intact when moved). */
  paramsStart: number;
  /** The type the legacy call resolved to, which the bare response keeps. */
  resultType: string;
  /** Which response shape `mrtr.response` checks. */
  guard: 'elicit' | 'sampling' | 'roots';
  /** For a split helper's call: what the helper made of the answer (`confirmResult(` … `, msg)`). */
  resultWrap?: [before: string, after: string];
  /** `requestText` is a helper's async request half, which may return its value without asking (see SplitShape). */
  maybeAsk?: true;
  /** `requestText` is called with the handler's context added last (see SplitShape). */
  takesContext?: true;
  /** The result half is async (see SplitShape): the handler awaits the value it reads. */
  asyncResult?: true;
  /** The request half returns locals with its question (see SplitShape): the handler keeps them in its state. */
  carries?: true;
  line: number;
  column: number;
}

/** A suspension point: one round of questions (several when awaited together with Promise.all). */
export interface SuspensionPoint {
  /** The step name that waits for this round's answers. */
  step: string;
  requests: PlannedRequest[];
  statement: Span;
  binding: Binding;
  /**
   * For a request awaited inside a larger expression (`if ((await ask()).action ...)`): the
   * span of the `await`, which the resumed statement reads from the answer instead, and whether
   * it is written in parentheses of its own (`(await ask()).action`, not `f(await ask())`).
   */
  inline?: Span & { parenthesized?: boolean };
  /** Where the statement sits: item and child indices from the handler body down. */
  path: PathStep[];
  /** Locals declared before this point and read after it: they travel in requestState. */
  lifted: LiftedLocal[];
  /** Lifted locals whose names look like credentials: the state is signed, not encrypted. */
  /** Lifted locals that look like secrets (the client can read requestState). */
  secrets: SecretLocal[];
  /** What the code after the question reads of the request that carried the call (`ctx.mcpReq.id`): on the retry, the retry's. */
  requestBound: string[];
}

/** One level of a point's position: the item in a list, and which child list of it to enter. */
export interface PathStep {
  item: number;
  child?: number;
}

/**
 * A statement list the rewrite may restructure (the handler body, or a block on the way to
 * a question). `open` is just after its `{`, `close` is its `}`.
 */
export interface ListPlan {
  open: number;
  close: number;
  items: ItemPlan[];
  /** A switch case's statements: resuming inside it runs them without their final `break`. */
  caseList?: boolean;
}

export type ItemPlan =
  | { type: 'plain'; span: Span; declares: boolean; exits: boolean; isBreak?: boolean }
  | { type: 'point'; span: Span; point: number; declares: boolean }
  | {
      type: 'compound';
      span: Span;
      kind: 'if' | 'try' | 'block' | 'switch' | 'loop';
      children: ChildPlan[];
      declares: boolean;
      exits: boolean;
      loop?: LoopPlan;
    };

/**
 * A loop with a question in its body. Resuming re-enters it mid-iteration: a guard runs the
 * rest of the interrupted iteration first, then the loop goes on as written. A `for...of`
 * counts its iterations (`mrtrIndexN`) so the resumed loop starts at the item that asked.
 */
export interface LoopPlan {
  kind: 'while' | 'do-while' | 'for' | 'for-of';
  /** Numbers the loop's generated names: `mrtrResumingN`, `mrtrIndexN`. */
  n: number;
  /** Source text of the condition (while, do-while, for), update (for), left side and iterable (for-of). */
  test?: string;
  update?: string;
  left?: string;
  iterable?: string;
}

export interface ChildPlan {
  role: 'consequent' | 'alternate' | 'try' | 'catch' | 'finally' | 'block' | 'case' | 'loop';
  list: ListPlan;
}

/** A call a migrated handler makes again on each retry (it only derives a value, or the user declared it idempotent). */
export interface RerunCall {
  /** The call as written (shortened). */
  text: string;
  line: number;
  /** Made in another module (as the run names it), where `line` is: a bracket around a dispatch there, listed here. */
  file?: string;
  /**
   * `read`: a standard-library read or a bound copy; `pure-function`: a module function shown
   * pure; `declared`: declared idempotent; `bracket`: acquired before a command dispatch and
   * released in its `finally`, once per round.
   */
  why: 'read' | 'pure-function' | 'declared' | 'bracket';
}

export interface HandlerPlan {
  /** Names the handler in requestState: `tool:delete_records`. */
  id: string;
  /** For a name read at run time, the expression that names it (`` `tool:${TOOLS.create}` ``); `id` then shows the source. */
  idText?: string;
  /** The handler body, from its `{` to just past its `}`. */
  body: Span;
  points: SuspensionPoint[];
  /** The context parameter to use; `addParam` says where and how to add it when missing. */
  ctxName: string;
  addParam?: { at: number; text: string; close?: { at: number; text: string } };
  /** Replaces a destructured context parameter with `ctxName`. */
  paramEdit?: Edit;
  /** Removes the official codemod's marker about that destructuring, which nothing of it is left to need. */
  markerEdit?: Edit;
  /** Source lines (by start) of the official codemod's markers that the rewritten questions make obsolete: left out. */
  droppedLines?: number[];
  /** A statement the migrated body starts with (before the resume): what a destructured context still gives. */
  prologue?: string;
  /** Widens an explicit `Promise<X>` return type to admit the input_required result. */
  returnTypeEdit?: Edit;
  /** `async ` before a handler that was not an async function (it returned another's promise). */
  asyncEdit?: Edit;
  /** Expression that names the call's arguments, digested into requestState. */
  argsText: string;
  /**
   * The server the handler is registered on, as the handler can name it (the registration's
   * receiver, when the handler is written inside that call and nothing in it shadows the
   * name): on a 2025-era connection it tells what the client declared.
   */
  serverText?: string;
  /** Literal spans whose lines must not be re-indented (their text is data). */
  verbatim: Span[];
  /** Edits inside statements the body keeps, applied where they are written (a thrown URL elicitation returned instead, see retry-marker.ts). */
  innerEdits?: Edit[];
  /** The body as a tree of the lists that lead to questions. */
  tree: ListPlan;
  /** Statements before a question (by start) that run on every entry: they only derive values (see rederive.ts). */
  rederived?: number[];
  /** The locals those declare (never carried), and the calls they make again on each retry. */
  rederivedNames?: string[];
  rerun?: RerunCall[];
  /** Markers of sites left as they were inside the body (a case the handler migrates without). */
  markers?: Marker[];
  /** How the body is written, each question once (set once the plan is made, see resume-layout.ts). */
  layout?: HandlerLayout;
}

export type SiteStatus = 'migrated' | 'marked';

export interface SiteReport {
  line: number;
  column: number;
  kind: InputKind;
  handler?: string;
  status: SiteStatus;
  /** For migrated sites: what moved into requestState. */
  lifted?: string[];
  /** Locals derived again on the retry instead of carried, and the calls that makes again. */
  rederived?: string[];
  rerun?: RerunCall[];
  /** For marked sites: why, and what to do. */
  code?: string;
  reason?: string;
  next?: string;
  /** The line its marker says (after `@mrtr-todo(<code>): `), the short form of reason and next. */
  marker?: string;
  /** Deprecation guidance attached to sampling and roots sites. */
  guidance?: string;
}

export interface Marker {
  /** Offset of the start of the line the comment goes above. */
  lineStart: number;
  indent: string;
  code: string;
  /** The marker's one line after `@mrtr-todo(<code>): ` (see markerLine). */
  text: string;
  /** The lines (their starts) of the repeats this marker counts, which get no marker of their own. */
  also?: number[];
}

export interface FilePlan {
  handlers: HandlerPlan[];
  markers: Marker[];
  sites: SiteReport[];
  /** Edits outside handlers: the import, the server options' verifier, helper splits, URL throws. */
  edits: Edit[];
  typed: boolean;
  /** The file's quotes and semicolons, which the lines the migration writes follow. */
  style: CodeStyle;
  /** How the migrated handlers import the request-state module (set when any is migrated). */
  stateSpecifier?: string;
  eol: string;
  /** Sites recognised by name only, kept for want of type facts (the checker may clear them). */
  uncertain: number;
  /**
   * Exported functions (and methods of exported classes, `Class.method`) of this module that
   * make a legacy request: other modules' handlers calling them are marked, or, where `split`
   * says how this module would split it, ask through its halves. `asksThrough`: the other
   * module's helper whose halves it would ask through (split only if that one is). `entry`: split,
   * it can be kept under its name for calls that cannot ask through the halves (legacy-entry.ts);
   * `reached`: handlers of this module reach it too.
   */
  exportedHelpers: Array<{ name: string; line: number; kind?: InputKind; split?: SplitShape; asksThrough?: string; entry?: true; reached?: true }>;
  /** Each call of another module's split helper (see PlanOptions.externalHelpers), and whether it migrated. */
  externalCalls: Array<{
    file: string;
    name: string;
    migrated: boolean;
    handler?: string;
    /** `why`: the caller is exported and could ask through the helper's halves, but cannot be split (why). */
    unreached?: { caller: string; line: number; reach?: CallerReach; why?: string };
    /** The line of a call no handler here asks through (where its marker, if any, is). */
    line?: number;
    /** The line of a use that is no call of it the plan could follow (a callback, a call on an object, a bound name). */
    named?: number;
  }>;
  /** Exported helpers this plan splits (as PlanOptions.splitExported allowed, and its own handlers permitted). */
  splitExported: string[];
  /**
   * What handlers here run again on each retry that no report here lists: they ask only through
   * other modules' split helpers (`file`, `helper`), so the engine lists it on the report of the
   * first they ask through, where their question is counted.
   */
  rerunAtHelpers?: Array<{ file: string; helper: string; calls: RerunCall[] }>;
  /** The dispatched methods (`Class.method`) other modules' handlers reach that migrated here (see PlanOptions.dispatch). */
  linkedMigrated?: string[];
  /** Functions of other modules this module's migrated tool definitions are handed to (`defineTool` from '../registry.js'): their types must admit InputRequiredResult. */
  definers: Array<{ from: string; name: string }>;
  /**
   * Functions of other modules this module hands declarations to (`declareTool` from
   * './registry.js'), asked about when a request here has no handler: a registry there may
   * register what their factories return (see PlanOptions.registries).
   */
  registryQuestions?: Array<{ local: string; from: string; imported: string }>;
}

/**
 * What a module needs to know of a helper another module split, to ask through it: the kind
 * and types of its request, which arguments each half takes, and whether it returned the bare
 * answer. Plain data: the engine hands it from the helper's module to the modules calling it.
 */
export interface SplitShape {
  kind: InputKind;
  resultType: string;
  valueType?: string;
  /** `valueType` names this module's `xThen` (the helper wrote no type): other modules are not told it. */
  localValueType?: true;
  method: boolean;
  requestArgs: boolean[];
  resultArgs: boolean[];
  /** The helper returned the bare answer: nothing to compute on the retry. */
  identity: boolean;
  /** The request half is async and may return the helper's value without asking (`{ value }`), or the question (`{ ask }`). */
  maybeAsk?: true;
  /** The request half reads the client's capabilities, which a 2026-07-28 request carries: it takes the handler's context last. */
  takesContext?: true;
  /**
   * The result half is async: the helper awaited more after its question (`await load(root)`),
   * which runs there, once, on the round that receives the answer. Every caller awaits it.
   */
  asyncResult?: true;
  /**
   * Locals of the code before the question that the result half reads and cannot derive again:
   * the request half returns them with the question (`{ ask, carried: { found } }`), the handler
   * keeps them in its state, and the result half takes them last (`value`; `type` in a typed file).
   * `opaque`: the type names types other modules may not see; they name it through the request half's.
   */
  carried?: { value: string; type?: string; opaque?: true };
  /** The request as the helper made it, over its parameters, when it can be made again there: what a legacy entry of it, or of a helper calling it, pushes. */
  push?: PushTemplate;
}

// --- how a handler is written, each question once (see resume-layout.ts) ---------------------

export interface HandlerLayout {
  /** `mrtr.step`, or `mrtrStep` when a question sits in a loop. */
  stepVar: string;
  /** The facts of the body's statements the rewrite reads (spans of conditions, initialisers). */
  facts: ReadonlyMap<number, StatementFacts>;
  /** What each question carries in its state (the lifted locals a loop does not bind again). */
  carried: LiftedLocal[][];
  body: ListLayout;
}

export interface ListLayout {
  parts: Part[];
}

/** Units written as they are, or inside `if (condition) { ... }` (and its `else { ... }`). */
export type Part = { guard?: string; units: Unit[]; otherwise?: Unit[] };

export type Unit =
  /** A statement as written; `constant`: a `let` the guard it moved into never reassigns (the retry restores it as `let`). */
  | { type: 'item'; item: number; constant?: boolean }
  /** A declaration whose initialisers read the state on the retry. */
  | { type: 'init'; item: number; inits: DeclaratorInit[] }
  | { type: 'ask'; item: number; point: number }
  /** Loop handlers: the resumed step is passed, what follows runs as on a first call. */
  | { type: 'clear'; point: number }
  /** `assign`: into names a `declare` unit declared (`({ x } = mrtr.locals())`), not declaring them. */
  | { type: 'restore'; point: number; locals: LiftedLocal[]; assign?: boolean }
  /** `let x: T;` before a guard whose code assigns the names (see `assign`) and that the code after it reads. */
  | { type: 'declare'; locals: LiftedLocal[] }
  /** A declaration written as the assignment of the names a `declare` unit declared before it (`x = f();`). */
  | { type: 'assign'; item: number }
  /** The answer; `fromState`: read it from the state instead when this condition holds (a later step is resumed). */
  | { type: 'read'; point: number; fromState?: string }
  | { type: 'compound'; item: number; layout: CompoundLayout };

export interface DeclaratorInit {
  declarator: number;
  /** Resuming: the value comes from the state. */
  condition: string;
  locals: LiftedLocal[];
}

export interface CompoundLayout {
  /** The whole statement runs only when this holds (a later step is not resumed). */
  wrap?: string;
  /** The new condition (if, while, do...while, for) or switch value. */
  test?: string;
  discriminant?: string;
  /** A for loop's initialiser: its declarators' values from the state on the retry, or the expression skipped. */
  forInit?: DeclaratorInit[] | { skip: string };
  /** A for...of loop counts its items (`mrtrIndexN`) and skips those done when this holds. */
  counter?: { name: string; resuming: string };
  /** A try whose catch block asks: enter the catch block on the retry. */
  enterCatch?: string;
  /** One layout per child list on a question's path; others are copied. */
  children: Array<ListLayout | undefined>;
  /** The try's finally block runs only on the call that does not ask. */
  suspendedFinally: boolean;
}

/**
 * How a handler may reach a function no handler of its module reaches by a call the run follows:
 * a method, through an interface or a base class; an exported function, from another module.
 */
export type CallerReach = 'method' | 'exported';
