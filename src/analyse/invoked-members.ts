// A method taken without a plain call but invoked all the same (`x.m.call(x, a)`,
// `x.m.apply(x, [a])`, `x.m.bind(x)(a)`, `Reflect.apply(x.m, x, [a])`, compiled code's
// `(0, x.m)(a)`), and the arguments it then receives, where they can be read.
import type { Node } from '@babel/types';
import { memberPath } from './ast.ts';

export interface Invocation {
  /** The arguments the method receives; absent when they cannot be read (`.apply(x, args)`, a bound copy). */
  args?: readonly Node[];
}

/** How `member` (a method taken without a plain call) is invoked, or undefined when it is not. */
export function invocationOf(member: Node, ancestors: readonly Node[]): Invocation | undefined {
  const parent = ancestors[ancestors.length - 1];
  const grand = ancestors[ancestors.length - 2];
  const callOf = (callee: Node) =>
    (grand?.type === 'CallExpression' || grand?.type === 'OptionalCallExpression') && grand.callee === callee ? grand : undefined;
  switch (parent?.type) {
    case 'MemberExpression':
    case 'OptionalMemberExpression': {
      if (parent.object !== member || parent.computed || parent.property.type !== 'Identifier') return undefined;
      const call = callOf(parent);
      if (!call) return undefined;
      const args = call.arguments as Node[];
      if (parent.property.name === 'call') return { args: args.slice(1) };
      if (parent.property.name === 'apply') return listed(args[1]);
      return parent.property.name === 'bind' ? {} : undefined;
    }
    case 'CallExpression':
      return parent.arguments[0] === member && memberPath(parent.callee) === 'Reflect.apply' ? listed(parent.arguments[2] as Node | undefined) : undefined;
    case 'SequenceExpression': {
      const call = parent.expressions[parent.expressions.length - 1] === member ? callOf(parent) : undefined;
      return call ? { args: call.arguments as Node[] } : undefined;
    }
    default:
      return undefined;
  }
}

/** The arguments an array literal lists (`.apply(x, [a, b])`); unread otherwise. */
function listed(array: Node | undefined): Invocation {
  if (array?.type !== 'ArrayExpression' || array.elements.some((e) => !e || e.type === 'SpreadElement')) return {};
  return { args: array.elements as Node[] };
}
