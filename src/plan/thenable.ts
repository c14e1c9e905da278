// Whether a value an async helper returns may be a promise. An async function resolves what it
// returns; a half written as a plain function would hand the promise itself to its caller.
import type { Node, Statement, VariableDeclarator } from '@babel/types';
import { boundNames, isFunction, someNode } from '../analyse/ast.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';

/** Expressions that may evaluate to a promise themselves (a literal, an object, an operator's result or an awaited value cannot). */
const THENABLE_FORMS: ReadonlySet<string> = new Set(['CallExpression', 'OptionalCallExpression', 'Identifier', 'MemberExpression', 'OptionalMemberExpression']);

/**
 * Whether `value` may be a promise: one of its possible values (each branch of a `?:`, each
 * operand of `&&`, `||`, `??`) is a call, or (with the checker) a value of those forms it does
 * not show is no thenable. `undefined` is none, and so is what is read off a client's answer
 * (`plain`: the names bound to it), which is JSON: a property, or what a method of one returns.
 */
export function mayBeThenable(value: Node, facts: TypeFacts | undefined, plain: ReadonlySet<string> = NONE): boolean {
  switch (value.type) {
    case 'ConditionalExpression':
      return mayBeThenable(value.consequent, facts, plain) || mayBeThenable(value.alternate, facts, plain);
    case 'LogicalExpression':
      return mayBeThenable(value.left, facts, plain) || mayBeThenable(value.right, facts, plain);
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
    case 'ParenthesizedExpression':
      return mayBeThenable(value.expression, facts, plain);
  }
  if (!THENABLE_FORMS.has(value.type) || (value.type === 'Identifier' && value.name === 'undefined')) return false;
  const root = rootName(value);
  if (root !== undefined && plain.has(root)) return false;
  const answer = facts?.thenable ? facts.thenable(value.start!, value.end!) : undefined;
  return answer ?? (value.type === 'CallExpression' || value.type === 'OptionalCallExpression');
}

const NONE: ReadonlySet<string> = new Set();

/** The name a chain of reads and method calls starts from (`reply` of `reply.content.text.trim()`). */
function rootName(node: Node): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') return rootName(node.object);
  if ((node.type === 'CallExpression' || node.type === 'OptionalCallExpression') && node.callee.type !== 'Identifier') return rootName(node.callee);
  return undefined;
}

/**
 * The names a helper's statement binds to the client's answer (`const reply = await
 * ctx.mcpReq.elicitInput(…)`, or a pattern of it), when it asks itself: an inner helper's value
 * may be anything.
 */
export function answerNames(statement: Statement | undefined, site: LegacySite): ReadonlySet<string> {
  if (site.via || statement?.type !== 'VariableDeclaration' || statement.kind !== 'const' || statement.declarations.length !== 1) return NONE;
  const [declarator] = statement.declarations as [VariableDeclarator];
  const init = declarator.init;
  if (init?.type !== 'AwaitExpression' || init.argument !== site.call) return NONE;
  return new Set(boundNames(declarator.id).map((b) => b.name));
}

/** Whether one of `statements` returns (for their function, not a nested one) a value that may be a promise. */
export function returnsMaybeThenable(statements: readonly Statement[], facts: TypeFacts | undefined, plain: ReadonlySet<string> = NONE): boolean {
  return statements.some((statement) =>
    someNode(
      statement,
      (node) => node.type === 'ReturnStatement' && node.argument !== null && node.argument !== undefined && mayBeThenable(node.argument, facts, plain),
      isFunction,
    ),
  );
}
