// What the official v1-to-v2 codemod leaves of the v1 SDK's `server.tool(...)` registrations,
// finished. It rewrites a call only when the tool's name is a string literal, and marks the
// others (`server.tool(TOOLS.list, 'List them', { top: z.number() }, cb)`) with an
// `@mcp-codemod-error` comment; v2's McpServer has no `tool()`, so such a server throws at
// start-up. Each such call on an McpServer, in any of the v1 overloads
// (analyse/tool-overloads.ts), becomes `server.registerTool(NAME, { description, inputSchema:
// z.object(shape), annotations }, cb)`, written in the call's own layout, and the marker it
// answers goes. A call it cannot read is left with its marker (and its handler is not migrated).
import type { CallExpression, Comment, Node } from '@babel/types';
import { analyseIfParses, type FileAnalysis } from '../analyse/analyse-file.ts';
import { codeStyleOf } from '../analyse/code-style.ts';
import { walk } from '../analyse/ast.ts';
import { constDeclarations, enclosingFunctions } from '../analyse/file-index.ts';
import { moduleSystemOf } from '../analyse/module-imports.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import {
  officialRefusalAbove,
  officialRefusalMessage,
  readToolOverload,
  ZOD_MODULE,
  type OverloadScope,
  type ToolOverload,
} from '../analyse/tool-overloads.ts';
import { type Edit, eolOf, indentAt, lineEndOf, lineStartOf, startsLine } from '../core/vocabulary.ts';
import { addImport } from './edits/imports.ts';
import { applyEdits } from './rewrite.ts';

export interface ToolRegistrationsRewrite {
  output: string;
  /** How many calls were rewritten. */
  rewritten: number;
}

/** The v1 SDK's package: a file still importing it is still on v1, whose McpServer has `tool()`. */
const V1_PACKAGE = /^@modelcontextprotocol\/sdk(?:\/|$)/;

/** Another module of the project, by the specifier a file imports it with: its file name and text. */
export type ModuleReader = (specifier: string) => { fileName: string; text: string } | undefined;

/**
 * `source` with every readable `tool(...)` call on an McpServer written as registerTool.
 * `readModule` lets a shape (or description) imported from a module of the project be read.
 */
