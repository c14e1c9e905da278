// From the analysis of one file to its plan: per handler, the suspension points, what
// travels across each, and the keys; per refused site, a marker with the reason and the
// next step. A handler is migrated whole or not at all: one site we cannot move safely
// leaves the whole handler as it was, with every site marked.
import type { Node, Statement } from '@babel/types';
import { boundNames, referencedNames, walk } from '../analyse/ast.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { KINDS, SERVER_PACKAGE } from '../analyse/sdk-surface.ts';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import { declaredBy, namesAssignedIn, namesReadIn, type Declared } from './liveness.ts';
import { jsonUnsafeInitializer } from './serialisable.ts';
import { indentAt, lineStartOf, lineTail, startsLine } from './text.ts';
import { HELPER_IMPORTS, HELPERS_SENTINEL } from '../rewrite/helpers-block.ts';
import type { Binding, Edit, FilePlan, HandlerPlan, LiftedLocal, Marker, SiteReport, SuspensionPoint } from './types.ts';

export interface PlanOptions {
  typeFacts?: TypeFacts;
}

/** A site that cannot be migrated: why, and what the user should do. */
export class Refusal {
  constructor(
    readonly code: string,
    readonly reason: string,
    readonly next: string,
    readonly site?: LegacySite,
  ) {}
}

const MANUAL_STEP =
  'migrate by hand: return inputRequired({ inputRequests, requestState }) and resume from ctx.mcpReq.requestState() on the retry';

export function planFile(analysis: FileAnalysis, options: PlanOptions = {}): FilePlan {
  const { source, sites, handlers } = analysis;
  const markers: Marker[] = [];
  const reports: SiteReport[] = [];
  const planned: HandlerPlan[] = [];

  const byHandler = new Map<HandlerSite, LegacySite[]>();
  for (const site of sites) {
    const owner = handlers.find((h) => site.functions.includes(h.fn));
    if (!owner) {
      mark(site, new Refusal(
        'no-request-to-answer',
        'this server→client request runs outside a tools/call, prompts/get or resources/read handler, and only those may answer input_required in MCP 2026-07-28.',
        'ask from inside a tool, prompt or resource handler with inputRequired(...), or stop asking (take roots or other input as tool parameters).',
      ));
      continue;
    }
    const list = byHandler.get(owner) ?? [];
    list.push(site);
    byHandler.set(owner, list);
  }

  for (const [handler, handlerSites] of byHandler) {
    const result = planHandler(analysis, handler, handlerSites, options);
    if (result instanceof Refusal) {
      for (const site of handlerSites) {
        const own = result.site === undefined || result.site === site;
        mark(site, own ? result : new Refusal('blocked-by-sibling', `this handler is left as it was because another request in it cannot be migrated (line ${result.site!.call.loc!.start.line}: ${result.code}).`, 'fix that site first, then run the codemod again.'), handler);
      }
      continue;
    }
    planned.push(result);
    for (const p of result.points) {
      reports.push({ line: p.line, column: p.column, kind: p.kind, handler: result.id, status: 'migrated', lifted: p.lifted.map((l) => l.name), guidance: KINDS[p.kind].guidance });
    }
  }

  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const edits: Edit[] = [];
  let exportCodec = false;
  const needsHelpers = planned.length > 0 && !source.includes(HELPERS_SENTINEL);
  if (planned.length > 0) {
    if (analysis.serverConstructions.length === 0) {
      exportCodec = needsHelpers;
      reports.push({
        line: 1, column: 1, kind: planned[0]!.points[0]!.kind, status: 'marked', code: 'server-elsewhere',
        reason: 'no `new McpServer(...)` in this file, so the request-state verifier could not be wired here.',
        next: 'add `requestState: { verify: mrtrCodec.verify }` to the McpServer options where the server is constructed (mrtrCodec is exported from this file).',
      });
    }
    for (const construction of analysis.serverConstructions) edits.push(...wireVerifier(source, construction));
  }

  const typeImports = new Set<string>();
  for (const h of planned) {
    if (h.returnTypeEdit) typeImports.add('type InputRequiredResult');
    for (const p of h.points) if (analysis.typed) for (const t of p.resultType.split('|')) typeImports.add(`type ${t.trim()}`);
  }
  const wanted = planned.length === 0 ? [] : [...HELPER_IMPORTS.filter((name) => analysis.typed || !name.startsWith('type ')), ...[...typeImports].filter((t) => /^type [A-Z]\w*$/.test(t))];
  const have = analysis.serverImport?.names ?? new Set<string>();
  const imports = wanted.filter((name) => !have.has(name.replace(/^type /, '')));
  const clash = imports.find((name) => analysis.topLevelNames.has(name.replace(/^type /, '')));
  if (clash) {
    // Importing a name the module already declares would not compile: refuse the whole file.
    const refusal = new Refusal('name-clash', `the module already declares \`${clash.replace(/^type /, '')}\`, which the migration imports from ${SERVER_PACKAGE}.`, 'rename the local declaration, then run again.');
    for (const site of sites) if (planned.some((h) => site.functions.some((f) => f.body.start === h.body.start))) mark(site, refusal);
    const kept = reports.filter((r) => r.status !== 'migrated');
    return { handlers: [], markers, sites: kept, imports: [], edits: [], needsHelpers: false, exportCodec: false, typed: analysis.typed, helpersAt: analysis.afterImports, eol };
  }
  if (imports.length > 0) edits.push(importEdit(analysis, imports));

  return {
    handlers: planned,
    markers,
    sites: reports,
    imports,
    edits,
    needsHelpers,
    exportCodec,
    typed: analysis.typed,
    helpersAt: analysis.afterImports,
    eol,
  };

  function mark(site: LegacySite, refusal: Refusal, handler?: HandlerSite) {
    const statement = [...site.ancestors].reverse().find(isStatementLike) ?? site.call;
    const lineStart = lineStartOf(source, statement.start!);
    const indent = indentAt(source, statement.start!);
    const { line, column } = site.call.loc!.start;
    reports.push({
      line, column: column + 1, kind: site.kind ?? 'elicit', handler: handler ? handlerId(handler) : undefined, status: 'marked',
      code: refusal.code, reason: refusal.reason, next: refusal.next, guidance: site.kind ? KINDS[site.kind].guidance : undefined,
    });
    if (markers.some((m) => m.lineStart === lineStart)) return;
    markers.push({ lineStart, indent, code: refusal.code, reason: refusal.reason, next: refusal.next });
  }
}

