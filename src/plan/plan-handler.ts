// Plans one handler: where it suspends, what each round asks, and what travels across each
// point. Returns a Refusal (pinned to the offending site) when any site cannot move safely.
// The rounds are found in handler-rounds.ts, the locals that travel weighed in
// lifted-locals.ts, the context parameter settled in context-parameter.ts.
import type { Node, Statement } from '@babel/types';
import { argumentParams, boundNames, memberPath, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { contextParam, type HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { markersInComment, type MarkerComment } from '../analyse/markers.ts';
import { HANDLER_REGISTRARS } from '../analyse/sdk-surface.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { codeSnippet } from '../core/escape.ts';
import { type Edit, lineNumberAt, promisedType } from '../core/vocabulary.ts';
import { unboundHalves } from './dynamic-imports.ts';
import { buildTree } from './body-tree.ts';
import { contextParameter, staleMarkerEdit } from './context-parameter.ts';
import { answerNames, loopCounters, plannedRequest, requestKeys, resumeClash, roundsOf, type Round } from './handler-rounds.ts';
import { carriedAcross, type LiftContext } from './lifted-locals.ts';
import { requestBoundReads } from './lifting.ts';
import { assignmentsIn } from './liveness.ts';
import { obsoleteMarkerLines } from './obsolete-markers.ts';
import { rederivation } from './rederive.ts';
import { isRefusalCode, Refusal, refuse, type RefusalCode } from './refusal.ts';
import type { HandlerPlan, ListPlan, SuspensionPoint } from './types.ts';
import { widenedPromise } from '../rewrite/edits/return-type.ts';

export function handlerId(handler: HandlerSite): string {
  return `${handler.kind}:${handler.name}`;
}

export function planHandler(
  analysis: FileAnalysis,
  handler: HandlerSite,
  sites: LegacySite[],
  facts?: TypeFacts,
  idempotent: readonly string[] = [],
): HandlerPlan | Refusal {
  const { source } = analysis;
  const fn = handler.fn;
  if (fn.body.type !== 'BlockStatement') {
    return refuse('expression-body', 'expressionBody').at(sites[0]!);
  }
  // A handler that hands back an async function's promise (`return startLaunch(input)`) is made
  // async: the SDK awaits what it returns either way.
  const asyncEdit = fn.async ? undefined : asyncInsertion(source, fn);
  if (!fn.async && !asyncEdit) {
    return refuse('nested-site', 'notAsync').at(sites[0]!);
  }
  const statements = fn.body.body;

  const rounds = roundsOf(statements, sites, fn, source);
  if (rounds instanceof Refusal) return rounds;
  const tree = buildTree(fn.body, rounds, source);

  const bodyNames = referencedNames(fn.body);
  const context = contextParameter(source, handler, sites, bodyNames, analysis.typed);
  if (context instanceof Refusal) return context;
  const unfit = foreignContextSite(handler, sites, context.name) ?? earlierMigration(analysis, fn.body, sites) ?? nameClash(fn, bodyNames, sites);
  if (unfit) return unfit;
  const returnTypeEdit = widenReturnType(source, fn);
  if (returnTypeEdit instanceof Refusal) return returnTypeEdit.at(sites[0]!);

  const argParams = argumentParams(fn).slice(0, handler.ctxIndex);
  if (handler.lowLevel && argParams[0]?.type !== 'Identifier') return refuse('request-pattern', 'destructuredRequest').at(sites[0]!);
  const argNames = unchangedArgumentNames(argParams, statements, rounds);
  if (argNames instanceof Refusal) return argNames;
  // Values that are JSON whatever the code says: the arguments (they came as JSON), the answers.
  const json = new Set([...argNames, ...rounds.flatMap((r) => answerNames(r.binding))]);
  const rederived = rederivation({ analysis, handler, tree, rounds, argNames, facts, idempotent });
  const unbound = unboundHalves(analysis.importedNames, fn, rounds, rederived.statements);
  if (unbound) return unbound;
  const points = suspensionPoints({ analysis, rounds, keys: requestKeys(rounds), facts, json, rederived: rederived.locals, idempotent }, tree, context.name);
  if (points instanceof Refusal) return points;
  const droppedLines = obsoleteMarkerLines(analysis, rounds, points);

  return {
    id: handlerId(handler),
    // A name read at run time: the handler names itself with the same expression.
    ...(handler.nameText ? { idText: `\`${handler.kind}:\${${handler.nameText}}\`` } : {}),
    body: { start: fn.body.start!, end: fn.body.end! },
    points,
    ctxName: context.name,
    addParam: context.addParam,
    ...(context.paramEdit ? { paramEdit: context.paramEdit } : {}),
    ...(context.paramEdit && context.patternAnswered ? staleMarkerEdit(analysis, handler) : {}),
    ...(context.prologue ? { prologue: context.prologue } : {}),
    ...(droppedLines.length > 0 ? { droppedLines } : {}),
    returnTypeEdit,
    ...(asyncEdit ? { asyncEdit } : {}),
    argsText: handler.lowLevel ? lowLevelDigestText(argParams[0], handler.kind) : argsDigestText(argParams, handler.kind),
    serverText: registrationReceiver(handler),
    verbatim: verbatimSpans(fn.body),
    tree,
    ...(rederived.statements.size > 0 ? { rederived: [...rederived.statements], rederivedNames: rederived.names, rerun: rederived.calls } : {}),
  };
}

/** A site that asks through a context other than the handler's own. */
function foreignContextSite(handler: HandlerSite, sites: LegacySite[], context: string): Refusal | undefined {
  const fn = handler.fn;
  for (const site of sites) {
    const throughPattern = site.destructured !== undefined && site.destructured.fn === fn && site.destructured.param === contextParam(handler);
    const throughContext = site.shape.receiver === 'ctx' || site.shape.receiver === 'ctx.mcpReq';
    if (throughContext && site.receiverHead !== context && !throughPattern) {
      return refuse('foreign-context', 'otherContext', { receiver: site.receiverHead, context }).at(site);
    }
  }
  return undefined;
}

/** A handler migrated already, by an earlier run (with a case left as it was) or by hand. */
function earlierMigration(analysis: FileAnalysis, body: Node, sites: LegacySite[]): Refusal | undefined {
  // The body's text is searched first: most bodies name neither, and a walk costs more.
  const bodyText = analysis.source.slice(body.start!, body.end!);
  if (bodyText.includes('mrtrResume') && callsMrtrResume(body)) {
    // Its sites keep what they were told: the words of the earlier run's marker, as it wrote
    // them (from this table, or an older one).
    const earlier = markerAbove(analysis, sites[0]!);
    const told = refuse('hand-migrated', 'earlierRun');
    return new Refusal(
      earlier && isRefusalCode(earlier.code ?? '') ? (earlier.code as RefusalCode) : told.code,
      earlier?.reason ?? told.reason,
      earlier?.next ?? told.next,
      sites[0],
    );
  }
  const handMade = /inputResponses|requestState|inputRequired/.test(bodyText) ? handMigration(body, sites) : undefined;
  return handMade ? refuse('hand-migrated', 'answersItself', { shown: handMade }).at(sites[0]!) : undefined;
}

/** A name the migrated body declares that the handler already uses. */
function nameClash(fn: HandlerSite['fn'], bodyNames: ReadonlySet<string>, sites: LegacySite[]): Refusal | undefined {
  const own = [...bodyNames, ...fn.params.flatMap((p) => boundNames(p).map((b) => b.name))];
  const taken = own.find((n) => /^mrtr(Answer\d*|Resuming\d+|Index\d+|Outcome\d*)?$/.test(n));
  return taken ? refuse('name-clash', 'usedInHandler', { name: taken }).at(sites[0]!) : undefined;
}

/** The names the handler's arguments bind: re-sent on every retry, they need not travel, but they must not change. */
function unchangedArgumentNames(argParams: Node[], statements: Statement[], rounds: Round[]): Set<string> | Refusal {
  const argNames = new Set(argParams.flatMap((p) => boundNames(p).map((b) => b.name)));
  for (const { name, line } of assignmentsIn(statements.slice(0, rounds[rounds.length - 1]!.path[0]!.item + 1))) {
    if (argNames.has(name)) {
      return refuse('param-reassigned', 'reassigned', { name, line: String(line) }).at(rounds[0]!.sites[0]!);
    }
  }
  return argNames;
}

/** Each round as a point the handler suspends at: what it asks and what travels across it. */
function suspensionPoints(lift: LiftContext, tree: ListPlan, contextName: string): SuspensionPoint[] | Refusal {
  const { analysis, rounds, keys } = lift;
  const points: SuspensionPoint[] = [];
  for (let i = 0; i < rounds.length; i++) {
    const round = rounds[i]!;
    const carried = carriedAcross(lift, round);
    if (carried instanceof Refusal) return carried;
    const { lifted, secrets } = carried;
    lifted.push(...loopCounters(tree, round.path, analysis.typed));
    const clash = resumeClash(round, lifted);
    if (clash) {
      const line = String(lineNumberAt(analysis.source, clash.start));
      return refuse('shadowed-local', 'declaredAgain', { name: clash.name, line }).at(round.sites[0]!);
    }
    const requests = round.sites.map((site, j) => plannedRequest(analysis.source, site, keys[i]![j]!, round.sites.length === 1 ? round.binding : undefined));
    points.push({
      step: keys[i]!.join('+'),
      requests,
      statement: { start: round.statement.start!, end: round.statement.end! },
      binding: round.binding,
      inline: round.inline ? inlineSpan(round.inline, analysis.source) : undefined,
      path: round.path,
      lifted,
      secrets,
      requestBound: requestBoundReads(round, contextName, analysis.source),
    });
  }
  return points;
}

/**
 * The span of an await read inline, and whether parentheses of its own wrap it: those of
 * `(await ask()).action` go with it, a call's `f(await ask())` stay.
 */
function inlineSpan(awaited: Node, source: string): SuspensionPoint['inline'] {
  const start = awaited.start!;
  const end = awaited.end!;
  const extra = awaited.extra as { parenthesized?: boolean; parenStart?: number } | undefined;
  const parenthesized = extra?.parenthesized === true && extra.parenStart === start - 1 && source[start - 1] === '(' && source[end] === ')';
  return { start, end, ...(parenthesized ? { parenthesized } : {}) };
}

/**
 * What shows a handler was (partly) migrated by hand: it reads `inputResponses` or its
 * `requestState()`, or returns `inputRequired(...)` itself. Undefined when nothing does.
 */
function handMigration(body: Node, sites: LegacySite[]): string | undefined {
  let found: string | undefined;
  const siteCalls = new Set<Node>(sites.map((s) => s.call));
  walk(body, (node) => {
    if (found || siteCalls.has(node)) return false;
    if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && !node.computed && node.property.type === 'Identifier') {
      const name = node.property.name;
      if (name === 'inputResponses' || (name === 'requestState' && node.object.type !== 'ThisExpression')) found = `.${name}`;
    }
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'inputRequired') found = 'inputRequired(...)';
    return undefined;
  });
  return found;
}

