// Which declaration a name means at a point of a file (a variable, a parameter, a function, a
// class, an import), and the scopes that decide it: the functions around a function and the
// class `this` means in it. Worked out on demand from the file's index: a file's resolver
// (receivers.ts) answers a few questions, and tables of every declaration of a large file cost
// more than the questions did.
import type { Node } from '@babel/types';
import { annotatedType, boundNames, someNode, type FunctionNode } from './ast.ts';
import { innermostFunction, type FileIndex } from './file-index.ts';

export type ClassNode = Extract<Node, { type: 'ClassDeclaration' | 'ClassExpression' }>;

/** The file's imports by local name. */
export type Imports = ReadonlyMap<string, { from: string; imported: string }>;

export type Binding =
  | { kind: 'variable'; id: Node; init?: Node | null; annotation?: Node; chain: readonly FunctionNode[]; constant: boolean }
  | {
      kind: 'param';
      id: Node;
      param: Node;
      fn: FunctionNode;
      chain: readonly FunctionNode[];
      annotation?: Node;
      fallback?: Node;
      pattern?: { property: string };
    }
  | { kind: 'function'; fn: FunctionNode; chain: readonly FunctionNode[] }
  | { kind: 'class'; node: ClassNode }
  | { kind: 'import'; from: string; imported: string };

/** A declaration of a name, with the scope it sits in (the function, null for the module); the binding is made when asked for. */
type Declaration = { scope: FunctionNode | null; make: () => Binding; made?: Binding };

export class FileBindings {
  private readonly ancestors = new Map<FunctionNode, readonly Node[]>();
  private readonly chains = new Map<FunctionNode | null, readonly FunctionNode[]>([[null, []]]);
  private readonly thisClasses = new Map<FunctionNode, ClassNode | undefined>();
  private readonly declarations = new Map<string, Declaration[]>();
  private types: Map<string, Node> | undefined;

  constructor(
    private readonly index: FileIndex,
    private readonly imports: Imports,
  ) {}

  /** The binding `name` has inside `functions` (innermost last): the innermost scope that declares it, nothing where that scope declares it twice. */
  bindingOf(name: string, functions: readonly FunctionNode[]): Binding | undefined {
    const declarations = this.declarationsOf(name);
    if (declarations.length === 0) return undefined;
    for (let i = functions.length - 1; i >= -1; i--) {
      const scope = i === -1 ? null : functions[i]!;
      let found: Declaration | undefined;
      for (const d of declarations) {
        if (d.scope !== scope) continue;
        if (found) return undefined; // ambiguous
        found = d;
      }
      if (found) return (found.made ??= found.make());
    }
    return undefined;
  }

  /** The functions around `fn`, innermost last, itself included (none for the module). */
  chainOf(fn: FunctionNode | null): readonly FunctionNode[] {
    let chain = this.chains.get(fn);
    if (!chain) this.chains.set(fn, (chain = [...this.chainOf(innermostFunction(this.ancestorsOf(fn!))), fn!]));
    return chain;
  }

  /** The class whose instance `this` is inside `fn`. */
  thisClassOf(fn: FunctionNode | undefined): ClassNode | undefined {
    if (fn === undefined) return undefined;
    if (!this.thisClasses.has(fn)) this.thisClasses.set(fn, classForThis(fn, this.ancestorsOf(fn)));
    return this.thisClasses.get(fn);
  }

  /** The interface or type alias of this file named `name`. */
  localType(name: string): Node | undefined {
    if (!this.types) {
      this.types = new Map();
      for (const node of this.index.otherDeclarations)
        if ((node.type === 'TSInterfaceDeclaration' || node.type === 'TSTypeAliasDeclaration') && node.id.type === 'Identifier')
          this.types.set(node.id.name, node);
    }
    return this.types.get(name);
  }

  private ancestorsOf(fn: FunctionNode): readonly Node[] {
    let found = this.ancestors.get(fn);
    if (!found) this.ancestors.set(fn, (found = this.index.functions.find((f) => f.node === fn)?.ancestors ?? []));
    return found;
  }

