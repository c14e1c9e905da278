// What planning a file takes besides its analysis: type facts, and what the engine found in
// the other modules of the run (their asking helpers, the handlers they register from here,
// where the request-state module goes).
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { ImportedRegistries } from '../analyse/registry-declarations.ts';
import type { RegistryShape } from '../analyse/tool-registries.ts';
import type { UntiedCall } from '../analyse/member-calls.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import type { InputKind } from '../core/vocabulary.ts';
import type { CallerReach, RerunCall, SplitShape } from './types.ts';

/**
 * An asking helper of another module, as this module calls it: its exported name (`confirm`,
 * `Prompter.confirm`), where it asks, and how it splits when the engine says it is split.
 */
export interface ExternalHelper {
  file: string;
  line: number;
  name: string;
  split?: SplitShape;
  /** How its module would split it, where the engine keeps it whole (a call elsewhere cannot ask through its halves). */
  proposed?: SplitShape;
  /** What it asks the client for (elicitation, sampling, roots), when its module said. */
  kind?: InputKind;
  /** Taken from the module with `import()` (`const { confirm } = await import('./prompts.js')`): never split. */
  dynamic?: true;
  /** Why the engine keeps it whole, where its module could split it: a call of it that cannot migrate. */
  keptWhole?: RefusedCall;
  /**
   * Set for a function of another module that is no handler and calls an asking helper (the
   * helper's name): its calls here ask through nothing and are marked, naming both.
   */
  through?: string;
  /** With `through`: why that function cannot be split to ask through the helper's halves, when it could otherwise. */
  throughWhy?: string;
}

/** A call of a method by its name whose receiver is not typed as its class (untiedCalls), in a file of the run. */
export interface UntiedCallIn extends UntiedCall {
  /** As the run names it. */
  file: string;
}

/** A call of another module's helper that cannot migrate: where, and the refusal of the handler that makes it. */
export interface RefusedCall {
  /** The file of the call (as the run names it) and the line of the refused site. */
  file: string;
  line: number;
  code: string;
  /** The file takes the helper with import() at that line (no handler's refusal to name). */
  dynamic?: true;
  /** The call is made at that line in this named function, which no handler of its module reaches (`code` is empty). */
  caller?: string;
  /** How a handler may still reach `caller`; absent when nothing does. */
  callerReach?: CallerReach;
  /** `caller` is exported and would ask through the helper's halves, but cannot be split: why. */
  why?: string;
  /** A handler dispatches to `caller` across modules (at that file and line), but the link cannot be made: why, and what fixes it. */
  unlinked?: { file: string; line: number; why: string; fix: string };
  /** The helper makes the request at that file and line with this other helper of its module, which stays whole: they are split together or not at all. */
  sibling?: string;
  /** The call at that file and line is outside any handler and any named function (a test's callback). */
  outside?: true;
}

/**
 * A call that still uses a split helper's legacy entry: its file (as the run names it) and line;
 * `outside`: no module of the run imports the helper, so its callers are out of sight (the line
 * is the helper's own).
 */
export interface LegacyEntryCall {
  file: string;
  line: number;
  outside?: true;
}

/** The refusal that keeps a handler from asking through a helper's halves, as a trial plan said it (see PlanOptions.heldBack). */
export interface HeldBack {
  code: string;
  reason: string;
  next: string;
  /** The marker's line, with the lines it names left to place (see refusal.ts lineRef). */
  marker: string;
}

