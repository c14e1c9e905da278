// Where a helper is declared, so its halves can replace it (a function, a const arrow or
// function, or a class method), and how its first statement takes the answer.
import type { Node, Statement } from '@babel/types';
import type { LegacySite } from '../analyse/find-sites.ts';

export interface Holder {
  name: string;
  /** What the halves replace: the function, its const declaration or the method (with an `export` around it). */
  node: Node;
  method: boolean;
  exported: boolean;
  /** A method's modifiers the halves keep (`private `). */
  modifiers: string;
}

/**
 * The helper's own declaration: `function name() {}` (exported or not), `const name = async
 * () => {}`, or a method of a class (its modifiers kept, `async` dropped: the halves do not await).
 */
export function declarationOf(site: LegacySite, fn: Node): Holder | undefined {
  const chain = site.ancestors;
  const at = chain.indexOf(fn as never);
  const parent = chain[at - 1];
  const grand = chain[at - 2];
  const none = { method: false, exported: false, modifiers: '' };
  if (fn.type === 'FunctionDeclaration' && fn.id) {
    const exported = parent?.type === 'ExportNamedDeclaration';
    return { ...none, name: fn.id.name, node: exported ? parent! : fn, exported };
  }
  if (
    (fn.type === 'ArrowFunctionExpression' || fn.type === 'FunctionExpression') &&
    parent?.type === 'VariableDeclarator' &&
    parent.id.type === 'Identifier' &&
    grand?.type === 'VariableDeclaration' &&
    grand.declarations.length === 1
  ) {
    const exported = chain[at - 3]?.type === 'ExportNamedDeclaration';
    return { ...none, name: parent.id.name, node: exported ? chain[at - 3]! : grand, exported };
  }
  if (fn.type === 'ClassMethod' && fn.kind === 'method' && !fn.static && !fn.computed && fn.key.type === 'Identifier' && !fn.decorators?.length) {
    return { name: fn.key.name, node: fn, method: true, exported: false, modifiers: modifiersOf(fn) };
  }
  return undefined;
}

/** `private `, `public override ` ... of a method: what its halves keep (never `async`). */
function modifiersOf(method: Extract<Node, { type: 'ClassMethod' }>): string {
  return [method.accessibility, method.override ? 'override' : undefined]
    .filter(Boolean)
    .map((m) => `${m} `)
    .join('');
}

export type Answer = { form: 'declare'; name: string } | { form: 'return' };

/** `const answer = await <call>` or `return await <call>` / `return <call>` as the helper's first statement. */
export function answerBinding(statement: Statement, call: Node, source: string): Answer | undefined {
  const awaited = (n: Node | null | undefined) => n === call || (n?.type === 'AwaitExpression' && n.argument === call);
  if (statement.type === 'ReturnStatement' && awaited(statement.argument)) return { form: 'return' };
  if (statement.type === 'VariableDeclaration' && statement.kind === 'const' && statement.declarations.length === 1) {
    const d = statement.declarations[0]!;
    if (d.init?.type !== 'AwaitExpression' || d.init.argument !== call || (d.id as { typeAnnotation?: unknown }).typeAnnotation) return undefined;
    if (d.id.type === 'Identifier') return { form: 'declare', name: d.id.name };
    // `const { roots } = await server.listRoots()`: the result half takes the pattern as its parameter.
    if (d.id.type === 'ObjectPattern' || d.id.type === 'ArrayPattern') return { form: 'declare', name: source.slice(d.id.start!, d.id.end!) };
  }
  return undefined;
}
