// Which statements before a handler's questions run again on every entry instead of once: those
// that only derive values (src/analyse/purity.ts says which code does), where nothing that runs
// once depends on their locals. Their locals never travel in requestState: the retry makes them
// again, fresh (an object read from a store is the live one, so a change made after the question
// lands on it). Everything else before a question runs once, on the first call, as it did.
import type { Comment, Node, Statement } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { annotatedType, argumentParams, boundNames, isFunction, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import { idempotentComments, namedIdempotent, taggedBefore } from '../analyse/idempotent.ts';
import {
  ANY_READ_ONLY_METHOD,
  isFreshValue,
  JSON_READ_ONLY_METHODS,
  READ_ONLY_METHODS,
  statementPurity,
  type HandlerName,
  type Purity,
  type PurityScope,
} from '../analyse/purity.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { codeSnippet } from '../core/escape.ts';
import { declaredInScope, namesReadAfter, type Round } from './handler-rounds.ts';
import { declaredBy } from './liveness.ts';
import type { ListPlan, RerunCall } from './types.ts';

export interface Rederived {
  /** The statements (by start) that run on every entry. */
  statements: ReadonlySet<number>;
  /** The locals they declare, by the start of the name's identifier: never carried. */
  locals: ReadonlySet<number>;
  /** Their names. */
  names: string[];
  /** The calls they make, each once: what runs again on the retry. */
  calls: RerunCall[];
}

export interface RederiveInput {
  analysis: FileAnalysis;
  handler: HandlerSite;
  tree: ListPlan;
  rounds: readonly Round[];
  argNames: ReadonlySet<string>;
  facts: TypeFacts | undefined;
  /** Callees the user declared idempotent (`--idempotent NAME`). */
  idempotent: readonly string[];
}

/** A statement before a question, with the names it declares. */
interface Candidate {
  statement: Statement;
  /** The statement after it in its list. */
  next?: Statement;
  /** `fresh`: an object the statement makes; `unset`: a `let` declared without a value. */
  declares: Array<{ name: string; start: number; fresh: boolean; unset: boolean }>;
}

export function rederivation(input: RederiveInput): Rederived {
  const body = bodyOf(input.handler.fn);
  const { statements } = body;
  const candidates = candidatesOf(input, statements);
  if (candidates.length === 0) return { statements: new Set(), locals: new Set(), names: [], calls: [] };
  const own = handlerNames(input, body);
  const scope = new HandlerScope({ ...input, fn: input.handler.fn, requestCapabilities: true }, own);
  const excluded = new Set([...own.twice]);
  for (;;) {
    const derivable = derivableOf(candidates, scope, excluded);
    const needed = neededOf(input, derivable);
    const declared = needed.flatMap((c) => c.declares);
    const names = { derived: new Set(declared.map((d) => d.name)), unset: new Set(declared.filter((d) => d.unset).map((d) => d.name)) };
    // What only derives but is not needed stays where it was, runs once, and changes nothing.
    const tainted = taintedNames(input, statements, new Set(derivable.map((c) => c.statement)), names);
    if (tainted.size === 0) {
      const rerun = new Set(needed.map((c) => c.statement.start!));
      const calls = uniqueCalls(needed.flatMap((c) => c.calls.map((call) => rerunCall(input.analysis.source, call.node, call.why))));
      return { statements: rerun, locals: new Set(declared.map((d) => d.start)), names: declared.map((d) => d.name), calls };
    }
    for (const name of tainted) excluded.add(name);
  }
}

/** A candidate shown to only derive values, with the calls it makes. */
interface Derivable extends Candidate {
  calls: Purity['calls'];
}

/** The candidates that only derive values, given the names that may not be derived again. */
function derivableOf(candidates: readonly Candidate[], scope: HandlerScope, excluded: ReadonlySet<string>): Derivable[] {
  const derived = new Map<string, HandlerName>();
  const out: Derivable[] = [];
  for (const c of candidates) {
    if (c.declares.some((d) => excluded.has(d.name))) continue;
    const purity = statementPurity(c.statement, scope.with(derived));
    if (purity.blocker) continue;
    out.push({ ...c, calls: purity.calls });
    for (const d of c.declares) derived.set(d.name, d.fresh ? 'fresh' : 'derived');
  }
  return out;
}

/**
 * Of the derivable statements, those the retry needs: one declaring a local read after a
 * question (it would travel otherwise) or read by a question asked inside a later compound
 * statement (the guard that runs once cannot hold that question), one whose local such a
 * statement reads, one that checks or changes a local the retry needs (`if (!note) return
 * ...`, `seen.add(x)`), and one that derives right before another of these. The others stay
 * where they were and run once.
 */
function neededOf(input: RederiveInput, derivable: readonly Derivable[]): Derivable[] {
  const starts = new Set(derivable.flatMap((c) => c.declares.map((d) => d.start)));
  const names = new Set(derivable.flatMap((c) => c.declares.map((d) => d.name)));
  const needed = new Set<string>();
  for (const round of input.rounds) {
    const readAfter = namesReadAfter(round);
    const inScope = declaredInScope(round);
    for (const d of inScope) if (starts.has(d.start) && readAfter.has(d.name)) needed.add(d.name);
    const asks = referencedNames(round.statement);
    for (const frame of round.frames.slice(0, -1))
      for (const s of frame.list.slice(0, frame.index)) for (const d of declaredBy(s)) if (starts.has(d.start) && asks.has(d.name)) needed.add(d.name);
    // The retry enters each block around the question through its header (`if (caps?.roots)`), so what the header reads is declared there too.
    const entered = new Set(round.frames.flatMap((frame) => (frame.compound ? headerOf(frame.compound).flatMap((n) => [...referencedNames(n)]) : [])));
    for (const d of inScope) if (starts.has(d.start) && entered.has(d.name)) needed.add(d.name);
    // A helper the handler binds itself (`const { find } = await import(...)`): the retry calls its result half, bound there too.
    const results = new Set(round.sites.flatMap((s) => (s.via && s.via.result.join('') !== '' ? [calleeName(s.call)] : [])));
    for (const d of inScope) if (starts.has(d.start) && results.has(d.name)) needed.add(d.name);
  }
  // What each statement reads and uses, found once (the search below goes over them until nothing grows).
  const readsAndUses = derivable.map((c) => {
    const reads = referencedNames(c.statement);
    return { reads, uses: c.declares.length === 0 ? [...reads] : [...changedNames([c.statement])] };
  });
  const chosen = new Set<Derivable>();
  const chosenStatements = new Set<Node>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [i, c] of derivable.entries()) {
      if (chosen.has(c)) continue;
      const { reads, uses } = readsAndUses[i]!;
      // One that only derives right before one the retry needs goes with it: the code that runs once stays in one block.
      const leads = c.next !== undefined && chosenStatements.has(c.next);
      if (!leads && !c.declares.some((d) => needed.has(d.name)) && !uses.some((n) => needed.has(n))) continue;
      chosen.add(c);
      chosenStatements.add(c.statement);
      for (const n of reads) if (names.has(n)) needed.add(n);
      grew = true;
    }
  }
  return derivable.filter((c) => chosen.has(c));
}

