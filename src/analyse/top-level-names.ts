// The module-scope facts a parser checks across top-level statements: the names a statement
// binds in the module's scope (a second binding of a name is an error) and the names it
// exports (a second export of a name is an error, and `export { x }` needs an `x`). The
// output check (verify-output.ts) parses only the statements a rewrite touched; these facts
// tell it when the statements it did not parse could still clash with the ones it did.
import type { Node, Statement } from '@babel/types';
import { boundNames } from './ast.ts';

export interface TopLevelNames {
  /** Names bound in the module scope: values, types and imports alike (over-approximated). */
  declared: Set<string>;
  /** Names exported (`default` for a default export). */
  exported: Set<string>;
  /** Local names an `export { a, b as c }` without `from` refers to. */
  exportedLocals: Set<string>;
  /** Whether there is an import or export (the parser then reads the file as a module). */
  moduleSyntax: boolean;
}

export function emptyNames(): TopLevelNames {
  return { declared: new Set(), exported: new Set(), exportedLocals: new Set(), moduleSyntax: false };
}

/** Adds what `statement` (a top-level statement) declares and exports to `into`. */
export function addTopLevelNames(statement: Statement, into: TopLevelNames): void {
  switch (statement.type) {
    case 'ImportDeclaration':
      into.moduleSyntax = true;
      for (const spec of statement.specifiers) into.declared.add(spec.local.name);
      return;
    case 'ExportNamedDeclaration':
      into.moduleSyntax = true;
      if (statement.declaration) {
        const own = new Set<string>();
        addScopeNames(statement.declaration, own);
        for (const name of own) {
          into.declared.add(name);
          into.exported.add(name);
        }
      }
      for (const spec of statement.specifiers) {
        const exported = spec.exported.type === 'Identifier' ? spec.exported.name : spec.exported.value;
        into.exported.add(exported);
        if (!statement.source && spec.type === 'ExportSpecifier') into.exportedLocals.add(spec.local.name);
      }
      return;
    case 'ExportDefaultDeclaration':
      into.moduleSyntax = true;
      into.exported.add('default');
      {
        // A declaration's name (`export default interface I {}` too); an expression's is
        // counted as well, which only over-approximates.
        const id = (statement.declaration as { id?: Node | null }).id;
        if (id?.type === 'Identifier') into.declared.add(id.name);
      }
      return;
    case 'ExportAllDeclaration':
      into.moduleSyntax = true;
      into.exported.add('*');
      return;
    case 'TSExportAssignment':
      into.moduleSyntax = true;
      into.exported.add('export =');
      return;
    default:
      addScopeNames(statement, into.declared);
  }
}

/**
 * Names `node` binds in the scope it sits in: its own declarations, and the `var`s and
 * function declarations of the blocks below it (not inside functions or classes), which the
 * parser checks against the enclosing scope too.
 */
function addScopeNames(node: Node, into: Set<string>): void {
  switch (node.type) {
    case 'VariableDeclaration':
      for (const d of node.declarations) for (const b of boundNames(d.id)) into.add(b.name);
      return;
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'TSDeclareFunction':
      if (node.id) into.add(node.id.name);
      return;
    case 'TSInterfaceDeclaration':
    case 'TSTypeAliasDeclaration':
    case 'TSEnumDeclaration':
    case 'TSImportEqualsDeclaration':
      into.add(node.id.name);
      return;
    case 'TSModuleDeclaration':
      // `declare global` and `declare module 'x'` name no binding.
      if (node.id.type === 'Identifier') into.add(node.id.name);
      return;
    default:
      addNestedScopeNames(node, into);
  }
}

/** The `var`s and function declarations of the blocks below a statement that bind in the scope it sits in. */
function addNestedScopeNames(node: Node, into: Set<string>): void {
  switch (node.type) {
    case 'BlockStatement':
    case 'StaticBlock':
      for (const s of node.body) addScopeNames(s, into);
      return;
    case 'IfStatement':
      addScopeNames(node.consequent, into);
      if (node.alternate) addScopeNames(node.alternate, into);
      return;
    case 'ForStatement':
      if (node.init?.type === 'VariableDeclaration') addScopeNames(node.init, into);
      addScopeNames(node.body, into);
      return;
    case 'ForInStatement':
    case 'ForOfStatement':
      if (node.left.type === 'VariableDeclaration') addScopeNames(node.left, into);
      addScopeNames(node.body, into);
      return;
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'LabeledStatement':
    case 'WithStatement':
      addScopeNames(node.body, into);
      return;
    case 'TryStatement':
      addScopeNames(node.block, into);
      if (node.handler) addScopeNames(node.handler.body, into);
      if (node.finalizer) addScopeNames(node.finalizer, into);
      return;
    case 'SwitchStatement':
      for (const c of node.cases) for (const s of c.consequent) addScopeNames(s, into);
      return;
    default:
      return;
  }
}
