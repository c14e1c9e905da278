// The locals that live across a question, and how each travels in requestState: as an
// earlier answer, or with a type that shows it holds JSON (those that only derive a value are
// made again instead, see rederive.ts). What the code around the question says of a local is
// in lifting.ts; what makes a value JSON, in serialisable.ts.
import type { Node } from '@babel/types';
import { annotatedType, boundNames, memberPath, walk } from '../analyse/ast.ts';
import { idempotentComments, namedIdempotent, taggedBefore } from '../analyse/idempotent.ts';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import type { LocalTypeFact, TypeFacts } from '../analyse/type-facts.ts';
import { codeSnippet } from '../core/escape.ts';
import { lineNumberAt } from '../core/vocabulary.ts';
import { assignedBeforeRead } from './assigned-first.ts';
import { declaredInScope, namesReadAfter, plannedRequest, type Round } from './handler-rounds.ts';
import { mutatedAfter, narrowedAtQuestion } from './lifting.ts';
import type { Declared } from './liveness.ts';
import { MAKER_MAX, Refusal, refuse } from './refusal.ts';
import { secretLook, type SecretLocal } from './secrets.ts';
import { jsonBySyntax, jsonTypeText, jsonUnsafeInitializer } from './serialisable.ts';
import type { Binding, LiftedLocal } from './types.ts';

/** What lifting a handler's locals needs to know of the handler as a whole. */
export interface LiftContext {
  analysis: FileAnalysis;
  rounds: Round[];
  /** The answers' keys, by round and site. */
  keys: string[][];
  facts: TypeFacts | undefined;
  /** Names that hold JSON: the arguments, the answers, and each local lifted so far. */
  json: Set<string>;
  /** The locals derived again on every entry (by their identifier's start): they never travel. */
  rederived: ReadonlySet<number>;
  /** Callees the user declared idempotent (`--idempotent NAME`): a refusal does not advise declaring them again. */
  idempotent?: readonly string[];
}

/** The locals in scope at a round that the code after it reads: lifted into requestState, the ones that look like secrets named. */
export function carriedAcross(lift: LiftContext, round: Round): { lifted: LiftedLocal[]; secrets: SecretLocal[] } | Refusal {
  const inScope = declaredInScope(round);
  const readAfter = namesReadAfter(round);
  const lifted: LiftedLocal[] = [];
  const secrets: SecretLocal[] = [];
  // A const destructured from JSON (the arguments) holds JSON, and shows what is made from it.
  for (const d of inScope) if (!d.mutable && d.via === 'variable' && d.destructured && jsonBySyntax(d.destructured, lift.json)) lift.json.add(d.name);
  for (const d of inScope) {
    if (!readAfter.has(d.name) || lifted.some((l) => l.name === d.name)) continue;
    // Declared unassigned (`let x: T;`) and assigned after the question before it is read: nothing to carry.
    if (d.via === 'variable' && d.mutable && !d.init && d.destructured === undefined && assignedBeforeRead(round, d.name)) continue;
    if (lift.rederived.has(d.start)) {
      // Asked all the same: the plan that gathers the checker's questions takes every method
      // read for a standard-library one, and the answer may make this local travel after all.
      lift.facts?.local(d.name, d.start);
      continue;
    }
    const twin = inScope.find((other) => other !== d && other.name === d.name);
    if (twin) {
      const line = lineAt(lift.analysis.source, Math.max(d.start, twin.start));
      return refuse('shadowed-local', 'twoInScope', { name: d.name, line }).at(round.sites[0]!);
    }
    const local = liftLocal(lift, d, round);
    if (local instanceof Refusal) return local.at(round.sites[0]!);
    lifted.push(local);
    lift.json.add(local.name);
    const value = d.destructured ?? d.init;
    const why = secretLook(d.name, value ? lift.analysis.source.slice(value.start!, value.end!) : undefined);
    if (why) secrets.push({ name: d.name, why });
  }
  return { lifted, secrets };
}

/**
 * Whether the code shows the local holds plain JSON without asking its type: its value (and,
 * for a `let`, each value assigned to it in the handler) by its syntax, or a JSDoc type.
 */
