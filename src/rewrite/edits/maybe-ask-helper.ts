// A helper that may answer without asking, split in two (see src/plan/maybe-ask-split.ts), as
// the edit that replaces its declaration: `xRequest(...)`, the helper as it was up to its
// question, resolving to `{ value }` or `{ ask }`, and `xResult(answer, ...)`, the code after
// the question, then the code after each block around it, each under a comment saying why.
import type { Node } from '@babel/types';
import { lineComment } from '../../core/escape.ts';
import { type Edit, type Span, indentAt, lineEndOf, lineStartOf } from '../../core/vocabulary.ts';
import { asyncHead, type LegacyEntry } from './split-helper.ts';
import { withoutUnreadLets } from './unread-lets.ts';

/** One list on the way from the helper's body to its question, innermost first. */
export interface ContinuationFrame {
  /** The indentation of the list's statement on the way (for the innermost, the question). */
  indent: string;
  /** The whole lines after that statement in the list. */
  after?: Span;
  /** That statement is a try whose block holds the inner list: the code after the question re-enters it (`try {` ... `} catch ...`, the tail up to its end). */
  tried?: { head: Span; tail: Span };
  /** Text inside `after` written otherwise (on one line): the awaited question in an if's test, lifted out of it, as the value's name. */
  replaced?: Edit;
}

export interface MaybeAskHalves {
  /** The helper's declaration (a function, a const, a method): its lines are replaced. */
  declaration: Node;
  /** What the result half starts with: `function `, `export function `, or a method's modifiers. */
  head: string;
  name: string;
  /** The request half: the declaration's own text with these edits (offsets into the source). */
  request: Edit[];
  /** The result half, absent when the helper returned the answer as it was. */
  result?: {
    params: string;
    returnType?: string;
    /** It awaits what the helper awaited after its question (or an async inner result half). */
    async?: boolean;
    /** A statement before the code after the question (the answer taken through an inner helper's result). */
    first?: string;
    /** Statements before the question the result half runs again (their text, and the indentation of their list), first of all. */
    rederived?: Rederived[];
    frames: ContinuationFrame[];
    /** Lines inside these spans are data (template literals): never re-indented. */
    verbatim: Span[];
  };
  /**
   * Set when the helper goes on with an inner helper's value: `result` is then written as
   * `xThen(value, ...)`, which the request half calls too, and `xResult(answer, ...)` returns `call`.
   */
  forward?: Forward;
  /**
   * Set when the helper may ask at one of several points: `xResult` (these parameters) goes on
   * from the point that asked, `mrtrCarried.at`, each point's code after it in its `xThenN`.
   */
  points?: { params: string; returnType?: string; async?: boolean; arms: PointArm[] };
  /** The helper kept under its name for calls that cannot ask through the halves (plan/legacy-entry.ts), written first. */
  entry?: LegacyEntry;
}

/** A statement run again: its span, the indentation of its list, and what ends it when the span stops short (`let x: T` of `let x: T = …`). */
export interface Rederived {
  span: Span;
  indent: string;
  close?: string;
}

/** How `xResult` goes on with an inner helper's answer: it derives again (`rederived`), takes out carried locals (`declares`), and returns `call`. */
export interface Forward {
  params: string;
  returnType?: string;
  async?: boolean;
  call: string;
  rederived?: Rederived[];
  declares?: string;
  /**
   * The inner value is made in the try the helper's call was alone in, then `call` goes on with
   * it (plan/try-through.ts): the try's `try {` line, its catch block, their indentation, the
   * local it is held in (`name`) and the inner result call (`value`), typed `type` where the file is.
   */
  caught?: { head: Span; tail: Span; indent: string; inner: string; name: string; value: string; type?: string };
}

/** One point of several: its number, how `xResult` goes on from it (its parameters unused), and its `xThenN`. */
export interface PointArm {
  at: number;
  forward: Forward;
  result: NonNullable<MaybeAskHalves['result']>;
}

