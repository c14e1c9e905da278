// A helper that calls a maybe-ask helper (maybe-ask-split.ts) and does more with its value
// (`const resolved = await resolveRoot(server, explicit); if (!resolved.root) return { error };
// return resolved.root;`) is itself a helper that may answer without asking. Its request half
// propagates the inner helper's question as it is and, when the inner one decided without
// asking, goes on with that value; its result half goes on with what the inner result half made
// of the answer. Both go on through one function, `xThen(value, ...)`, the code after the call
// written once; a helper that returns the inner call hands its outcome on as it is.
import type { Node, Statement } from '@babel/types';
import { annotatedType, argumentParams, isFunction, thisParam, walk, type FunctionNode } from '../analyse/ast.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { PathStep } from './helper-locals.ts';
import { paramNames, patternNamesText } from './param-patterns.ts';
import type { Answer } from './helper-holder.ts';
import { localTypeText, type TypeNames } from './server-type-names.ts';

/** The local that holds an inner helper's outcome in a request half. */
export const OUTCOME = 'mrtrOutcome';

/** What the request half has in place of the call of the inner helper, one line each: the outcome handed on, or taken apart. */
export function passedOn(answer: Answer, requestText: string, then: string, semi: string, thenAwaits: boolean, carried?: string): string[] {
  if (answer.form === 'return') return [`return ${requestText}${semi}`];
  const value = `${thenAwaits ? 'await ' : ''}${then.replace('\0', `${OUTCOME}.value`)}`;
  // This helper's own locals that `xThen` reads go with the inner question.
  const asked = carried ? `{ ...${OUTCOME}, carried: ${carried} }` : OUTCOME;
  return [`const ${OUTCOME} = await ${requestText};`, `return 'ask' in ${OUTCOME} ? ${asked} : { value: ${value} }${semi}`];
}

/**
 * The type of the value the inner helper resolves to, as this module can name it: the answer's
 * own type when the inner helper returned the answer, else its result half's return type.
 */
