// The context parameter a migrated handler asks through: its own where it has one, else one
// added (`ctx`, or `mrtrCtx` where the body already uses that name), and a destructured one
// (`{ mcpReq, signal }`) made a name the body destructures as far as it still reads it.
import type { Node } from '@babel/types';
import { argumentParams, boundNames, walk } from '../analyse/ast.ts';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { contextParam, type HandlerSite } from '../analyse/find-handlers.ts';
import type { HandlerType } from '../analyse/registry-handler-type.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { type Edit, lineEndOf, lineStartOf } from '../core/vocabulary.ts';
import { v1ContextKeys, type ContextKey } from '../analyse/v1-leftovers.ts';
import { Refusal, refuse } from './refusal.ts';
import type { HandlerPlan } from './types.ts';

export interface ContextParameter {
  name: string;
  addParam?: HandlerPlan['addParam'];
  /** A destructured context (`{ mcpReq, signal }`) becomes a name, destructured in the body as far as it is still read. */
  paramEdit?: Edit;
  /** That destructuring, without its semicolon (the renderer writes the file's style). */
  prologue?: string;
  /**
   * Whether the official codemod's marker over the pattern is answered: nothing of it is left,
   * or what is left is destructured the v2 way (a v1 key such as `sendNotification` mapped).
   */
  patternAnswered?: boolean;
}

export function contextParameter(
  source: string,
  handler: HandlerSite,
  sites: LegacySite[],
  bodyNames: ReadonlySet<string>,
  typed = false,
): ContextParameter | Refusal {
  const fn = handler.fn;
  const args = argumentParams(fn);
  const param = contextParam(handler);
  // Not a name the body or another parameter already binds (`async ({ text }, ctx)` with no arguments schema).
  const taken = (n: string) => bodyNames.has(n) || fn.params.some((p) => boundNames(p).some((b) => b.name === n));
  const fresh = taken('ctx') ? 'mrtrCtx' : 'ctx';
  if (param) {
    if (param.type === 'Identifier') return { name: param.name };
    if (param.type === 'ObjectPattern') return destructuredContext(source, handler, sites, param, fresh);
    return refuse('context-pattern', 'destructured').at(sites[0]!);
  }
  if (args.length > handler.ctxIndex) {
    return refuse('context-pattern', 'paramsMismatch').at(sites[0]!);
  }
  if (handler.definition && !handler.contextShown) {
    return refuse('context-pattern', 'definitionWithoutContext').at(sites[0]!);
  }
  if (handler.argumentsFirstType && handler.ctxIndex === 0) return argumentsFirstRefusal(handler.argumentsFirstType, sites[0]!);
  const name = fresh;
  // A function a handler delegates to is no registration's callback: its context is typed.
  const added = handler.contextType && typed ? `${name}: ${handler.contextType}` : name;
  // `async () => ...` registered with an arguments schema: the arguments come first, typed
  // `unknown` beside a typed context (a factory's handler has no contextual type to give them).
  const argsName = bodyNames.has('_args') ? '_mrtrArgs' : '_args';
  const filled = handler.fillers && args.length + handler.fillers.length === handler.ctxIndex ? handler.fillers : undefined;
  if (filled?.some((f) => taken(/^[\w$]+/.exec(f)![0]))) return refuse('context-pattern', 'paramsMismatch').at(sites[0]!);
  const before = filled
    ? filled.map((f) => `${f}, `).join('')
    : handler.ctxIndex === 1 && args.length === 0
      ? `${added === name ? argsName : `${argsName}: unknown`}, `
      : '';
  // After the last parameter, a `this` parameter too (it stays first).
  if (fn.params.length > 0) {
    const last = fn.params[fn.params.length - 1]!;
    const parenthesised = source.slice(fn.start!, last.start!).includes('(');
    if (!parenthesised) return { name, addParam: { at: last.start!, text: '(', close: { at: last.end!, text: `, ${added})` } } };
    return { name, addParam: { at: last.end!, text: `, ${before}${added}` } };
  }
  const open = source.indexOf(
    '(',
    fn.type === 'ArrowFunctionExpression' ? fn.start! : ((fn as { id?: Node | null }).id?.end ?? (fn as { key?: Node }).key?.end ?? fn.start!),
  );
  if (open === -1 || open > fn.body.start!) return refuse('context-pattern', 'cannotAddParameter').at(sites[0]!);
  return { name, addParam: { at: open + 1, text: `${before}${added}` } };
}

