// What a split helper's halves need of the code before its question, and what its callers'
// arguments may be. The result half runs on the retry, in another call: a local computed before
// the question that the code after it reads is there only if the result half derives it again.
// A local that only derives values (from the parameters the caller passes again, constants,
// pure functions: src/analyse/purity.ts) is derived again there, its statements copied before
// the code after the question, and so is a `let` declared without a value that nothing before
// the question assigns. Any other is refused, naming the statement that keeps it. A caller's
// argument is evaluated again when the handler resumes: it may be when it only derives values.
import type { Node, Statement } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { argumentParams, boundNames, isFunction, isNonReferencePosition, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import type { NamedCall } from '../analyse/call-graph.ts';
import { expressionPurity, isFreshValue, statementPurity, type HandlerName } from '../analyse/purity.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { codeSnippet } from '../core/escape.ts';
import { assignedBeforeRead } from './assigned-first.ts';
import { declaredBy } from './liveness.ts';
import { jsonUnsafeInitializer } from './serialisable.ts';
import type { Frame } from './body-tree.ts';
import { narrowedInFrames } from './lifting.ts';
import { changedNames, HandlerScope, rerunCall, uniqueCalls } from './rederive.ts';
import type { RerunCall } from './types.ts';
import { lineOf } from '../core/line-refs.ts';

/** What the purity check of a helper (or of its callers' arguments) is told besides the code. */
export interface PurityContext {
  analysis: FileAnalysis;
  facts: TypeFacts | undefined;
  idempotent: readonly string[];
}

/** One list on the way from a helper's body to its question, and the index of the statement on the way. */
export interface PathStep {
  list: Statement[];
  index: number;
  /** The code after the question starts with the statement that asks (maybe-ask-point.ts Step). */
  lifted?: Node;
}

/** The statements before the question the result half runs again, in order. */
export interface ResultPrefix {
  statements: Statement[];
  /** The locals they declare. */
  names: string[];
  /** The calls they make: what runs again on the retry (the summary names them). */
  calls: RerunCall[];
  /** The locals that cannot be derived again but hold JSON: the request half returns them with its question (carried.ts). */
  carried: CarriedLocal[];
  /**
   * Those of `statements` that declare a local without its value (`let x: T`, cut before ` = …`),
   * each with the declaration it is cut from: the code after the question sets the local before
   * it reads it, so the value it had when the helper asked is dead (assigned-first.ts).
   */
  bare: ReadonlyMap<Statement, Statement>;
}

/** A local of the code before the question that travels to the result half in the handler's state. */
export interface CarriedLocal {
  name: string;
  /** Its type as the checker writes it (a typed file only). */
  typeText?: string;
  /** Types `typeText` names that the module must import to name them (LocalTypeFact.imports). */
  typeImports?: Array<{ name: string; from: string }>;
}

/**
 * The statements the result half must run again so that the code after the question finds the
 * locals it reads (`reads`) as they were when the helper asked, or why it cannot (`whose ...`).
 */
export function resultPrefix(
  context: PurityContext,
  fn: FunctionNode,
  path: readonly PathStep[],
  after: readonly Statement[],
  reads: ReadonlySet<string>,
  carry = false,
): ResultPrefix | string {
  const prefix = path.flatMap((step) => step.list.slice(0, step.index));
  // The conditions on the way ran once; one that changed a local is not run again.
  const heads = path.slice(0, -1).flatMap((step) => {
    const s = step.list[step.index]!;
    return s.type === 'IfStatement' ? [s.test] : [];
  });
  const declaring = new Map<string, Statement>();
  for (const s of prefix) for (const d of declaredBy(s)) declaring.set(d.name, s);
  const wanted = [...reads].filter((n) => declaring.has(n));
  if (wanted.length === 0) return { statements: [], names: [], calls: [], carried: [], bare: new Map() };

  const { pure, calls, headPure } = pureStatements(context, fn, prefix);
  const parameters = new Set(argumentParams(fn).flatMap((p) => boundNames(p).map((b) => b.name)));
  const copied = new Set<Statement>();
  const names: string[] = [];
  const carried: CarriedLocal[] = [];
  // Declarations cut before their value (by the declaration), and the locals they declare.
  const cutOf = new Map<Statement, Statement>();
  const dead = new Set<string>();
  const { source } = context.analysis;
  for (let name = wanted.shift(); name !== undefined; name = wanted.shift()) {
    if (names.includes(name) || carried.some((c) => c.name === name)) continue;
    const declaration = declaring.get(name)!;
    const changers = prefix.filter((s) => s !== declaration && changedNames([s]).has(name));
    const changedInHead = heads.some((h) => changedNames([h]).has(name));
    const blocker = [declaration, ...changers].find((s) => !pure.has(s)) ?? (changedInHead ? heads.find((h) => changedNames([h]).has(name)) : undefined);
    // Set once by code that runs once, and never changed: its value at the question travels instead
    // (a parameter of the result half, which must not share a name with one of the helper's own).
    const carriable = carry && changers.length === 0 && !changedInHead && !parameters.has(name);
    const travels = blocker && carriable ? carriedLocal(context, declaration, name, path) : undefined;
    // Asked all the same: the plan that gathers the checker's questions takes every method read
    // for a standard-library one, and the answer may make this local travel after all.
    if (!blocker && carriable) askedOfChecker(context, declaration, name);
    if (travels) {
      carried.push(travels);
      continue;
    }
    names.push(name);
    // Set after the question before anything reads it: declared there without the value it had.
    const cut = blocker && deadAtQuestion(path, name) ? withoutValue(declaration, name) : undefined;
    if (cut) {
      cutOf.set(declaration, cut);
      dead.add(name);
      continue;
    }
    if (blocker)
      return `whose code after its request reads \`${name}\`, ${blocker === declaration ? 'set' : 'changed'} by ${quoted(source, blocker)}, which runs once and cannot be derived again.`;
    for (const s of [declaration, ...changers]) {
      copied.add(s);
      for (const n of referencedNames(s)) if (declaring.has(n) && !names.includes(n)) wanted.push(n);
    }
  }
  // Code that runs once and is handed what the result half derives again (or a local made from
  // it) may have changed it: the copy would not be what the helper had when it asked.
  // A primitive is copied when it is handed on: no code can change it, nor what is made from it.
  const holders = holdersOf(prefix, new Set(names.filter((n) => !dead.has(n) && !primitiveLocal(context, declaring, n))));
  const once = [...prefix.filter((s) => !pure.has(s)), ...heads.filter((h) => !headPure(h))];
  for (const s of once) {
    const held = touched(s, holders);
    if (held) return `whose code after its request reads \`${holders.get(held)}\`, which ${quoted(source, s)} is handed before it and may change.`;
  }
  // A guard that narrows a copied local (`if (!preset) throw ...`) is copied too: without it the
  // result half reads the local as its type before the guard (possibly undefined).
  const guarded = new Set([...names, ...carried.map((c) => c.name)].filter((n) => !dead.has(n)));
  const guards = new Set(prefix.filter((s) => !copied.has(s) && isNarrowingGuard(s, guarded, declaring, headPure)));
  const statements = prefix.flatMap((s) => (copied.has(s) || guards.has(s) ? [s] : cutOf.has(s) ? [cutOf.get(s)!] : []));
  // What the result half derives again runs before the code that sets a dead local: it must not read it.
  const early = [...dead].find((name) => statements.some((st) => !dead.has(declaredBy(st)[0]?.name ?? '') && referencedNames(st).has(name)));
  if (early)
    return `whose code after its request reads \`${early}\`, set by ${quoted(source, declaring.get(early)!)}, which runs once and cannot be derived again.`;
  // The result half is one block: a name the code after the question declares again (in an outer block) would clash.
  const again = after.flatMap((s) => declaredBy(s)).find((d) => guarded.has(d.name) || dead.has(d.name));
  if (again) return `whose code after its request declares \`${again.name}\` again, in another block than the one it reads it from.`;
  const awaiting = statements.find(awaits);
  if (awaiting)
    return `whose line ${lineOf(awaiting)} awaits what the code after its request reads: its result half would await it again (${quoted(context.analysis.source, awaiting)}).`;
  const declared = statements.flatMap((st) => declaredBy(st).map((d) => d.name)).filter((n) => names.includes(n));
  const bare = new Map([...cutOf].map(([whole, cut]) => [cut, whole]));
  return { statements, names: declared, calls: uniqueCalls(statements.flatMap((st) => calls.get(st) ?? [])), carried, bare };
}

/**
 * Whether the code after the question sets `name` before anything reads it (assigned-first.ts),
 * so the value it had when the helper asked is dead. Only blocks and ifs on the way: a try's
 * catch could go on after the try with the old value.
 */
function deadAtQuestion(path: readonly PathStep[], name: string): boolean {
  const question = path[path.length - 1]!;
  if (path.slice(0, -1).some((step) => step.list[step.index]!.type === 'TryStatement')) return false;
  const statement = question.list[question.index]!;
  return assignedBeforeRead({ frames: framesOf(path), statement, ...(question.lifted ? { inline: question.lifted } : {}) }, name);
}

/**
 * `let name: T` of `let name: T = …`, cut before its value (the same node, ending at its type),
 * for a local whose value the result half never reads; undefined for any other declaration. Its
 * type must be written: without one, `let name;` would type the local from what it is set to.
 */
function withoutValue(declaration: Statement, name: string): Statement | undefined {
  if (declaration.type !== 'VariableDeclaration' || declaration.kind !== 'let' || declaration.declarations.length !== 1) return undefined;
  const declarator = declaration.declarations[0]!;
  const { id } = declarator;
  if (id.type !== 'Identifier' || id.name !== name || !id.typeAnnotation || !declarator.init) return undefined;
  return { ...declaration, declarations: [{ ...declarator, init: null, end: id.end! }], end: id.end! };
}

/** The checker asked about the local `name` a const declares (its answer unused here). */
function askedOfChecker(context: PurityContext, declaration: Statement, name: string): void {
  const id = declaration.type === 'VariableDeclaration' && declaration.declarations.length === 1 ? declaration.declarations[0]!.id : undefined;
  if (id?.type === 'Identifier' && id.name === name) context.facts?.local(name, id.start!);
}

/**
 * `name` as it travels to the result half, or undefined when it cannot: a `const` of its own
 * declaration whose type the checker shows is JSON (as a handler's lifted local must be), not
 * `any` and not a collection read from elsewhere (it would travel whole).
 */
function carriedLocal(context: PurityContext, declaration: Statement, name: string, path: readonly PathStep[]): CarriedLocal | undefined {
  if (declaration.type !== 'VariableDeclaration' || declaration.kind !== 'const' || declaration.declarations.length !== 1) return undefined;
  const { id, init } = declaration.declarations[0]!;
  if (id.type !== 'Identifier' || id.name !== name || !init || jsonUnsafeInitializer(init)) return undefined;
  const fact = context.facts?.local(name, id.start!);
  if (!fact || !fact.jsonSafe || fact.unknown || fact.collection || (context.analysis.typed && (!fact.text || /\bany\b/.test(fact.text)))) return undefined;
  // The type the question sees: a guard before it (`if (!found) throw ...`) rules out undefined.
  if (!context.analysis.typed) return { name };
  return { name, typeText: narrowedInFrames(fact.text!, name, framesOf(path)), ...(fact.imports?.length ? { typeImports: fact.imports } : {}) };
}

/** The path as frames: an if on the way holds the next list in its consequent or its alternate. */
function framesOf(path: readonly PathStep[]): Frame[] {
  return path.map((step, k) => {
    const compound = step.list[step.index]!;
    const next = path[k + 1];
    if (compound.type !== 'IfStatement' || !next) return next ? { list: step.list, index: step.index, compound } : { list: step.list, index: step.index };
    const inConsequent = compound.consequent.type === 'BlockStatement' ? next.list === compound.consequent.body : next.list[0] === compound.consequent;
    return { list: step.list, index: step.index, compound, role: inConsequent ? 'consequent' : 'alternate' };
  });
}

/**
 * The helper's statements before its question that only derive values, given those before them,
 * and whether a condition on the way does (read with every local derived before the question).
 */
function pureStatements(
  context: PurityContext,
  fn: FunctionNode,
  prefix: readonly Statement[],
): { pure: Set<Statement>; calls: Map<Statement, RerunCall[]>; headPure(head: Node): boolean } {
  const parameters = new Set(argumentParams(fn).flatMap((p) => boundNames(p).map((b) => b.name)));
  const scope = new HandlerScope({ ...context, fn, argNames: new Set() }, { declared: ownNames(fn), context: new Set(), parameters });
  const derived = new Map<string, HandlerName>();
  const pure = new Set<Statement>();
  const calls = new Map<Statement, RerunCall[]>();
  for (const s of prefix) {
    const purity = statementPurity(s, scope.with(derived));
    if (purity.blocker) continue;
    pure.add(s);
    calls.set(
      s,
      purity.calls.map((c) => rerunCall(context.analysis.source, c.node, c.why)),
    );
    for (const d of declaredBy(s)) derived.set(d.name, freshIn(s, d.name) ? 'fresh' : 'derived');
  }
  return { pure, calls, headPure: (head) => expressionPurity(head, scope.with(derived)).blocker === undefined };
}

/** The derived locals and those declared from them before the question, each with the derived local it holds (or was made from). */
function holdersOf(prefix: readonly Statement[], names: ReadonlySet<string>): Map<string, string> {
  const holders = new Map([...names].map((n) => [n, n]));
  for (const s of prefix) {
    const from = [...referencedNames(s)].find((n) => holders.has(n));
    if (from) for (const d of declaredBy(s)) if (!holders.has(d.name)) holders.set(d.name, holders.get(from)!);
  }
  return holders;
}

/** Whether `name` is declared by `s` with an object nothing else holds (it may then be changed). */
function freshIn(s: Statement, name: string): boolean {
  if (s.type !== 'VariableDeclaration') return false;
  return s.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === name && d.init !== null && d.init !== undefined && isFreshValue(d.init));
}