export function maybeAskHelperEdit(source: string, eol: string, halves: MaybeAskHalves): Edit {
  const { declaration, name } = halves;
  const indent = indentAt(source, declaration.start!);
  const start = lineStartOf(source, declaration.start!);
  let end = lineEndOf(source, declaration.end!);
  if (source[end - 1] === '\r') end--;
  const why = halves.points
    ? [
        `${name}() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each`,
        `handler calls ${name}Request(), which resolves to the question to ask at one of its points ({ ask },`,
        `carried.at saying which) or to what ${name}() returned without asking ({ value }); once answered,`,
        `${name}Result() goes on from that point in ${name}Then1(), ${name}Then2()...`,
      ]
    : halves.forward
      ? [
          `${name}() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each`,
          `handler calls ${name}Request(), which resolves to the question to ask ({ ask }) or to what ${name}()`,
          `returned without asking ({ value }); once answered, ${name}Result() computes it. Both go on in ${name}Then().`,
        ]
      : halves.result
        ? [
            `${name}() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each`,
            `handler calls ${name}Request(), which resolves to what ${name}() returned without asking`,
            `({ value }) or to the question to ask ({ ask }); once answered, ${name}Result() computes the value.`,
          ]
        : [
            `${name}() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each`,
            `handler calls ${name}Request(), which resolves to what ${name}() returned without asking`,
            '({ value }) or to the question to ask ({ ask }), whose answer is the value.',
          ];
  const entry = halves.entry ? [`${indent}${halves.entry.signature}{`, ...halves.entry.body, `${indent}}`, ''] : [];
  const lines = [...entry, ...why.map((l) => indent + lineComment('', l)), ...withoutUnreadLets(applied(source, start, end, halves.request)).split(/\r?\n/)];
  const signature = (suffix: string, params: string, returnType: string | undefined, async?: boolean) =>
    `${indent}${async ? asyncHead(halves.head) : halves.head}${name}${suffix}(${params})${returnType ? `: ${returnType}` : ''} {`;
  if (halves.forward) {
    const { params, returnType, async } = halves.forward;
    const body = halves.result?.frames.at(-1)?.indent ?? `${indent}  `;
    lines.push('', signature('Result', params, returnType, async), ...goingOn(source, halves.forward, body, halves.result?.verbatim ?? []), `${indent}}`);
  }
  if (halves.points) {
    const { params, returnType, async, arms } = halves.points;
    const body = arms[0]!.result.frames.at(-1)!.indent;
    lines.push('', signature('Result', params, returnType, async), ...dispatched(source, arms, indent, body), `${indent}}`);
    for (const a of arms)
      lines.push('', signature(`Then${a.at}`, a.result.params, a.result.returnType, a.result.async), ...resultBody(source, a.result), `${indent}}`);
  }
  if (halves.result) {
    const { params, returnType, async } = halves.result;
    lines.push('', signature(halves.forward ? 'Then' : 'Result', params, returnType, async), ...resultBody(source, halves.result), `${indent}}`);
  }
  return { start, end, text: lines.join(eol) };
}

/** What `xResult` does to go on with the inner answer: derive again, take out carried locals, and return the call. */
function goingOn(source: string, forward: Forward, body: string, verbatim: readonly Span[]): string[] {
  const again = derivedAgain(source, forward.rederived ?? [], body, verbatim).map((l) => l.text);
  const caught = forward.caught ? caughtLines(source, forward.caught, body) : [];
  return [...again, ...(forward.declares ? [`${body}${forward.declares}`] : []), ...caught, `${body}return ${forward.call};`];
}

/** `let mrtrValue; try { mrtrValue = <inner result call>; } catch (e) { ... }`, the try and its catch block as written, moved to `body`. */
function caughtLines(source: string, caught: NonNullable<Forward['caught']>, body: string): string[] {
  const { head, tail, indent, inner, name, value, type } = caught;
  const move = (line: string) => (line.startsWith(indent) ? body + line.slice(indent.length) : line);
  const unit = inner.startsWith(indent) && inner.length > indent.length ? inner.slice(indent.length) : '  ';
  const lines = (span: Span) => source.slice(span.start, span.end).replace(/\r/g, '').split('\n');
  return [
    `${body}let ${name}${type ? `: ${type}` : ''};`,
    ...lines({ start: lineStartOf(source, head.start), end: head.end }).map(move),
    `${body}${unit}${name} = ${value};`,
    ...lines(tail).map(move),
  ];
}

/** `xResult`'s body over several points: each but the last under `if (mrtrCarried.at === N)`, the last as what is left. */
function dispatched(source: string, arms: readonly PointArm[], indent: string, body: string): string[] {
  const unit = body.startsWith(indent) && body.length > indent.length ? body.slice(indent.length) : '  ';
  const lines: string[] = [];
  for (const a of arms.slice(0, -1)) {
    const test = `if (mrtrCarried.at === ${a.at})`;
    const own = goingOn(source, a.forward, `${body}${unit}`, a.result.verbatim);
    lines.push(...(own.length === 1 ? [`${body}${test} ${own[0]!.trim()}`] : [`${body}${test} {`, ...own, `${body}}`]));
  }
  const last = arms[arms.length - 1]!;
  return [...lines, ...goingOn(source, last.forward, body, last.result.verbatim)];
}

/** source[from, to) with the edits applied. */
function applied(source: string, from: number, to: number, edits: readonly Edit[]): string {
  let out = '';
  let at = from;
  for (const e of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    out += source.slice(at, e.start) + e.text;
    at = Math.max(at, e.end);
  }
  return out + source.slice(at, to);
}

/** A line of the result half, and whether it is data (inside a template literal) that keeps its text. */
interface Line {
  text: string;
  verbatim: boolean;
}