function callsMrtrResume(body: Node): boolean {
  let found = false;
  walk(body, (node) => {
    if (found) return false;
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'mrtrResume') found = true;
    return undefined;
  });
  return found;
}

/** The `@mrtr-todo` marker an earlier run wrote just above a site's statement, if any. */
function markerAbove(analysis: FileAnalysis, site: LegacySite): MarkerComment | undefined {
  const statement = site.at ?? [...site.ancestors].reverse().find((a) => /Statement$|Declaration$/.test(a.type) && a.type !== 'BlockStatement') ?? site.call;
  const line = statement.loc!.start.line;
  for (let above = line - 1; above > 0; above--) {
    const comment = analysis.comments.find((c) => c.loc!.start.line <= above && above <= c.loc!.end.line);
    if (!comment) return undefined;
    const marker = markersInComment(comment).find((m) => m.kind === 'todo');
    if (marker) return marker;
  }
  return undefined;
}

/**
 * An explicit `Promise<X>` return type must admit the input_required result a migrated handler
 * (or a URL elicitation it now returns, see planUrlThrow) returns: the edit widening it, none
 * when it has none or admits it already, or a refusal when it is not a Promise.
 */
/** Where `async ` makes the handler an async function; undefined for one it cannot (a generator, an accessor, a computed key). */
function asyncInsertion(source: string, fn: FunctionNode): Edit | undefined {
  if (fn.generator) return undefined;
  const at = (start: number): Edit => ({ start, end: start, text: 'async ' });
  if (fn.type === 'ArrowFunctionExpression') return at(fn.start!);
  if (fn.type === 'FunctionExpression' || fn.type === 'FunctionDeclaration') return source.startsWith('function', fn.start!) ? at(fn.start!) : undefined;
  if (fn.type === 'ObjectMethod' || fn.type === 'ClassMethod') return fn.kind === 'method' && !fn.computed ? at(fn.key.start!) : undefined;
  return undefined;
}

