// A helper split in two (see src/plan/split-helper.ts), as the edit that replaces its
// declaration: `confirmRequest(...)`, which builds the request, and `confirmResult(answer, ...)`,
// which keeps what the helper did with the answer, each under a comment saying why.
import type { Node } from '@babel/types';
import { lineComment } from '../../core/escape.ts';
import { type Edit, indentAt, lineEndOf, lineStartOf } from '../../core/vocabulary.ts';

/** The two halves of a helper, as the plan decides them. */
export interface HelperHalves {
  /** The helper's declaration (a function, a const, a method): its lines are replaced. */
  declaration: Node;
  /** What each half starts with: `function `, `export function `, or a method's modifiers. */
  head: string;
  name: string;
  requestParams: string;
  /** What the request half returns. */
  requestText: string;
  /** The request half resolves to `{ value }` or `{ ask }` (it returns an inner helper's that may answer without asking). */
  maybeAsk?: boolean;
  /** The helper kept under its name for calls that cannot ask through the halves (plan/legacy-entry.ts), written first. */
  entry?: LegacyEntry;
  /** The result half, absent when the helper returned the answer as it was. */
  result?: {
    params: string;
    returnType?: string;
    /** It awaits an inner helper's async result half. */
    async?: boolean;
    /** Where the helper's first statement starts (its indentation is the body's). */
    bodyStart?: number;
    /** `return <answer>`, or the helper's statements after its request (from `from` to `to`), after a declaration of the answer. */
    body: { returns: string } | { declares?: string; from: number; to: number };
  };
}

export function splitHelperEdit(source: string, eol: string, halves: HelperHalves): Edit {
  const { declaration, head, name } = halves;
  const indent = indentAt(source, declaration.start!);
  const why = halves.maybeAsk
    ? [
        `handler calls ${name}Request(), which resolves to what ${name}() returned without asking`,
        `({ value }) or to the question to ask ({ ask }); once answered, ${name}Result() computes the value.`,
      ]
    : [`handler asks with ${name}Request() and, once answered, computes ${name}Result().`];
  const entry = halves.entry ? [`${halves.entry.signature}{`, ...halves.entry.body.map((l) => l.slice(indent.length)), '}', ''] : [];
  const lines = [
    ...entry,
    lineComment('', `${name}() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each`),
    ...why.map((l) => lineComment('', l)),
    `${head}${name}Request(${halves.requestParams}) {`,
    `  return ${halves.requestText};`,
    '}',
  ].map((l) => indent + l);
  if (halves.result) {
    const { params, returnType, async, bodyStart, body } = halves.result;
    const bodyIndent = bodyStart !== undefined ? indentAt(source, bodyStart) : `${indent}  `;
    const bodyLines =
      'returns' in body
        ? [`${bodyIndent}return ${body.returns};`]
        : [
            ...(body.declares ? [`${bodyIndent}${body.declares}`] : []),
            ...source
              .slice(lineStartOf(source, body.from), lineStartOf(source, body.to))
              .replace(/\r?\n$/, '')
              .split(/\r?\n/),
          ];
    lines.push('', `${indent}${async ? asyncHead(head) : head}${name}Result(${params})${returnType ? `: ${returnType}` : ''} {`, ...bodyLines, `${indent}}`);
  }
  const end = lineEndOf(source, declaration.end!);
  return { start: lineStartOf(source, declaration.start!), end: source[end - 1] === '\r' ? end - 1 : end, text: lines.join(eol) };
}

/** A half's head made async: `export async function `, or a method's modifiers then `async `. */
export function asyncHead(head: string): string {
  return head.endsWith('function ') ? `${head.slice(0, -'function '.length)}async function ` : `${head}async `;
}

/** A legacy entry: the helper's signature as written (up to its body), and its body's lines. */
export interface LegacyEntry {
  signature: string;
  body: string[];
}