function isStatementLike(node: Node): boolean {
  return /Statement$|Declaration$/.test(node.type) && node.type !== 'BlockStatement';
}

export function handlerId(handler: HandlerSite): string {
  return `${handler.kind}:${handler.name}`;
}

function planHandler(analysis: FileAnalysis, handler: HandlerSite, sites: LegacySite[], options: PlanOptions): HandlerPlan | Refusal {
  const { source } = analysis;
  const fn = handler.fn;
  const id = handlerId(handler);
  if (fn.body.type !== 'BlockStatement') {
    return new Refusal('expression-body', 'the handler body is a single expression.', `give the handler a block body ({ ... }) and run again, or ${MANUAL_STEP}.`, sites[0]);
  }
  const statements = fn.body.body;

  // Each site must be the awaited call of its own top-level statement.
  const points: Array<{ site: LegacySite; index: number; binding: Binding }> = [];
  for (const site of sites) {
    if (site.enclosing !== fn) {
      return new Refusal('closure', 'the request is made inside a function nested in the handler, which the handler cannot suspend.', `lift the request out of the nested function into the handler body, or ${MANUAL_STEP}.`, site);
    }
    if (site.kind === undefined) {
      return new Refusal('unknown-request', 'the request object is not a literal, so the codemod cannot tell which request it sends.', `write the request inline as { method: 'elicitation/create', params: ... }, or ${MANUAL_STEP}.`, site);
    }
    if (site.kind === 'elicitUrl') {
      return new Refusal('url-elicitation', 'URL-mode elicitation is not migrated yet.', `return inputRequired({ inputRequests: { key: inputRequired.elicitUrl({ message, url }) } }) and read the response on the retry.`, site);
    }
    const index = statements.findIndex((s) => s.start! <= site.call.start! && site.call.end! <= s.end!);
    const binding = index === -1 ? undefined : bindingOf(statements[index]!, site.call, source);
    if (!binding) {
      return new Refusal('nested-site', 'the request is awaited inside a block, condition or larger expression, which this version does not restructure.', `make the awaited call its own statement in the handler body (const x = await ...), or ${MANUAL_STEP}.`, site);
    }
    const statement = statements[index]!;
    if (!startsLine(source, statement.start!) || lineTail(source, statement.end!) === undefined) {
      return new Refusal('layout', 'the statement shares its line with other code.', 'put the awaited call on a line of its own and run again.', site);
    }
    if (points.some((p) => p.index === index)) {
      return new Refusal('nested-site', 'two requests are awaited in one statement.', `split them into separate statements, or ${MANUAL_STEP}.`, site);
    }
    points.push({ site, index, binding });
  }
  points.sort((a, b) => a.index - b.index);

  // The context parameter: used for requestState, and required by `ctx.mcpReq.*` sites.
  const ctxParam = fn.params[handler.ctxIndex];
  let ctxName: string;
  let addParam: HandlerPlan['addParam'];
  const bodyNames = referencedNames(fn.body);
  if (ctxParam) {
    if (ctxParam.type !== 'Identifier') {
      return new Refusal('context-pattern', 'the handler destructures its context parameter.', 'name the context parameter (ctx) and destructure inside the body, then run again.', sites[0]);
    }
    ctxName = ctxParam.name;
  } else {
    if (fn.params.length !== handler.ctxIndex) {
      return new Refusal('context-pattern', 'the handler parameters do not match the registration.', MANUAL_STEP, sites[0]);
    }
    ctxName = bodyNames.has('ctx') ? 'mrtrCtx' : 'ctx';
    addParam = contextParamInsertion(source, fn, ctxName, handler.ctxIndex);
    if (!addParam) return new Refusal('context-pattern', 'cannot add a context parameter to this handler.', MANUAL_STEP, sites[0]);
  }
  for (const { site } of points) {
    if (site.shape.receiver !== '*.server' && site.receiverHead !== ctxName) {
      return new Refusal('foreign-context', `the request goes through \`${site.receiverHead}\`, not this handler's own context \`${ctxName}\`.`, `make the request through the handler's context (${ctxName}), or ${MANUAL_STEP}.`, site);
    }
  }
  if (bodyNames.has('mrtr')) {
    return new Refusal('name-clash', 'the handler already uses the name `mrtr`, which the migration needs.', 'rename that variable and run again.', sites[0]);
  }

  // An explicit `Promise<X>` return type must admit the input_required result.
  let returnTypeEdit: Edit | undefined;
  const returnType = fn.returnType;
  if (returnType && returnType.type === 'TSTypeAnnotation') {
    const text = source.slice(returnType.typeAnnotation.start!, returnType.typeAnnotation.end!);
    const promised = /^Promise<([\s\S]*)>$/.exec(text);
    if (!promised) {
      return new Refusal('return-type', `the handler's return type \`${text}\` is not a Promise the codemod can widen.`, 'widen it to Promise<... | InputRequiredResult> (or drop it), then run again.', sites[0]);
    }
    if (!/\bInputRequiredResult\b/.test(text)) {
      returnTypeEdit = { start: returnType.typeAnnotation.start!, end: returnType.typeAnnotation.end!, text: `Promise<${promised[1]} | InputRequiredResult>` };
    }
  }

  // Arguments are re-sent on every retry, so they need not travel, but they must not change.
  const argParams = fn.params.slice(0, handler.ctxIndex);
  const argNames = new Set(argParams.flatMap((p) => boundNames(p).map((b) => b.name)));
  const lastIndex = points[points.length - 1]!.index;
  for (const name of namesAssignedIn(statements.slice(0, lastIndex))) {
    if (argNames.has(name)) {
      return new Refusal('param-reassigned', `the argument \`${name}\` is reassigned before a question; a retry re-sends the original arguments.`, 'assign to a new local instead of the parameter, then run again.', points[0]!.site);
    }
  }

  // Liveness: what each point must carry.
  const keys = uniqueKeys(points.map((p) => p.binding));
  const declaredSoFar: Declared[] = [];
  const planPoints: SuspensionPoint[] = [];
  let previous = -1;
  for (let i = 0; i < points.length; i++) {
    const { site, index, binding } = points[i]!;
    // In source order: the previous point's own answer, then the segment after it.
    if (i > 0) declaredSoFar.push(...declaredBy(statements[points[i - 1]!.index]!));
    for (const s of statements.slice(previous + 1, index)) declaredSoFar.push(...declaredBy(s));
    previous = index;
    const readAfter = namesReadIn(statements.slice(index + 1));
    const seen = new Set<string>();
    const lifted: LiftedLocal[] = [];
    for (const d of declaredSoFar) {
      if (!readAfter.has(d.name) || seen.has(d.name)) continue;
      seen.add(d.name);
      const result = liftLocal(analysis, d, points, statements, options.typeFacts);
      if (result instanceof Refusal) return new Refusal(result.code, result.reason, result.next, site);
      lifted.push(result);
    }
    const kind = site.kind!;
    const paramsText = site.params ? source.slice(site.params.start!, site.params.end!) : '';
    const resultType = (binding.form === 'declare' && binding.annotation) || site.shape.resultType || KINDS[kind].resultType;
    const { line, column } = site.call.loc!.start;
    planPoints.push({
      key: keys[i]!,
      kind,
      requestText: `${KINDS[kind].builder}(${paramsText})`,
      paramsStart: site.params?.start ?? site.call.start!,
      legacyText: source.slice(site.call.start!, site.call.end!),
      resultType,
      guard: kind === 'elicitUrl' ? 'elicit' : kind,
      statement: { start: statements[index]!.start!, end: statements[index]!.end! },
      binding,
      lifted,
      line,
      column: column + 1,
    });
  }

  return {
    id,
    kind: handler.kind,
    body: { start: fn.body.start!, end: fn.body.end! },
    points: planPoints,
    ctxName,
    addParam,
    returnTypeEdit,
    argsText: argsDigestText(argParams, handler.kind, source),
    line: handler.call.loc!.start.line,
    verbatim: verbatimSpans(fn.body),
  };
}