export function innerValueType(site: LegacySite, types: TypeNames): string | undefined {
  const [before, after] = site.via!.result;
  if (before === '' && after === '') return localTypeText(types, site.shape.resultType ?? '');
  // `findRootResult(`, or `(await import('./roots.js')).findRootResult(` where the module is loaded there (dynamic-imports.ts).
  const called = /^([A-Za-z_$][\w$]*)\($/.exec(before)?.[1] ?? loadedName(before);
  if (!called) return undefined;
  return site.via!.asyncResult ? `Awaited<ReturnType<typeof ${called}>>` : `ReturnType<typeof ${called}>`;
}

/**
 * The value type of a helper that writes none and returns nothing before it goes on through
 * `xThen`: every value it resolves to is what `xThen` returns, whose type the checker infers
 * there (`xThen` itself is then left unannotated: it cannot name its own type).
 */
export function thenValueType(name: string, async: boolean, suffix = ''): string {
  return async ? `Awaited<ReturnType<typeof ${name}Then${suffix}>>` : `ReturnType<typeof ${name}Then${suffix}>`;
}

/** Whether `fn` returns (itself, not a function inside it) before `at`. */
export function returnsBefore(fn: FunctionNode, at: number): boolean {
  let found = false;
  walk(fn.body, (node) => {
    if (found || node.start! >= at) return false;
    if (node !== fn.body && isFunction(node)) return false;
    if (node.type === 'ReturnStatement') found = true;
    return undefined;
  });
  return found;
}

/** `import('./roots.js').findRootResult` for `(await import('./roots.js')).findRootResult(`: the type query of a loaded module's function. */
function loadedName(before: string): string | undefined {
  const loaded = /^\(await import\((['"])([^'"\n]*)\1\)\)\.([A-Za-z_$][\w$]*)\($/.exec(before);
  return loaded ? `import(${loaded[1]}${loaded[2]}${loaded[1]}).${loaded[3]}` : undefined;
}

/** The call of `xThen` (`xThen2`: a point's, `suffix`) with the names it takes of the helper's parameters (`\0` where the value goes), those `asserted` with `!`. */
export function thenCall(name: string, names: readonly string[], method: boolean, asserted: ReadonlySet<string> = new Set(), suffix = ''): string {
  const args = names.map((n) => (asserted.has(n) ? `${n}!` : n));
  return `${method ? 'this.' : ''}${name}Then${suffix}(${['\0', ...args].join(', ')})`;
}

/** The names `xThen` takes of the parameters `used`: a plain parameter's, and those of a pattern that it reads (`reads`). */
export function thenNames(fn: FunctionNode, used: boolean[], reads: ReadonlySet<string>): string[] {
  return argumentParams(fn)
    .filter((_, i) => used[i])
    .flatMap((p) => (p.type === 'Identifier' ? [p.name] : paramNames(p).filter((n) => reads.has(n))));
}

/** The text of the arguments of an inner helper's result call (`, vault, root)`) with the `narrowed` names passed as arguments asserted (`root!`). */
export function assertedArgs(text: string, narrowed: ReadonlySet<string>): string {
  let out = text;
  for (const name of narrowed) out = out.replace(new RegExp(`(?<=(?:^|[(,]) ?)${name.replace(/\$/g, '\\$')}(?=,|\\))`, 'g'), `${name}!`);
  return out;
}

/**
 * The parameters the way to the call shows are neither undefined nor null: a guard before it
 * that leaves (`if (!root) return ...;`), or an if around it (`if (root) { ... }`). `xThen` takes
 * them so typed, as the code after the call read them; `xResult` hands them on asserted, for it
 * runs only on the retry of a call that passed the same guards with the same arguments.
 */
export function narrowedParams(fn: FunctionNode, path: readonly PathStep[]): Set<string> {
  const params = new Set(argumentParams(fn).flatMap(paramNames));
  const found = new Set<string>();
  for (const step of path) {
    for (const s of step.list.slice(0, step.index)) {
      const name = s.type === 'IfStatement' && !s.alternate && exits(s.consequent) ? absentName(s.test) : undefined;
      if (name && params.has(name)) found.add(name);
    }
    const on = step.list[step.index]!;
    const name = on.type === 'IfStatement' && within(on.consequent, path) ? presentName(on.test) : undefined;
    if (name && params.has(name)) found.add(name);
  }
  return found;
}

/** The text of `xThen`'s parameters (`first`, then those `used`, a pattern's as the names it `reads`), the narrowed ones without undefined or null. */
export function narrowedParamsText(
  source: string,
  fn: FunctionNode,
  used: boolean[],
  first: string,
  narrowed: ReadonlySet<string>,
  reads: { names: ReadonlySet<string>; typed: boolean },
): string {
  const own = thisParam(fn);
  const texts = argumentParams(fn)
    .filter((_, i) => used[i])
    .flatMap((p) => {
      const text = source.slice(p.start!, p.end!);
      if (p.type !== 'Identifier') return patternNamesText(source, p, reads.names, narrowed, reads.typed);
      if (!narrowed.has(p.name)) return [text];
      const type = annotatedType(p.typeAnnotation);
      if (!type) return [p.name];
      const typeText = source.slice(type.start!, type.end!);
      return [`${p.name}: ${p.optional && !/\b(undefined|null)\b/.test(typeText) ? typeText : `NonNullable<${typeText}>`}`];
    });
  return [own && source.slice(own.start!, own.end!), first, ...texts].filter(Boolean).join(', ');
}

function within(node: Node, path: readonly PathStep[]): boolean {
  return path.some((step) => node.type === 'BlockStatement' && step.list === node.body) || path.some((step) => step.list.length === 1 && step.list[0] === node);
}

/** `!x`, `x === undefined`, `x == null`: the name it tests absent. */
function absentName(test: Node): string | undefined {
  if (test.type === 'UnaryExpression' && test.operator === '!' && test.argument.type === 'Identifier') return test.argument.name;
  if (test.type === 'BinaryExpression' && (test.operator === '===' || test.operator === '==') && test.left.type === 'Identifier') {
    const right = test.right;
    if ((right.type === 'Identifier' && right.name === 'undefined') || right.type === 'NullLiteral')
      return test.operator === '==' || right.type !== 'NullLiteral' ? test.left.name : undefined;
  }
  return undefined;
}

/** `x`, `x !== undefined`, `x != null`: the name it tests present. */
function presentName(test: Node): string | undefined {
  if (test.type === 'Identifier') return test.name;
  if (test.type === 'BinaryExpression' && test.operator === '!=' && test.left.type === 'Identifier' && test.right.type === 'NullLiteral') return test.left.name;
  return undefined;
}

function exits(s: Statement): boolean {
  if (s.type === 'ReturnStatement' || s.type === 'ThrowStatement') return true;
  return s.type === 'BlockStatement' && s.body.length > 0 && exits(s.body[s.body.length - 1]!);
}
