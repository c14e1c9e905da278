// The HTTP entry points of src/plan/http-entry.ts as edits: beside the route, a handler built
// once, `createMcpHandler(() => <the call that built the server>, { legacy: 'reject' })`
// (wrapped in toNodeHandler for a Node route); at the top of the route, a guard that hands it
// each request isLegacyRequest does not call a 2025 one. The transport wiring below the guard
// stays as it was, for 2025 clients.
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import type { CodeStyle } from '../analyse/code-style.ts';
import { moduleSystemOf } from '../analyse/module-imports.ts';
import { type Edit, indentAt, lineStartOf, startsLine } from '../core/vocabulary.ts';
import { HTTP_IMPORTS, type HttpServe, moduleBindings } from '../plan/http-entry.ts';
import { addImport } from './edits/imports.ts';
import { freeName, indentUnit } from './edits/new-names.ts';

export function httpEntryEdits(file: FileAnalysis, entries: readonly HttpServe[], style: CodeStyle, eol: string): Edit[] {
  if (entries.length === 0) return [];
  const taken = new Set<string>();
  const edits: Edit[] = [];
  for (const entry of entries) {
    const handler = freeName(file, 'mcpHandler', taken);
    taken.add(handler);
    edits.push(insertAbove(file, entry.handlerBefore, [handlerDeclaration(file, entry, handler, style)], eol, true));
    edits.push(insertAbove(file, entry.guardBefore, guardLines(file, entry, handler, style), eol, false));
  }
  const bindings = moduleBindings(file);
  const imports = HTTP_IMPORTS[entries.some((e) => e.style === 'node') ? 'node' : 'fetch'];
  for (const [specifier, names] of Object.entries(imports)) {
    const missing = names.filter((n) => bindings.get(n)?.from !== specifier);
    if (missing.length > 0) edits.push(addImport(file.source, file.program, moduleSystemOf(file.fileName, file.program), style, specifier, missing));
  }
  return edits;
}

/** `const mcpHandler = createMcpHandler(() => createServer(), { legacy: 'reject' });`, Node routes' wrapped in toNodeHandler. */
function handlerDeclaration(file: FileAnalysis, entry: HttpServe, handler: string, style: CodeStyle): string {
  const text = (n: Node) => file.source.slice(n.start!, n.end!);
  const factory = `() => ${text(entry.factory)}${entry.member ? `.${entry.member}` : ''}`;
  const options = [`legacy: ${quoted('reject', style)}`];
  if (entry.jsonResponse) options.push(`responseMode: ${quoted('json', style)}`);
  for (const p of entry.sharedOptions) options.push(text(p));
  const created = `createMcpHandler(${factory}, { ${options.join(', ')} })`;
  return `const ${handler} = ${entry.style === 'node' ? `toNodeHandler(${created})` : created}${style.semi ? ';' : ''}`;
}

/** The guard: 2026-07-28 requests go to the handler, the rest on to the route's own wiring. */
function guardLines(file: FileAnalysis, entry: HttpServe, handler: string, style: CodeStyle): string[] {
  const text = (n: Node) => file.source.slice(n.start!, n.end!);
  const semi = style.semi ? ';' : '';
  // A parameter's name, without its type annotation (which its node's text includes).
  const name = (n: Node) => (n.type === 'Identifier' ? n.name : text(n));
  const request = name(entry.request);
  const why = '// A 2026-07-28 request is served by createMcpHandler; a 2025 one goes on to the transport below.';
  if (entry.style === 'fetch') {
    const classified = entry.parsedBody ? `${request}, ${text(entry.parsedBody)}` : request;
    const served = entry.fetchOptions ? `${request}, ${text(entry.fetchOptions)}` : request;
    return [why, `if (!(await isLegacyRequest(${classified}))) return ${handler}.fetch(${served})${semi}`];
  }
  // A request whose body is not parsed (a GET, or no JSON) is no 2026-07-28 one; reading its
  // stream here would leave the transport nothing to read.
  const body = name(entry.body!);
  const unit = routeIndentUnit(file, entry);
  return [
    why,
    `if (${body} !== undefined && !(await isLegacyRequest(await toWebRequest(${request}, ${body}), ${body}))) {`,
    `${unit}await ${handler}(${request}, ${name(entry.response!)}, ${body})${semi}`,
    `${unit}return${semi}`,
    '}',
  ];
}

/** The route's own unit of indentation: how much deeper its statements are than the line it starts on. */
function routeIndentUnit(file: FileAnalysis, entry: HttpServe): string {
  const outer = indentAt(file.source, entry.route.start!);
  const inner = indentAt(file.source, entry.guardBefore.start!);
  return inner.startsWith(outer) && inner.length > outer.length ? inner.slice(outer.length) : indentUnit(file.source);
}

/** `lines` above `statement` and the comment lines right above it, at its indentation (a blank line after, when `apart`). */
function insertAbove(file: FileAnalysis, statement: Node, lines: readonly string[], eol: string, apart: boolean): Edit {
  const at = lineStartOf(file.source, leadingCommentsStart(file, statement));
  const indent = indentAt(file.source, statement.start!);
  const text = lines.map((line) => indent + line).join(eol) + eol + (apart ? eol : '');
  return { start: at, end: at, text };
}

/** Where the comments that stand on their own lines right above `statement` begin (its start when none do). */
function leadingCommentsStart(file: FileAnalysis, statement: Node): number {
  let at = statement.start!;
  for (const comment of [...file.comments].reverse()) {
    if (comment.end! > at) continue;
    if (!/^[ \t]*\r?\n[ \t]*$/.test(file.source.slice(comment.end!, at)) || !startsLine(file.source, comment.start!)) break;
    at = comment.start!;
  }
  return at;
}

function quoted(value: string, style: CodeStyle): string {
  return `${style.quote}${value}${style.quote}`;
}
