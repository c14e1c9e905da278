// Calls of a method by its name on a receiver the run cannot tie to the class that defines it
// (`this.elicitation.requestConfirmation(...)`, `elicitation: IElicitation` from a package):
// what a marker names where an exported asking method has no caller the run could follow.
import type { Node } from '@babel/types';
import type { FileAnalysis } from './analyse-file.ts';
import { walk } from './ast.ts';

/** A call of the method whose receiver is not typed as its class: the type it has (and the package it comes from), if any. */
export interface UntiedCall {
  line: number;
  /** The receiver's declared type, when it names one; `from`: the package that type is imported from. */
  type?: string;
  from?: string;
}

type Annotated = Node & { typeAnnotation?: Node | null };

/**
 * The calls `<receiver>.<method>(...)` of a file whose receiver is not `this` and is not
 * declared as `owner` (nor made by `new owner(...)`): the calls of it the run does not follow.
 */
export function untiedCalls(analysis: Pick<FileAnalysis, 'program' | 'importedNames'>, method: string, owner: string): UntiedCall[] {
  const found: UntiedCall[] = [];
  walk(analysis.program, (node, parents) => {
    if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return;
    const callee = node.callee;
    if ((callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') || callee.computed) return;
    if (callee.property.type !== 'Identifier' || callee.property.name !== method || callee.object.type === 'ThisExpression') return;
    const declared = declarationOf(analysis.program, callee.object, parents);
    if (declared === owner || (declared !== undefined && analysis.importedNames.get(declared)?.imported === owner)) return;
    const from = declared === undefined ? undefined : analysis.importedNames.get(declared)?.from;
    found.push({ line: node.loc!.start.line, ...(declared ? { type: declared } : {}), ...(from && !from.startsWith('.') ? { from } : {}) });
  });
  return found;
}

/** The type name a receiver is declared with (`this.x`: the class's property or parameter property; `x`: its declaration), or the class it is made from. */
function declarationOf(program: Node, receiver: Node, parents: readonly Node[]): string | undefined {
  if (receiver.type === 'MemberExpression' && receiver.object.type === 'ThisExpression' && receiver.property.type === 'Identifier') {
    const owner = [...parents].reverse().find((p) => p.type === 'ClassDeclaration' || p.type === 'ClassExpression');
    return owner && classMemberType(owner, receiver.property.name);
  }
  if (receiver.type !== 'Identifier') return undefined;
  let declared: string | undefined;
  walk(program, (node) => {
    if (declared !== undefined) return false;
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.id.name === receiver.name)
      declared = typeName(node.id) ?? (node.init?.type === 'NewExpression' && node.init.callee.type === 'Identifier' ? node.init.callee.name : undefined);
    else if (node.type === 'Identifier' && node.name === receiver.name && node.typeAnnotation) declared = typeName(node);
    return undefined;
  });
  return declared;
}

/** The declared type of a class's property `name` (a field, or a constructor's parameter property). */
function classMemberType(owner: Node & { type: 'ClassDeclaration' | 'ClassExpression' }, name: string): string | undefined {
  for (const member of owner.body.body) {
    if (member.type === 'ClassProperty' && member.key.type === 'Identifier' && member.key.name === name) return typeName(member);
    if (member.type !== 'ClassMethod' || member.kind !== 'constructor') continue;
    for (const param of member.params) {
      const bound = param.type === 'TSParameterProperty' ? param.parameter : undefined;
      if (bound?.type === 'Identifier' && bound.name === name) return typeName(bound);
    }
  }
  return undefined;
}

/** `x: Foo` / `x: Foo<T>`: `Foo`. */
function typeName(node: Annotated): string | undefined {
  const annotation = node.typeAnnotation?.type === 'TSTypeAnnotation' ? node.typeAnnotation.typeAnnotation : undefined;
  return annotation?.type === 'TSTypeReference' && annotation.typeName.type === 'Identifier' ? annotation.typeName.name : undefined;
}
