// A project's tool definitions (`defineTool({ name, inputSchema, handler })`) are typed by its
// own registry: `handler: (args, ctx) => Promise<CallToolResult>`. A migrated handler also
// returns InputRequiredResult, which that type refuses; the registry passes the handler on to
// registerTool, which takes both. So the definer's parameter type is widened where the handler
// member's return type is written: `Promise<CallToolResult | InputRequiredResult>`.
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { argumentParams, isFunction, type FunctionNode } from '../analyse/ast.ts';
import type { Edit } from '../core/vocabulary.ts';
import { widenedPromise } from '../rewrite/edits/return-type.ts';

/** Members of a definition that hold its handler (see find-handlers.ts). */
const HANDLER_KEYS = new Set(['handler', 'execute', 'callback', 'run', 'cb']);

/** Edits widening the handler's return type in the parameter type of each named definer of this module. */
export function widenDefinerEdits(analysis: FileAnalysis, definers: readonly string[]): Edit[] {
  if (definers.length === 0) return [];
  const { program, source } = analysis;
  const types = new Map<string, Node>();
  const functions = new Map<string, FunctionNode>();
  for (const statement of program.body) {
    const decl = statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
    if ((decl.type === 'TSInterfaceDeclaration' || decl.type === 'TSTypeAliasDeclaration') && decl.id.type === 'Identifier') types.set(decl.id.name, decl);
    if (decl.type === 'FunctionDeclaration' && decl.id) functions.set(decl.id.name, decl);
    if (decl.type === 'VariableDeclaration')
      for (const d of decl.declarations) if (d.id.type === 'Identifier' && d.init && isFunction(d.init)) functions.set(d.id.name, d.init);
  }
  const edits: Edit[] = [];
  const seen = new Set<Node>();
  const widen = (returnType: Node | null | undefined) => {
    const type = returnType?.type === 'TSTypeAnnotation' ? returnType.typeAnnotation : undefined;
    if (!type || seen.has(type)) return;
    seen.add(type);
    const widened = widenedPromise(source, type);
    if (widened) edits.push(widened);
  };
  const members = (type: Node | undefined): Node[] => {
    if (!type) return [];
    if (type.type === 'TSTypeLiteral') return type.members;
    if (type.type === 'TSTypeReference' && type.typeName.type === 'Identifier') {
      const local = types.get(type.typeName.name);
      if (local?.type === 'TSInterfaceDeclaration') return local.body.body;
      if (local?.type === 'TSTypeAliasDeclaration') return members(local.typeAnnotation);
    }
    return [];
  };
  for (const name of definers) {
    const fn = functions.get(name);
    const param = fn && argumentParams(fn)[0];
    const annotation =
      param && 'typeAnnotation' in param && param.typeAnnotation?.type === 'TSTypeAnnotation' ? param.typeAnnotation.typeAnnotation : undefined;
    for (const member of members(annotation)) {
      const key = (member as { key?: Node }).key;
      if (key?.type !== 'Identifier' || !HANDLER_KEYS.has(key.name)) continue;
      if (member.type === 'TSMethodSignature') widen(member.typeAnnotation);
      if (member.type === 'TSPropertySignature' && member.typeAnnotation?.typeAnnotation.type === 'TSFunctionType')
        widen(member.typeAnnotation.typeAnnotation.typeAnnotation);
    }
    // A registry's declaration holds a factory instead (`factory: (context) => ToolHandler`): the handlers it returns.
    for (const member of members(annotation)) {
      const key = (member as { key?: Node }).key;
      if (key?.type !== 'Identifier' || key.name !== 'factory' || member.type !== 'TSPropertySignature') continue;
      for (const handler of returnedFunctionTypes(member.typeAnnotation?.typeAnnotation, types)) widen(handler.typeAnnotation);
    }
  }
  return edits;
}

/** How deep a factory's return type is followed through aliases, unions and promises. */
const MAX_DEPTH = 8;

/** The function types a factory's function type returns (each member of a union, a Promise's value), through this module's aliases. */
function returnedFunctionTypes(factory: Node | undefined, types: ReadonlyMap<string, Node>): Extract<Node, { type: 'TSFunctionType' }>[] {
  const out: Extract<Node, { type: 'TSFunctionType' }>[] = [];
  const add = (type: Node | undefined, depth: number): void => {
    if (!type || depth > MAX_DEPTH) return;
    if (type.type === 'TSParenthesizedType') return add(type.typeAnnotation, depth + 1);
    if (type.type === 'TSUnionType') return type.types.forEach((t) => add(t, depth + 1));
    if (type.type === 'TSFunctionType') return void out.push(type);
    if (type.type !== 'TSTypeReference' || type.typeName.type !== 'Identifier') return;
    if (type.typeName.name === 'Promise') return add(type.typeParameters?.params[0], depth + 1);
    const alias = types.get(type.typeName.name);
    if (alias?.type === 'TSTypeAliasDeclaration') add(alias.typeAnnotation, depth + 1);
  };
  const resolve = (type: Node | undefined, depth: number): Node | undefined => {
    if (!type || depth > MAX_DEPTH) return undefined;
    if (type.type === 'TSParenthesizedType') return resolve(type.typeAnnotation, depth + 1);
    const alias = type.type === 'TSTypeReference' && type.typeName.type === 'Identifier' ? types.get(type.typeName.name) : undefined;
    return alias?.type === 'TSTypeAliasDeclaration' ? resolve(alias.typeAnnotation, depth + 1) : type;
  };
  const fn = resolve(factory, 0);
  if (fn?.type === 'TSFunctionType') add(fn.typeAnnotation?.typeAnnotation, 0);
  return out;
}