export function widenReturnType(source: string, fn: FunctionNode): Edit | undefined | Refusal {
  const returnType = fn.returnType;
  if (!returnType || returnType.type !== 'TSTypeAnnotation') return undefined;
  const text = source.slice(returnType.typeAnnotation.start!, returnType.typeAnnotation.end!);
  if (promisedType(text) === undefined) {
    return refuse('return-type', 'notPromise', { type: codeSnippet(text) });
  }
  return widenedPromise(source, returnType.typeAnnotation);
}

/**
 * The receiver of the registration (`server` of `server.registerTool(...)`, `server.server` of
 * `server.server.setRequestHandler(...)`), when the handler is written inside that call and
 * reads the same object under that name: a name no binding of the handler shadows, or
 * `this.x` in an arrow function.
 */
function registrationReceiver(handler: HandlerSite): string | undefined {
  const { call, fn } = handler;
  // A function registered in another module (the call is the function itself): no receiver here.
  if (call.type !== 'CallExpression') return undefined;
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return undefined;
  if (!(callee.property.name in HANDLER_REGISTRARS) && callee.property.name !== 'setRequestHandler') return undefined;
  if (fn.start! < call.start! || fn.end! > call.end!) return undefined;
  const path = plainChain(callee.object) ? memberPath(callee.object) : undefined;
  const root = path?.split('.')[0];
  if (!path || !root) return undefined;
  if (root === 'this') return fn.type === 'ArrowFunctionExpression' ? path : undefined;
  const shadowed = fn.params.some((p) => boundNames(p).some((b) => b.name === root)) || declaredIn(fn.body).has(root);
  return shadowed ? undefined : path;
}

