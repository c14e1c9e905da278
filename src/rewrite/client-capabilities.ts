// Capability checks inside handlers. On a 2026-07-28 request the client's capabilities
// arrive with the request (`ctx.mcpReq.envelope`), and `server.getClientCapabilities()`
// answers undefined there (measured on serveStdio), so a check such as
// `if (!server.server.getClientCapabilities()?.elicitation)` would wrongly take the
// "cannot ask" path on every modern call. Each such call in a handler, or in a split helper's
// request half (which the handler hands its context), reads the request's own capabilities
// first and falls back to the connection's (the 2025 era).
import type { Node, Program } from '@babel/types';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { isFunction, type FunctionNode } from '../analyse/ast.ts';
import { contextParam } from '../analyse/find-handlers.ts';
import { SERVER_PACKAGE, STATE_EXPORTS } from '../analyse/sdk-surface.ts';
import { codeStyleOf } from '../analyse/code-style.ts';
import { importedFrom, isImported, moduleSystemOf } from '../analyse/module-imports.ts';
import { addImport } from './edits/imports.ts';
import type { Edit } from '../core/vocabulary.ts';
import { isConnectionCapabilitiesRead, requestContextOf } from '../analyse/capability-reads.ts';
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
  for (const { node, ancestors: parents } of [...file.index.calls, ...file.index.optionalCalls]) {
    if (node.arguments.length > 0) continue;
    if (!isConnectionCapabilitiesRead(node)) continue;
    const holder = contextHolder(file, parents);
    if (!holder || shadows(parents, holder.fn, holder.ctx)) continue;
    const parent = parents[parents.length - 1];
    // Already rewritten (a second run): `<envelope>?.[KEY] ?? server.getClientCapabilities()`.
    if (
      parent?.type === 'LogicalExpression' &&
      parent.operator === '??' &&
      parent.right === node &&
      source.slice(parent.left.start!, parent.left.end!).includes(KEY)
    )
      continue;
    const read = `${requestCapabilities(holder.ctx, file.typed)} ?? ${source.slice(node.start!, node.end!)}`;
    // `const caps = <read>` needs no parentheses; anywhere else (`!<read>?.roots`) they keep its meaning.
    const bare = parent?.type === 'VariableDeclarator' && parent.init === node;
    edits.push({ start: node.start!, end: node.end!, text: bare ? read : `(${read})` });
  }
  const parsed = { program: file.program, edits };
  if (edits.length === 0) return { output: source, parsed };
  const imported = importedFrom(file.program, SERVER_PACKAGE);
  const wanted = [KEY, ...(file.typed ? ['type ClientCapabilities'] : [])].filter((n) => !isImported(imported, n));
  if (wanted.length > 0)
    edits.push(addImport(source, file.program, moduleSystemOf(fileName, file.program), codeStyleOf(source, file.program), SERVER_PACKAGE, wanted));
  return { output: applyEdits(source, edits), parsed };
}

/** The function around a read that has the request's context, and the context's name: a handler, or a split helper's request half. */
function contextHolder(file: FileAnalysis, parents: readonly Node[]): { fn: Node; ctx: string } | undefined {
  const handler = file.handlers.find((h) => parents.includes(h.fn));
  const ctx = handler && contextParam(handler);
  if (handler) return ctx?.type === 'Identifier' ? { fn: handler.fn, ctx: ctx.name } : undefined;
  for (const fn of [...parents].reverse()) {
    if (!isFunction(fn)) continue;
    const ctx = requestContextOf(fn);
    if (ctx) return { fn, ctx };
    // A function migrated as a handler of its own (a delegate a handler hands the call to) resumes with its context first.
    const resumed = resumedWith(fn);
    if (resumed) return { fn, ctx: resumed };
  }
  return undefined;
}

/** The context a migrated function resumes with (`const mrtr = await mrtrResume(ctx, ...)` in its body), when it is one of its parameters. */
function resumedWith(fn: FunctionNode): string | undefined {
  if (fn.body.type !== 'BlockStatement') return undefined;
  for (const s of fn.body.body) {
    if (s.type !== 'VariableDeclaration') continue;
    const init = s.declarations[0]?.init;
    const call = init?.type === 'AwaitExpression' ? init.argument : undefined;
    if (call?.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== STATE_EXPORTS.resume) continue;
    const ctx = call.arguments[0];
    if (ctx?.type === 'Identifier' && fn.params.some((p) => p.type === 'Identifier' && p.name === ctx.name)) return ctx.name;
  }
  return undefined;
}

/** Whether a function between the handler and the call declares its own parameter named `name`. */
function shadows(parents: readonly Node[], handlerFn: Node, name: string): boolean {
  const inner = parents.slice(parents.indexOf(handlerFn as never) + 1).filter(isFunction);
  return inner.some((fn) => fn.params.some((p) => p.type === 'Identifier' && p.name === name));
}
