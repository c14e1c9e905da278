// Whether a value an async helper returns may be a promise. An async function resolves what it
// returns; a half written as a plain function would hand the promise itself to its caller.
import type { Node, Statement } from '@babel/types';
import { isFunction, someNode } from '../analyse/ast.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';

/** Expressions that may evaluate to a promise themselves (a literal, an object, an operator's result or an awaited value cannot). */
const THENABLE_FORMS: ReadonlySet<string> = new Set(['CallExpression', 'OptionalCallExpression', 'Identifier', 'MemberExpression', 'OptionalMemberExpression']);

/**
 * Whether `value` may be a promise: one of its possible values (each branch of a `?:`, each
 * operand of `&&`, `||`, `??`) is a call, or (with the checker) a value of those forms it does
 * not show is no thenable. `undefined` is none.
 */
export function mayBeThenable(value: Node, facts: TypeFacts | undefined): boolean {
  switch (value.type) {
    case 'ConditionalExpression':
      return mayBeThenable(value.consequent, facts) || mayBeThenable(value.alternate, facts);
    case 'LogicalExpression':
      return mayBeThenable(value.left, facts) || mayBeThenable(value.right, facts);
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
    case 'ParenthesizedExpression':
      return mayBeThenable(value.expression, facts);
  }
  if (!THENABLE_FORMS.has(value.type) || (value.type === 'Identifier' && value.name === 'undefined')) return false;
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
