// A helper that keeps its answer in a local declared before the question, bare, and assigns it
// there (`let result; try { result = await elicitInput(...); } finally { ... }`, then code after
// the try reads `result`). The result half takes the answer as `result`, its parameter, so the
// declaration has nothing left to hold in the request half: it is dropped there.
import type { Node, Statement } from '@babel/types';
import { lineEndOf, lineStartOf, lineTail, startsLine, type Span } from '../core/vocabulary.ts';
import type { Answer } from './helper-holder.ts';
import { quotedLine } from './try-split.ts';

export interface AssignedAnswer {
  answer: Extract<Answer, { form: 'declare' }>;
  /** The whole lines of `let result;`, which the request half drops. */
  declaration: Span;
}

/**
 * `x = await <call>;` assigning a `let x;` of the helper's code before the question (`prefix`)
 * that the request half reads nowhere else (`requestReads`: the names it reads outside the
 * spans given); a reason (`whose ...`) when the statement assigns the answer so but the local is
 * not such a one; undefined when it does not assign it.
 */
export function assignedAnswer(
  source: string,
  statement: Statement,
  call: Node,
  prefix: readonly Statement[],
  requestReads: (outside: Span[]) => ReadonlySet<string>,
): AssignedAnswer | string | undefined {
  if (statement.type !== 'ExpressionStatement') return undefined;
  const assignment = statement.expression;
  if (assignment.type !== 'AssignmentExpression' || assignment.operator !== '=' || assignment.left.type !== 'Identifier') return undefined;
  if (assignment.right.type !== 'AwaitExpression' || assignment.right.argument !== call) return undefined;
  const name = assignment.left.name;
  const declaration = prefix.find(
    (s): s is Extract<Statement, { type: 'VariableDeclaration' }> =>
      s.type === 'VariableDeclaration' && s.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === name),
  );
  const bare = declaration?.kind === 'let' && declaration.declarations.length === 1 && !declaration.declarations[0]!.init;
  const alone = declaration !== undefined && startsLine(source, declaration.start!) && lineTail(source, declaration.end!) === '';
  const lines = declaration && { start: lineStartOf(source, declaration.start!), end: lineEndOf(source, declaration.end!) + 1 };
  if (!lines || !bare || !alone || requestReads([lines, { start: statement.start!, end: statement.end! }]).has(name)) {
    return `whose request's answer is assigned by ${quotedLine(source, statement)} to \`${name}\`, which is not a \`let ${name};\` of its own line that only the code after the question reads.`;
  }
  return { answer: { form: 'declare', name }, declaration: lines };
}
