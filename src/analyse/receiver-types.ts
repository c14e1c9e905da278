// Whether a doubtful receiver (`this.mcp.server.createMessage`, `llm.server.createMessage`) is
// an MCP SDK object, read off the file's own declarations and imports before the type checker
// is asked: starting the checker costs seconds and a few hundred megabytes, and a project's
// doubtful receivers are mostly spelled out in the file (a parameter or class member annotated
// with a type imported from the SDK, or a look-alike declared beside it).
//
// An answer is given only where the checker's would be the same (src/analyse/ts-type-facts.ts:
// whether the receiver's type is declared in an @modelcontextprotocol package):
// - true: the receiver is `<x>.server` where `<x>` is annotated `McpServer` imported from the
//   SDK (McpServer's `server` is the SDK's Server), or is itself annotated with a type imported
//   from the SDK;
// - false: its type is an object type written in this file (a type literal, an interface or a
//   class with no `extends`, declared once, at the top of the module).
// Anything else (an inferred type, a name bound twice, a type from another module, generics)
// is left to the checker. A name is followed only when the file binds it once, in a scope
// around the call.
import type { ClassBody, Node, TSType } from '@babel/types';
import type { FileAnalysis } from './analyse-file.ts';
import type { LegacySite } from './find-sites.ts';
import { boundNames } from './ast.ts';

/** What a type annotation is known to be. */
type Known =
  /** McpServer, imported from the SDK: its `server` is the SDK's Server. */
  | { kind: 'mcp-server' }
  /** Any other type imported from an SDK package. */
  | { kind: 'sdk' }
  /** An object type written in this file: its members, and whether it inherits others. */
  | { kind: 'local'; members: readonly Node[]; inherits: boolean }
  /** A class declared in this file (members as a class body). */
  | { kind: 'local-class'; body: ClassBody; inherits: boolean };

const SDK_SCOPE = '@modelcontextprotocol/';

/**
 * The receivers of the file's doubtful sites whose answer its declarations give, by
 * `${start}:${end}` (the key TypeFacts.fromSdk is asked with).
 */
export function receiversFromDeclarations(analysis: FileAnalysis): Map<string, boolean> {
  const verdicts = new Map<string, boolean>();
  const doubtful = analysis.sites.filter((s) => s.uncertain);
  // Declarations merged from elsewhere (`declare module`, `declare global`, namespaces) could
  // add to a type declared here: leave such files to the checker.
  if (doubtful.length === 0 || analysis.program.body.some((s) => s.type === 'TSModuleDeclaration' || (s.type === 'ExportNamedDeclaration' && s.declaration?.type === 'TSModuleDeclaration'))) return verdicts;
  const resolver = new DeclaredTypes(analysis);
  for (const site of doubtful) {
    const verdict = verdictOf(resolver.typeOf(site.receiver, site));
    if (verdict !== undefined) verdicts.set(`${site.receiver.start}:${site.receiver.end}`, verdict);
  }
  return verdicts;
}

function verdictOf(type: Known | undefined): boolean | undefined {
  if (!type) return undefined;
  if (type.kind === 'mcp-server' || type.kind === 'sdk') return true;
  // A subclass or an extended interface may be the SDK's after all: the checker decides.
  return type.inherits ? undefined : false;
}

class DeclaredTypes {
  /** Every binding of each name in the file (a name bound more than once is not followed). */
  private bindings?: Map<string, Array<{ id: Node; scope: Node | null; block?: Node }>>;
  /** Type and class declarations by name: each declaration of it, null for one not at the top of the module. */
  private declarations?: Map<string, Array<Node | null>>;

  constructor(private readonly analysis: FileAnalysis) {}

  /** The declared type of a receiver expression at `site`, if the file says it. */
  typeOf(node: Node, site: LegacySite): Known | undefined {
    if (node.type === 'TSNonNullExpression' || node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'ParenthesizedExpression') return undefined;
    if (node.type === 'Identifier') return this.identifierType(node.name, site);
    if (node.type === 'ThisExpression') return this.thisType(site);
    if (node.type !== 'MemberExpression' || node.computed) return undefined;
    const name = node.property.type === 'Identifier' ? node.property.name : node.property.type === 'PrivateName' ? `#${node.property.id.name}` : undefined;
    if (name === undefined) return undefined;
    const object = this.typeOf(node.object, site);
    if (!object) return undefined;
    if (object.kind === 'mcp-server') return name === 'server' ? { kind: 'sdk' } : undefined;
    if (object.kind === 'sdk') return undefined;
    const member = object.kind === 'local' ? propertySignature(object.members, name) : classMember(object.body, name);
    return member ? this.annotationType(member, site) : undefined;
  }

