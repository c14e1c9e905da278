// A framework tool's questions answered in place (see plan/framework-asks.ts), as edits: above
// each question's statement, the answer read from the context and the question returned when
// it is missing; in the statement, the answer where the awaited call was.
//
//   case 'deploy': {
//     const mrtrAnswer = extra.inputResponses?.['answer'] as ElicitResult | undefined;
//     if (mrtrAnswer === undefined) return inputRequired({ inputRequests: { answer: inputRequired.elicit({ ... }) } });
//     return done(mrtrAnswer);
//   }
import type { Node, Statement, SwitchCase } from '@babel/types';
import type { FrameworkHandler } from '../../analyse/framework-handlers.ts';
import { KINDS, NOTE_MARKER } from '../../analyse/sdk-surface.ts';
import { jsString, lineComment } from '../../core/escape.ts';
import { walk } from '../../analyse/ast.ts';
import { CHECKED_READS, type CheckedRead, type CheckedWriting } from './checked-answers.ts';
import { type Edit, indentAt, type InputKind, lineEndOf, lineStartOf, type Span } from '../../core/vocabulary.ts';

/** A framework tool's questions as planned (see plan/framework-asks.ts): what these edits write. */
export interface FrameworkRequest {
  /** The framework's push call this question was. */
  call: Node;
  key: string;
  kind: InputKind;
  /** `inputRequired.elicit({...})`, the question as the builder writes it. */
  requestText: string;
  /** Where the question's params began (their lines keep their layout, moved with them). */
  paramsStart: number;
  params?: Node;
}

export interface FrameworkRound {
  statement: Statement;
  /** What the awaited question occupied, replaced by the answer; none when the statement goes (it declared the answer, or discarded it). */
  awaited?: Span & { parenthesized?: boolean };
  /** The statement declared the answer (`const result = await ...`): the read declares it the same way. */
  declares?: 'const' | 'let' | 'var';
  requests: FrameworkRequest[];
  /** The names the answers are read into, one per request. */
  answers: string[];
  /** A switch case whose statements the answer's const would share with the other cases: they get braces. */
  braceCase?: SwitchCase;
  /** The name its questions are held in, when one is a form question (see asksForm). */
  asked: string;
}

export interface FrameworkPlan {
  rounds: FrameworkRound[];
}

/** The widest line the guard is written on alone. */
const ONE_LINE_MAX = 100;

/** Whether a round asks a form question: its questions are held in one object, which its form answers are checked against. */
export function asksForm(round: FrameworkRound): boolean {
  return round.requests.some((r) => r.kind === 'elicit');
}

/** The checked reads a plan's answers go through, once each. */
export function checkedReadsOf(plan: FrameworkPlan): CheckedRead[] {
  return [...new Set(plan.rounds.flatMap((r) => r.requests.flatMap((q) => CHECKED_READS[q.kind] ?? [])))];
}

export interface FrameworkWriting extends CheckedWriting {
  source: string;
}

export function frameworkAskEdits(writing: FrameworkWriting, handler: FrameworkHandler, plan: FrameworkPlan): Edit[] {
  return plan.rounds.flatMap((round) => roundEdits(writing, handler, round));
}

function roundEdits(writing: FrameworkWriting, handler: FrameworkHandler, round: FrameworkRound): Edit[] {
  const { source, eol } = writing;
  const statement = round.statement;
  const indent = indentAt(source, statement.start!);
  const lineStart = lineStartOf(source, statement.start!);
  const guard = guardLines(writing, handler, round, indent).join(eol) + eol;
  const edits: Edit[] = [];
  if (round.awaited) {
    // One edit from the line's start through the question: the text it replaces held the
    // question's reads, and so does its replacement (a declaration they read stays).
    const { parenthesized } = round.awaited;
    const start = parenthesized ? round.awaited.start - 1 : round.awaited.start;
    const end = parenthesized ? round.awaited.end + 1 : round.awaited.end;
    const answer = round.answers.length === 1 ? round.answers[0]! : `[${round.answers.join(', ')}]`;
    edits.push({ start: lineStart, end, text: guard + source.slice(lineStart, start) + answer });
  } else {
    // The statement declared or discarded the answer: the guard takes its place.
    const end = lineEndOf(source, statement.end!);
    edits.push({ start: lineStart, end: Math.min(end + 1, source.length), text: guard });
  }
  if (round.braceCase) {
    const c = round.braceCase;
    const colon = source.indexOf(':', c.test ? c.test.end! : c.start! + 'default'.length) + 1;
    const last = c.consequent[c.consequent.length - 1]!;
    edits.push({ start: colon, end: colon, text: ' {' });
    // Before the line's end, and before its \r in a CRLF file.
    const end = lineEndOf(source, last.end!);
    const close = end > 0 && source[end - 1] === '\r' ? end - 1 : end;
    edits.push({ start: close, end: close, text: `${eol}${indentAt(source, c.start!)}}` });
  }
  return edits;
}

