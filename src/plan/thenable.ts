// Whether a value an async helper returns may be a promise. An async function resolves what it
// returns; a half written as a plain function would hand the promise itself to its caller.
import type { Node, Statement } from '@babel/types';
import { isFunction, someNode } from '../analyse/ast.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';

/** Expressions whose value may be a promise (a literal, an object, an operator's result or an awaited value cannot). */
const THENABLE_FORMS: ReadonlySet<string> = new Set([
  'CallExpression',
  'OptionalCallExpression',
  'Identifier',
  'MemberExpression',
  'OptionalMemberExpression',
  'ConditionalExpression',
  'LogicalExpression',
  'TSAsExpression',
  'TSNonNullExpression',
]);

/**
 * Whether `value` may be a promise: a call, or (with the checker) any value of those forms it
 * does not show is no thenable.
 */
export function mayBeThenable(value: Node, facts: TypeFacts | undefined): boolean {
  if (!THENABLE_FORMS.has(value.type)) return false;
  const answer = facts?.thenable ? facts.thenable(value.start!, value.end!) : undefined;
  return answer ?? (value.type === 'CallExpression' || value.type === 'OptionalCallExpression');
}

/** Whether one of `statements` returns (for their function, not a nested one) a value that may be a promise. */
export function returnsMaybeThenable(statements: readonly Statement[], facts: TypeFacts | undefined): boolean {
  return statements.some((statement) =>
    someNode(
      statement,
      (node) => node.type === 'ReturnStatement' && node.argument !== null && node.argument !== undefined && mayBeThenable(node.argument, facts),
      isFunction,
    ),
  );
}