function shownJson(source: string, declared: Declared, at: Round, json: ReadonlySet<string>): boolean {
  const jsdoc = declared.declarationStart === undefined ? undefined : jsdocTypeAbove(source, declared.declarationStart);
  if (jsdoc !== undefined) return jsonTypeText(jsdoc);
  if (!jsonBySyntax(declared.destructured ?? declared.init, json)) return false;
  if (!declared.mutable) return true;
  let shown = true;
  for (const statement of at.frames[0]?.list ?? []) {
    walk(statement, (node) => {
      if (node.type === 'AssignmentExpression' && boundNames(node.left as Node).some((b) => b.name === declared.name)) {
        if (node.left.type !== 'Identifier' || !jsonBySyntax(node.right, json)) shown = false;
      }
      return shown ? undefined : false;
    });
  }
  return shown;
}

/** The type of a JSDoc comment that ends right above `start` (`number` of `/** @type {number} *\/`). */
function jsdocTypeAbove(source: string, start: number): string | undefined {
  const comment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*$/.exec(source.slice(Math.max(0, start - 4000), start))?.[1];
  return comment === undefined ? undefined : /@type\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}/.exec(comment)?.[1]?.trim();
}

/** An array or record type written as an annotation (`Row[]`, `Array<Row>`, `Record<string, Row>`). */
const COLLECTION_TYPE = /(\[\]|^(Readonly)?Array<.*>|^Record<\s*string\s*,.*>)$/;

/** `any` or `unknown` written as the type: it shows nothing. */
const UNKNOWN_TYPE = /^(any|unknown)(\[\])*$/;

/** A local that lives across a question, as it travels in requestState: its type, or why it cannot travel. */
function liftLocal(lift: LiftContext, declared: Declared, at: Round): LiftedLocal | Refusal {
  const { source } = lift.analysis;
  const { name } = declared;
  const line = lineAt(source, declared.start);
  if (declared.via === 'caught') {
    return refuse('unserialisable-local', 'caughtError', { name, line });
  }
  if (declared.via !== 'variable') {
    return refuse('unserialisable-local', 'notAVariable', { kind: declared.via, name, line });
  }
  const annotationType = annotatedType(declared.annotation);
  const annotation = annotationType ? source.slice(annotationType.start!, annotationType.end!) : undefined;
  const roundIndex = lift.rounds.findIndex((r) => r.statement.start! <= declared.start && declared.start < r.statement.end!);
  if (roundIndex !== -1) return liftedAnswer(lift, declared, roundIndex);
  // What the syntax already says (`new Date()`) is not asked of the checker.
  const syntactic = declared.init ? jsonUnsafeInitializer(declared.init) : undefined;
  if (syntactic) return refuse('unserialisable-local', 'holdsUnsafe', { name, value: syntactic, line });
  const mutation = mutatedAfter(declared, at, source);
  if (mutation) {
    const from = codeSnippet(source.slice(declared.init!.start!, declared.init!.end!));
    return refuse('mutated-local', 'changedAfter', { name, from, change: codeSnippet(mutation), line });
  }
  const fact = lift.facts?.local(name, declared.start);
  if (fact && !fact.jsonSafe) {
    const callee = undeclaredCall(lift, declared);
    if (callee) {
      return fact.why === undefined
        ? refuse('unserialisable-local', 'notJsonCall', { name, line, maker: callee })
        : refuse('unserialisable-local', 'checkerSaysCall', { name, why: fact.why, line, maker: callee });
    }
    return fact.why === undefined
      ? refuse('unserialisable-local', 'notJson', { name, line })
      : refuse('unserialisable-local', 'checkerSays', { name, why: fact.why, line });
  }
  return liftedByType(lift, declared, at, annotation, fact);
}

/** An earlier round's own answer: plain JSON of a type the plan already knows. */
function liftedAnswer(lift: LiftContext, declared: Declared, roundIndex: number): LiftedLocal {
  const { source, typed } = lift.analysis;
  const { name, mutable } = declared;
  const round = lift.rounds[roundIndex]!;
  const types = round.sites.map((site, j) =>
    site.via
      ? (site.via.valueType ?? '')
      : plannedRequest(source, site, lift.keys[roundIndex]![j]!, round.sites.length === 1 ? round.binding : undefined).resultType,
  );
  if (types.some((t) => t === '')) {
    const fact = lift.facts?.local(name, declared.start);
    return { name, mutable, typeText: typed ? fact?.text : undefined };
  }
  return { name, mutable, typeText: typed ? (answerType(round.binding, name, types) ?? lift.facts?.local(name, declared.start)?.text) : undefined };
}

/**
 * A local its value's syntax and the checker left open: JavaScript must show it holds JSON;
 * TypeScript needs a type to write (its annotation, or the checker's) that shows something.
 */
