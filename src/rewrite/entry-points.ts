// The entry points of src/plan/stdio-entry.ts and http-entry.ts as edits (HTTP routes' in
// ./http-entry.ts), and a marker above each one left. For stdio, the connect call and the
// transport go, the server's declaration becomes `serveStdio(() => <the call that built it>)`,
// whose handle closes as the server did; the import of StdioServerTransport becomes one of
// serveStdio. A server that came with other members (`const { server, cleanup } =
// createServer()`) keeps every built instance, and each call of a member runs for each.
import type { Node, Statement } from '@babel/types';
import { analyseFile, type FileAnalysis } from '../analyse/analyse-file.ts';
import { isNonReferencePosition, walk } from '../analyse/ast.ts';
import { codeStyleOf, type CodeStyle } from '../analyse/code-style.ts';
import { moduleSystemOf, requireOf } from '../analyse/module-imports.ts';
import { positionMap } from '../core/position-map.ts';
import { type Edit, eolOf, indentAt, lineStartOf } from '../core/vocabulary.ts';
import { type HttpServe, planHttpEntries } from '../plan/http-entry.ts';
import { markerLine, Refusal } from '../plan/refusal.ts';
import { hasLineRefs, resolveLineRefs } from '../core/line-refs.ts';
import { planStdioEntries, SERVE_STDIO, STDIO_PACKAGE, type StdioEntry, type StdioServe, transportClasses } from '../plan/stdio-entry.ts';
import { addImport, rewriteImport } from './edits/imports.ts';
import { freeName, indentUnit } from './edits/new-names.ts';
import { removeStatement } from './edits/removals.ts';
import { httpEntryEdits } from './http-entry.ts';
import { applyEdits, markerEdits } from './rewrite.ts';

export function entryPointEdits(file: FileAnalysis, entries: ReadonlyArray<StdioEntry | HttpServe>): Edit[] {
  const { source } = file;
  const eol = eolOf(source);
  const style = codeStyleOf(source, file.program);
  const edits: Edit[] = [];
  const served = entries.filter((e): e is StdioServe => e.kind === 'serve');
  for (const entry of entries) {
    if (entry.kind === 'serve') {
      edits.push(...serveEdits(file, entry, style, eol));
      continue;
    }
    if (entry.kind === 'http-serve') continue;
    const lineStart = lineStartOf(source, entry.statement.start!);
    const marker = {
      lineStart,
      indent: indentAt(source, entry.statement.start!),
      code: entry.refusal.code,
      text: markerLine(entry.refusal),
    };
    edits.push(...markerEdits(source, marker, eol));
  }
  if (served.length > 0) edits.push(...importEdits(file, served, style));
  edits.push(
    ...httpEntryEdits(
      file,
      entries.filter((e): e is HttpServe => e.kind === 'http-serve'),
      style,
      eol,
    ),
  );
  return edits;
}