  /** Every declaration of `name` in the file: one pass over the index's lists, the first time the name is asked about. */
  private declarationsOf(name: string): Declaration[] {
    const found = this.declarations.get(name);
    if (found) return found;
    const list: Declaration[] = [];
    this.declareVariables(name, list);
    this.declareParametersAndFunctions(name, list);
    for (const node of this.index.otherDeclarations)
      if (node.type === 'ClassDeclaration' && node.id?.name === name) list.push({ scope: null, make: () => ({ kind: 'class', node }) });
    const imported = this.imports.get(name);
    if (imported) list.push({ scope: null, make: () => ({ kind: 'import', from: imported.from, imported: imported.imported }) });
    this.declarations.set(name, list);
    return list;
  }

  private declareVariables(name: string, list: Declaration[]): void {
    for (const { node, declaration, scope } of this.index.declarators) {
      const constant = declaration.kind === 'const';
      const id = node.id;
      if (id.type === 'Identifier') {
        if (id.name !== name) continue;
        const annotation = annotatedType(id.typeAnnotation);
        list.push({ scope, make: () => ({ kind: 'variable', id, init: node.init, annotation, chain: this.chainOf(scope), constant }) });
      } else if (boundNames(id).some((b) => b.name === name))
        list.push({ scope, make: () => ({ kind: 'variable', id, chain: this.chainOf(scope), constant }) });
    }
  }

  private declareParametersAndFunctions(name: string, list: Declaration[]): void {
    for (const { node, ancestors } of this.index.functions) {
      for (const param of node.params) this.declareParameter(name, node, param, list);
      if (node.type === 'FunctionDeclaration' && node.id?.name === name)
        list.push({ scope: innermostFunction(ancestors), make: () => ({ kind: 'function', fn: node, chain: this.chainOf(node) }) });
    }
  }

  /** `name` as a parameter of `fn`: plain (`x`, `x: T`, `x = d`, `private x`) or taken from an object parameter (`{ x }`). */
  private declareParameter(name: string, fn: FunctionNode, param: FunctionNode['params'][number], list: Declaration[]): void {
    const target = param.type === 'TSParameterProperty' ? param.parameter : param;
    const fallback = target.type === 'AssignmentPattern' ? target.right : undefined;
    const id = target.type === 'AssignmentPattern' ? target.left : target;
    if (id.type === 'Identifier') {
      if (id.name !== name) return;
      const annotation = annotatedType(id.typeAnnotation);
      list.push({ scope: fn, make: () => ({ kind: 'param', id, param, fn, chain: this.chainOf(fn), annotation, fallback }) });
    } else if (id.type === 'ObjectPattern') {
      for (const p of id.properties) {
        if (p.type !== 'ObjectProperty' || p.computed || p.key.type !== 'Identifier') continue;
        const value = p.value.type === 'AssignmentPattern' ? p.value.left : p.value;
        const pattern = { property: p.key.name };
        if (value.type === 'Identifier' && value.name === name)
          list.push({ scope: fn, make: () => ({ kind: 'param', id: value, param, fn, chain: this.chainOf(fn), pattern }) });
      }
    }
  }
}

/** The class whose instance `this` is inside `fn`: arrows take it from around them; other functions have their own `this`. */
function classForThis(fn: FunctionNode, ancestors: readonly Node[]): ClassNode | undefined {
  for (let i = ancestors.length; i >= 0; i--) {
    const n = i === ancestors.length ? fn : ancestors[i]!;
    if (n.type === 'ClassMethod' || n.type === 'ClassPrivateMethod' || n.type === 'ClassProperty' || n.type === 'ClassPrivateProperty')
      return n.static ? undefined : enclosingClass(ancestors, i - 1);
    if (n.type === 'FunctionExpression' || n.type === 'FunctionDeclaration' || n.type === 'ObjectMethod') return undefined;
  }
  return undefined;
}

function enclosingClass(ancestors: readonly Node[], from: number): ClassNode | undefined {
  for (let i = from; i >= 0; i--) {
    const a = ancestors[i]!;
    if (a.type === 'ClassDeclaration' || a.type === 'ClassExpression') return a;
  }
  return undefined;
}

/** A binding that holds the same value wherever it is read: an import, a const, a parameter nothing assigns. */
export function stableBinding(b: Binding, root: string): boolean {
  return b.kind === 'import' || (b.kind === 'variable' && b.constant) || (b.kind === 'param' && !b.pattern && !assignedIn(b.fn, root));
}

function assignedIn(fn: FunctionNode, name: string): boolean {
  return someNode(fn.body, (node) => node.type === 'AssignmentExpression' && boundNames(node.left as Node).some((b) => b.name === name));
}
