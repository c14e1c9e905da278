// Plans one handler: where it suspends, what each round asks, and what travels across each
// point. Returns a Refusal (pinned to the offending site) when any site cannot move safely.
import type { Node, Statement } from '@babel/types';
import { boundNames, memberPath, propertyOf, referencedNames, walk } from '../analyse/ast.ts';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { HANDLER_REGISTRARS, KINDS } from '../analyse/sdk-surface.ts';
import { codeSnippet } from '../core/escape.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { declaredBy, namesAssignedIn, namesReadIn, type Declared } from './liveness.ts';
import { isRefusalCode, Refusal, refuse, type RefusalCode } from './refusal.ts';
import { markersInComment, type MarkerComment } from '../analyse/markers.ts';
import { secretLook, type SecretLocal } from './secrets.ts';
import { jsonBySyntax, jsonTypeText, jsonUnsafeInitializer } from './serialisable.ts';
import { mutatedAfter, narrowedAtQuestion, requestBoundReads, unassignedAtQuestion } from './lifting.ts';
import { buildTree, locateRound, type LocatedRound } from './body-tree.ts';
import { type Edit, lineEndOf, lineStartOf, promisedType, type Span } from '../core/vocabulary.ts';
import { urlParamsText } from '../rewrite/edits/url-elicitation.ts';
import type { Binding, HandlerPlan, ItemPlan, LiftedLocal, ListPlan, PathStep, PlannedRequest, SuspensionPoint } from './types.ts';

export function handlerId(handler: HandlerSite): string {
  return `${handler.kind}:${handler.name}`;
}

/** A round before keys and liveness: where it sits, its binding and its sites in order. */
interface Round extends LocatedRound {
  binding: Binding;
  sites: LegacySite[];
}

