// The request-state verifier wired into a `new McpServer(...)` (or `new Server(...)`), as
// edits of its options object in the file's own layout.
import type { Node } from '@babel/types';
import { STATE_EXPORTS } from '../../analyse/sdk-surface.ts';
import { type Edit, eolOf, indentAt } from '../../core/vocabulary.ts';

/** The verifier, as the server options take it. */
const VERIFY_CALL = `${STATE_EXPORTS.verify}()`;

/**
 * Wires the verifier into one `new McpServer(...)` (or `new Server(...)`): `requestState:
 * { verify: mrtrVerify() }` in its options, or `mrtrVerify(theirs)` around a verifier the
 * options already have (state the module did not mint still goes to theirs). No edits when
 * it is wired already; undefined when the options cannot be extended (not an object literal).
 */
export function wireVerifier(source: string, construction: Node): Edit[] | undefined {
  if (construction.type !== 'NewExpression') return undefined;
  const args = construction.arguments;
  const verifier = `requestState: { verify: ${VERIFY_CALL} }`;
  if (args.length === 0) return undefined;
  if (args.length === 1) {
    const first = args[0]!;
    return [{ start: first.end!, end: first.end!, text: `, { ${verifier} }` }];
  }
  const options = args[1]!;
  if (options.type !== 'ObjectExpression') return undefined;
  const existing = propertyNode(options, 'requestState');
  if (existing) return extendRequestState(source, existing);
  if (options.properties.length === 0) return [{ start: options.start!, end: options.end!, text: `{ ${verifier} }` }];
  return [appendProperty(source, options, verifier)];
}

/** `requestState: { ... }` already there: its verifier wrapped, or ours added. */
function extendRequestState(source: string, property: Node): Edit[] | undefined {
  if (property.type !== 'ObjectProperty' || property.value.type !== 'ObjectExpression') return undefined;
  const options = property.value;
  const verify = propertyNode(options, 'verify');
  if (!verify)
    return options.properties.length === 0
      ? [{ start: options.start!, end: options.end!, text: `{ verify: ${VERIFY_CALL} }` }]
      : [appendProperty(source, options, `verify: ${VERIFY_CALL}`)];
  if (verify.type !== 'ObjectProperty') return undefined;
  const value = verify.value;
  if (value.type === 'CallExpression' && value.callee.type === 'Identifier' && value.callee.name === STATE_EXPORTS.verify) return [];
  const text = source.slice(value.start!, value.end!);
  if (verify.shorthand) return [{ start: verify.start!, end: verify.end!, text: `verify: ${STATE_EXPORTS.verify}(${text})` }];
  return [{ start: value.start!, end: value.end!, text: `${STATE_EXPORTS.verify}(${text})` }];
}

/** The property (or method) `name` of an object literal, not computed. */
function propertyNode(
  object: Extract<Node, { type: 'ObjectExpression' }>,
  name: string,
): Extract<Node, { type: 'ObjectProperty' | 'ObjectMethod' }> | undefined {
  for (const p of object.properties) {
    if (
      (p.type === 'ObjectProperty' || p.type === 'ObjectMethod') &&
      !p.computed &&
      ((p.key.type === 'Identifier' && p.key.name === name) || (p.key.type === 'StringLiteral' && p.key.value === name))
    )
      return p;
  }
  return undefined;
}

/** A property added after the last one of an object literal, in its layout. */
function appendProperty(source: string, object: Extract<Node, { type: 'ObjectExpression' }>, property: string): Edit {
  const last = object.properties[object.properties.length - 1]!;
  if (!source.slice(object.start!, object.end!).includes('\n')) return { start: last.end!, end: last.end!, text: `, ${property}` };
  const indent = indentAt(source, last.start!);
  const afterLast = source.slice(last.end!, object.end! - 1);
  const hasTrailingComma = /^\s*,/.test(afterLast);
  const at = hasTrailingComma ? last.end! + afterLast.indexOf(',') + 1 : last.end!;
  const eol = eolOf(source);
  return { start: at, end: at, text: `${hasTrailingComma ? '' : ','}${eol}${indent}${property}${hasTrailingComma ? ',' : ''}` };
}
