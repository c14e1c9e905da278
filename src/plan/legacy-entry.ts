// A helper split for the handlers that can ask through its halves stays under its own name for
// the calls that cannot (a handler the codemod refuses, a test, a script): a legacy entry built
// from the halves, which pushes the helper's request as the helper did, so those calls keep
// working on 2025 connections while the rest of the server answers 2026-07-28 clients. The
// engine asks for one (engine/cross-module.ts approvedSplits) only for a helper whose module
// says it can have one (`possible`): a plain async function whose request can be made again in
// the entry, its words the function's parameters or the module's names (push-template.ts).
import type { FunctionNode } from '../analyse/ast.ts';
import type { PushTemplate } from '../analyse/find-sites.ts';
import { indentAt } from '../core/vocabulary.ts';
import type { LegacyEntry } from '../rewrite/edits/split-helper.ts';
import { OUTCOME } from './maybe-ask-through.ts';
import type { Holder } from './helper-holder.ts';
import type { SplitShape } from './types.ts';
import { paramBindings, paramText, withNames } from './push-template.ts';

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

/**
 * What a legacy entry under the helper's name would copy, or undefined when it cannot have one:
 * a plain async function whose request (`push`, over its parameters) can be made again there.
 * In TypeScript, a parameter declared optional is asserted there: the request half asked, so
 * the helper reached its request with it.
 */
export function entrySource(source: string, fn: FunctionNode, holder: Holder, push: PushTemplate | undefined, typed: boolean): EntrySource | undefined {
  if (holder.method || fn.type !== 'FunctionDeclaration' || !fn.async || fn.generator || !push) return undefined;
  if (fn.body.type !== 'BlockStatement' || fn.body.body.length === 0) return undefined;
  const bindings = paramBindings(fn);
  if (!bindings || bindings.some((b) => b.name === OUTCOME)) return undefined;
  const asserted = new Map(bindings.filter((b) => typed && b.optional && push.names.some((n) => n.name === b.name)).map((b) => [b.name, `${b.name}!`]));
  const request = asserted.size > 0 ? withNames(push.text, asserted) : push.text;
  if (request === undefined) return undefined;
  return {
    signature: source.slice(holder.node.start!, fn.body.start!),
    params: fn.params.map((_, i) => paramText(fn, i, bindings)),
    request,
    bodyIndent: indentAt(source, fn.body.body[0]!.start!),
  };
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
