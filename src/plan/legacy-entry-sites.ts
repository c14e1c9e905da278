// The legacy entries of a module's helpers (legacy-entry.ts) as its report tells them: the one a
// split writes is marked above its declaration; one an earlier run wrote, found by that marker,
// is marked there again (the marker stays as it is) and left as it is. Other modules are told of
// it as of the split it stands for, read off the entry (the halves are there already): their
// handlers plan as they did, and a call that can now ask through the halves does.
import type { Node } from '@babel/types';
import { REQUEST_CONTEXT } from '../analyse/capability-reads.ts';
import { annotatedType, boundNames } from '../analyse/ast.ts';
import { promisedType } from '../core/vocabulary.ts';
import type { SplitShape } from './types.ts';
import type { HelperChain } from '../analyse/call-graph.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { markersInComment } from '../analyse/markers.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { askingExports, blockReaching, markAt, type FilePlanning } from './file-planning.ts';
import type { HelperTree } from './helper-tree.ts';
import { refuse, Refusal } from './refusal.ts';
import { CARRIED, declarationOf } from './split-helper.ts';

const CODE = 'legacy-entry';

/** Marks the legacy entries the tree's splits write, each above the helper's declaration. */
export function markWrittenEntries(file: FilePlanning, tree: HelperTree): void {
  for (const { site, split } of tree.splits) {
    const written = split.legacyEntry?.written;
    if (!written) continue;
    const refusal = refuse(CODE, 'keptFor', { helper: split.name, file: written.file, fileLine: String(written.line) });
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
 * (`const mrtrOutcome = await xRequest(a, b)`, `if ('value' in mrtrOutcome) ...`, `return
 * xResult(await <request>, c, mrtrOutcome.carried)` or `return <request>`) and the halves' own
 * declarations; undefined when they read otherwise.
 */
function entryShape(file: FilePlanning, site: LegacySite, name: string): SplitShape | undefined {
  const fn = site.enclosing!;
  const body = fn.body.type === 'BlockStatement' ? fn.body.body : [];
  const params = fn.params.map((p) => (p.type === 'Identifier' ? p.name : ''));
  const request = body[0]?.type === 'VariableDeclaration' ? body[0].declarations[0]?.init : undefined;
  const asked = request?.type === 'AwaitExpression' ? namedCall(request.argument, `${name}Request`) : undefined;
  const last = body[2]?.type === 'ReturnStatement' ? body[2].argument : undefined;
  const result = last ? namedCall(last, `${name}Result`) : undefined;
  if (body.length !== 3 || !asked || !last || (!result && last !== site.call)) return undefined;
  const used = (args: readonly Node[]) => params.map((p) => args.some((a) => a.type === 'Identifier' && a.name === p));
  const rest = result?.arguments.slice(1) ?? [];
  const carried = rest.some((a) => a.type === 'MemberExpression' && a.property.type === 'Identifier' && a.property.name === 'carried');
  const halves = (suffix: string) =>
    file.analysis.index.functions.find((f) => f.node.type === 'FunctionDeclaration' && f.node.id?.name === `${name}${suffix}`)?.node;
  const requestHalf = halves('Request');
  const valueType = fn.returnType ? promisedType(file.source.slice(annotatedType(fn.returnType)!.start!, annotatedType(fn.returnType)!.end!)) : undefined;
  return {
    kind: site.kind!,
    resultType: site.shape.resultType ?? KINDS[site.kind!].resultType,
    ...(valueType !== undefined ? { valueType } : {}),
    method: false,
    requestArgs: used(asked.arguments),
    resultArgs: used(rest),
    identity: !result,
    maybeAsk: true,
    ...(requestHalf?.params.some((p) => boundNames(p).some((b) => b.name === REQUEST_CONTEXT)) ? { takesContext: true as const } : {}),
    ...(halves('Result')?.async ? { asyncResult: true as const } : {}),
    ...(carried ? { carried: { value: CARRIED, opaque: true as const } } : {}),
  };
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