/** The plain statements of the body that some question follows in their own list, in order. */
function candidatesOf(input: RederiveInput, statements: ReadonlyMap<number, Statement>): Candidate[] {
  const out: Candidate[] = [];
  const visit = (list: ListPlan) => {
    const lastAsking = findLastIndex(list.items, (item) => item.type !== 'plain');
    list.items.forEach((item, k) => {
      if (item.type === 'compound') for (const child of item.children) visit(child.list);
      const statement = statements.get(item.span.start);
      if (item.type !== 'plain' || k > lastAsking || !statement) return;
      const next = list.items[k + 1] && statements.get(list.items[k + 1]!.span.start);
      out.push({ statement, declares: declaredNames(statement), ...(next ? { next } : {}) });
    });
  };
  visit(input.tree);
  return out.sort((a, b) => a.statement.start! - b.statement.start!);
}

function declaredNames(statement: Statement): Candidate['declares'] {
  if (statement.type !== 'VariableDeclaration') return declaredBy(statement).map((d) => ({ name: d.name, start: d.start, fresh: false, unset: false }));
  return statement.declarations.flatMap((d) => {
    const fresh = d.id.type === 'Identifier' && d.init !== null && d.init !== undefined && isFreshValue(d.init);
    const unset = d.id.type === 'Identifier' && !d.init;
    return boundNames(d.id).map((b) => ({ ...b, fresh, unset }));
  });
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}

/** What one walk of a handler body finds (outside nested functions): its statements by start, the names it declares, and those declared twice. */
interface Body {
  statements: Map<number, Statement>;
  declared: Set<string>;
  twice: Set<string>;
}

