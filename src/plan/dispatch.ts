// The migration of command methods handlers dispatch to (found by analyse/command-dispatch.ts):
// each that asks is a delegation of its handlers, which hand it their context; each handler
// returns the question its call answered with, and the interface's method takes the context
// and may return a question.
import type { Node } from '@babel/types';
import { importedDispatches, promisedOf, promiseType, type Dispatch } from '../analyse/command-dispatch.ts';
import { contextParam, type HandlerSite } from '../analyse/find-handlers.ts';
import { addedParameter, lastArgument } from '../rewrite/edits/arguments.ts';
import { indentAt, type Edit } from '../core/vocabulary.ts';
import { blockByHelper, type FilePlanning } from './file-planning.ts';
import type { Outcomes } from './handler-outcomes.ts';
import { callerContext } from './place-sites.ts';
import { handlerId } from './plan-handler.ts';
import { Refusal } from './refusal.ts';
import type { RerunCall } from './types.ts';

/**
 * The edits of a migrated dispatch besides the contexts handed on: each handler returns the
 * question its call answered with, and the interface's method takes the context and may
 * return a question (`execute(args, ctx?: ServerContext): Promise<Outcome | InputRequiredResult>`).
 */
function dispatchEdits(source: string, eol: string, d: Dispatch): Edit[] {
  const promised = promisedOf(d.signature)!;
  const params = d.signature.parameters;
  const last = params[params.length - 1];
  const paramsEnd = last ? last.end! : source.indexOf(')', d.signature.key.end!);
  const edits: Edit[] = [{ start: paramsEnd, end: paramsEnd, text: last ? ', ctx?: ServerContext' : 'ctx?: ServerContext' }];
  edits.push({ start: promised.end!, end: promised.end!, text: ' | InputRequiredResult' });
  for (const { bound } of d.calls) {
    if (!bound) continue;
    const indent = indentAt(source, bound.start);
    edits.push({ start: bound.end, end: bound.end, text: `${eol}${indent}if (isInputRequiredResult(${bound.name})) return ${bound.name};` });
  }
  return edits;
}

/**
 * Each dispatched method that asks becomes a delegation of its handlers (assemble-plan.ts hands
 * them the context), when every handler can hand it one and asks nothing of its own.
 */
export function placeDispatches(file: FilePlanning): void {
  for (const d of file.dispatches) {
    if (!file.byHandler.has(d.handler)) continue;
    const ok = d.calls.every((c) => !file.byHandler.has(c.handler) && callerContext(file, c.handler) !== undefined);
    // A handler that asks itself, or cannot hand on its context, keeps the method whole.
    if (!ok) {
      const { call, handler } = d.calls[0]!;
      blockByHelper(file, d.handler, handlerId(handler), call, handler.ancestors);
      continue;
    }
    file.delegations.push({ delegation: { handler: d.handler, calls: d.calls.map(({ handler, call }) => ({ handler, call })) }, chains: [] });
  }
}

/**
 * The calls of the per-round brackets around the dispatches to a migrated method: they run on
 * each round. Those around a dispatch from another module come with its name (the engine linked it).
 */
export function bracketCalls(file: FilePlanning, handler: HandlerSite): RerunCall[] {
  const here = file.dispatches.find((d) => d.handler === handler)?.rerun;
  if (here) return here;
  const linked = file.options.dispatch?.methods?.find((m) => `${m.cls}.${m.method}()` === handler.name && `this.${m.key}` === handler.nameText);
  return linked?.rerun ? [...linked.rerun] : [];
}

/** The edits of the dispatches whose method migrated (here, or in another module: linkedDispatchEdits), and the server package's names they use. */
export function migratedDispatches(file: FilePlanning, outcomes: Outcomes): { edits: Edit[]; names: string[] } {
  const edits: Edit[] = [];
  for (const d of file.dispatches) {
    const outcome = outcomes.byHandler.get(d.handler);
    if (!outcome || outcome.result instanceof Refusal) continue;
    edits.push(...dispatchEdits(file.source, file.eol, d));
  }
  const linked = linkedDispatchEdits(file);
  const names = new Set([...(edits.length > 0 ? ['type ServerContext', 'type InputRequiredResult', 'isInputRequiredResult'] : []), ...linked.names]);
  return { edits: [...edits, ...linked.edits], names: [...names] };
}