export interface PlanOptions {
  typeFacts?: TypeFacts;
  /**
   * Functions of other modules of the project that make a legacy request, by the local name
   * this module imports them under (the engine finds them): handlers calling them are marked.
   */
  externalHelpers?: ReadonlyMap<string, ExternalHelper>;
  /** `flag` leaves sampling sites as they are and marks them (the deprecation advice is to stop sampling). */
  sampling?: 'migrate' | 'flag';
  /** Callees the user declares idempotent (`--idempotent NAME`): a call of one may run again on a retry. */
  idempotent?: readonly string[];
  /**
   * Exported helpers (`confirm`, `Prompter.confirm`) the engine found every other module's
   * handlers can ask through once split: this module splits them too.
   */
  splitExported?: ReadonlySet<string>;
  /** Functions of this module other modules' migrated tool definitions are handed to: their parameter type is widened. */
  widenDefiners?: ReadonlySet<string>;
  /** This module's exported functions other modules register as handlers, and how (the engine finds them). */
  registeredAs?: ReadonlyArray<{
    name: string;
    kind: HandlerSite['kind'];
    registered: string;
    ctxIndex?: number;
    lowLevel?: boolean;
    /** `name` is an exported class whose instances are handed to registries of these shapes: what its instances hold is a handler. */
    instance?: readonly RegistryShape[];
  }>;
  /** This module's part in dispatches that cross modules (the engine links them: see engine/dispatch-links.ts). */
  dispatch?: DispatchLinks;
  /** Other modules' tool registries, by the local name of the function of theirs this module hands declarations to (the engine found them). */
  registries?: ImportedRegistries;
  /**
   * Handlers of this module (by handlerId) that could not ask through another module's helper
   * had it been split, with the refusal that kept them: their call of it, kept whole, is marked
   * with that refusal (what blocks is in the handler), not as a call of a helper.
   */
  heldBack?: Readonly<Record<string, HeldBack>>;
  /** This module's exported helpers the engine keeps whole though they could be split, with the call that keeps each. */
  keptWhole?: Readonly<Record<string, RefusedCall>>;
  /**
   * This module's exported helpers split for the handlers that can ask through their halves and
   * kept under their names for calls that cannot (a legacy entry), with the first of those calls.
   */
  legacyEntries?: Readonly<Record<string, LegacyEntryCall>>;
  /** This module's exported asking methods no handler was shown to call, with a call of the same name the engine could not tie to their class. */
  untiedCalls?: Readonly<Record<string, UntiedCallIn>>;
  /**
   * Set when this module reaches the v1 SDK through a module of the project that stays on v1
   * (the specifier it imports it by): its sites are marked, not migrated to v2 calls.
   */
  v1Through?: string;
  /** A TypeScript module whose SDK types cannot resolve (its packages are not installed). */
  typesMissing?: boolean;
  /** The request-state module migrated handlers import (see StateModuleOptions). */
  stateModule?: StateModuleOptions;
  /**
   * True when only the plan's sites will be used (a lint, or a plan made to find the questions
   * for the checker): the edits' clean-up (the declarations the migration leaves unused) is then
   * not worked out. Asked once the handlers are planned.
   */
  sitesOnly?: () => boolean;
}

/** A module's part in a dispatch from a handler of one module, through a type of another, to a class of a third. */
export interface DispatchLinks {
  /**
   * Methods of this module's classes that handlers of other modules dispatch to, each a handler
   * named by its `this.<key>`, with the calls of per-round brackets around those dispatches.
   */
  methods?: ReadonlyArray<{ cls: string; method: string; key: string; width: number; fillers?: readonly string[]; rerun?: readonly RerunCall[] }>;
  /** Handlers here dispatching `method` through the imported type `type`, some of whose classes migrate it: they hand on their context. */
  calls?: ReadonlyArray<{ type: string; method: string }>;
  /** Declarations here of a dispatched method (an interface's, an abstract one), which take the context and may return a question. */
  declarations?: ReadonlyArray<{ owner: string; method: string; optional?: readonly string[] }>;
}

/** Where the request-state module is, and whether its verifier is wired in another module. */
export interface StateModuleOptions {
  /** Absolute path of the module; by default `mrtr-request-state.<ext>` beside the file. */
  path?: string;
  /** The engine wires the verifier where the server is built, in another module of the project. */
  verifierWiredElsewhere?: boolean;
}
