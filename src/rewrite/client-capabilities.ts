// Capability checks inside handlers. On a 2026-07-28 request the client's capabilities
// arrive with the request (`ctx.mcpReq.envelope`), and `server.getClientCapabilities()`
// answers undefined there (measured on serveStdio), so a check such as
// `if (!server.server.getClientCapabilities()?.elicitation)` would wrongly take the
// "cannot ask" path on every modern call. Each such call in a handler reads the request's
// own capabilities first and falls back to the connection's (the 2025 era).
import type { Node, Program } from '@babel/types';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { isFunction, memberPath } from '../analyse/ast.ts';
import { contextParam } from '../analyse/find-handlers.ts';
import { SERVER_PACKAGE } from '../analyse/sdk-surface.ts';
import { codeStyleOf } from '../analyse/code-style.ts';
import { importedFrom, isImported, moduleSystemOf } from '../analyse/module-imports.ts';
import { addImport } from './edits/imports.ts';
import type { Edit } from '../core/vocabulary.ts';
import { applyEdits } from './rewrite.ts';

const KEY = 'CLIENT_CAPABILITIES_META_KEY';

/**
 * The client capabilities a 2026-07-28 request carries, read off the handler's context `ctx`
 * (undefined on a 2025-era request, whose capabilities are the connection's). The
 * request-state module (templates/request-state.ts) reads them with the same expression.
 */
export function requestCapabilities(ctx: string, typed: boolean): string {
  return typed ? `(${ctx}.mcpReq.envelope as { [${KEY}]?: ClientCapabilities } | undefined)?.[${KEY}]` : `${ctx}.mcpReq.envelope?.[${KEY}]`;
}

export interface CapabilityRewrite {
  output: string;
  /** When the input was parsed: its syntax tree and the splices that made the output. */
  parsed?: { program: Program; edits: readonly Edit[] };
}

/** `analysis` may be given when it is of this very text (the rewrite changed nothing), to save a parse. */
export function rewriteCapabilityChecks(source: string, fileName: string, analysis?: FileAnalysis): CapabilityRewrite {
  if (!source.includes('getClientCapabilities')) return { output: source };
  const file = analysis ?? analyseFile(source, fileName);
  const edits: Edit[] = [];
  for (const { node, ancestors: parents } of file.index.calls) {
    if (node.arguments.length > 0) continue;
    const callee = node.callee;
    if (
      (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') ||
      callee.computed ||
      callee.property.type !== 'Identifier' ||
      callee.property.name !== 'getClientCapabilities'
    )
      continue;
    const receiver = memberPath(callee.object);
    if (!receiver || !/server$/i.test(receiver.split('.').pop()!)) continue;
    const handler = file.handlers.find((h) => parents.includes(h.fn));
    const ctx = handler && contextParam(handler);
    if (!handler || ctx?.type !== 'Identifier' || shadows(parents, handler.fn, ctx.name)) continue;
    const parent = parents[parents.length - 1];
    // Already rewritten (a second run): `<envelope>?.[KEY] ?? server.getClientCapabilities()`.
    if (
      parent?.type === 'LogicalExpression' &&
      parent.operator === '??' &&
      parent.right === node &&
      source.slice(parent.left.start!, parent.left.end!).includes(KEY)
    )
      continue;
    edits.push({ start: node.start!, end: node.end!, text: `(${requestCapabilities(ctx.name, file.typed)} ?? ${source.slice(node.start!, node.end!)})` });
  }
  const parsed = { program: file.program, edits };
  if (edits.length === 0) return { output: source, parsed };
  const imported = importedFrom(file.program, SERVER_PACKAGE);
  const wanted = [KEY, ...(file.typed ? ['type ClientCapabilities'] : [])].filter((n) => !isImported(imported, n));
  if (wanted.length > 0)
    edits.push(addImport(source, file.program, moduleSystemOf(fileName, file.program), codeStyleOf(source, file.program), SERVER_PACKAGE, wanted));
  return { output: applyEdits(source, edits), parsed };
}

/** Whether a function between the handler and the call declares its own parameter named `name`. */
function shadows(parents: readonly Node[], handlerFn: Node, name: string): boolean {
  const inner = parents.slice(parents.indexOf(handlerFn as never) + 1).filter(isFunction);
  return inner.some((fn) => fn.params.some((p) => p.type === 'Identifier' && p.name === name));
}