/** `a.b.c` without optional links: evaluating it again gives the same object or the same throw. */
function plainChain(node: Node): boolean {
  if (node.type === 'Identifier' || node.type === 'ThisExpression') return true;
  return node.type === 'MemberExpression' && !node.computed && plainChain(node.object);
}

/** Every name a declaration inside `body` binds (whatever its scope: a shadow anywhere counts). */
function declaredIn(body: Node): Set<string> {
  const names = new Set<string>();
  walk(body, (node) => {
    if (node.type === 'VariableDeclarator') for (const b of boundNames(node.id)) names.add(b.name);
    if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) names.add(node.id.name);
    if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression')
      for (const p of node.params) for (const b of boundNames(p)) names.add(b.name);
    if (node.type === 'CatchClause' && node.param) for (const b of boundNames(node.param)) names.add(b.name);
    return undefined;
  });
  return names;
}

/** The expression digested into requestState so state minted for other arguments is refused. */
function argsDigestText(params: Node[], kind: HandlerSite['kind']): string {
  if (params.length === 0) return '{}';
  const parts = params.map((p, i) => {
    if (p.type === 'Identifier') return kind === 'resource' && i === 0 ? `${p.name}.href` : p.name;
    return `{ ${boundNames(p)
      .map((b) => b.name)
      .join(', ')} }`;
  });
  return parts.length === 1 ? parts[0]! : `[${parts.join(', ')}]`;
}

/**
 * A low-level handler's request carries per-request `_meta` (progress tokens) that a retry
 * changes: digest only what names the call.
 */
function lowLevelDigestText(request: Node | undefined, kind: HandlerSite['kind']): string {
  if (!request || request.type !== 'Identifier') return '{}';
  const p = `${request.name}.params`;
  return kind === 'resource' ? `${p}.uri` : `{ name: ${p}.name, arguments: ${p}.arguments }`;
}

/**
 * String and template literals keep their lines exactly: re-indenting them would change data.
 * Only those spanning lines can hold the start of a line.
 */
function verbatimSpans(body: Node): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  walk(body, (node) => {
    if ((node.type === 'TemplateLiteral' || node.type === 'StringLiteral') && node.loc!.start.line !== node.loc!.end.line)
      spans.push({ start: node.start!, end: node.end! });
    return undefined;
  });
  return spans;
}