function bindingOf(statement: Statement, call: Node, source: string): Binding | undefined {
  const isAwaitOfCall = (node: Node | null | undefined) => node?.type === 'AwaitExpression' && node.argument === call;
  if (statement.type === 'VariableDeclaration' && statement.declarations.length === 1) {
    const d = statement.declarations[0]!;
    if (d.id.type === 'Identifier' && isAwaitOfCall(d.init)) {
      const ann = d.id.typeAnnotation;
      const annotation = ann && ann.type === 'TSTypeAnnotation' ? source.slice(ann.typeAnnotation.start!, ann.typeAnnotation.end!) : undefined;
      return { form: 'declare', kind: statement.kind as 'const' | 'let' | 'var', name: d.id.name, annotation };
    }
    return undefined;
  }
  if (statement.type === 'ExpressionStatement') {
    const e = statement.expression;
    if (isAwaitOfCall(e)) return { form: 'discard' };
    if (e.type === 'AssignmentExpression' && e.operator === '=' && e.left.type === 'Identifier' && isAwaitOfCall(e.right)) {
      return { form: 'assign', name: e.left.name };
    }
    return undefined;
  }
  if (statement.type === 'ReturnStatement' && isAwaitOfCall(statement.argument)) return { form: 'return' };
  return undefined;
}