function bodyOf(fn: FunctionNode): Body {
  const statements = new Map<number, Statement>();
  const declared = new Set<string>();
  const twice = new Set<string>();
  const add = (name: string) => (declared.has(name) ? twice.add(name) : declared.add(name));
  walk(fn.body, (node) => {
    if (isFunction(node)) {
      if (node.type === 'FunctionDeclaration' && node.id) add(node.id.name);
      return false;
    }
    if (/Statement$|Declaration$/.test(node.type)) statements.set(node.start!, node as Statement);
    if (node.type === 'VariableDeclarator') for (const b of boundNames(node.id)) add(b.name);
    if (node.type === 'ClassDeclaration' && node.id) add(node.id.name);
    if (node.type === 'CatchClause' && node.param) for (const b of boundNames(node.param)) add(b.name);
    return undefined;
  });
  return { statements, declared, twice };
}

/** The handler's own names: its parameters' and every name its body declares (outside nested functions), and those declared twice. */
function handlerNames({ handler }: RederiveInput, { declared, twice }: Body): { declared: Set<string>; context: Set<string>; twice: Set<string> } {
  const params = argumentParams(handler.fn);
  const contextParam = params[handler.ctxIndex];
  const context = new Set(contextParam ? boundNames(contextParam).map((b) => b.name) : []);
  for (const p of params) for (const b of boundNames(p)) declared.add(b.name);
  return { declared, context, twice };
}

/**
 * Names a derived local may not keep: code that runs once before a question reads or changes it
 * (on the retry that code is skipped, and what it did to the local, or learnt from it, with it),
 * and a question that assigns or changes it.
 */
function taintedNames(
  input: RederiveInput,
  statements: ReadonlyMap<number, Statement>,
  chosen: ReadonlySet<Statement>,
  { derived, unset }: { derived: ReadonlySet<string>; unset: ReadonlySet<string> },
): Set<string> {
  const tainted = new Set<string>();
  if (derived.size === 0) return tainted;
  const last = Math.max(...input.rounds.map((r) => r.statement.start!));
  const loops = [...new Set(input.rounds.flatMap((r) => r.frames.filter((f) => f.role === 'loop').map((f) => f.compound!)))];
  const beforeAQuestion = (s: Node) => s.start! < last || loops.some((l) => l.start! <= s.start! && s.end! <= l.end!);
  const mark = (names: Iterable<string>) => {
    for (const n of names) if (derived.has(n)) tainted.add(n);
  };
  const visit = (list: ListPlan) => {
    for (const item of list.items) {
      const s = statements.get(item.span.start);
      if (!s || chosen.has(s) || !beforeAQuestion(s)) continue;
      // A `let` nothing has assigned holds undefined on every entry: reading it learns nothing.
      if (item.type === 'plain') mark([...referencedNames(s)].filter((n) => !unset.has(n) || changedNames([s]).has(n)));
      else mark(changedNames(item.type === 'compound' ? headerOf(s) : [s]));
      if (item.type === 'compound') for (const child of item.children) visit(child.list);
    }
  };
  visit(input.tree);
  // A loop that asks goes on from the iteration that asked: what the earlier iterations did to
  // a local declared outside the loop is not done again, so that local must travel.
  for (const loop of loops) {
    const own = new Set<string>();
    walk(loop, (n) => {
      if (n.type === 'VariableDeclarator') for (const b of boundNames(n.id)) own.add(b.name);
      return undefined;
    });
    mark([...changedNames([loop])].filter((n) => !own.has(n)));
  }
  return tainted;
}

/** A compound statement's own expressions (its condition, a loop's head, a switch's value). */
export function headerOf(s: Statement): Node[] {
  switch (s.type) {
    case 'IfStatement':
    case 'WhileStatement':
    case 'DoWhileStatement':
      return [s.test];
    case 'ForStatement':
      return [s.init, s.test, s.update].filter((n): n is NonNullable<typeof n> => n !== null && n !== undefined);
    case 'ForOfStatement':
    case 'ForInStatement':
      return [s.left, s.right];
    case 'SwitchStatement':
      return [s.discriminant, ...s.cases.flatMap((c) => (c.test ? [c.test] : []))];
    default:
      return [];
  }
}