/** The dispatched methods of this module's classes (linked by the engine) that migrated as handlers. */
export function migratedLinkedMethods(file: FilePlanning, outcomes: Outcomes): string[] {
  const linked = new Set((file.options.dispatch?.methods ?? []).map((m) => `${m.cls}.${m.method}()`));
  return file.handlers.filter((h) => linked.has(h.name) && isMigrated(outcomes, h)).map((h) => h.name.slice(0, -2));
}

function isMigrated(outcomes: Outcomes, handler: HandlerSite): boolean {
  const outcome = outcomes.byHandler.get(handler);
  return outcome !== undefined && !(outcome.result instanceof Refusal);
}

/**
 * This module's part in a dispatch the engine linked across modules (see engine/dispatch-links.ts):
 * its handlers that dispatch hand on their context and return the question their call answered
 * with; its declarations of the method take the context and may return a question.
 */
function linkedDispatchEdits(file: FilePlanning): { edits: Edit[]; names: string[] } {
  const { source, eol, analysis } = file;
  const links = file.options.dispatch;
  const edits: Edit[] = [];
  const names = new Set<string>();
  const calls = links?.calls ?? [];
  for (const d of calls.length > 0 ? importedDispatches(analysis) : []) {
    if (!calls.some((c) => c.type === d.typeName && c.method === d.method)) continue;
    const context = callerContext(file, d.handler);
    if (!context) continue;
    if (context.addParam) {
      edits.push(...addedParameter(context.addParam));
      if (analysis.typed) names.add('type ServerContext');
    }
    const retyped = unknownContextType(d.handler);
    if (retyped) {
      edits.push({ start: retyped.start!, end: retyped.end!, text: 'ServerContext' });
      names.add('type ServerContext');
    }
    for (const { call, bound } of d.calls) {
      edits.push(lastArgument(call, context.name));
      if (!bound) continue;
      const indent = indentAt(source, bound.start);
      edits.push({ start: bound.end, end: bound.end, text: `${eol}${indent}if (isInputRequiredResult(${bound.name})) return ${bound.name};` });
      names.add('isInputRequiredResult');
    }
  }
  for (const { owner, method, optional } of links?.declarations ?? []) {
    const declaration = methodDeclaration(analysis, owner, method);
    if (!declaration) continue;
    const { params, key, promised } = declaration;
    const last = params[params.length - 1];
    const at = last ? last.end! : source.indexOf(')', key.end!);
    const added = [...(optional ?? []), 'ctx?: ServerContext'].join(', ');
    edits.push({ start: at, end: at, text: last ? `, ${added}` : added });
    edits.push({ start: promised.end!, end: promised.end!, text: ' | InputRequiredResult' });
    names.add('type ServerContext').add('type InputRequiredResult');
  }
  return { edits, names: [...names] };
}

/** The `unknown` a handler's context parameter is written with (`_extra: unknown`): what it hands on is typed. */
function unknownContextType(handler: HandlerSite): Node | undefined {
  const param = contextParam(handler);
  const annotation = param?.type === 'Identifier' && param.typeAnnotation?.type === 'TSTypeAnnotation' ? param.typeAnnotation.typeAnnotation : undefined;
  return annotation?.type === 'TSUnknownKeyword' ? annotation : undefined;
}

/** The interface's method signature or the class's abstract method `method` of `owner`, with its parameters and promised type. */
function methodDeclaration(
  analysis: FilePlanning['analysis'],
  owner: string,
  method: string,
): { params: readonly Node[]; key: Node; promised: Node } | undefined {
  for (const statement of analysis.program.body) {
    const d = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (d?.type === 'TSInterfaceDeclaration' && d.id.name === owner) {
      const s = d.body.body.find((m) => m.type === 'TSMethodSignature' && m.key.type === 'Identifier' && m.key.name === method);
      const promised = s?.type === 'TSMethodSignature' ? promisedOf(s) : undefined;
      return s?.type === 'TSMethodSignature' && promised ? { params: s.parameters, key: s.key, promised } : undefined;
    }
    if (d?.type === 'ClassDeclaration' && d.id?.name === owner) {
      const m = d.body.body.find((x) => x.type === 'TSDeclareMethod' && x.abstract && x.key.type === 'Identifier' && x.key.name === method);
      const returned = m?.type === 'TSDeclareMethod' && m.returnType?.type === 'TSTypeAnnotation' ? m.returnType.typeAnnotation : undefined;
      const promised = promiseType(returned);
      return m?.type === 'TSDeclareMethod' && promised ? { params: m.params, key: m.key, promised } : undefined;
    }
  }
  return undefined;
}
