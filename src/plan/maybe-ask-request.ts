// A maybe-ask helper's request half (maybe-ask-split.ts) as edits of the helper's own text:
// renamed, its unused parameters dropped, its returns wrapped (`return { value: x }`), each point
// it asks at returning its question (`return { ask: ... }`, or the inner helper's outcome handed
// on) with nothing after it in its list, and a `return { value: undefined }` where the body could end.
import type { Node, Statement } from '@babel/types';
import { annotatedType, argumentParams, isFunction, isNonReferencePosition, walk, type FunctionNode } from '../analyse/ast.ts';
import { REQUEST_CONTEXT } from '../analyse/capability-reads.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { type Edit, type Span, indentAt, lineStartOf } from '../core/vocabulary.ts';
import { removedAfter, statementSpan, type PointPlan } from './maybe-ask-point.ts';
import { endsExiting } from './try-split.ts';
import { paramText } from './param-patterns.ts';
import { requiredParam } from './split-helper.ts';
import type { SplitShape } from './types.ts';

/** One point's part of the request half: what replaces its statement, and the lines after it that go. */
export interface PointEdits {
  edits: Edit[];
  /** The statement and the removed lines (spans of the helper's text). */
  spans: Span[];
  /** The text that replaces the statement. */
  text: string;
}

/**
 * The point's statement as the request half has it: the question returned (`ask`: its lines),
 * with `carried` beside it, or the inner helper's outcome handed on (`passedOn`: its lines);
 * inside `if (guard)` when asked under one. `questions`: the points' statements that return.
 */
export function questionEdits(
  source: string,
  fn: FunctionNode,
  point: PointPlan,
  ask: readonly string[] | { passedOn: readonly string[] },
  carried: string | undefined,
  questions: ReadonlySet<Node>,
): PointEdits {
  const { path, statement } = point;
  const last = path[path.length - 1]!;
  const removed = removedAfter(source, path, questions as ReadonlySet<never>);
  const semi = semicolon(source, fn, statement);
  const outer = indentAt(source, statement.start!);
  const indent = last.guard ? `${outer}${blockIndent(source, statement) ?? '  '}` : outer;
  const [first, ...rest] = 'passedOn' in ask ? [] : ask;
  // The locals the result half reads that cannot be derived again go with the question.
  const beside = carried ? `carried: ${carried}` : undefined;
  const question =
    'passedOn' in ask
      ? ask.passedOn.join(`\n${indent}`)
      : rest.length === 0
        ? `return { ask: ${first}${beside ? `, ${beside}` : ''} }${semi}`
        : [
            'return {',
            `${indent}  ask: ${first}`,
            ...rest.slice(0, -1),
            `${rest[rest.length - 1]},`,
            ...(beside ? [`${indent}  ${beside},`] : []),
            `${indent}}${semi}`,
          ].join('\n');
  const text = (last.guard && `if (${source.slice(last.guard.start!, last.guard.end!)}) {\n${indent}${question}\n${outer}}`) || question;
  const spans = [statementSpan(statement), ...removed];
  return { edits: [...removed.map((r) => ({ ...r, text: '' })), { ...statementSpan(statement), text }], spans, text: question };
}

/** Expressions `await` takes as its operand without parentheses. */
const OPERAND_FORMS: ReadonlySet<string> = new Set(['CallExpression', 'OptionalCallExpression', 'Identifier', 'MemberExpression', 'OptionalMemberExpression']);

/**
 * The edits of the rest of the request half, around its points: receivers only the questions
 * read dropped, returns wrapped, `return { value: undefined }` where the body could end, and the
 * signature.
 */
