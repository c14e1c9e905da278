// `if (!(await allowed(path))) throw ...` in a helper that is split: the awaited call is the
// question (or an inner helper's outcome), and the if is the first statement of the code after
// it, testing the value: as if written `const mrtrValue = await allowed(path); if (!mrtrValue)
// ...`. That is the same program only when the await is what the test evaluates first, or comes
// after operands that only read a name or a literal: nothing the test would have done before it
// is moved after it, and nothing after it is moved before it.
import type { Node, Statement } from '@babel/types';

/** The name the lifted value takes in the code after the question. */
export const LIFTED = 'mrtrValue';

/** The `await <call>` an if statement's test evaluates first, when it may be lifted out of the test. */
export function liftedAwait(statement: Statement, call: Node): Node | undefined {
  return statement.type === 'IfStatement' ? leading(statement.test, call) : undefined;
}

/** The text the value's name replaces: the `await <call>`, with the parentheses around it. */
export function liftedSpan(source: string, lifted: Node): { start: number; end: number } {
  const extra = lifted.extra as { parenthesized?: boolean; parenStart?: number } | undefined;
  if (!extra?.parenthesized || extra.parenStart === undefined) return { start: lifted.start!, end: lifted.end! };
  return { start: extra.parenStart, end: source.indexOf(')', lifted.end!) + 1 };
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

/** A name or a literal: evaluating it after the await instead of before gives the same value. */
function readsOnly(node: Node): boolean {
  return node.type === 'Identifier' || /^(String|Numeric|Boolean|Null|BigInt)Literal$/.test(node.type);
}
