// The object literal a name holds where a request names it (`params: elicitationParams`,
// `new UrlElicitationRequiredError([prerequisite])`): the initialiser of a `const`, or of a `let`
// that nothing in its function assigns again. The rewrite reads the literal's fields through the
// name, so its initialiser (an id made with `randomUUID()`, say) is never evaluated twice.
import type { Node, ObjectExpression } from '@babel/types';
import { boundNames, walk, type FunctionNode } from './ast.ts';
import type { Declarations, FileIndex } from './file-index.ts';

/** The object literal `name` holds, seen from inside `functions` (innermost last). */
export type HeldObjects = (name: string, functions: readonly FunctionNode[]) => ObjectExpression | undefined;

export function heldObjects(index: FileIndex, declarations: Declarations): HeldObjects {
  return (name, functions) => {
    const declared = declarations(name, functions);
    if (declared) return objectLiteral(declared.init);
    // A `let` of the innermost function that declares the name, once, never assigned again.
    for (let i = functions.length - 1; i >= 0; i--) {
      const scope = functions[i]!;
      const lets = index.declarators.filter((d) => d.scope === scope && d.node.id.type === 'Identifier' && d.node.id.name === name);
      if (lets.length === 0) continue;
      const only = lets.length === 1 && lets[0]!.declaration.kind === 'let' ? lets[0]!.node : undefined;
      return only && !assignedIn(scope, name) ? objectLiteral(only.init) : undefined;
    }
    return undefined;
  };
}

/** `{ ... }`, also as `{ ... } as T` or `{ ... } satisfies T`. */
function objectLiteral(init: Node | null | undefined): ObjectExpression | undefined {
  let node = init ?? undefined;
  while (node && (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'ParenthesizedExpression')) node = node.expression;
  return node?.type === 'ObjectExpression' ? node : undefined;
}

/** Whether anything in `scope` assigns `name` (any binding of that name: a shadowing one counts too). */
function assignedIn(scope: FunctionNode, name: string): boolean {
  let assigned = false;
  walk(scope.body, (node) => {
    if (assigned) return false;
    if (node.type === 'AssignmentExpression' && boundNames(node.left).some((b) => b.name === name)) assigned = true;
    if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier' && node.argument.name === name) assigned = true;
    if (
      (node.type === 'ForInStatement' || node.type === 'ForOfStatement') &&
      node.left.type !== 'VariableDeclaration' &&
      boundNames(node.left).some((b) => b.name === name)
    )
      assigned = true;
    return undefined;
  });
  return assigned;
}
