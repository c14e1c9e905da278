// The legacy entries of a module's helpers (legacy-entry.ts) as its report tells them: the one a
// split writes is marked above its declaration; one an earlier run wrote, found by that marker,
// is marked there again (the marker stays as it is) and left as it is. Other modules are told of
// it as of the split it stands for, read off the entry (the halves are there already): their
// handlers plan as they did, and a call that can now ask through the halves does.
import type { Node } from '@babel/types';
import { requestContextOf } from '../analyse/capability-reads.ts';
import { namesRead, paramBindings, paramText } from './push-template.ts';
import { paramNames } from './param-patterns.ts';
import { typeText } from './maybe-ask-split.ts';
import { promisedType } from '../core/vocabulary.ts';
import type { SplitShape } from './types.ts';
import type { HelperChain } from '../analyse/call-graph.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { markersInComment } from '../analyse/markers.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { askingExports, blockReaching, markAt, type FilePlanning } from './file-planning.ts';
import type { HelperTree } from './helper-tree.ts';
import { refuse, Refusal } from './refusal.ts';
import { CARRIED } from './split-helper.ts';
import { declarationOf } from './helper-holder.ts';

const CODE = 'legacy-entry';

/** Marks the legacy entries the tree's splits write, each above the helper's declaration. */
export function markWrittenEntries(file: FilePlanning, tree: HelperTree): void {
  for (const { site, split } of tree.splits) {
    const written = split.legacyEntry?.written;
    if (!written) continue;
    const refusal = written.outside
      ? refuse(CODE, 'keptOutside', { helper: split.name })
      : refuse(CODE, 'keptFor', { helper: split.name, file: written.file, fileLine: String(written.line) });
    markDeclaration(file, site, split.legacyEntry!.declaration, refusal);
  }
}

/**
 * A request in a legacy entry an earlier run wrote: marked again, with the words of its marker,
 * and reported to other modules as a helper that asks and is not split. True when it is one.
 */
export function placeEarlierEntry(file: FilePlanning, site: LegacySite, chain: HelperChain | undefined): boolean {
  const holder = site.enclosing && site.functions.length === 1 ? declarationOf(site, site.enclosing) : undefined;
  const earlier = holder && entryMarkerAbove(file, holder.node);
  if (!holder || !earlier) return false;
  const told = refuse(CODE, 'earlierRun', { helper: holder.name });
  markDeclaration(file, site, holder.node, new Refusal(told.code, earlier, told.next, undefined, told.marker));
  const split = entryShape(file, site, holder.name);
  if (split) file.earlierEntries.push(holder.name);
  for (const name of askingExports(file.analysis, site))
    file.exportedHelpers.push({
      name,
      line: site.call.loc!.start.line,
      ...(site.kind ? { kind: site.kind } : {}),
      ...(split && name === holder.name ? { split, entry: true as const } : {}),
    });
  if (chain) blockReaching(file, chain);
  return true;
}

/**
 * The split an entry stands for, read off its statements as legacy-entry.ts writes them
 * (`const mrtrOutcome = await xRequest(a, b)`, `if ('value' in mrtrOutcome) ...`, then `return
 * xResult(await <request>, c, mrtrOutcome.carried)` or `return <request>`; the last alone where
 * the request was the helper's first statement) and the halves' own declarations; undefined
 * when they read otherwise.
 */
