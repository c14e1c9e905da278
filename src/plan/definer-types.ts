// A project's tool definitions (`defineTool({ name, inputSchema, handler })`) are typed by its
// own registry: `handler: (args, ctx) => Promise<CallToolResult>`. A migrated handler also
// returns InputRequiredResult, which that type refuses; the registry passes the handler on to
// registerTool, which takes both. So the definer's parameter type is widened where the handler
// member's return type is written: `Promise<CallToolResult | InputRequiredResult>`.
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { argumentParams, isFunction, type FunctionNode } from '../analyse/ast.ts';
import { resolved, returnedTypes } from '../analyse/registry-handler-type.ts';
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
      const factory = resolved(member.typeAnnotation?.typeAnnotation, types);
      for (const handler of (factory && returnedTypes(factory, types)) ?? []) if (handler.type === 'TSFunctionType') widen(handler.typeAnnotation);
    }
  }
  return edits;
}