/** The lines after the question inside a try's block, in that try again (`try {`, the lines as they were, then the catch and finally blocks as written). */
function retried(source: string, indent: string, tried: { head: Span; tail: Span }, lines: Line[], linesOf: (span: Span) => Line[]): Line[] {
  const ownLine = (from: number) => indent + source.slice(from, lineEndOf(source, from)).replace(/\r$/, '');
  const rest = lineEndOf(source, tried.tail.start) + 1;
  return [
    { text: ownLine(tried.head.start), verbatim: false },
    ...lines,
    { text: ownLine(tried.tail.start), verbatim: false },
    ...(rest < tried.tail.end ? linesOf({ start: rest, end: tried.tail.end }) : []),
  ];
}

/** The code after the question, then each list's rest after the block the question was in, re-indented to the list's level. */
function resultBody(source: string, result: NonNullable<MaybeAskHalves['result']>): string[] {
  const { frames, verbatim, first } = result;
  const linesOf = (span: Span | undefined) => spanLines(source, span, verbatim);
  let lines: Line[] = [
    ...(first ? [{ text: frames[0]!.indent + first, verbatim: false }] : []),
    ...spanLines(source, frames[0]!.after, verbatim, frames[0]!.replaced),
  ];
  for (let k = 1; k < frames.length; k++) {
    const frame = frames[k]!;
    lines = frame.tried ? retried(source, frame.indent, frame.tried, lines, linesOf) : lines.map(moved(frames[k - 1]!.indent, frame.indent));
    lines.push(...linesOf(frame.after));
  }
  // What it derives again opens it, each statement moved from its own list's level to the body's.
  const body = frames[frames.length - 1]!.indent;
  const again = derivedAgain(source, result.rederived ?? [], body, verbatim);
  lines.unshift(...again);
  const text = lines.map((l) => (l.verbatim || l.text.trim() !== '' ? l.text : ''));
  // The blank lines between the question and what follows it do not open the result half.
  while (text[0] === '') text.shift();
  return withDeclarationsMerged(text, again.length);
}

/** The whole lines of `span` (those inside a `verbatim` span marked so). */
function spanLines(source: string, span: Span | undefined, verbatim: readonly Span[], replaced?: Edit): Line[] {
  if (!span || span.end <= span.start) return [];
  const out: Line[] = [];
  let at = span.start;
  for (const text of source
    .slice(span.start, span.end)
    .replace(/\r?\n$/, '')
    .split('\n')) {
    const own = replaced && at <= replaced.start && replaced.end <= at + text.length ? applied(source, at, at + text.length, [replaced]) : text;
    out.push({ text: own.replace(/\r$/, ''), verbatim: verbatim.some((v) => v.start < at && at < v.end) });
    at += text.length + 1;
  }
  return out;
}

const moved = (from: string, to: string) => (l: Line) => (l.verbatim || !l.text.startsWith(from) ? l : { ...l, text: to + l.text.slice(from.length) });

/** Statements derived again, each moved from its own list's level to `body`'s. */
function derivedAgain(source: string, statements: readonly Rederived[], body: string, verbatim: readonly Span[]): Line[] {
  return statements.flatMap(({ span, indent, close = '' }) =>
    spanLines(source, { start: span.start - indent.length, end: span.end }, verbatim)
      .map((line, k, all) => (k === all.length - 1 ? { ...line, text: line.text + close } : line))
      .map(moved(indent, body)),
  );
}

/**
 * `let x: T;` derived again, whose first mention in the result half is its only `x = …;`, at
 * the same level, becomes `const x: T = …;` there: the answer's branch assigns it once, and a
 * lint would ask for a const.
 */
function withDeclarationsMerged(text: string[], count: number): string[] {
  const out = [...text];
  for (let k = count - 1; k >= 0; k--) {
    const bare = /^(\s*)let ([A-Za-z_$][\w$]*)(:[^=;]+)?;$/.exec(out[k]!);
    if (!bare) continue;
    const [, indent, name, type = ''] = bare;
    const id = name!.replace(/\$/g, '\\$');
    const mentioned = new RegExp(`(^|[^\\w$.])${id}(?![\\w$])`);
    const assigned = new RegExp(`(^|[^\\w$.])${id}\\s*(=(?!=)|[-+*/%&|^]=|\\+\\+|--)|(\\+\\+|--)\\s*${id}\\b`);
    const next = out.findIndex((line, i) => i > k && mentioned.test(line));
    if (next < count || !out[next]!.startsWith(`${indent}${name} = `)) continue;
    if (out.some((line, i) => i !== next && i !== k && assigned.test(line))) continue;
    out[next] = `${indent}const ${name}${type} = ${out[next]!.slice(indent!.length + name!.length + 3)}`;
    out.splice(k, 1);
  }
  return out;
}