function uniqueKeys(bindings: Binding[]): string[] {
  const used = new Set<string>();
  return bindings.map((b, i) => {
    const base = b.form === 'declare' || b.form === 'assign' ? b.name : `input${i + 1}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}${n}`;
    used.add(key);
    return key;
  });
}

function liftLocal(
  analysis: FileAnalysis,
  declared: Declared,
  points: Array<{ index: number; binding: Binding; site: LegacySite }>,
  statements: Statement[],
  facts: TypeFacts | undefined,
): LiftedLocal | Refusal {
  const { source } = analysis;
  if (declared.via !== 'variable') {
    return new Refusal('unserialisable-local', `the ${declared.via} \`${declared.name}\` is declared before a question and used after it; it cannot travel in requestState.`, `move \`${declared.name}\` out of the handler (or below the last question), then run again.`);
  }
  // A point's own answer: its type is the legacy call's result, which is plain JSON.
  const asAnswer = points.find((p) => (p.binding.form === 'declare' || p.binding.form === 'assign') && p.binding.name === declared.name && statements[p.index]!.start! <= declared.start && declared.start < statements[p.index]!.end!);
  if (asAnswer) {
    const typeText = analysis.typed ? (asAnswer.binding.form === 'declare' && asAnswer.binding.annotation) || asAnswer.site.shape.resultType || KINDS[asAnswer.site.kind!].resultType : undefined;
    return { name: declared.name, mutable: declared.mutable, typeText };
  }
  const fact = facts?.local(declared.name, declared.start);
  if (fact && !fact.jsonSafe) {
    return new Refusal('unserialisable-local', `\`${declared.name}\` lives across a question but ${fact.why ?? 'does not survive a JSON round trip'}.`, `recompute \`${declared.name}\` after the answer, or keep a JSON form of it and rebuild it, then run again.`);
  }
  const syntactic = declared.init ? jsonUnsafeInitializer(declared.init) : undefined;
  if (syntactic) {
    return new Refusal('unserialisable-local', `\`${declared.name}\` lives across a question but holds ${syntactic}, which does not survive a JSON round trip.`, `recompute \`${declared.name}\` after the answer, or keep a JSON form of it and rebuild it, then run again.`);
  }
  if (!analysis.typed) return { name: declared.name, mutable: declared.mutable };
  const annotation = declared.annotation && declared.annotation.type === 'TSTypeAnnotation' ? source.slice(declared.annotation.typeAnnotation.start!, declared.annotation.typeAnnotation.end!) : undefined;
  const typeText = annotation ?? fact?.text;
  if (!typeText) {
    return new Refusal('untyped-local', `the type of \`${declared.name}\`, which lives across a question, cannot be named here${facts ? '' : ' (no type information was available)'}.`, `annotate the declaration of \`${declared.name}\` with its type, then run again.`);
  }
  return { name: declared.name, mutable: declared.mutable, typeText };
}

