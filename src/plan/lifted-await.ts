// `if (!(await allowed(path))) throw ...` in a helper that is split: the awaited call is the
// question (or an inner helper's outcome), and the if is the first statement of the code after
// it, testing the value: as if written `const mrtrValue = await allowed(path); if (!mrtrValue)
// ...`. That is the same program only when the await is what the test evaluates first, or comes
// after operands that only read a name or a literal: nothing the test would have done before it
// is moved after it, and nothing after it is moved before it.
import type { Node, Statement } from '@babel/types';

/** The name the lifted value takes in the code after the question. */
export const LIFTED = 'mrtrValue';

/**
 * The `await <call>` an if statement's test evaluates first, when it may be lifted out of the
 * test; with `guard`, the names tested before it in `guard && <test>` (an if without else: as
 * if written `if (guard) { if (<test>) ... }`, the request half asks inside `if (guard)`).
 */
export function liftedAwait(statement: Statement, call: Node): { lifted: Node; guard?: Node } | undefined {
  if (statement.type !== 'IfStatement') return undefined;
  const first = leading(statement.test, call);
  if (first) return { lifted: first };
  const { test } = statement;
  if (statement.alternate || test.type !== 'LogicalExpression' || test.operator !== '&&' || !readsOnly(test.left)) return undefined;
  const guarded = leading(test.right, call);
  return guarded && { lifted: guarded, guard: test.left };
}

/** What the code after the question has in place of the test's await (and of its guard): the value's name. */
export function liftedText(source: string, statement: Statement, lift: { lifted: Node; guard?: Node }): { start: number; end: number; text: string } {
  const { lifted, guard } = lift;
  const extra = lifted.extra as { parenthesized?: boolean; parenStart?: number } | undefined;
  const own =
    extra?.parenthesized && extra.parenStart !== undefined
      ? { start: extra.parenStart, end: source.indexOf(')', lifted.end!) + 1 }
      : { start: lifted.start!, end: lifted.end! };
  if (!guard) return { ...own, text: LIFTED };
  // `guard && !(await x())`: the code after the question runs where the guard held.
  const right = (statement as Extract<Statement, { type: 'IfStatement' }>).test as Extract<Node, { type: 'LogicalExpression' }>;
  return { start: guard.start!, end: own.end, text: source.slice(right.right.start!, own.start) + LIFTED };
}

function leading(node: Node, call: Node): Node | undefined {
  switch (node.type) {
    case 'AwaitExpression':
      return node.argument === call ? node : undefined;
    case 'UnaryExpression':
      return node.operator === 'delete' ? undefined : leading(node.argument, call);
    case 'BinaryExpression':
      return (node.left.type !== 'PrivateName' ? leading(node.left, call) : undefined) ?? (readsOnly(node.left) ? leading(node.right, call) : undefined);
    case 'LogicalExpression':
      // What is right of `&&`, `||` or `??` may not run at all: lifting it would run it always.
      return leading(node.left, call);
    case 'ConditionalExpression':
      return leading(node.test, call);
    case 'MemberExpression':
      return leading(node.object, call);
    case 'TSNonNullExpression':
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'ParenthesizedExpression':
      return leading(node.expression, call);
    default:
      return undefined;
  }
}

/** A name or a literal (or `!` or `&&` of them): evaluating it after the await instead of before gives the same value. */
function readsOnly(node: Node): boolean {
  if (node.type === 'UnaryExpression' && node.operator === '!') return readsOnly(node.argument);
  if (node.type === 'LogicalExpression' && node.operator === '&&') return readsOnly(node.left) && readsOnly(node.right);
  return node.type === 'Identifier' || /^(String|Numeric|Boolean|Null|BigInt)Literal$/.test(node.type);
}
