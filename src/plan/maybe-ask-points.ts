// A helper that may ask at one of several points, each in its own branch of an if (`if (path)
// { if (!(await allowed(path))) throw ...; } else { const found = search(); if (!(await
// allowed(found))) throw ...; }`), asking through an inner helper whose value it goes on with.
// Its request half asks at whichever point the call reaches and returns, beside the question,
// which point that was (`carried: { at: 2, found }`, with that point's own carried locals); its
// result half `xResult` goes on from that point: the inner result half's value, then that
// point's `xThenN`, the rest of its branch and the code after the blocks around it. Two points
// one after the other on one path, or a point in a loop, are refused, naming both lines.
import type { Statement } from '@babel/types';
import type { FunctionNode } from '../analyse/ast.ts';
import type { NamedCall } from '../analyse/call-graph.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { Span } from '../core/vocabulary.ts';
import { maybeAskHelperEdit, type PointArm } from '../rewrite/edits/maybe-ask-helper.ts';
import type { PurityContext } from './helper-locals.ts';
import { liftedAwait } from './lifted-await.ts';
import { pathTo, planPoint, removedAfter, statementSpan, type PointPlan, type Step } from './maybe-ask-point.ts';
import { questionEdits, semicolon } from './maybe-ask-request.ts';
import {
  assignedDropped,
  pointCarried,
  finishedSplit,
  forwardReads,
  goingOn,
  pointRequest,
  pointShape,
  requestHalfEdits,
  splitHelperChecks,
  typesProblem,
} from './maybe-ask-split.ts';
import { localTypeText, type TypeNames } from './server-type-names.ts';
import { CARRIED, paramsUsed, type HelperSplit } from './split-helper.ts';
import type { Holder } from './helper-holder.ts';
import type { SplitShape } from './types.ts';
import type { LegacyEntryCall } from './plan-options.ts';
import { entrySource, legacyEntry } from './legacy-entry.ts';
import { paramBindings, pushTemplate, samePush } from './push-template.ts';
import { lineOf, lineRef, NAMED_LINE } from '../core/line-refs.ts';

/** The split of a helper that asks at each of `sites` (its calls of inner helpers), one per branch, or why not (`it is a helper ...`). */
export function maybeAskSplitPoints(
  source: string,
  sites: readonly LegacySite[],
  calls: NamedCall[],
  types: TypeNames | undefined,
  eol: string,
  purity: PurityContext,
  entryFor?: LegacyEntryCall,
): HelperSplit | string {
  const fn = sites[0]!.enclosing!;
  const helper = splitHelperChecks(source, fn, sites[0]!, calls, purity);
  if (typeof helper === 'string') return helper;
  const { holder, valueType } = helper;
  const outlines = sites.map((site) => outline(source, site));
  const why = pointsProblem(sites, outlines);
  if (why) return why;
  const placed = outlines as Placed[];
  const points: PointPlan[] = [];
  for (const [i, site] of sites.entries()) {
    const others = placed.filter((_, j) => j !== i);
    const context = { source, fn, holder, types, purity, others: others.flatMap((o) => o.spans), questions: exiting(others), carries: true };
    const point = planPoint(context, site);
    if (typeof point === 'string') return point;
    const kept = pointProblem(point, sites) ?? typesProblem(point, valueType, types);
    if (kept) return kept;
    points.push(point);
  }
  const typed = types !== undefined;
  // Which point asked, with what that point carries: the union of them is what the handler keeps.
  const carries = points.map((p, i) => pointCarried(p, typed, i + 1)!);
  const carried = { value: CARRIED, ...(typed ? { type: carries.map((c) => c.type).join(' | ') } : {}) };
  const shape = pointShape(source, fn, holder, points, valueType, typed, carried);
  const questions = exiting(placed);
  const at = points.map((p, i) => questionEdits(source, fn, p, pointRequest(source, fn, holder, p, carries[i]!.value, `${i + 1}`), undefined, questions));
  const arms = points.map((p, i) => arm(source, fn, holder, p, shape, types, i + 1));
  // Kept under its name for calls that cannot ask through the halves, when every point asks the same (the entry pushes it).
  const bindings = paramBindings(fn);
  const push = samePush(sites.map((site) => pushTemplate(source, fn, site, bindings)));
  const copied = holder.exported ? entrySource(source, fn, holder, push, typed) : undefined;
  if (entryFor && !copied) return 'it is a helper that calls outside its handlers need, and it cannot stay under its name for them.';
  const entry = copied && entryFor && legacyEntry(copied, holder.name, shape, semicolon(source, fn, points[0]!.statement));
  const edit = maybeAskHelperEdit(source, eol, {
    declaration: holder.node,
    head: holder.method ? holder.modifiers : `${holder.exported ? 'export ' : ''}function `,
    name: holder.name,
    request: [
      ...at.flatMap((a) => a.edits),
      ...requestHalfEdits(source, fn, holder, points, at, shape, types, { facts: purity.facts }),
      ...points.flatMap(assignedDropped),
    ],
    points: { ...dispatcher(source, fn, points, shape, types), arms },
    ...(entry ? { entry } : {}),
  });
  const split = { ...finishedSplit(holder, shape, edit, types, points), ...(push ? { push } : {}) };
  return copied ? { ...split, legacyEntry: { declaration: holder.node, ...(entry ? { written: entryFor } : {}) } } : split;
}

/** Where a point is, before it is planned: its way from the body, its statement's lines and those after it the request half leaves out. */
interface Placed {
  line: number;
  path: Step[];
  statement: Statement;
  guarded: boolean;
  spans: Span[];
}
type Outline = Placed | { line: number; why: string };