/** The expression digested into requestState so state minted for other arguments is refused. */
function argsDigestText(params: Node[], kind: HandlerSite['kind'], source: string): string {
  if (params.length === 0) return '{}';
  const parts = params.map((p, i) => {
    if (p.type === 'Identifier') return kind === 'resource' && i === 0 ? `${p.name}.href` : p.name;
    const names = boundNames(p).map((b) => b.name);
    return `{ ${names.join(', ')} }`;
  });
  void source;
  return parts.length === 1 ? parts[0]! : `[${parts.join(', ')}]`;
}

function contextParamInsertion(source: string, fn: HandlerSite['fn'], name: string, index: number): HandlerPlan['addParam'] {
  const before = index === 0 ? '' : '_args, ';
  if (fn.params.length > 0) {
    const last = fn.params[fn.params.length - 1]!;
    const parenthesised = source.slice(fn.start!, last.start!).includes('(');
    if (!parenthesised) return { at: last.start!, text: '(', close: { at: last.end!, text: `, ${name})` } };
    return { at: last.end!, text: `, ${name}` };
  }
  const open = source.indexOf('(', fn.type === 'ArrowFunctionExpression' ? fn.start! : (fn as { id?: Node | null }).id?.end ?? fn.start!);
  if (open === -1 || open > fn.body.start!) return undefined;
  return { at: open + 1, text: `${before}${name}` };
}