function liftedByType(
  lift: LiftContext,
  declared: Declared,
  at: Round,
  annotation: string | undefined,
  fact: LocalTypeFact | undefined,
): LiftedLocal | Refusal {
  const { source, typed } = lift.analysis;
  const { name, mutable } = declared;
  // Asked only where a type leaves it open (it walks the handler for a `let`'s assignments).
  const shown = () => shownJson(source, declared, at, lift.json);
  const value = declared.destructured ?? declared.init;
  const held = () => (value ? ` (\`${codeSnippet(source.slice(value.start!, value.end!))}\`)` : '');
  const line = lineAt(source, declared.start);
  if (!typed) return shown() ? { name, mutable } : refuse('untyped-local', 'untypedInJs', { name, held: held(), line });
  const typeText = annotation ?? fact?.text;
  const unknownType = annotation !== undefined ? UNKNOWN_TYPE.test(annotation.trim()) : fact?.unknown === true;
  if (unknownType) {
    // Shown JSON by its code, it still needs a type to write that is not `any` (lint-clean output).
    const isShown = shown();
    if (!isShown || typeText === undefined || /\bany\b/.test(typeText)) {
      const callee = isShown ? undefined : undeclaredCall(lift, declared);
      const data = { name, held: held(), type: typeText ?? 'any', line };
      return callee
        ? refuse('untyped-local', 'typedCall', { ...data, maker: callee })
        : refuse('untyped-local', isShown ? 'anyInResume' : 'typeShowsNothing', data);
    }
  }
  if (!typeText) return refuse('untyped-local', lift.facts ? 'unnamedType' : 'noTypeFacts', { name, line });
  // A collection read from elsewhere (a query, a file, a cache) travels whole, on every round.
  const collection = annotation !== undefined ? COLLECTION_TYPE.test(annotation.trim()) : fact?.collection === true;
  if (collection && !shown()) return refuse('unbounded-local', 'collection', { name, held: held(), type: typeText, line });
  const typeImports = annotation === undefined ? fact?.imports : undefined;
  const narrowed = narrowedAtQuestion(typeText, name, mutable, at, source);
  return { name, mutable, typeText: narrowed, ...(typeImports ? { typeImports } : {}), ...(narrowed !== typeText ? { declaredType: typeText } : {}) };
}

/** The type of a name bound by a round's answer, written in terms of the result types. */
function answerType(binding: Binding, name: string, types: string[]): string | undefined {
  const single = types.length === 1 ? types[0]! : undefined;
  if (binding.form === 'assign' || (binding.form === 'declare' && binding.name === name)) return single ?? `[${types.join(', ')}]`;
  if (binding.form !== 'declare') return undefined;
  const element = binding.elements?.indexOf(name) ?? -1;
  if (element !== -1 && types.length > 1) return types[element];
  // `{ roots }` of a single answer: the property's type, when the pattern is plain shorthand.
  if (single && binding.pattern && /^\{[\s\w,]*\}$/.test(binding.pattern)) return `${/^\w+$/.test(single) ? single : `(${single})`}['${name}']`;
  return undefined;
}

/** The line of `offset` in `source`, as a refusal names it. */
function lineAt(source: string, offset: number): string {
  return String(lineNumberAt(source, offset));
}

/**
 * The callee whose result `declared` holds (`connectionProvider` of `const connection = await
 * connectionProvider()`), when the user has not declared it idempotent: declared so, the retry
 * would make the local again instead of carrying it.
 */
function undeclaredCall(lift: LiftContext, declared: Declared): string | undefined {
  let init = declared.destructured ? undefined : declared.init;
  while (init && (init.type === 'AwaitExpression' || init.type === 'ParenthesizedExpression' || init.type === 'TSAsExpression'))
    init = init.type === 'AwaitExpression' ? init.argument : init.expression;
  if (!init || init.type !== 'CallExpression') return undefined;
  const callee = memberPath(init.callee);
  if (callee === undefined || callee.length > MAKER_MAX || namedIdempotent(init.callee, lift.idempotent ?? [])) return undefined;
  const { source, comments } = lift.analysis;
  const tagged = idempotentComments(comments);
  if (tagged.length > 0 && (taggedBefore(source, tagged, declared.declarationStart ?? declared.start) || taggedBefore(source, tagged, init.start!, true)))
    return undefined;
  return callee;
}
