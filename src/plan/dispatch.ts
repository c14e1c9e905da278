// The migration of command methods handlers dispatch to (found by analyse/command-dispatch.ts):
// each that asks is a delegation of its handlers, which hand it their context; each handler
// returns the question its call answered with, and the interface's method takes the context
// and may return a question.
import { promisedOf, type BracketCall, type Dispatch } from '../analyse/command-dispatch.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import { indentAt, type Edit } from '../core/vocabulary.ts';
import { blockByHelper, type FilePlanning } from './file-planning.ts';
import type { Outcomes } from './handler-outcomes.ts';
import { callerContext } from './place-sites.ts';
import { handlerId } from './plan-handler.ts';
import { Refusal } from './refusal.ts';

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

/** The calls of the per-round brackets around the dispatches to a migrated method: they run on each round. */
export function bracketCalls(file: FilePlanning, handler: HandlerSite): BracketCall[] {
  return file.dispatches.find((d) => d.handler === handler)?.rerun ?? [];
}

/** The edits of the dispatches whose method migrated, and the server package's names they use. */
export function migratedDispatches(file: FilePlanning, outcomes: Outcomes): { edits: Edit[]; names: string[] } {
  const edits: Edit[] = [];
  for (const d of file.dispatches) {
    const outcome = outcomes.byHandler.get(d.handler);
    if (!outcome || outcome.result instanceof Refusal) continue;
    edits.push(...dispatchEdits(file.source, file.eol, d));
  }
  return { edits, names: edits.length > 0 ? ['type ServerContext', 'type InputRequiredResult', 'isInputRequiredResult'] : [] };
}