/** Template literals keep their line contents exactly: re-indenting them would change strings. */
function verbatimSpans(body: Node): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  walk(body, (node) => {
    if (node.type === 'TemplateLiteral' || node.type === 'StringLiteral') spans.push({ start: node.start!, end: node.end! });
    return undefined;
  });
  return spans;
}

/** Adds `requestState: { verify: mrtrCodec.verify }` to one `new McpServer(...)`. */
function wireVerifier(source: string, construction: Node): Edit[] {
  if (construction.type !== 'NewExpression') return [];
  const args = construction.arguments;
  const verifier = 'requestState: { verify: mrtrCodec.verify }';
  if (args.length === 0) return [];
  if (args.length === 1) {
    const first = args[0]!;
    return [{ start: first.end!, end: first.end!, text: `, { ${verifier} }` }];
  }
  const options = args[1]!;
  if (options.type === 'ObjectExpression') {
    const existing = options.properties.find((p) => p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && p.key.name === 'requestState');
    if (existing) return [];
    if (options.properties.length === 0) return [{ start: options.start!, end: options.end!, text: `{ ${verifier} }` }];
    const last = options.properties[options.properties.length - 1]!;
    const multiline = source.slice(options.start!, options.end!).includes('\n');
    if (multiline) {
      const indent = indentAt(source, last.start!);
      const afterLast = source.slice(last.end!, options.end! - 1);
      const hasTrailingComma = /^\s*,/.test(afterLast);
      const at = hasTrailingComma ? last.end! + afterLast.indexOf(',') + 1 : last.end!;
      return [{ start: at, end: at, text: `${hasTrailingComma ? '' : ','}\n${indent}${verifier}${hasTrailingComma ? ',' : ''}` }];
    }
    return [{ start: last.end!, end: last.end!, text: `, ${verifier}` }];
  }
  return [{ start: options.start!, end: options.end!, text: `{ ...${source.slice(options.start!, options.end!)}, ${verifier} }` }];
}

/** Merges the names the migration needs into the existing server import, or adds one. */
function importEdit(analysis: FileAnalysis, names: string[]): Edit {
  const { source } = analysis;
  const existing = analysis.serverImport?.node;
  if (existing && existing.type === 'ImportDeclaration' && existing.specifiers.length > 0) {
    const last = existing.specifiers[existing.specifiers.length - 1]!;
    const close = source.indexOf('}', last.end!);
    const between = source.slice(last.end!, close);
    const trailingComma = /^\s*,/.test(between);
    if (source.slice(existing.start!, existing.end!).includes('\n')) {
      const indent = indentAt(source, last.start!);
      const at = trailingComma ? last.end! + between.indexOf(',') + 1 : last.end!;
      const text = names.map((n, i) => `${i === 0 && !trailingComma ? ',' : ''}\n${indent}${n}${i < names.length - 1 || trailingComma ? ',' : ''}`).join('');
      return { start: at, end: at, text };
    }
    const open = source.lastIndexOf('{', existing.specifiers[0]!.start!);
    const merged = [...existing.specifiers.map((sp) => source.slice(sp.start!, sp.end!)), ...names];
    const oneLine = `${source.slice(existing.start!, open)}{ ${merged.join(', ')} }${source.slice(close + 1, existing.end!)}`;
    if (oneLine.length <= 100) return { start: last.end!, end: last.end!, text: `, ${names.join(', ')}` };
    // Too long for one line: one specifier a line, as a formatter would print it.
    const eol = source.includes('\r\n') ? '\r\n' : '\n';
    return { start: open, end: close + 1, text: `{${eol}${merged.map((m) => `  ${m},${eol}`).join('')}}` };
  }
  const at = analysis.afterImports;
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const statement = `import { ${names.join(', ')} } from '${SERVER_PACKAGE}';`;
  return at === 0 ? { start: 0, end: 0, text: statement + eol } : { start: at, end: at, text: eol + statement };
}
