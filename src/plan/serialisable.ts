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

// What shows, without types, that a value is plain JSON: its syntax. `json` holds the names
// whose values are JSON already (the call's arguments, the answers, locals shown before).
const JSON_FUNCTIONS = new Set([
  'String',
  'Number',
  'Boolean',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
  // node:crypto's, and the Web Crypto global's: a string.
  'randomUUID',
]);
const JSON_STATICS = /^(JSON\.(parse|stringify)|Math\.\w+|Number\.\w+|Object\.(keys|entries|values)|Array\.isArray|Date\.now|crypto\.randomUUID)$/;
/** Methods whose result is a string, number or boolean whatever they are called on. */
const PRIMITIVE_METHODS = new Set([
  'toString',
  'toFixed',
  'toPrecision',
  'toUpperCase',
  'toLowerCase',
  'trim',
  'trimStart',
  'trimEnd',
  'join',
  'padStart',
  'padEnd',
  'repeat',
  'charAt',
  'charCodeAt',
  'toISOString',
  'toLocaleString',
  'includes',
  'indexOf',
  'lastIndexOf',
  'startsWith',
  'endsWith',
  'some',
  'every',
  'test',
  'localeCompare',
]);
/** Methods whose result is made of the receiver's own values: JSON when the receiver is. */
const PART_METHODS = new Set([
  'slice',
  'substring',
  'split',
  'concat',
  'filter',
  'at',
  'find',
  'flat',
  'replace',
  'replaceAll',
  'reverse',
  'toSorted',
  'toReversed',
]);

export function jsonBySyntax(node: Node | null | undefined, json: ReadonlySet<string>): boolean {
  if (!node) return true; // no initializer: undefined
  const all = (nodes: ReadonlyArray<Node | null>) => nodes.every((n) => n !== null && jsonBySyntax(n.type === 'SpreadElement' ? n.argument : n, json));
  switch (node.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'TemplateLiteral':
      return true;
    case 'Identifier':
      return node.name === 'undefined' || json.has(node.name);
    case 'UnaryExpression':
    case 'BinaryExpression':
      return true; // a boolean, a string, or a number
    case 'UpdateExpression':
      return true;
    case 'LogicalExpression':
      return jsonBySyntax(node.left, json) && jsonBySyntax(node.right, json);
    case 'ConditionalExpression':
      return jsonBySyntax(node.consequent, json) && jsonBySyntax(node.alternate, json);
    case 'ArrayExpression':
      return all(node.elements);
    case 'ObjectExpression':
      return node.properties.every((p) =>
        p.type === 'SpreadElement' ? jsonBySyntax(p.argument, json) : p.type === 'ObjectProperty' && jsonBySyntax(p.value, json),
      );
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return (!node.computed && node.property.type === 'Identifier' && node.property.name === 'length') || jsonBySyntax(node.object, json);
    case 'CallExpression':
    case 'OptionalCallExpression': {
      const callee = node.callee;
      if (callee.type === 'Identifier') return JSON_FUNCTIONS.has(callee.name);
      if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return false;
      const path =
        callee.object.type === 'Identifier' && callee.property.type === 'Identifier' && !callee.computed ? `${callee.object.name}.${callee.property.name}` : '';
      if (JSON_STATICS.test(path)) return true;
      const method = !callee.computed && callee.property.type === 'Identifier' ? callee.property.name : '';
      return PRIMITIVE_METHODS.has(method) || (PART_METHODS.has(method) && jsonBySyntax(callee.object, json));
    }
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return jsonBySyntax(node.expression, json);
    default:
      return false;
  }
}

const JSON_TYPE_WORDS = new Set(['string', 'number', 'boolean', 'null', 'undefined', 'true', 'false', 'Array', 'ReadonlyArray', 'Record', 'readonly']);

/**
 * Whether a written type (a JSDoc `@type`, an annotation) names only JSON: primitives, literals,
 * arrays, records and object types of them. `any`, `object` or a named type are not shown JSON.
 */
export function jsonTypeText(type: string): boolean {
  const words = type
    .replace(/(['"])(?:\\.|(?!\1).)*\1/g, '') // string literal types, quoted keys
    .replace(/[\w$]+\??\s*:/g, '') // property names
    .match(/[A-Za-z_$][\w$]*/g);
  return (words ?? []).every((w) => JSON_TYPE_WORDS.has(w)) && /^[\w$\s|&[\]{}<>,;:?'"().-]*$/.test(type);
}