function serveEdits(file: FileAnalysis, entry: StdioServe, style: CodeStyle, eol: string): Edit[] {
  const { source } = file;
  const text = (n: Node) => source.slice(n.start!, n.end!);
  const semi = style.semi ? ';' : '';
  const edits: Edit[] = [removal(source, entry.connect)];
  if (entry.transportDeclaration) edits.push(removal(source, entry.transportDeclaration));
  const options = entry.ownTransport ? `, { transport: ${text(entry.ownTransport)} }` : '';
  const call = text(entry.call);
  const init = entry.declarator.init!;
  const { member } = entry;
  if (!member) {
    edits.push({ start: init.start!, end: init.end!, text: `${SERVE_STDIO}(() => ${call}${options})` });
    return edits;
  }
  const built = entry.awaited ? `(await ${call})` : call;
  const factoryHead = entry.awaited ? 'async () =>' : '() =>';
  if (member.others.every((o) => o.calls.length === 0)) {
    edits.push({
      start: entry.declarator.start!,
      end: init.end!,
      text: `${entry.serverName} = ${SERVE_STDIO}(${factoryHead} ${built}.${member.property}${options})`,
    });
    return edits;
  }
  // Each server built keeps its members: a call of one runs for every server built.
  const list = freeName(file, 'servedInstances');
  const one = freeName(file, 'instance');
  const indent = indentAt(source, entry.declaration.start!);
  const unit = indentUnit(source);
  const listType = file.typed
    ? `: Array<${entry.awaited ? `Awaited<ReturnType<typeof ${text(entry.call.callee)}>>` : `ReturnType<typeof ${text(entry.call.callee)}>`}>`
    : '';
  const lines = [
    `const ${list}${listType} = []${semi}`,
    `${indent}${entry.declaration.kind} ${entry.serverName} = ${SERVE_STDIO}(${factoryHead} {`,
    `${indent}${unit}const ${one} = ${entry.awaited ? 'await ' : ''}${call}${semi}`,
    `${indent}${unit}${list}.push(${one})${semi}`,
    `${indent}${unit}return ${one}.${member.property}${semi}`,
    `${indent}}${options})${semi}`,
  ];
  edits.push({ start: entry.declaration.start!, end: entry.declaration.end!, text: lines.join(eol) });
  for (const other of member.others) {
    const pattern = other.key === other.local ? other.key : `${other.key}: ${other.local}`;
    for (const statement of other.calls) edits.push({ start: statement.start!, end: statement.start!, text: `for (const { ${pattern} } of ${list}) ` });
  }
  return edits;
}

/** A statement's removal, with one of the blank lines around it when it stood between two. */
function removal(source: string, statement: Node): Edit {
  const edit = removeStatement(source, statement);
  const blankAbove = edit.start > 0 && source.slice(lineStartOf(source, edit.start - 1), edit.start).trim() === '';
  const blankBelow = /^[ \t]*\r?\n/.exec(source.slice(edit.end));
  return blankAbove && blankBelow && edit.text === '' ? { ...edit, end: edit.end + blankBelow[0].length } : edit;
}

/** The StdioServerTransport import becomes serveStdio's where nothing else uses the class; else serveStdio is added. */
function importEdits(file: FileAnalysis, served: readonly StdioServe[], style: CodeStyle): Edit[] {
  const { source, program } = file;
  if (file.importedNames.get(SERVE_STDIO)?.from === STDIO_PACKAGE) return [];
  const classes = transportClasses(file);
  const removed = new Set<Node>(
    served.filter((s) => !s.ownTransport).map((s) => (s.transportDeclaration?.declarations[0]!.init ?? connectArgument(s)) as Node),
  );
  const stillUsed = new Set<string>();
  walk(program, (node, parents) => {
    if (removed.has(node)) return false;
    const parent = parents[parents.length - 1];
    if (node.type === 'Identifier' && classes.has(node.name) && parent && !isNonReferencePosition(node, parent) && !isImportBinding(parent))
      stillUsed.add(node.name);
    return undefined;
  });
  const edits: Edit[] = [];
  let merged = false;
  for (const statement of program.body) {
    const drop = new Set([...classes].filter((c) => !stillUsed.has(c) && declares(statement, c)));
    if (drop.size === 0) continue;
    if (statement.type === 'ImportDeclaration') {
      const fromStdio = statement.source.value === STDIO_PACKAGE;
      const edit = rewriteImport(source, statement, drop, fromStdio && !merged ? [SERVE_STDIO] : []);
      if (edit) {
        edits.push(edit);
        merged ||= fromStdio;
      }
    } else {
      const property = (requireOf(statement)!.pattern as { properties: Node[] }).properties.find(
        (p) => (p as { value?: { name?: string } }).value?.name === 'StdioServerTransport',
      );
      if (property && requireOf(statement)!.specifier === STDIO_PACKAGE && !merged) {
        edits.push({ start: property.start!, end: property.end!, text: SERVE_STDIO });
        merged = true;
      }
    }
  }
  if (!merged) edits.push(addImport(source, program, moduleSystemOf(file.fileName, program), style, STDIO_PACKAGE, [SERVE_STDIO]));
  return edits;
}