export function bodyEdits(
  source: string,
  fn: FunctionNode,
  points: readonly PointEdits[],
  shape: SplitShape,
  signature: { returnType: string | undefined; typedContext: string | undefined; reads: ReadonlySet<string>; semi: string; awaited?: (value: Node) => boolean },
  questions: ReadonlySet<Node>,
): Edit[] {
  const spans = points.flatMap((p) => p.spans);
  const inPoint = (n: Node) => spans.some((r) => r.start <= n.start! && n.end! <= r.end);
  const edits: Edit[] = [...unboundReceivers(fn, spans, points.map((p) => p.text).join('\n'))];
  walk(fn.body, (node) => {
    if (inPoint(node)) return false;
    if (isFunction(node)) return false;
    if (node.type !== 'ReturnStatement') return undefined;
    if (node.argument) {
      // A promise it returned is awaited: `{ value }` holds what the caller awaited, as it did (an operator's operand in parentheses).
      const awaited = signature.awaited?.(node.argument) ? (OPERAND_FORMS.has(node.argument.type) ? 'await ' : 'await (') : '';
      edits.push(
        { start: node.argument.start!, end: node.argument.start!, text: `{ value: ${awaited}` },
        { start: node.argument.end!, end: node.argument.end!, text: awaited.endsWith('(') ? ') }' : ' }' },
      );
    } else edits.push({ start: node.start! + 'return'.length, end: node.start! + 'return'.length, text: ' { value: undefined }' });
    return false;
  });
  const body = fn.body as Extract<Node, { type: 'BlockStatement' }>;
  if (!endsExiting(body.body, questions as ReadonlySet<never>)) {
    const close = body.end! - 1;
    const indent = body.body[0] ? indentAt(source, body.body[0].start!) : `${indentAt(source, close)}  `;
    edits.push({ start: lineStartOf(source, close), end: lineStartOf(source, close), text: `${indent}return { value: undefined }${signature.semi}\n` });
  }
  const context = shape.takesContext ? (signature.typedContext ?? REQUEST_CONTEXT) : undefined;
  edits.push(...signatureEdits(source, fn, shape, signature.returnType, context, signature.reads));
  return edits;
}

/**
 * `const server = this.requireServer();` whose local only the request read (its receiver, gone
 * from the question): the local goes, the call stays for what it does (a guard that throws when
 * no server was injected). Edits that drop `const server = `.
 */
function unboundReceivers(fn: FunctionNode, replaced: readonly Span[], question: string): Edit[] {
  const edits: Edit[] = [];
  const body = fn.body as Extract<Node, { type: 'BlockStatement' }>;
  walk(body, (node) => {
    if (isFunction(node)) return false;
    if (node.type !== 'VariableDeclaration' || node.declarations.length !== 1) return undefined;
    const { id, init } = node.declarations[0]!;
    const call = init?.type === 'AwaitExpression' ? init.argument : init;
    if (id.type !== 'Identifier' || call?.type !== 'CallExpression' || replaced.some((r) => r.start <= node.start! && node.end! <= r.end)) return undefined;
    if (new RegExp(`(?<![\\w$.])${id.name.replace(/[$]/g, '\\$')}(?![\\w$])`).test(question)) return undefined;
    const read = (at: Node) => at !== id && !replaced.some((r) => r.start <= at.start! && at.end! <= r.end);
    let readElsewhere = false;
    walk(body, (ref, parents) => {
      const parent = parents[parents.length - 1];
      if (ref.type === 'Identifier' && ref.name === id.name && !(parent && isNonReferencePosition(ref, parent)) && read(ref)) readElsewhere = true;
      return undefined;
    });
    if (!readElsewhere) edits.push({ start: node.start!, end: init!.start!, text: '' });
    return false;
  });
  return edits;
}

/**
 * The question's lines, as `return { ask: <question> }` writes them: its lines after the first
 * one level deeper (those inside a template literal are data, and stay as they are).
 */
export function asked(source: string, fn: FunctionNode, site: LegacySite, text: string): string[] {
  const [first, ...rest] = text.split('\n');
  if (rest.length === 0) return [first!];
  const from = site.params && !site.via && !site.paramsRead ? site.params.start! : undefined;
  const literals = multilineLiterals(fn);
  const statementIndent = indentAt(source, site.call.start!);
  const next = rest.find((l) => l.trim() !== '');
  const unit =
    next && /^[ \t]*/.exec(next)![0].startsWith(statementIndent) && /^[ \t]*/.exec(next)![0].length > statementIndent.length
      ? /^[ \t]*/.exec(next)![0].slice(statementIndent.length)
      : '  ';
  let at = from;
  return [
    first!,
    ...rest.map((line) => {
      at = at === undefined ? undefined : source.indexOf('\n', at) + 1;
      const data = at === undefined || literals.some((v) => v.start < at! && at! < v.end);
      return data || line.trim() === '' ? line.replace(/\r$/, '') : unit + line.replace(/\r$/, '');
    }),
  ];
}