/**
 * The registry types every handler args-first, but registers this tool without a schema, so the
 * SDK calls it with its context alone. Where a schema on the declaration makes the registry
 * register one, that is the step (roots sites: the paths themselves, roots being deprecated).
 */
function argumentsFirstRefusal(type: HandlerType, site: LegacySite): Refusal {
  const { name, file, schemaKey } = type;
  const line = String(type.line);
  if (!schemaKey) {
    const refusal = file
      ? refuse('context-pattern', 'argumentsFirstTypeThere', { type: name, file, fileLine: line })
      : refuse('context-pattern', 'argumentsFirstType', { type: name, line });
    return refusal.at(site);
  }
  const hint = site.kind === 'roots' ? ' (the paths to search: roots are deprecated)' : '';
  const refusal = file
    ? refuse('context-pattern', 'argumentsFirstSchemaThere', { type: name, file, fileLine: line, key: schemaKey, hint })
    : refuse('context-pattern', 'argumentsFirstSchema', { type: name, line, key: schemaKey, hint });
  return refusal.at(site);
}

/**
 * `async (args, { mcpReq, signal }) => ...`: the parameter becomes `ctx` (its annotation kept)
 * and the body destructures what it still reads (`const { signal } = ctx;`), without the names
 * only the legacy calls used.
 */