/** Names assigned, or whose object is changed (`x.a = 1`, `x.push(...)`), in `nodes`. */
export function changedNames(nodes: readonly Node[]): Set<string> {
  const names = new Set<string>();
  const root = (n: Node): string | undefined => {
    while (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') n = n.object;
    return n.type === 'Identifier' ? n.name : undefined;
  };
  const add = (n: Node) => {
    for (const b of boundNames(n)) names.add(b.name);
    const r = root(n);
    if (r) names.add(r);
  };
  for (const node of nodes) {
    walk(node, (n) => {
      if (n.type === 'AssignmentExpression') add(n.left as Node);
      if (n.type === 'UpdateExpression' || (n.type === 'UnaryExpression' && n.operator === 'delete')) add(n.argument);
      if (
        (n.type === 'CallExpression' || n.type === 'OptionalCallExpression') &&
        (n.callee.type === 'MemberExpression' || n.callee.type === 'OptionalMemberExpression')
      ) {
        const r = root(n.callee.object);
        if (r) names.add(r);
      }
      return undefined;
    });
  }
  return names;
}

export function rerunCall(source: string, node: Node, why: RerunCall['why']): RerunCall {
  return { text: codeSnippet(source.slice(node.start!, node.end!)), line: node.loc!.start.line, why };
}

export function uniqueCalls(calls: RerunCall[]): RerunCall[] {
  const seen = new Set<string>();
  return calls.filter((c) => {
    const key = `${c.file ?? ''}:${c.line}:${c.text}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** What a scope is made over: the function whose code is checked (a handler, a helper, a caller), and the file's facts. */
export interface ScopeInput {
  analysis: FileAnalysis;
  fn: FunctionNode;
  argNames: ReadonlySet<string>;
  facts: TypeFacts | undefined;
  idempotent: readonly string[];
  /** The function is a handler: its capability reads read the request's capabilities (see PurityScope). */
  requestCapabilities?: boolean;
}

/** The function's own names: those it declares, its context's, and (a helper's) the parameters its callers pass again. */
export interface OwnNames {
  declared: ReadonlySet<string>;
  context: ReadonlySet<string>;
  parameters?: ReadonlySet<string>;
}

/** What the purity check is told of the handler's names, the module's functions and the values' types. */
export class HandlerScope {
  private derived: ReadonlyMap<string, HandlerName> = new Map();
  private readonly tagged: readonly Comment[];
  private readonly chains = new Map<FunctionNode, readonly FunctionNode[]>();

  constructor(
    private readonly input: ScopeInput,
    private readonly own: OwnNames,
  ) {
    this.tagged = idempotentComments(input.analysis.comments);
  }

  /** The scope where `derived` are the locals derived so far. */
  with(derived: ReadonlyMap<string, HandlerName>): PurityScope & { statement?: Statement } {
    this.derived = derived;
    return {
      handlerName: (name) => this.handlerName(name),
      declaredInModule: (name) => this.input.analysis.declaredAnywhere.has(name),
      functionNamed: (name, from) => this.functionNamed(name, from),
      readsOnly: (receiver, method) => this.readsOnly(receiver, method),
      declaredIdempotent: (call) => this.declaredIdempotent(call),
      ...(this.input.requestCapabilities ? { requestCapabilities: true } : {}),
    };
  }

  private handlerName(name: string): HandlerName | undefined {
    if (this.own.context.has(name)) return 'context';
    if (this.input.argNames.has(name)) return 'argument';
    const derived = this.derived.get(name);
    if (derived) return derived;
    if (this.own.parameters?.has(name)) return 'parameter';
    return this.own.declared.has(name) ? 'local' : undefined;
  }

  /** The functions around `fn`, innermost last, itself included. */
  private chainOf(fn: FunctionNode): readonly FunctionNode[] {
    let chain = this.chains.get(fn);
    if (!chain) {
      const ancestors = this.input.analysis.index.functions.find((f) => f.node === fn)?.ancestors ?? [];
      this.chains.set(fn, (chain = [...ancestors.filter(isFunction), fn]));
    }
    return chain;
  }

  /** The innermost function around a node (a module function being shown pure, a callback, or the handler). */
  private functionAround(node: Node): FunctionNode {
    const within = (outer: Node, inner: Node) => outer.start! <= inner.start! && inner.end! <= outer.end!;
    let found: FunctionNode | undefined;
    for (const { node: fn } of this.input.analysis.index.functions) if (within(fn, node) && (!found || within(found, fn))) found = fn;
    return found ?? this.input.fn;
  }

  private resolver() {
    return receiverResolver(this.input.analysis.index, this.input.analysis.importedNames);
  }

  private functionNamed(name: string, from: FunctionNode | undefined): FunctionNode | undefined {
    const binding = this.resolver().bindingOf(name, this.chainOf(from ?? this.input.fn));
    if (binding?.kind === 'function') return binding.fn;
    if (binding?.kind === 'variable' && binding.constant && binding.init && isFunction(binding.init)) return binding.init;
    return undefined;
  }

  private readsOnly(receiver: Node, method: string): boolean {
    if (!ANY_READ_ONLY_METHOD.has(method)) return false;
    const kind = this.kindOf(receiver);
    if (kind !== undefined) return (kind === 'json' ? JSON_READ_ONLY_METHODS : READ_ONLY_METHODS[kind])?.has(method) ?? false;
    if (!this.input.analysis.typed) return false;
    return this.input.facts?.readsOnly?.(receiver.start!, receiver.end!, method) ?? false;
  }

  /** The standard-library type the code shows a value has (`new Map()`, `: string[]`, a literal), or `json` for one read from an argument. */
  private kindOf(node: Node): string | undefined {
    if (node.type === 'StringLiteral' || node.type === 'TemplateLiteral') return 'String';
    if (node.type === 'ArrayExpression') return 'Array';
    if (node.type !== 'Identifier') return undefined;
    const binding = this.resolver().bindingOf(node.name, this.chainOf(this.functionAround(node)));
    if (binding?.kind !== 'variable' && binding?.kind !== 'param') return undefined;
    const annotated = annotationKind(binding.annotation);
    if (annotated || binding.kind === 'param' || !binding.constant || !binding.init) return annotated;
    return this.initKind(binding.init);
  }

  private initKind(init: Node): string | undefined {
    if (init.type === 'TSAsExpression' || init.type === 'TSSatisfiesExpression' || init.type === 'TSNonNullExpression') return this.initKind(init.expression);
    if (init.type === 'NewExpression' && init.callee.type === 'Identifier' && /^(Map|Set)$/.test(init.callee.name)) return init.callee.name;
    if (init.type === 'ArrayExpression') return 'Array';
    if (init.type === 'StringLiteral' || init.type === 'TemplateLiteral') return 'String';
    let root: Node = init;
    while (root.type === 'MemberExpression' || root.type === 'OptionalMemberExpression') root = root.object;
    return root !== init && root.type === 'Identifier' && this.input.argNames.has(root.name) ? 'json' : undefined;
  }

  private declaredIdempotent(call: Node): boolean {
    if (call.type !== 'CallExpression' && call.type !== 'OptionalCallExpression') return false;
    const { source } = this.input.analysis;
    if (namedIdempotent(call.callee, this.input.idempotent)) return true;
    if (this.tagged.length === 0) return false;
    if (taggedBefore(source, this.tagged, call.start!, true) || taggedBefore(source, this.tagged, this.statementOf(call), false)) return true;
    const fn = call.callee.type === 'Identifier' ? this.functionNamed(call.callee.name, undefined) : undefined;
    return fn !== undefined && taggedBefore(source, this.tagged, this.declarationStart(fn), false);
  }

  /** Where the statement holding a call of the handler body starts. */
  private statementOf(call: Node): number {
    let found = call.start!;
    walk(this.input.fn.body, (node) => {
      if (node.start! > call.start! || node.end! < call.end!) return false;
      if (/Statement$|Declaration$/.test(node.type) && node.type !== 'BlockStatement') found = node.start!;
      return undefined;
    });
    return found;
  }

  /** Where a function's declaration starts: its `export`, its `const`, or itself. */
  private declarationStart(fn: FunctionNode): number {
    const ancestors = this.input.analysis.index.functions.find((f) => f.node === fn)?.ancestors ?? [];
    let start = fn.start!;
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const a = ancestors[i]!;
      if (a.type === 'VariableDeclarator' || a.type === 'VariableDeclaration' || /^Export/.test(a.type)) start = a.start!;
      else break;
    }
    return start;
  }
}

/** The standard-library type an annotation names (`Map<K, V>`, `readonly T[]`, `string`). */
function annotationKind(annotation: Node | null | undefined): string | undefined {
  const type = annotation?.type === 'TSTypeAnnotation' ? annotatedType(annotation) : (annotation ?? undefined);
  if (!type) return undefined;
  if (type.type === 'TSStringKeyword') return 'String';
  if (type.type === 'TSNumberKeyword') return 'Number';
  if (type.type === 'TSArrayType') return 'Array';
  if (type.type === 'TSTypeOperator' && type.operator === 'readonly' && type.typeAnnotation.type === 'TSArrayType') return 'ReadonlyArray';
  if (type.type === 'TSTypeReference' && type.typeName.type === 'Identifier' && type.typeName.name in READ_ONLY_METHODS) return type.typeName.name;
  return undefined;
}

function calleeName(call: Node): string | undefined {
  const callee = (call as { callee?: Node }).callee;
  return callee?.type === 'Identifier' ? callee.name : undefined;
}