/** The notes, the answers' reads and the `if` that returns the questions when an answer is missing. */
function guardLines(writing: FrameworkWriting, handler: FrameworkHandler, round: FrameworkRound, indent: string): string[] {
  const { adapter, context } = handler;
  const responses = `${context}.${adapter.inputResponses}`;
  const asked = asksForm(round) ? round.asked : undefined;
  const read = (r: FrameworkRequest) => {
    const key = jsString(r.key, writing.style.quote);
    const checked = CHECKED_READS[r.kind];
    if (!checked) return `${responses}?.[${key}]`;
    return `${checked.name}(${checked.readsQuestion ? `${asked}, ` : ''}${responses}, ${key})`;
  };
  const semi = writing.style.semi ? ';' : '';
  const lines: string[] = [];
  for (const r of round.requests) {
    const note = KINDS[r.kind].guidance;
    if (note) lines.push(lineComment(indent, `${NOTE_MARKER}: ${note}`));
  }
  if (asked) lines.push(...questionLines(writing, round, asked, indent, semi));
  round.answers.forEach((answer, i) => {
    const request = round.requests[i]!;
    const type = writing.typed ? adapter.exports.answerTypes[request.kind] : undefined;
    lines.push(`${indent}${round.declares ?? 'const'} ${answer} = ${read(request)}${type ? ` as ${type} | undefined` : ''}${semi}`);
  });
  const missing = round.answers.length > 0 ? round.answers.map((a) => `${a} === undefined`) : round.requests.map((r) => `${read(r)} === undefined`);
  const condition = missing.join(' || ');
  const builder = adapter.exports.inputRequired;
  if (asked) {
    const ask = `return ${builder}({ inputRequests: ${asked} })${semi}`;
    const oneLine = `${indent}if (${condition}) ${ask}`;
    return [...lines, ...(oneLine.length <= ONE_LINE_MAX ? [oneLine] : [`${indent}if (${condition}) {`, `${indent}  ${ask}`, `${indent}}`])];
  }
  const entries = round.requests.map((r) => `${r.key}: ${r.requestText}`);
  const oneLine = `${indent}if (${condition}) return ${builder}({ inputRequests: { ${entries.join(', ')} } })${semi}`;
  if (!oneLine.includes('\n') && oneLine.length <= ONE_LINE_MAX) return [...lines, oneLine];
  const inner = `${indent}      `;
  return [
    ...lines,
    `${indent}if (${condition}) {`,
    `${indent}  return ${builder}({`,
    `${indent}    inputRequests: {`,
    ...round.requests.map((r) => `${inner}${r.key}: ${reindented(writing.source, r, inner)},`),
    `${indent}    },`,
    `${indent}  })${semi}`,
    `${indent}}`,
  ];
}

/** The round's questions, held in `asked` (its answers are checked against them). */
function questionLines(writing: FrameworkWriting, round: FrameworkRound, asked: string, indent: string, semi: string): string[] {
  const entries = round.requests.map((r) => `${r.key}: ${r.requestText}`);
  const oneLine = `${indent}const ${asked} = { ${entries.join(', ')} }${semi}`;
  if (!oneLine.includes('\n') && oneLine.length <= ONE_LINE_MAX) return [oneLine];
  const inner = `${indent}  `;
  return [`${indent}const ${asked} = {`, ...round.requests.map((r) => `${inner}${r.key}: ${reindented(writing.source, r, inner)},`), `${indent}}${semi}`];
}

/**
 * The question's text with its params' later lines moved as its first line moved: from the
 * indentation of the line the params began on to `to`. A line that starts inside a string or
 * template of several lines is data, kept as it is; so is a text the plan wrote anew.
 */
function reindented(source: string, request: FrameworkRequest, to: string): string {
  const { requestText: text, params } = request;
  if (!text.includes('\n') || !params || !text.endsWith(`(${source.slice(params.start!, params.end!)})`)) return text;
  const verbatim: Span[] = [];
  walk(params, (node) => {
    if (node.type === 'TemplateElement' || (node.type === 'StringLiteral' && node.loc!.start.line !== node.loc!.end.line))
      verbatim.push({ start: node.start!, end: node.end! });
  });
  const from = indentAt(source, params.start!);
  let at = params.start!;
  const head = text.slice(0, text.length - (params.end! - params.start!) - 1);
  return (
    head +
    source
      .slice(params.start!, params.end!)
      .split('\n')
      .map((line, i) => {
        const start = at;
        at += line.length + 1;
        const data = verbatim.some((t) => start > t.start && start <= t.end);
        return i > 0 && !data && line.startsWith(from) ? to + line.slice(from.length) : line;
      })
      .join('\n') +
    ')'
  );
}
