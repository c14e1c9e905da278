// Type facts are optional input to the analysis: what the checker knows about a local that
// must travel in requestState. The analysis never imports the compiler; a provider built on
// the TypeScript compiler API (see ./ts-type-facts.ts) answers these questions when a TypeScript program exists.

export interface LocalTypeFact {
  /** The type as it can be written at the handler, or undefined when it cannot be named there. */
  text?: string;
  /** Whether a JSON round trip gives back the same value. */
  jsonSafe: boolean;
  /** Why not, in words a user understands ("Date does not survive JSON", ...). */
  why?: string;
  /** The type is `any` or `unknown` (an untyped import, JSON.parse): jsonSafe says nothing. */
  unknown?: boolean;
  /** An array or a record with a string index: its size is whatever its source gave. */
  collection?: boolean;
  /** A string, number, boolean, bigint, symbol, null or undefined (or a union of them): code handed it cannot change it. */
  primitive?: boolean;
  /**
   * Names `text` uses that are not in scope at the local but are exported by a module the file
   * already imports (`Note` of `import { NoteStore } from './store.js'`): imported as types
   * beside it, the text names the type at the handler.
   */
  imports?: Array<{ name: string; from: string }>;
}

export interface TypeFacts {
  /** Facts about the local declared by the identifier starting at `start`. */
  local(name: string, start: number): LocalTypeFact | undefined;
  /**
   * Whether the expression at [start, end) (a call's receiver) has a type declared by an MCP
   * SDK package; undefined when the checker cannot tell (an `any`, an unresolved import).
   */
  fromSdk?(start: number, end: number): boolean | undefined;
  /**
   * Whether calling `method` on the expression at [start, end) only reads a standard-library
   * value (`get` of a Map, `find` of an array, `trim` of a string); undefined when the checker
   * cannot tell.
   */
  readsOnly?(start: number, end: number, method: string): boolean | undefined;
  /**
   * Whether the value of the expression at [start, end) may be a promise (or another thenable):
   * false only where the checker shows it is none; undefined when it cannot tell.
   */
  thenable?(start: number, end: number): boolean | undefined;
}

/** What the planner will ask about one file: the locals it lifts, the receivers it doubts, the methods it would run again. */
export interface TypeQuestions {
  locals: Array<{ name: string; start: number }>;
  receivers: Array<{ start: number; end: number }>;
  methods?: Array<{ start: number; end: number; method: string }>;
  values?: Array<{ start: number; end: number }>;
}

/** Of `questions`, those about receivers (whether a look-alike is the SDK's). */
export function receiversOnly(questions: TypeQuestions): TypeQuestions {
  return { locals: [], receivers: questions.receivers, methods: [], values: [] };
}