function connectArgument(entry: StdioServe): Node {
  const statement = entry.connect as Extract<Statement, { type: 'ExpressionStatement' }>;
  const expression = statement.expression.type === 'AwaitExpression' ? statement.expression.argument : statement.expression;
  return (expression as Extract<Node, { type: 'CallExpression' }>).arguments[0]!;
}

function isImportBinding(parent: Node): boolean {
  return parent.type === 'ImportSpecifier' || parent.type === 'ImportDefaultSpecifier' || parent.type === 'ImportNamespaceSpecifier';
}

function declares(statement: Statement, name: string): boolean {
  if (statement.type === 'ImportDeclaration') return statement.specifiers.some((s) => s.local.name === name);
  return requireOf(statement)?.names.includes(name) ?? false;
}

/** Quick text test: a module that names no serving transport has no entry point. */
const ENTRY_TEXT = /StdioServerTransport|StreamableHTTPServerTransport|SSEServerTransport/;

/** What became of one entry point (a stdio or HTTP transport), for the report. */
export interface EntryPointReport {
  line: number;
  status: 'migrated' | 'marked';
  /** What a migrated entry point serves 2026-07-28 through. */
  via?: 'serveStdio' | 'createMcpHandler';
  code?: string;
  reason?: string;
  next?: string;
  /** Its marker's line (see SiteReport.marker). */
  marker?: string;
}

export interface EntryPointRewrite {
  output: string;
  entries: EntryPointReport[];
  /** When the input was parsed: its syntax tree and the splices that made the output. */
  parsed?: { program: FileAnalysis['program']; edits: readonly Edit[] };
}

/** `analysis` may be given when it is of this very text, to save a parse. */
/**
 * The entries with the lines their markers and reasons name made those of the text written: the
 * edits are made once to learn where the lines go (the markers above them move them), as
 * transform.ts does.
 */
function withLinesWritten<E extends StdioEntry | HttpServe>(file: FileAnalysis, planned: E[]): E[] {
  const names = (e: E) => 'refusal' in e && e.refusal !== undefined && [e.refusal.marker, e.refusal.reason, e.refusal.next].some(hasLineRefs);
  if (!planned.some(names)) return planned;
  const lineOf = positionMap(file.source, applyEdits(file.source, entryPointEdits(file, planned)));
  const place = (text: string) => resolveLineRefs(text, (line) => lineOf(line, 1).line);
  return planned.map((e) => {
    if (!names(e)) return e;
    const r = (e as E & { refusal: Refusal }).refusal;
    return { ...e, refusal: new Refusal(r.code, place(r.reason), place(r.next), r.site, place(r.marker)) };
  });
}

export function rewriteEntryPoints(source: string, fileName: string, analysis?: FileAnalysis): EntryPointRewrite {
  if (!ENTRY_TEXT.test(source)) return { output: source, entries: [] };
  const file = analysis ?? analyseFile(source, fileName);
  const planned = withLinesWritten(file, [...planStdioEntries(file), ...planHttpEntries(file)]);
  const edits = entryPointEdits(file, planned);
  const entries = planned.map((e): EntryPointReport =>
    e.kind === 'serve' || e.kind === 'http-serve'
      ? { line: e.line, status: 'migrated', via: e.kind === 'serve' ? 'serveStdio' : 'createMcpHandler' }
      : { line: e.line, status: 'marked', code: e.refusal.code, reason: e.refusal.reason, next: e.refusal.next, marker: markerLine(e.refusal) },
  );
  return { output: applyEdits(source, edits), entries, parsed: { program: file.program, edits } };
}