  /** The annotated type of the one binding of `name` whose scope holds the site. */
  private identifierType(name: string, site: LegacySite): Known | undefined {
    const bindings = (this.bindings ??= this.collectBindings()).get(name);
    if (bindings?.length !== 1) return undefined;
    const { id, scope, block } = bindings[0]!;
    if (scope !== null && !site.functions.includes(scope as never)) return undefined;
    if (block && !site.ancestors.includes(block)) return undefined;
    return this.annotationType(id, site);
  }

  /** `this` in a method (arrow functions between keep it) of a class declared in this file. */
  private thisType(site: LegacySite): Known | undefined {
    const method = [...site.functions].reverse().find((f) => f.type !== 'ArrowFunctionExpression');
    if (!method || (method.type !== 'ClassMethod' && method.type !== 'ClassPrivateMethod') || method.static) return undefined;
    const at = site.ancestors.indexOf(method);
    const body = site.ancestors[at - 1];
    const declaration = site.ancestors[at - 2];
    if (body?.type !== 'ClassBody' || (declaration?.type !== 'ClassDeclaration' && declaration?.type !== 'ClassExpression')) return undefined;
    return { kind: 'local-class', body, inherits: declaration.superClass != null };
  }

  /** The type an annotated node (an identifier, a class member, a property signature) declares. */
  private annotationType(node: Node, site: LegacySite): Known | undefined {
    const annotation = (node as { typeAnnotation?: Node | null }).typeAnnotation;
    if (annotation?.type !== 'TSTypeAnnotation') return undefined;
    return this.typeNodeType(annotation.typeAnnotation, site);
  }

  private typeNodeType(type: TSType, site: LegacySite): Known | undefined {
    if (type.type === 'TSTypeLiteral') return { kind: 'local', members: type.members, inherits: false };
    if (type.type !== 'TSTypeReference' || type.typeName.type !== 'Identifier') return undefined;
    const name = type.typeName.name;
    // A type parameter of a function or class around the site shadows every other name.
    if (site.ancestors.some((a) => typeParameterNames(a).includes(name))) return undefined;
    const imported = this.analysis.importedNames.get(name);
    if (imported) {
      if (!imported.from.startsWith(SDK_SCOPE)) return undefined;
      return imported.imported === 'McpServer' ? { kind: 'mcp-server' } : { kind: 'sdk' };
    }
    if (type.typeParameters) return undefined;
    const declared = (this.declarations ??= this.collectDeclarations()).get(name);
    if (declared?.length !== 1) return undefined;
    const declaration = declared[0];
    if (!declaration) return undefined;
    if (declaration.type === 'TSInterfaceDeclaration') return declaration.typeParameters ? undefined : { kind: 'local', members: declaration.body.body, inherits: (declaration.extends?.length ?? 0) > 0 };
    if (declaration.type === 'TSTypeAliasDeclaration') return !declaration.typeParameters && declaration.typeAnnotation.type === 'TSTypeLiteral' ? { kind: 'local', members: declaration.typeAnnotation.members, inherits: false } : undefined;
    if (declaration.type === 'ClassDeclaration') return declaration.typeParameters ? undefined : { kind: 'local-class', body: declaration.body, inherits: declaration.superClass != null };
    return undefined;
  }