/** Every name a function's body declares (outside functions nested in it). */
function ownNames(fn: FunctionNode): Set<string> {
  const names = new Set<string>();
  walk(fn.body, (node) => {
    if (isFunction(node)) {
      if (node.type === 'FunctionDeclaration' && node.id) names.add(node.id.name);
      return false;
    }
    if (node.type === 'VariableDeclarator') for (const b of boundNames(node.id)) names.add(b.name);
    if (node.type === 'CatchClause' && node.param) for (const b of boundNames(node.param)) names.add(b.name);
    return undefined;
  });
  return names;
}

/** Whether the checker shows the local `name` holds a primitive, which code it is handed to cannot change. */
function primitiveLocal(context: PurityContext, declaring: ReadonlyMap<string, Statement>, name: string): boolean {
  const declared = declaredBy(declaring.get(name)!).find((d) => d.name === name);
  return declared !== undefined && context.facts?.local(name, declared.start)?.primitive === true;
}

/**
 * A holder the code changes (`x.a = 1`, `x.push(...)`) or hands on whole (`f(x)`, `y = x`): then
 * what it holds may change. Reading a member (`f(x.name)`) hands on the member, not the holder.
 */
function touched(code: Node, holders: ReadonlyMap<string, string>): string | undefined {
  const changed = [...changedNames([code])].find((n) => holders.has(n));
  if (changed) return changed;
  let handed: string | undefined;
  walk(code, (node, parents) => {
    const parent = parents[parents.length - 1];
    if (handed || node.type !== 'Identifier' || !holders.has(node.name) || !parent || isNonReferencePosition(node, parent)) return undefined;
    const member = (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.object === node;
    if (!member) handed = node.name;
    return undefined;
  });
  return handed;
}

/**
 * An `if` with no else that leaves (`throw` or `return`) when a local the result half derives
 * again is missing, reads no other local of the prefix, and does nothing but compute values:
 * running it again changes nothing but what TypeScript knows of the local.
 */
function isNarrowingGuard(s: Statement, copied: ReadonlySet<string>, declaring: ReadonlyMap<string, Statement>, headPure: (head: Node) => boolean): boolean {
  if (s.type !== 'IfStatement' || s.alternate) return false;
  const body = s.consequent.type === 'BlockStatement' && s.consequent.body.length === 1 ? s.consequent.body[0]! : s.consequent;
  if ((body.type !== 'ThrowStatement' && body.type !== 'ReturnStatement') || !isAbsenceTest(s.test, copied)) return false;
  const reads = [...referencedNames(s)];
  if (!reads.some((n) => copied.has(n)) || reads.some((n) => declaring.has(n) && !copied.has(n))) return false;
  let usesThis = false;
  walk(s, (node) => (isFunction(node) && node.type !== 'ArrowFunctionExpression' ? false : void (node.type === 'ThisExpression' && (usesThis = true))));
  return !usesThis && !awaits(s) && headPure(s.test) && (!body.argument || headPure(body.argument));
}

/** `!x`, `x == null`, `x === undefined` (or of a member of `x`), or `||` of such tests, for a copied `x`. */
function isAbsenceTest(test: Node, copied: ReadonlySet<string>): boolean {
  const ofCopied = (n: Node): boolean =>
    n.type === 'Identifier'
      ? copied.has(n.name)
      : (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && !n.computed && ofCopied(n.object);
  const absent = (n: Node): boolean => (n.type === 'Identifier' && n.name === 'undefined') || n.type === 'NullLiteral';
  if (test.type === 'UnaryExpression') return test.operator === '!' && ofCopied(test.argument);
  if (test.type === 'LogicalExpression') return test.operator === '||' && isAbsenceTest(test.left, copied) && isAbsenceTest(test.right, copied);
  if (test.type !== 'BinaryExpression' || !['==', '==='].includes(test.operator) || test.left.type === 'PrivateName') return false;
  return (ofCopied(test.left) && absent(test.right)) || (absent(test.left) && ofCopied(test.right));
}

/** Whether a statement awaits (outside functions nested in it). */
function awaits(s: Statement): boolean {
  let found = false;
  walk(s, (node) => (isFunction(node) ? false : void (node.type === 'AwaitExpression' && (found = true))));
  return found;
}

/**
 * Why a caller's arguments cannot be evaluated again when the handler resumes (the request half
 * takes them on the first call, the result half on the retry), or undefined: each only derives
 * values from what the caller has (its locals are its own to keep or derive again).
 */
export function argumentsProblem(context: PurityContext, call: NamedCall): string | undefined {
  const caller = call.functions[call.functions.length - 1];
  if (!caller) return undefined;
  const parameters = new Set([...argumentParams(caller).flatMap((p) => boundNames(p).map((b) => b.name)), ...ownNames(caller)]);
  const scope = new HandlerScope({ ...context, fn: caller, argNames: new Set() }, { declared: new Set(), context: new Set(), parameters });
  for (const arg of call.call.arguments) {
    const blocker = expressionPurity(arg, scope.with(new Map())).blocker;
    if (!blocker) continue;
    const { source } = context.analysis;
    const because = blocker === arg ? '' : `: \`${codeSnippet(source.slice(blocker.start!, blocker.end!), 60)}\` may do more than compute a value`;
    return `called with the argument ${quoted(source, arg)}, which would be evaluated again when the handler resumes${because}.`;
  }
  return undefined;
}

/** `` `text` (line N) `` of a piece of code, its line as the user will read it (core/line-refs.ts). */
function quoted(source: string, node: Node): string {
  return `\`${codeSnippet(source.slice(node.start!, node.end!), 60)}\` (line ${lineOf(node)})`;
}