function destructuredContext(
  source: string,
  handler: HandlerSite,
  sites: LegacySite[],
  pattern: Extract<Node, { type: 'ObjectPattern' }>,
  name: string,
): ContextParameter | Refusal {
  // Named keys, each bound whole, with a default or nested (`{ mcpReq: { notify } }`); no rest.
  const named = pattern.properties.every((p) => p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier');
  if (!named) return refuse('context-pattern', 'destructuredDeeply').at(sites[0]!);
  // What the body reads of each name once the legacy calls are gone.
  const callees = new Set<Node>(sites.flatMap((s) => (s.call.type === 'CallExpression' || s.call.type === 'OptionalCallExpression' ? [s.call.callee] : [])));
  const read = new Set<string>();
  walk(handler.fn.body, (node, parents) => {
    if (callees.has(node)) return false;
    if (node.type === 'Identifier') {
      const parent = parents[parents.length - 1];
      const property =
        parent && (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === node && !parent.computed;
      const key = parent?.type === 'ObjectProperty' && parent.key === node && !parent.shorthand && !parent.computed;
      if (!property && !key) read.add(node.name);
    }
    return undefined;
  });
  const kept = pattern.properties.filter((p) => boundNames((p as { value: Node }).value).some((b) => read.has(b.name)));
  const annotation = pattern.typeAnnotation ? source.slice(pattern.typeAnnotation.start!, pattern.typeAnnotation.end!) : '';
  // A v1 key left by the upgrade (`sendNotification`) is destructured from where v2 has it.
  const v2 = kept.length > 0 ? v1ContextKeys({ ...pattern, properties: kept }) : undefined;
  const properties = v2 ? v2ContextProperties(source, v2) : kept.map((p) => source.slice(p.start!, p.end!));
  return {
    name,
    paramEdit: { start: pattern.start!, end: pattern.end!, text: `${name}${annotation}` },
    ...(kept.length > 0 ? { prologue: `const { ${properties.join(', ')} } = ${name}` } : {}),
    patternAnswered: kept.length === 0 || v2 !== undefined,
  };
}

/**
 * Properties of a v1 context pattern as v2 nests them, in their order: `mcpReq: { … }` where its
 * first key was, `http: { … } = {}` likewise (v2 leaves `ctx.http` out without HTTP), the
 * context's own keys in place. A property keeps its name, default and nested pattern.
 */
export function v2ContextProperties(source: string, keys: readonly ContextKey[]): string[] {
  const text = (n: Node) => source.slice(n.start!, n.end!);
  // `requestId: id` → `id`, `requestId` → `id: requestId`, `signal = fallback` as it is.
  const entry = ({ property, place }: ContextKey) => {
    const value = property.value.type === 'AssignmentPattern' ? property.value.left : property.value;
    return value.type === 'Identifier' && value.name === place.key ? text(property.value) : `${place.key}: ${text(property.value)}`;
  };
  const written: string[] = [];
  for (const key of keys) {
    const { under } = key.place;
    if (under === undefined) written.push(entry(key));
    else if (keys.find((k) => k.place.under === under) === key) {
      const group = keys.filter((k) => k.place.under === under).map(entry);
      written.push(`${under}: { ${group.join(', ')} }${under === 'http' ? ' = {}' : ''}`);
    }
  }
  return written;
}

/**
 * The official v1-to-v2 codemod's marker about the context destructured in the handler's
 * parameters (`@mcp-codemod-error Destructuring of context parameter in signature: "{ ... }"`),
 * obsolete once nothing of the pattern is left. The codemod writes it on a line of its own
 * right above the line where that parameter starts: above the statement when the registration
 * fits on one line, above the handler inside the call when it is spread over several. Where it
 * joined several messages on that line (` | `), only this one goes; else the whole line.
 */
export function obsoleteDestructuringMarker(analysis: Pick<FileAnalysis, 'source' | 'comments'>, pattern: Node): Edit | undefined {
  const { source } = analysis;
  const lineStart = lineStartOf(source, pattern.start!);
  const comment = analysis.comments.find(
    (c) => c.end! <= lineStart && source.slice(c.end!, lineStart).trim() === '' && source.slice(lineStartOf(source, c.start!), c.start!).trim() === '',
  );
  if (!comment) return undefined;
  const head = /^\s*\*?\s*@mcp-codemod-error /.exec(comment.value);
  if (!head) return undefined;
  const body = comment.value.slice(head[0].length).trimEnd();
  // The pattern as the codemod quotes it: its own text, without the type annotation.
  const annotation = (pattern as { typeAnnotation?: Node | null }).typeAnnotation;
  const quoted = source.slice(pattern.start!, annotation ? annotation.start! : pattern.end!).trim();
  const squash = (text: string) => text.replace(/\s+/g, ' ');
  const about = `Destructuring of context parameter in signature: "${squash(quoted).replaceAll('*/', '* /')}".`;
  const messages = body.split(' | ');
  const index = messages.findIndex((m) => squash(m).startsWith(about));
  if (index === -1) return undefined;
  if (messages.length === 1) {
    const end = lineEndOf(source, comment.end!);
    return { start: lineStartOf(source, comment.start!), end: end < source.length ? end + 1 : end, text: '' };
  }
  // Only that message, with the separator on one side of it.
  const at = comment.start! + 2 + head[0].length + messages.slice(0, index).reduce((n, m) => n + m.length + 3, 0);
  const length = messages[index]!.length;
  return index < messages.length - 1 ? { start: at, end: at + length + 3, text: '' } : { start: at - 3, end: at + length, text: '' };
}

export function staleMarkerEdit(analysis: FileAnalysis, handler: HandlerSite): { markerEdit?: Edit } {
  const param = contextParam(handler);
  const edit = param?.type === 'ObjectPattern' ? obsoleteDestructuringMarker(analysis, param) : undefined;
  return edit ? { markerEdit: edit } : {};
}