  private collectBindings(): Map<string, Array<{ id: Node; scope: Node | null; block?: Node }>> {
    const bindings = new Map<string, Array<{ id: Node; scope: Node | null; block?: Node }>>();
    const add = (name: string, id: Node, scope: Node | null, block?: Node) => {
      const list = bindings.get(name);
      if (list) list.push({ id, scope, block });
      else bindings.set(name, [{ id, scope, block }]);
    };
    const { index, program } = this.analysis;
    for (const { node, declaration, scope } of index.declarators) {
      // Only a declaration straight in the module or a function's body is followed (its scope
      // is then the function's); one in a nested block is counted, never used.
      const atTop = program.body.some((s) => s === declaration || (s.type === 'ExportNamedDeclaration' && s.declaration === declaration));
      const inBody = scope !== null && scope.body.type === 'BlockStatement' && scope.body.body.includes(declaration);
      for (const b of boundNames(node.id)) add(b.name, atTop || inBody ? bindingIdentifier(node.id, b.name) : node, scope);
    }
    for (const { node } of index.functions) {
      for (const param of node.params) for (const b of boundNames(param as Node)) add(b.name, bindingIdentifier(param as Node, b.name), node);
      if ((node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression') && node.id) add(node.id.name, node.id, null);
    }
    for (const node of index.otherDeclarations) {
      if ((node.type === 'ClassDeclaration' || node.type === 'ClassExpression') && node.id) add(node.id.name, node, null);
      if (node.type === 'CatchClause' && node.param) for (const b of boundNames(node.param)) add(b.name, node, null);
      if (node.type === 'ImportSpecifier' || node.type === 'ImportDefaultSpecifier' || node.type === 'ImportNamespaceSpecifier') add(node.local.name, node, null);
    }
    return bindings;
  }

  private collectDeclarations(): Map<string, Array<Node | null>> {
    const declarations = new Map<string, Array<Node | null>>();
    for (const node of this.analysis.index.otherDeclarations) {
      if (node.type !== 'TSInterfaceDeclaration' && node.type !== 'TSTypeAliasDeclaration' && node.type !== 'ClassDeclaration' && node.type !== 'ClassExpression' && node.type !== 'TSEnumDeclaration') continue;
      const name = node.id?.type === 'Identifier' ? node.id.name : undefined;
      if (name === undefined) continue;
      // Only one at the top of the module counts; any other of the same name makes it ambiguous.
      const atTop = this.analysis.program.body.some((s) => s === node || ((s.type === 'ExportNamedDeclaration' || s.type === 'ExportDefaultDeclaration') && s.declaration === node));
      const list = declarations.get(name) ?? [];
      list.push(atTop ? node : null);
      declarations.set(name, list);
    }
    return declarations;
  }
}

/** The identifier that binds `name` in a binding pattern, when it is the whole pattern (a plain, possibly annotated, name). */
function bindingIdentifier(pattern: Node, name: string): Node {
  const id: Node = pattern.type === 'TSParameterProperty' ? pattern.parameter : pattern;
  return id.type === 'Identifier' && id.name === name ? id : pattern;
}

function typeParameterNames(node: Node): string[] {
  const params = (node as { typeParameters?: Node | null }).typeParameters;
  if (params?.type !== 'TSTypeParameterDeclaration') return [];
  return params.params.map((p) => p.name);
}

/** An interface's or type literal's property `name`, declared once (no method, no index signature). */
function propertySignature(members: readonly Node[], name: string): Node | undefined {
  const found = members.filter((m) => m.type === 'TSPropertySignature' && !m.computed && keyName(m.key) === name);
  if (found.length !== 1 || members.some((m) => m.type === 'TSIndexSignature' || (m.type === 'TSMethodSignature' && keyName(m.key) === name))) return undefined;
  return found[0];
}

/** A class's instance property `name`: a field, or a constructor's parameter property. */
function classMember(body: ClassBody, name: string): Node | undefined {
  const found: Node[] = [];
  for (const member of body.body) {
    if ((member.type === 'ClassProperty' || member.type === 'ClassPrivateProperty' || member.type === 'ClassAccessorProperty') && !member.static && !('computed' in member && member.computed) && keyName(member.key) === name) found.push(member);
    else if ((member.type === 'ClassMethod' || member.type === 'ClassPrivateMethod') && keyName(member.key) === name) return undefined;
    else if (member.type === 'ClassMethod' && member.kind === 'constructor') {
      for (const param of member.params) if (param.type === 'TSParameterProperty' && param.parameter.type === 'Identifier' && param.parameter.name === name) found.push(param.parameter);
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

function keyName(key: Node): string | undefined {
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'PrivateName') return `#${key.id.name}`;
  if (key.type === 'StringLiteral') return key.value;
  return undefined;
}
