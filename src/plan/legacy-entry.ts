// A helper split for the handlers that can ask through its halves stays under its own name for
// the calls that cannot (a handler the codemod refuses, a test, a script): a legacy entry built
// from the halves, which pushes the helper's request as the helper did, so those calls keep
// working on 2025 connections while the rest of the server answers 2026-07-28 clients. The
// engine asks for one (engine/cross-module.ts approvedSplits) only for a helper whose module
// says it can have one (`possible`): a plain async function whose request can be made again in
// the entry as written, its words the function's parameters or the module's names.
import type { Node } from '@babel/types';
import { boundNames, isFunction, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { indentAt } from '../core/vocabulary.ts';
import type { LegacyEntry } from '../rewrite/edits/split-helper.ts';
import { OUTCOME } from './maybe-ask-through.ts';
import type { Holder } from './helper-holder.ts';
import type { SplitShape } from './types.ts';

/** What a legacy entry copies from the helper: its signature and its parameters' names. */
export interface EntrySource {
  /** The declaration's text up to its body (`export async function x(a: A): Promise<T> `). */
  signature: string;
  params: string[];
  /** The request as the helper wrote it (`server.server.listRoots()`). */
  request: string;
  /** The indentation of the helper's statements. */
  bodyIndent: string;
}

/** What a legacy entry under the helper's name would copy, or undefined when it cannot have one. */
export function entrySource(source: string, fn: FunctionNode, holder: Holder, site: LegacySite): EntrySource | undefined {
  if (holder.method || fn.type !== 'FunctionDeclaration' || !fn.async || fn.generator || site.via) return undefined;
  if (fn.body.type !== 'BlockStatement' || fn.body.body.length === 0) return undefined;
  const params = fn.params.map((p) => (p.type === 'Identifier' ? p.name : undefined));
  if (params.some((p) => p === undefined || p === OUTCOME)) return undefined;
  if (!madeAgainAnywhere(fn, site.call, params as string[])) return undefined;
  return {
    signature: source.slice(holder.node.start!, fn.body.start!),
    params: params as string[],
    request: source.slice(site.call.start!, site.call.end!),
    bodyIndent: indentAt(source, fn.body.body[0]!.start!),
  };
}

/** Whether `call` reads nothing of `fn`'s own but its parameters (no local, no `this`, no `arguments`, no function of its own). */
function madeAgainAnywhere(fn: FunctionNode, call: Node, params: readonly string[]): boolean {
  let own = false;
  walk(call, (node) => {
    if (node.type === 'ThisExpression' || node.type === 'Super' || isFunction(node)) own = true;
    return own ? false : undefined;
  });
  if (own) return false;
  const locals = declaredWithin(fn.body);
  return [...referencedNames(call)].every((name) => name !== 'arguments' && (params.includes(name) || !locals.has(name)));
}

/** Every name declared anywhere under `body` (its locals, its functions' names and parameters, its catch clauses'). */
function declaredWithin(body: Node): Set<string> {
  const names = new Set<string>();
  const add = (pattern: Node | null | undefined) => {
    if (pattern) for (const b of boundNames(pattern)) names.add(b.name);
  };
  walk(body, (node) => {
    if (node.type === 'VariableDeclarator') add(node.id);
    else if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) add(node.id);
    else if (node.type === 'CatchClause') add(node.param);
    if (isFunction(node)) for (const p of node.params) add(p);
    return undefined;
  });
  return names;
}

/**
 * The entry's text: the helper's signature, then its request half, its value when it answered
 * without asking, else the request pushed as before and its answer through the result half. A
 * helper whose request was its first statement (no `maybeAsk`) only pushes it.
 */
export function legacyEntry(entry: EntrySource, name: string, shape: SplitShape, semi: string): LegacyEntry {
  const select = (used: boolean[]) => entry.params.filter((_, i) => used[i]);
  const result = shape.identity
    ? entry.request
    : `${name}Result(${[`await ${entry.request}`, ...select(shape.resultArgs), ...(shape.carried ? [`${OUTCOME}.carried`] : [])].join(', ')})`;
  const body = entry.bodyIndent;
  const asked = shape.maybeAsk
    ? [
        `${body}const ${OUTCOME} = await ${name}Request(${select(shape.requestArgs).join(', ')})${semi}`,
        `${body}if ('value' in ${OUTCOME}) return ${OUTCOME}.value${semi}`,
      ]
    : [];
  return { signature: entry.signature, body: [...asked, `${body}return ${result}${semi}`] };
}
