// Which statement shapes around an awaited legacy call the planner can split at: the call
// (or a Promise.all of such calls) awaited as a whole declaration initializer, expression
// statement, assignment or return value.
import type { Node, Statement } from '@babel/types';
import { boundNames, memberPath } from '../analyse/ast.ts';
import { URL_ELICITATION_ERROR } from '../analyse/sdk-surface.ts';
import type { Binding } from './types.ts';

export interface StatementShape {
  binding: Binding;
  /** The legacy calls of this round, in array order. */
  calls: Node[];
}

/** The awaited round inside `statement`, when the statement has one of the supported shapes. */
export function statementShape(statement: Statement, source: string): StatementShape | undefined {
  const text = (node: Node) => source.slice(node.start!, node.end!);
  if (statement.type === 'VariableDeclaration' && statement.declarations.length === 1) {
    const d = statement.declarations[0]!;
    const calls = awaitedCalls(d.init);
    if (!calls) return undefined;
    const kind = statement.kind as 'const' | 'let' | 'var';
    if (d.id.type === 'Identifier') {
      const ann = d.id.typeAnnotation;
      const annotation = ann && ann.type === 'TSTypeAnnotation' ? text(ann.typeAnnotation) : undefined;
      return { calls, binding: { form: 'declare', kind, name: d.id.name, annotation } };
    }
    if (d.id.type === 'ObjectPattern' || d.id.type === 'ArrayPattern') {
      if (d.id.typeAnnotation) return undefined;
      const elements =
        d.id.type === 'ArrayPattern' && d.id.elements.every((e) => e?.type === 'Identifier')
          ? d.id.elements.map((e) => (e as { name: string }).name)
          : undefined;
      return { calls, binding: { form: 'declare', kind, pattern: text(d.id), names: boundNames(d.id).map((b) => b.name), elements } };
    }
    return undefined;
  }
  if (statement.type === 'ExpressionStatement') {
    const e = statement.expression;
    const discarded = awaitedCalls(e);
    if (discarded) return { calls: discarded, binding: { form: 'discard' } };
    if (e.type === 'AssignmentExpression' && e.operator === '=' && e.left.type === 'Identifier') {
      const calls = awaitedCalls(e.right);
      if (calls) return { calls, binding: { form: 'assign', name: e.left.name } };
    }
    return undefined;
  }
  if (statement.type === 'ReturnStatement') {
    // `return call()` in an async function returns what `return await call()` does.
    const calls =
      awaitedCalls(statement.argument) ??
      (statement.argument?.type === 'CallExpression' && memberPath(statement.argument.callee) !== 'Promise.all' ? [statement.argument] : undefined);
    if (calls) return { calls, binding: { form: 'return' } };
  }
  // `throw new UrlElicitationRequiredError([a, b])`: one round of URL questions, resumed after it.
  if (statement.type === 'ThrowStatement') {
    const error = statement.argument;
    const list =
      error.type === 'NewExpression' && error.callee.type === 'Identifier' && error.callee.name === URL_ELICITATION_ERROR ? error.arguments[0] : undefined;
    // An element may be a name holding the literal (see held-objects.ts).
    if (list?.type === 'ArrayExpression' && list.elements.length > 0 && list.elements.every((e) => e?.type === 'ObjectExpression' || e?.type === 'Identifier'))
      return { calls: list.elements as Node[], binding: { form: 'discard' } };
  }
  return undefined;
}

/** `await call` → [call]; `await Promise.all([a, b])` → [a, b]; anything else → undefined. */
function awaitedCalls(node: Node | null | undefined): Node[] | undefined {
  if (!node || node.type !== 'AwaitExpression') return undefined;
  const arg = node.argument;
  if (arg.type !== 'CallExpression') return undefined;
  if (memberPath(arg.callee) !== 'Promise.all') return [arg];
  const list = arg.arguments[0];
  if (arg.arguments.length !== 1 || !list || list.type !== 'ArrayExpression' || list.elements.some((e) => !e || e.type === 'SpreadElement')) return undefined;
  return list.elements as Node[];
}