/**
 * The request half's parameters (those it reads, then `context`, the handler's context, when it
 * takes it) and return type (`returned`: a value or a question).
 */
function signatureEdits(
  source: string,
  fn: FunctionNode,
  shape: SplitShape,
  returned: string | undefined,
  context: string | undefined,
  reads: ReadonlySet<string>,
): Edit[] {
  const edits: Edit[] = [];
  const own = argumentParams(fn);
  const texts = own.map((p) => paramText(source, p, reads));
  const pruned = own.some((p, i) => shape.requestArgs[i] && texts[i] !== source.slice(p.start!, p.end!));
  if (own.length > 0 && (shape.requestArgs.some((used) => !used) || context || pruned)) {
    const first = own[0]!;
    const last = own[own.length - 1]!;
    // The `this` parameter, when there is one, stays where it is.
    const used = own.flatMap((p, i) => (shape.requestArgs[i] ? [context && p.type === 'Identifier' ? requiredParam(source, p) : texts[i]!] : []));
    const kept = [...used, context].filter(Boolean).join(', ');
    const start = kept === '' && fn.params.length > own.length ? fn.params[0]!.end! : first.start!;
    edits.push({ start, end: last.end!, text: kept });
  } else if (context) {
    // No parameter of its own (a `this` one, if any, stays first): the context goes inside the parentheses.
    const from = fn.type === 'ClassMethod' || fn.type === 'ObjectMethod' ? fn.key.end! : fn.start!;
    const at = fn.params.length > 0 ? fn.params[fn.params.length - 1]!.end! : source.indexOf('(', from) + 1;
    edits.push({ start: at, end: at, text: fn.params.length > 0 ? `, ${context}` : context });
  }
  const returnType = annotatedType(fn.returnType);
  if (returned !== undefined && returnType) edits.push({ start: returnType.start!, end: returnType.end!, text: returned });
  return edits;
}

/** The `;` that ends the helper's simple statements, as the question's statement (or, for an if, the body's first such) writes it. */
export function semicolon(source: string, fn: FunctionNode, statement: Statement): string {
  const simple =
    statement.type === 'IfStatement'
      ? (fn.body as Extract<Node, { type: 'BlockStatement' }>).body.find((s) => s.type !== 'IfStatement' && !/Block|Try|Loop|While|For|Switch/.test(s.type))
      : statement;
  return !simple || source[simple.end! - 1] === ';' ? ';' : '';
}

/** The indentation one block deeper than the if statement, as its consequent's first line has it. */
function blockIndent(source: string, statement: Statement): string | undefined {
  const inner = statement.type === 'IfStatement' && statement.consequent.type === 'BlockStatement' ? statement.consequent.body[0] : undefined;
  const own = indentAt(source, statement.start!);
  const deeper = inner && indentAt(source, inner.start!);
  return deeper && deeper.startsWith(own) && deeper.length > own.length ? deeper.slice(own.length) : undefined;
}

/** Template literals over several lines: their lines are data, never re-indented. */
export function multilineLiterals(fn: FunctionNode): Span[] {
  const spans: Span[] = [];
  walk(fn.body, (node) => {
    if (node.type === 'TemplateLiteral' && node.loc && node.loc.start.line !== node.loc.end.line) spans.push({ start: node.start!, end: node.end! });
    return undefined;
  });
  return spans;
}

/** The helper's name where it is declared, as the request half's. */
export function renamed(declaration: Node, fn: FunctionNode, name: string): Edit {
  const held = declaration.type === 'ExportNamedDeclaration' ? declaration.declaration! : declaration;
  const id =
    fn.type === 'FunctionDeclaration'
      ? fn.id!
      : fn.type === 'ClassMethod'
        ? fn.key
        : (held as Extract<Node, { type: 'VariableDeclaration' }>).declarations[0]!.id;
  return { start: id.start!, end: id.start! + name.length, text: `${name}Request` };
}

/** A request half's text with the handler's context passed last, when the inner helper's request half takes it. */
export function withContext(request: { text: string; names: Set<string> }, add: boolean): { text: string; names: Set<string> } {
  if (!add) return request;
  return { ...request, text: `${request.text.slice(0, -1)}${request.text.endsWith('()') ? '' : ', '}${REQUEST_CONTEXT})` };
}