export function planHandler(analysis: FileAnalysis, handler: HandlerSite, sites: LegacySite[], facts?: TypeFacts): HandlerPlan | Refusal {
  const { source } = analysis;
  const fn = handler.fn;
  if (fn.body.type !== 'BlockStatement') {
    return refuse('expression-body', 'expressionBody').at(sites[0]!);
  }
  if (!fn.async) {
    return refuse('nested-site', 'notAsync').at(sites[0]!);
  }
  const statements = fn.body.body;

  const rounds = roundsOf(statements, sites, fn, source);
  if (rounds instanceof Refusal) return rounds;
  const tree = buildTree(fn.body, rounds, source);

  const bodyNames = referencedNames(fn.body);
  const context = contextParameter(source, handler, sites, bodyNames, analysis.typed);
  if (context instanceof Refusal) return context;
  for (const site of sites) {
    const throughPattern = site.destructured !== undefined && site.destructured.fn === fn && site.destructured.param === fn.params[handler.ctxIndex];
    const throughContext = site.shape.receiver === 'ctx' || site.shape.receiver === 'ctx.mcpReq';
    if (throughContext && site.receiverHead !== context.name && !throughPattern) {
      return refuse('foreign-context', 'otherContext', { receiver: site.receiverHead, context: context.name }).at(site);
    }
  }
  // Migrated by an earlier run, with a case left as it was: its sites keep what they were told.
  // (The body's text is searched first: most bodies name neither, and a walk costs more.)
  const bodyText = source.slice(fn.body.start!, fn.body.end!);
  if (bodyText.includes('mrtrResume') && callsMrtrResume(fn.body)) {
    const earlier = markerAbove(analysis, sites[0]!);
    const told = refuse('hand-migrated', 'earlierRun');
    // The words of the earlier run's marker, as it wrote them (from this table, or an older one).
    return new Refusal(
      earlier && isRefusalCode(earlier.code ?? '') ? (earlier.code as RefusalCode) : told.code,
      earlier?.reason ?? told.reason,
      earlier?.next ?? told.next,
      sites[0],
    );
  }
  const handMade = /inputResponses|requestState|inputRequired/.test(bodyText) ? handMigration(fn.body, sites) : undefined;
  if (handMade) {
    return refuse('hand-migrated', 'answersItself', { shown: handMade }).at(sites[0]!);
  }
  // The names the migrated body declares: none may be the handler's own.
  const own = [...bodyNames, ...fn.params.flatMap((p) => boundNames(p).map((b) => b.name))];
  const taken = own.find((n) => /^mrtr(Answer\d*|Resuming\d+|Index\d+)?$/.test(n));
  if (taken) {
    return refuse('name-clash', 'usedInHandler', { name: taken }).at(sites[0]!);
  }
  const returnTypeEdit = widenReturnType(source, fn);
  if (returnTypeEdit instanceof Refusal) return returnTypeEdit.at(sites[0]!);

  // Arguments are re-sent on every retry, so they need not travel, but they must not change.
  const argParams = fn.params.slice(0, handler.ctxIndex);
  if (handler.lowLevel && argParams[0]?.type !== 'Identifier') {
    return refuse('request-pattern', 'destructuredRequest').at(sites[0]!);
  }
  const argNames = new Set(argParams.flatMap((p) => boundNames(p).map((b) => b.name)));
  for (const name of namesAssignedIn(statements.slice(0, rounds[rounds.length - 1]!.path[0]!.item + 1))) {
    if (argNames.has(name)) {
      return refuse('param-reassigned', 'reassigned', { name }).at(rounds[0]!.sites[0]!);
    }
  }

  const keys = requestKeys(rounds);
  // Values that are JSON whatever the code says: the arguments (they came as JSON), the answers.
  const jsonNames = new Set([...argNames, ...rounds.flatMap((r) => answerNames(r.binding))]);
  const points: SuspensionPoint[] = [];
  for (let i = 0; i < rounds.length; i++) {
    const round = rounds[i]!;
    const inScope = declaredInScope(round);
    const readAfter = namesReadAfter(round);
    const lifted: LiftedLocal[] = [];
    const secrets: SecretLocal[] = [];
    for (const d of inScope) {
      if (!readAfter.has(d.name) || lifted.some((l) => l.name === d.name)) continue;
      if (inScope.some((other) => other !== d && other.name === d.name)) {
        return refuse('shadowed-local', 'twoInScope', { name: d.name }).at(round.sites[0]!);
      }
      const local = liftLocal(analysis, d, rounds, keys, facts, round, jsonNames);
      if (local instanceof Refusal) return local.at(round.sites[0]!);
      lifted.push(local);
      jsonNames.add(local.name);
      const value = d.destructured ?? d.init;
      const why = local.fresh ? undefined : secretLook(d.name, value ? source.slice(value.start!, value.end!) : undefined);
      if (why) secrets.push({ name: d.name, why });
    }
    lifted.push(...loopCounters(tree, round.path, analysis.typed));
    const clash = resumeClash(round, lifted);
    if (clash) {
      return refuse('shadowed-local', 'declaredAgain', { name: clash }).at(round.sites[0]!);
    }
    const requests = round.sites.map((site, j) => plannedRequest(source, site, keys[i]![j]!, round.sites.length === 1 ? round.binding : undefined));
    points.push({
      step: keys[i]!.join('+'),
      requests,
      statement: { start: round.statement.start!, end: round.statement.end! },
      binding: round.binding,
      inline: round.inline ? { start: round.inline.start!, end: round.inline.end! } : undefined,
      path: round.path,
      lifted,
      secrets,
      requestBound: requestBoundReads(round, context.name, source),
    });
  }

  return {
    id: handlerId(handler),
    // A name read at run time: the handler names itself with the same expression.
    ...(handler.nameText ? { idText: `\`${handler.kind}:\${${handler.nameText}}\`` } : {}),
    body: { start: fn.body.start!, end: fn.body.end! },
    points,
    ctxName: context.name,
    addParam: context.addParam,
    ...(context.paramEdit ? { paramEdit: context.paramEdit } : {}),
    ...(context.paramEdit && !context.prologue ? staleMarkerEdit(analysis, handler) : {}),
    ...(context.prologue ? { prologue: context.prologue } : {}),
    returnTypeEdit,
    argsText: handler.lowLevel ? lowLevelDigestText(argParams[0], handler.kind) : argsDigestText(argParams, handler.kind),
    serverText: registrationReceiver(handler),
    verbatim: verbatimSpans(fn.body),
    tree,
  };
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

/** Groups the sites into rounds: each the awaited call (or Promise.all) of one statement. */
function roundsOf(statements: Statement[], sites: LegacySite[], fn: HandlerSite['fn'], source: string): Round[] | Refusal {
  const rounds: Round[] = [];
  for (const site of sites) {
    if (site.enclosing !== fn) {
      return refuse('closure', 'nestedFunction').at(site);
    }
    if (site.kind === undefined) {
      return refuse('unknown-request', 'notLiteral').at(site);
    }
    if (site.params && propertyOf(site.params, 'task') !== undefined) {
      return refuse('task-augmented', 'asTask').at(site);
    }
    if (site.kind === 'elicitUrl' && (site.params?.type !== 'ObjectExpression' || site.paramsRead)) {
      return refuse('url-elicitation', 'paramsNotInline').at(site);
    }
    if (rounds.some((r) => r.sites.includes(site))) continue; // taken with its Promise.all siblings
    const located = locateRound(statements, site, sites, source);
    if (located instanceof Refusal) return located;
    const roundSites = located.shape.calls.map((call) => sites.find((s) => s.call === call));
    if (roundSites.some((s) => s === undefined)) {
      return refuse('mixed-promise-all', 'withOtherWork').at(site);
    }
    if (located.statement.type === 'ThrowStatement') {
      const problem = urlThrowProblem(located);
      if (problem) return problem.at(site);
    }
    rounds.push({ ...located, binding: located.shape.binding, sites: roundSites as LegacySite[] });
  }
  return rounds.sort((a, b) => a.statement.start! - b.statement.start!);
}

/**
 * A thrown URL elicitation is resumed after the throw: the retry goes on with the code that
 * follows it (the work the user's visit made possible), without running again what came
 * before it. It cannot be resumed inside a try whose catch or finally saw the error.
 */
function urlThrowProblem(located: LocatedRound): Refusal | undefined {
  if (located.frames.some((f) => f.role === 'try' || f.role === 'catch')) {
    return refuse('url-elicitation', 'thrownInTry');
  }
  return undefined;
}

/** The iteration counters of the for...of loops a question sits in: they travel too. */
function loopCounters(tree: ListPlan, path: PathStep[], typed: boolean): LiftedLocal[] {
  const out: LiftedLocal[] = [];
  let list: ListPlan | undefined = tree;
  for (const step of path) {
    const item: ItemPlan | undefined = list?.items[step.item];
    if (step.child === undefined || item?.type !== 'compound') break;
    if (item.loop?.kind === 'for-of') out.push({ name: `mrtrIndex${item.loop.n}`, mutable: true, typeText: typed ? 'number' : undefined });
    list = item.children[step.child]?.list;
  }
  return out;
}

/** Locals in scope at a round's statement: declared earlier in each enclosing list, catch parameters and loop variables. */
function declaredInScope(round: Round): Declared[] {
  const out: Declared[] = [];
  for (const frame of round.frames) {
    for (const s of frame.list.slice(0, frame.index)) out.push(...declaredBy(s));
    const c = frame.compound;
    if (frame.role === 'loop' && c) {
      const decl = c.type === 'ForOfStatement' ? c.left : c.type === 'ForStatement' ? c.init : undefined;
      if (decl?.type === 'VariableDeclaration') out.push(...declaredBy(decl));
    }
    if (frame.role === 'catch' && frame.compound?.type === 'TryStatement' && frame.compound.handler?.param) {
      for (const b of boundNames(frame.compound.handler.param)) out.push({ name: b.name, start: b.start, mutable: true, via: 'caught' });
    }
  }
  return out;
}

/** Names the code that resumes after a round may read: the rest of every enclosing list and handler. */
function namesReadAfter(round: Round): Set<string> {
  const names = new Set<string>();
  const add = (nodes: readonly Node[]) => {
    for (const n of namesReadIn(nodes as Statement[])) names.add(n);
  };
  round.frames.forEach((frame, k) => {
    add(frame.list.slice(frame.index + 1));
    const c = frame.compound;
    // A loop goes on after the interrupted iteration: its header and its whole body run again,
    // but with their own bindings of what each iteration declares afresh (a for...of/in `const`
    // or `let`; a `const` or `let` of the body, the next frame's list, before the question),
    // not this iteration's. (An outer local of the same name in scope at the question is
    // refused as shadowed.)
    if (frame.role === 'loop' && c) {
      const afresh = new Set<string>();
      const left = c.type === 'ForOfStatement' || c.type === 'ForInStatement' ? c.left : undefined;
      const body = round.frames[k + 1];
      for (const d of [left, ...(body ? body.list.slice(0, body.index) : [])]) {
        if (d?.type === 'VariableDeclaration' && d.kind !== 'var') for (const v of d.declarations) for (const b of boundNames(v.id)) afresh.add(b.name);
      }
      for (const n of namesReadIn([c as Statement])) if (!afresh.has(n)) names.add(n);
    }
    if (c?.type === 'TryStatement') {
      if (frame.role === 'try' && c.handler) add([c.handler.body]);
      if (frame.role !== 'finally' && c.finalizer) add([c.finalizer]);
    }
  });
  if (round.inline) add([round.statement]);
  // A split helper's result is computed on resume from the call's own arguments.
  for (const site of round.sites) for (const arg of site.via?.resultArgs ?? []) for (const n of referencedNames(arg)) names.add(n);
  return names;
}

/**
 * Restored names live at the top of the resumed step, so the code after an enclosing block
 * must not declare them again (legal in the original's nested scope, not at the top).
 */
function resumeClash(round: Round, lifted: LiftedLocal[]): string | undefined {
  const atTop = new Set(lifted.map((l) => l.name));
  if (round.binding.form === 'declare') for (const n of round.binding.name ? [round.binding.name] : (round.binding.names ?? [])) atTop.add(n);
  for (const frame of round.frames.slice(0, -1)) {
    for (const s of frame.list.slice(frame.index + 1)) for (const d of declaredBy(s)) if (atTop.has(d.name)) return d.name;
  }
  return undefined;
}

/** Names that suggest a credential (the codec signs the state but the client can read it). */

/** What an answer is called when the code gives it no name. */
const DEFAULT_KEYS = { elicit: 'answer', elicitUrl: 'url', sampling: 'completion', roots: 'roots' } as const;

/** Keys name the answers: the variable a response lands in where there is one. */
function requestKeys(rounds: Round[]): string[][] {
  const used = new Set<string>();
  const unique = (base: string) => {
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}${n}`;
    used.add(key);
    return key;
  };
  return rounds.map(({ binding, sites }) =>
    sites.map((site, j) => {
      const named =
        sites.length === 1
          ? binding.form === 'assign'
            ? binding.name
            : binding.form === 'declare'
              ? (binding.name ?? binding.names?.[0])
              : undefined
          : binding.form === 'declare'
            ? binding.elements?.[j]
            : undefined;
      return unique(inheritedName(named) ? `${named}Answer` : (named ?? DEFAULT_KEYS[site.kind!]));
    }),
  );
}

/**
 * A name every object already has (`__proto__`, `constructor`, `toString`): as a key of the
 * generated `inputRequests` literal, `__proto__: ...` would set its prototype instead.
 */
function inheritedName(name: string | undefined): name is string {
  return name !== undefined && name in Object.prototype;
}

function plannedRequest(source: string, site: LegacySite, key: string, binding: Binding | undefined): PlannedRequest {
  const kind = site.kind!;
  const paramsText =
    site.paramsRead ??
    (kind === 'elicitUrl' && site.params?.type === 'ObjectExpression'
      ? urlParamsText(source, site.params)
      : site.params
        ? source.slice(site.params.start!, site.params.end!)
        : '');
  const { line, column } = (site.at ?? site.call).loc!.start;
  return {
    key,
    kind,
    requestText: site.via ? site.via.requestText : `${KINDS[kind].builder}(${paramsText})`,
    ...(site.via ? { resultWrap: site.via.result } : {}),
    paramsStart: site.params?.start ?? site.call.start!,
    resultType: site.via
      ? (site.shape.resultType ?? KINDS[kind].resultType)
      : (binding?.form === 'declare' && binding.annotation) || site.shape.resultType || KINDS[kind].resultType,
    guard: kind === 'elicitUrl' ? 'elicit' : kind,
    line,
    column: column + 1,
  };
}

export interface ContextParameter {
  name: string;
  addParam?: HandlerPlan['addParam'];
  /** A destructured context (`{ mcpReq, signal }`) becomes a name, destructured in the body as far as it is still read. */
  paramEdit?: Edit;
  /** That destructuring, without its semicolon (the renderer writes the file's style). */
  prologue?: string;
}

export function contextParameter(
  source: string,
  handler: HandlerSite,
  sites: LegacySite[],
  bodyNames: ReadonlySet<string>,
  typed = false,
): ContextParameter | Refusal {
  const fn = handler.fn;
  const param = fn.params[handler.ctxIndex];
  // Not a name the body or another parameter already binds (`async ({ text }, ctx)` with no arguments schema).
  const taken = (n: string) => bodyNames.has(n) || fn.params.some((p) => boundNames(p).some((b) => b.name === n));
  const fresh = taken('ctx') ? 'mrtrCtx' : 'ctx';
  if (param) {
    if (param.type === 'Identifier') return { name: param.name };
    if (param.type === 'ObjectPattern') return destructuredContext(source, handler, sites, param, fresh);
    return refuse('context-pattern', 'destructured').at(sites[0]!);
  }
  if (fn.params.length > handler.ctxIndex) {
    return refuse('context-pattern', 'paramsMismatch').at(sites[0]!);
  }
  if (handler.definition) {
    return refuse('context-pattern', 'definitionWithoutContext').at(sites[0]!);
  }
  const name = fresh;
  // A function a handler delegates to is no registration's callback: its context is typed.
  const added = handler.contextType && typed ? `${name}: ${handler.contextType}` : name;
  // `async () => ...` registered with an arguments schema: the arguments come first.
  const before = handler.ctxIndex === 1 && fn.params.length === 0 ? `${bodyNames.has('_args') ? '_mrtrArgs' : '_args'}, ` : '';
  if (fn.params.length > 0) {
    const last = fn.params[fn.params.length - 1]!;
    const parenthesised = source.slice(fn.start!, last.start!).includes('(');
    if (!parenthesised) return { name, addParam: { at: last.start!, text: '(', close: { at: last.end!, text: `, ${added})` } } };
    return { name, addParam: { at: last.end!, text: `, ${added}` } };
  }
  const open = source.indexOf(
    '(',
    fn.type === 'ArrowFunctionExpression' ? fn.start! : ((fn as { id?: Node | null }).id?.end ?? (fn as { key?: Node }).key?.end ?? fn.start!),
  );
  if (open === -1 || open > fn.body.start!) return refuse('context-pattern', 'cannotAddParameter').at(sites[0]!);
  return { name, addParam: { at: open + 1, text: `${before}${added}` } };
}

/**
 * `async (args, { mcpReq, signal }) => ...`: the parameter becomes `ctx` (its annotation kept)
 * and the body destructures what it still reads (`const { signal } = ctx;`), without the names
 * only the legacy calls used.
 */
function destructuredContext(
  source: string,
  handler: HandlerSite,
  sites: LegacySite[],
  pattern: Extract<Node, { type: 'ObjectPattern' }>,
  name: string,
): ContextParameter | Refusal {
  const plain = pattern.properties.every((p) => p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && p.value.type === 'Identifier');
  if (!plain) return refuse('context-pattern', 'destructuredDeeply').at(sites[0]!);
  // What the body reads of each name once the legacy calls are gone.
  const callees = new Set<Node>(sites.flatMap((s) => (s.call.type === 'ObjectExpression' ? [] : [s.call.callee])));
  const read = new Set<string>();
  walk(handler.fn.body, (node, parents) => {
    if (callees.has(node)) return false;
    if (node.type === 'Identifier') {
      const parent = parents[parents.length - 1];
      const property =
        parent && (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === node && !parent.computed;
      const key = parent?.type === 'ObjectProperty' && parent.key === node && !parent.shorthand && !parent.computed;
      if (!property && !key) read.add(node.name);
    }
    return undefined;
  });
  const kept = pattern.properties.filter((p) => read.has(((p as { value: Node }).value as { name: string }).name));
  const annotation = pattern.typeAnnotation ? source.slice(pattern.typeAnnotation.start!, pattern.typeAnnotation.end!) : '';
  return {
    name,
    paramEdit: { start: pattern.start!, end: pattern.end!, text: `${name}${annotation}` },
    ...(kept.length > 0 ? { prologue: `const { ${kept.map((p) => source.slice(p.start!, p.end!)).join(', ')} } = ${name}` } : {}),
  };
}

/**
 * The official v1-to-v2 codemod's marker about a context destructured in the handler's
 * parameters (`@mcp-codemod-error Destructuring of context parameter in signature: "{ ... }"`),
 * above the registration: obsolete once nothing of the pattern is left. Its span, line included.
 */
export function obsoleteDestructuringMarker(analysis: FileAnalysis, handler: HandlerSite): Span | undefined {
  const { source } = analysis;
  const statement = [...handler.ancestors].reverse().find((a) => a.type === 'ExpressionStatement') ?? handler.call;
  const comment = analysis.comments.find((c) => c.end! <= statement.start! && source.slice(c.end!, statement.start!).trim() === '');
  if (!comment || !/^\s*\*?\s*@mcp-codemod-error Destructuring of context parameter in signature\b/.test(comment.value)) return undefined;
  const end = lineEndOf(source, comment.end!);
  return { start: lineStartOf(source, comment.start!), end: end < source.length ? end + 1 : end };
}

function staleMarkerEdit(analysis: FileAnalysis, handler: HandlerSite): { markerEdit?: Edit } {
  const span = obsoleteDestructuringMarker(analysis, handler);
  return span ? { markerEdit: { ...span, text: '' } } : {};
}

/** An explicit `Promise<X>` return type must admit the input_required result. */
function widenReturnType(source: string, fn: HandlerSite['fn']): Edit | undefined | Refusal {
  const returnType = fn.returnType;
  if (!returnType || returnType.type !== 'TSTypeAnnotation') return undefined;
  const text = source.slice(returnType.typeAnnotation.start!, returnType.typeAnnotation.end!);
  const promised = promisedType(text);
  if (promised === undefined) {
    return refuse('return-type', 'notPromise', { type: codeSnippet(text) });
  }
  if (/\bInputRequiredResult\b/.test(text)) return undefined;
  return { start: returnType.typeAnnotation.start!, end: returnType.typeAnnotation.end!, text: `Promise<${promised} | InputRequiredResult>` };
}

function answerNames(binding: Binding): string[] {
  if (binding.form === 'assign') return [binding.name];
  if (binding.form !== 'declare') return [];
  return [binding.name, ...(binding.names ?? []), ...(binding.elements ?? [])].filter((n): n is string => n !== undefined);
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

function liftLocal(
  analysis: FileAnalysis,
  declared: Declared,
  rounds: Round[],
  keys: string[][],
  facts: TypeFacts | undefined,
  at: Round,
  json: ReadonlySet<string>,
): LiftedLocal | Refusal {
  const { source } = analysis;
  const { name, mutable } = declared;
  if (declared.via === 'caught') {
    return refuse('unserialisable-local', 'caughtError', { name });
  }
  if (declared.via !== 'variable') {
    return refuse('unserialisable-local', 'notAVariable', { kind: declared.via, name });
  }
  const annotation =
    declared.annotation && declared.annotation.type === 'TSTypeAnnotation'
      ? source.slice(declared.annotation.typeAnnotation.start!, declared.annotation.typeAnnotation.end!)
      : undefined;
  // Nothing in it yet: declared again on the retry, not carried.
  if (unassignedAtQuestion(declared, at, source)) return { name, mutable, fresh: true, typeText: analysis.typed ? annotation : undefined };
  // An earlier round's own answer: plain JSON of a type the plan already knows.
  const roundIndex = rounds.findIndex((r) => r.statement.start! <= declared.start && declared.start < r.statement.end!);
  if (roundIndex !== -1) {
    const round = rounds[roundIndex]!;
    const types = round.sites.map((site, j) =>
      site.via
        ? (site.via.valueType ?? '')
        : plannedRequest(source, site, keys[roundIndex]![j]!, round.sites.length === 1 ? round.binding : undefined).resultType,
    );
    if (types.some((t) => t === '')) {
      const fact = facts?.local(name, declared.start);
      return { name, mutable, typeText: analysis.typed ? fact?.text : undefined };
    }
    return { name, mutable, typeText: analysis.typed ? (answerType(round.binding, name, types) ?? facts?.local(name, declared.start)?.text) : undefined };
  }
  // What the syntax already says (`new Date()`) is not asked of the checker.
  const syntactic = declared.init ? jsonUnsafeInitializer(declared.init) : undefined;
  if (syntactic) return refuse('unserialisable-local', 'holdsUnsafe', { name, value: syntactic });
  const mutation = mutatedAfter(declared, at, source);
  if (mutation) {
    const from = codeSnippet(source.slice(declared.init!.start!, declared.init!.end!));
    return refuse('mutated-local', 'changedAfter', { name, from, change: codeSnippet(mutation) });
  }
  const fact = facts?.local(name, declared.start);
  if (fact && !fact.jsonSafe) {
    return fact.why === undefined
      ? refuse('unserialisable-local', 'notJson', { name })
      : refuse('unserialisable-local', 'checkerSays', { name, why: fact.why });
  }
  // Asked only where a type leaves it open (it walks the handler for a `let`'s assignments).
  const shown = () => shownJson(source, declared, at, json);
  const value = declared.destructured ?? declared.init;
  const held = () => (value ? ` (\`${codeSnippet(source.slice(value.start!, value.end!))}\`)` : '');
  if (!analysis.typed) return shown() ? { name, mutable } : refuse('untyped-local', 'untypedInJs', { name, held: held() });
  const typeText = annotation ?? fact?.text;
  const unknownType = annotation !== undefined ? UNKNOWN_TYPE.test(annotation.trim()) : fact?.unknown === true;
  if (unknownType) {
    // Shown JSON by its code, it still needs a type to write that is not `any` (lint-clean output).
    const isShown = shown();
    if (!isShown || typeText === undefined || /\bany\b/.test(typeText))
      return refuse('untyped-local', isShown ? 'anyInResume' : 'typeShowsNothing', { name, held: held(), type: typeText ?? 'any' });
  }
  if (!typeText) return refuse('untyped-local', facts ? 'unnamedType' : 'noTypeFacts', { name });
  // A collection read from elsewhere (a query, a file, a cache) travels whole, on every round.
  const collection = annotation !== undefined ? COLLECTION_TYPE.test(annotation.trim()) : fact?.collection === true;
  if (collection && !shown()) return refuse('unbounded-local', 'collection', { name, held: held(), type: typeText });
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
