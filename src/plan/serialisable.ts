// Without types, judge an initializer by its syntax: the forms below never survive
// JSON.stringify/parse. Anything else is allowed here; with type facts the checker decides.
import type { Node } from '@babel/types';

export function jsonUnsafeInitializer(init: Node): string | undefined {
  switch (init.type) {
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return 'a function';
    case 'ClassExpression':
      return 'a class';
    case 'RegExpLiteral':
      return 'a regular expression';
    case 'BigIntLiteral':
      return 'a bigint';
    case 'NewExpression': {
      const name = init.callee.type === 'Identifier' ? init.callee.name : 'an object';
      return name === 'Object' || name === 'Array' ? undefined : `a \`new ${name}(...)\` instance`;
    }
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return jsonUnsafeInitializer(init.expression);
    default:
      return undefined;
  }
}