function outline(source: string, site: LegacySite): Outline {
  const line = site.call.loc!.start.line;
  const path = pathTo(source, site.enclosing!, site);
  if (typeof path === 'string') return { line, why: path };
  const statement = path[path.length - 1]!.list[path[path.length - 1]!.index]!;
  const guarded = liftedAwait(statement, site.call)?.guard !== undefined;
  const spans = [statementSpan(statement), ...(guarded ? [] : removedAfter(source, path, new Set([statement])))];
  return { line, path, statement, guarded, spans };
}

/** The points' statements that end the request half where they are: those not asked under a guard. */
function exiting(outlines: readonly Placed[]): Set<Statement> {
  return new Set(outlines.flatMap((o) => (o.guarded ? [] : [o.statement])));
}

/** Why the points cannot be told apart by the branch that reaches each: one in a loop, or two not in two branches of one if. */
function pointsProblem(sites: readonly LegacySite[], outlines: readonly Outline[]): string | undefined {
  const through = sites[0]!.via ? ` through \`${sites[0]!.via.helper}()\`` : '';
  const ordered = (a: Outline, b: Outline) => (a.line < b.line ? [a.line, b.line] : [b.line, a.line]).map(lineRef);
  for (const o of outlines) {
    if (!('why' in o)) continue;
    const other = outlines.find((x) => x !== o)!;
    const [first, second] = ordered(o, other);
    const which = o.line <= other.line ? 'first' : 'second';
    return `it is a helper whose lines ${first} and ${second} ${BOTH}, ${which} ${/loop or a switch/.test(o.why) ? IN_LOOP : IN_EXPRESSION}${through}.`;
  }
  for (const [i, a] of outlines.entries())
    for (const b of outlines.slice(i + 1)) {
      if ('why' in a || 'why' in b || exclusive(a.path, b.path)) continue;
      const [first, second] = ordered(a, b);
      return `it is a helper whose lines ${first} and ${second} ${BOTH}, ${ONE_PATH}${through}.`;
    }
  return undefined;
}

const BOTH = 'both ask';
const ONE_PATH = 'not in two branches';
const IN_LOOP = 'in a loop';
const IN_EXPRESSION = 'in an expression';

/** What a marker names of two points one call may both reach: their lines, how they lie, and what would let them split. */
export function pointsOneCallReaches(why: string): { first: string; second: string; how: string; fix: string } | undefined {
  const found = new RegExp(`lines ${NAMED_LINE} and ${NAMED_LINE} ${BOTH}, (.*?)(?: through \`[^\`]*\`)?\\.$`).exec(why);
  if (!found) return undefined;
  const how = found[3]!;
  const fix =
    how === ONE_PATH ? 'put them in two branches of one if' : how.endsWith(IN_LOOP) ? 'ask once, before the loop' : 'await it in a statement of its own';
  return { first: found[1]!, second: found[2]!, how, fix };
}

/** Whether no run reaches both points: their ways part in the two branches of one if. */
function exclusive(a: readonly Step[], b: readonly Step[]): boolean {
  for (let k = 0; k < a.length && k < b.length; k++) {
    if (a[k]!.list !== b[k]!.list || a[k]!.index !== b[k]!.index) return false;
    if (k + 1 >= a.length || k + 1 >= b.length) return false;
    if (a[k + 1]!.list !== b[k + 1]!.list) return a[k]!.list[a[k]!.index]!.type === 'IfStatement';
  }
  return false;
}

/** Why one point cannot be gone on from by itself: it hands the inner outcome on as it is, asks itself, or asks for other than the rest. */
function pointProblem(point: PointPlan, sites: readonly LegacySite[]): string | undefined {
  const line = lineOf(point.statement);
  if (!point.goesOn)
    return `it is a helper whose line ${line} ${point.through ? 'returns what it asks' : 'asks itself'}, beside its other points: name the value first.`;
  const other = sites.find((s) => s.kind !== point.site.kind || s.shape.resultType !== point.site.shape.resultType);
  return other ? `it is a helper whose lines ${line} and ${lineOf(other.call)} ask for different things.` : undefined;
}

/** One point's `xThenN` and what `xResult` does to go on from it. */
function arm(source: string, fn: FunctionNode, holder: Holder, point: PointPlan, shape: SplitShape, types: TypeNames | undefined, at: number): PointArm {
  const { result, forward } = goingOn(source, fn, holder, point, shape, types, `${at}`);
  return { at, result, forward };
}

/** `xResult`'s parameters and return type: the answer, the arguments any point reads, and which point asked. */
function dispatcher(
  source: string,
  fn: FunctionNode,
  points: readonly PointPlan[],
  shape: SplitShape,
  types: TypeNames | undefined,
): { params: string; returnType?: string; async?: boolean } {
  const reads = new Set(points.flatMap((p) => [...forwardReads(p)]));
  const params = paramsUsed(source, fn, shape.resultArgs, `mrtrAnswer${types ? `: ${localTypeText(types, shape.resultType)}` : ''}`, reads);
  const returnType = types && shape.valueType ? (shape.asyncResult ? `Promise<${shape.valueType}>` : shape.valueType) : undefined;
  return {
    params: `${params}, ${CARRIED}${shape.carried?.type ? `: ${shape.carried.type}` : ''}`,
    ...(returnType ? { returnType } : {}),
    ...(shape.asyncResult ? { async: true } : {}),
  };
}