export function rewriteToolRegistrations(source: string, fileName: string, readModule?: ModuleReader): ToolRegistrationsRewrite {
  if (!/\.\s*tool\s*\(/.test(source)) return { output: source, rewritten: 0 };
  const analysis = analyseIfParses(source, fileName);
  if (!analysis) return { output: source, rewritten: 0 };
  if ([...analysis.importedNames.values()].some((i) => V1_PACKAGE.test(i.from))) return { output: source, rewritten: 0 };
  const calls = toolCalls(analysis, readModule && importedConsts(analysis, readModule));
  if (calls.length === 0) return { output: source, rewritten: 0 };
  const zod = calls.some((c) => c.read.shape) ? zodNamespace(analysis) : undefined;
  // A shape needs the zod namespace: where it cannot be imported (`z` is taken), the call stays.
  const rewritable = calls.filter((c) => !c.read.shape || zod);
  const edits = rewritable.flatMap((c) => registrationEdits(source, c.call, c.read, zod?.name));
  edits.push(...answeredMarkers(analysis, rewritable));
  if (zod?.add) edits.push(zod.add);
  return { output: applyEdits(source, edits), rewritten: rewritable.length };
}

interface ToolCall {
  call: CallExpression;
  read: ToolOverload;
}

/** The `x.tool(...)` calls of the file on an McpServer, with the overload each is. */
function toolCalls(analysis: FileAnalysis, importedConst: OverloadScope['importedConst']): ToolCall[] {
  const resolver = receiverResolver(analysis.index, analysis.importedNames);
  const declarations = constDeclarations(analysis.index);
  const found: ToolCall[] = [];
  for (const { node, ancestors } of analysis.index.calls) {
    const callee = node.callee;
    if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier' || callee.property.name !== 'tool') continue;
    const functions = enclosingFunctions(ancestors);
    if (resolver.roleOf(callee.object, functions) !== 'mcp-server') continue;
    const read = readToolOverload(node, { source: analysis.source, declarations, functions, imports: analysis.importedNames, importedConst });
    if (!('unreadable' in read)) found.push({ call: node, read });
  }
  return found;
}

/** The top-level consts the modules of the project export, read as the file imports them (each module parsed once). */
function importedConsts(analysis: FileAnalysis, readModule: ModuleReader): NonNullable<OverloadScope['importedConst']> {
  const modules = new Map<string, FileAnalysis | undefined>();
  return (local) => {
    const imported = analysis.importedNames.get(local);
    if (!imported || !imported.from.startsWith('.') || imported.imported === '*' || imported.imported === 'default') return undefined;
    if (!modules.has(imported.from)) modules.set(imported.from, analysedModule(readModule(imported.from)));
    const other = modules.get(imported.from);
    if (!other?.exportedNames.has(imported.imported)) return undefined;
    const declarations = constDeclarations(other.index);
    const init = declarations(imported.imported, [])?.init;
    return init ? { node: init, scope: { source: other.source, declarations, functions: [], imports: other.importedNames } } : undefined;
  };
}

function analysedModule(module: ReturnType<ModuleReader>): FileAnalysis | undefined {
  return module && analyseIfParses(module.text, module.fileName);
}

/** The edits that make one call `registerTool(name, config, cb)`. */
function registrationEdits(source: string, call: CallExpression, read: ToolOverload, zod: string | undefined): Edit[] {
  const method = (call.callee as Extract<Node, { type: 'MemberExpression' }>).property;
  const parts = [
    ...(read.description ? [{ key: 'description', node: read.description }] : []),
    ...(read.shape ? [{ key: 'inputSchema', node: read.shape, wrap: `${zod!}.object` }] : []),
    ...(read.annotations ? [{ key: 'annotations', node: read.annotations }] : []),
  ];
  const edits: Edit[] = [{ start: method.start!, end: method.end!, text: 'registerTool' }];
  if (parts.length === 0) {
    // No config argument: an empty one before the callback, with the separator the name has.
    const gap = source.slice(read.name.end!, read.callback.start!);
    edits.push({ start: read.callback.start!, end: read.callback.start!, text: `{}${/^\s*,\s*$/.test(gap) ? gap : ', '}` });
    return edits;
  }
  const first = parts[0]!.node;
  const last = parts[parts.length - 1]!.node;
  const gaps = parts.slice(1).map((p, i) => source.slice(parts[i]!.node.end!, p.node.start!));
  if (startsLine(source, first.start!) && gaps.every((g) => /^\s*,\s*$/.test(g))) {
    edits.push({ start: first.start!, end: last.end!, text: configBlock(source, call, parts, trailingCommas(source, call, read)) });
    return edits;
  }
  // Written inline, around the arguments as they are (and whatever lies between them).
  parts.forEach((p, i) => {
    edits.push({ start: p.node.start!, end: p.node.start!, text: `${i === 0 ? '{ ' : ''}${p.key}: ${p.wrap ? `${p.wrap}(` : ''}` });
    if (p.wrap) edits.push({ start: p.node.end!, end: p.node.end!, text: ')' });
  });
  edits.push({ start: last.end!, end: last.end!, text: ' }' });
  return edits;
}

/**
 * The config object where the arguments were, one property a line, one level deeper than the
 * arguments: the layout a formatter gives it (`{` and `}` on the arguments' indentation).
 */
function configBlock(source: string, call: CallExpression, parts: ReadonlyArray<{ key: string; node: Node; wrap?: string }>, trailing: boolean): string {
  const eol = eolOf(source);
  const indent = indentAt(source, parts[0]!.node.start!);
  const outer = indentAt(source, call.start!);
  const unit = indent.startsWith(outer) && indent.length > outer.length ? indent.slice(outer.length) : '  ';
  const lines = parts.map((p) => {
    const value = deeper(source, p.node, unit);
    return `${indent}${unit}${p.key}: ${p.wrap ? `${p.wrap}(${value})` : value}`;
  });
  return `{${eol}${lines.join(`,${eol}`)}${trailing ? ',' : ''}${eol}${indent}}`;
}

/** A node's text with each line after its first one level deeper, bar the lines inside a string or template. */
function deeper(source: string, node: Node, unit: string): string {
  const verbatim: Node[] = [];
  walk(node, (n) => {
    if ((n.type !== 'TemplateLiteral' && n.type !== 'StringLiteral') || n.loc!.start.line === n.loc!.end.line) return undefined;
    verbatim.push(n);
    return false;
  });
  let out = '';
  let at = node.start!;
  for (let nl = source.indexOf('\n', at); nl !== -1 && nl < node.end!; nl = source.indexOf('\n', nl + 1)) {
    out += source.slice(at, nl + 1);
    at = nl + 1;
    const blank = /^[ \t]*\r?$/.test(source.slice(at, lineEndOf(source, at)));
    if (!blank && !verbatim.some((v) => v.start! < nl && nl < v.end!)) out += unit;
  }
  return out + source.slice(at, node.end!);
}

/**
 * Whether the file ends a list spread over lines with a comma: as its object literals among
 * the call's arguments do, else as the call's own argument list does.
 */
function trailingCommas(source: string, call: CallExpression, read: ToolOverload): boolean {
  for (const node of [read.shape, read.annotations]) {
    if (node?.type !== 'ObjectExpression' || node.properties.length === 0 || node.loc!.start.line === node.loc!.end.line) continue;
    return source.slice(node.properties[node.properties.length - 1]!.end!, node.end! - 1).includes(',');
  }
  return call.loc!.start.line !== call.loc!.end.line && source.slice(read.callback.end!, call.end! - 1).includes(',');
}

/** The local name of the zod namespace, and the import to add when the file has none: undefined when `z` is taken. */
function zodNamespace(analysis: FileAnalysis): { name: string; add?: Edit } | undefined {
  const { program, source, fileName } = analysis;
  let module: string | undefined;
  for (const s of program.body) {
    if (s.type !== 'ImportDeclaration' || !ZOD_MODULE.test(s.source.value)) continue;
    module ??= s.source.value;
    if (s.importKind === 'type') continue;
    for (const spec of s.specifiers) {
      if (spec.type === 'ImportNamespaceSpecifier' || spec.type === 'ImportDefaultSpecifier') return { name: spec.local.name };
      const imported = spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value;
      if (imported === 'z' && spec.importKind !== 'type') return { name: spec.local.name };
    }
  }
  // A project module that re-exports it (`import { z } from './deps.js'`).
  if (analysis.importedNames.has('z')) return { name: 'z' };
  if (analysis.declaredAnywhere.has('z')) return undefined;
  const add = addImport(source, program, moduleSystemOf(fileName, program), codeStyleOf(source, program), module ?? 'zod', ['z']);
  return { name: 'z', add };
}

/**
 * The official markers the rewritten calls answer: one message each from the marker above the
 * line where the call starts, the whole comment line when nothing else is left in it.
 */
function answeredMarkers(analysis: FileAnalysis, calls: readonly ToolCall[]): Edit[] {
  const message = officialRefusalMessage('tool');
  const answered = new Map<Comment, number>();
  for (const { call } of calls) {
    const comment = officialRefusalAbove(analysis.comments, call, 'tool');
    if (comment) answered.set(comment, (answered.get(comment) ?? 0) + 1);
  }
  const edits: Edit[] = [];
  const { source } = analysis;
  for (const [comment, count] of answered) {
    const head = /^\s*@mcp-codemod-error\s+/.exec(comment.value);
    if (!head) continue;
    let removed = 0;
    const left = comment.value
      .slice(head[0].length)
      .trimEnd()
      .split(' | ')
      .filter((m) => (m === message && removed < count ? (removed++, false) : true));
    if (left.length === 0) {
      const end = lineEndOf(source, comment.end!);
      edits.push({ start: lineStartOf(source, comment.start!), end: end < source.length ? end + 1 : end, text: '' });
    } else edits.push({ start: comment.start!, end: comment.end!, text: `/* @mcp-codemod-error ${left.join(' | ')} */` });
  }
  return edits;
}