function entryShape(file: FilePlanning, site: LegacySite, name: string): SplitShape | undefined {
  const fn = site.enclosing!;
  const body = fn.body.type === 'BlockStatement' ? fn.body.body : [];
  const bindings = paramBindings(fn);
  if (!bindings) return undefined;
  // The entry hands each parameter on as written (legacy-entry.ts): by name, or as the object a destructuring took apart.
  const params = fn.params.map((_, i) => paramText(fn, i, bindings));
  const last = body.at(-1)?.type === 'ReturnStatement' ? (body.at(-1) as Extract<Node, { type: 'ReturnStatement' }>).argument : undefined;
  const result = last ? namedCall(last, `${name}Result`) : undefined;
  const half = (suffix: string) =>
    file.analysis.index.functions.find((f) => f.node.type === 'FunctionDeclaration' && f.node.id?.name === `${name}${suffix}`)?.node;
  const requestHalf = half('Request');
  const asked = body.length === 3 ? requestHalfCall(body[0]!, name) : undefined;
  if (!last || !requestHalf || (!result && last !== site.call) || (body.length === 3 ? !asked : body.length !== 1)) return undefined;
  const text = (n: Node) => file.source.slice(n.start!, n.end!);
  const handed = (args: readonly Node[]) => params.map((p) => args.some((a) => text(a) === p));
  // With no request half call to read, the request half's own parameters say which it takes.
  const taken = fn.params.map((p) => requestHalf.params.some((h) => sameNames(h, p)));
  const request = last === site.call ? site.call : result?.arguments[0]?.type === 'AwaitExpression' ? result.arguments[0].argument : undefined;
  const rest = result?.arguments.slice(1) ?? [];
  const resultType = site.shape.resultType ?? KINDS[site.kind!].resultType;
  const valueType = !result && !asked ? resultType : fn.returnType ? promisedType(typeText(file.source, fn.returnType)) : undefined;
  return {
    kind: site.kind!,
    resultType,
    ...(valueType !== undefined ? { valueType } : {}),
    method: false,
    requestArgs: asked ? handed(asked.arguments) : taken,
    resultArgs: handed(rest),
    identity: !result,
    ...(asked ? { maybeAsk: true as const } : {}),
    ...(requestContextOf(requestHalf) ? { takesContext: true as const } : {}),
    ...(half('Result')?.async ? { asyncResult: true as const } : {}),
    ...(rest.some((a) => a.type === 'MemberExpression' && a.property.type === 'Identifier' && a.property.name === 'carried')
      ? { carried: { value: CARRIED, opaque: true as const } }
      : {}),
    // What it pushes, for an entry of a helper calling it (push-template.ts).
    ...(request ? { push: { text: text(request), names: namesRead([request], bindings) } } : {}),
  };
}

/** Whether two parameters bind the same names (a half copies its helper's parameter as written). */
function sameNames(a: Node, b: Node): boolean {
  return paramNames(a).sort().join(',') === paramNames(b).sort().join(',');
}

/** `const mrtrOutcome = await xRequest(...)`: that call. */
function requestHalfCall(statement: Node, name: string): Extract<Node, { type: 'CallExpression' }> | undefined {
  const init = statement.type === 'VariableDeclaration' ? statement.declarations[0]?.init : undefined;
  return init?.type === 'AwaitExpression' ? namedCall(init.argument, `${name}Request`) : undefined;
}

/** `call` when it is a call of the function `name`. */
function namedCall(call: Node | null | undefined, name: string): Extract<Node, { type: 'CallExpression' }> | undefined {
  return call?.type === 'CallExpression' && call.callee.type === 'Identifier' && call.callee.name === name ? call : undefined;
}

function markDeclaration(file: FilePlanning, site: LegacySite, declaration: Node, refusal: Refusal): void {
  const kind = site.kind ?? 'elicit';
  markAt(file, declaration, [declaration], kind, undefined, refusal, site.kind ? KINDS[site.kind].guidance : undefined);
}

/** The words of the `@mrtr-todo(legacy-entry)` marker on the line just above `declaration`, if it has one. */
function entryMarkerAbove(file: FilePlanning, declaration: Node): string | undefined {
  const line = declaration.loc!.start.line - 1;
  const comment = file.analysis.comments.find((c) => c.loc!.start.line <= line && line <= c.loc!.end.line);
  const marker = comment && markersInComment(comment).find((m) => m.kind === 'todo' && m.code === CODE);
  return marker?.reason;
}
