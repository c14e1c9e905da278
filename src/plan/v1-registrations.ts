// A handler registered with a method v2's McpServer does not have (the v1 SDK's positional
// `tool()`, `prompt()`, `resource()`) is never registered on v2: the server throws at start-up.
// Its migration would be a handler nobody can call, so it is refused, naming the registration.
// After a v1 upgrade only the calls rewrite/tool-registrations.ts could not finish are left.
import type { CallExpression } from '@babel/types';
import { memberPath } from '../analyse/ast.ts';
import { constDeclarations, enclosingFunctions } from '../analyse/file-index.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import { officialRefusalAbove, readToolOverload } from '../analyse/tool-overloads.ts';
import { codeSnippet } from '../core/escape.ts';
import type { FilePlanning } from './file-planning.ts';
import { refuse, type Refusal } from './refusal.ts';

/** The v1 registrations v2's McpServer lacks, and how v2 registers the same thing. */
const V2_REPLACEMENT: Readonly<Record<string, string>> = {
  tool: 'registerTool(name, { description, inputSchema: z.object(shape), annotations }, cb)',
  prompt: 'registerPrompt(name, { description, argsSchema: z.object(shape) }, cb)',
  resource: 'registerResource(name, uriOrTemplate, metadata, cb)',
};

/**
 * Why the handler cannot be migrated under its registration: a v1-only method called on an
 * McpServer (known from the file, said by the checker, or judged so by the official codemod,
 * whose marker is above it). Undefined for any other registration.
 */
export function unservedRegistration(file: FilePlanning, handler: HandlerSite): Refusal | undefined {
  const call = handler.call;
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.computed) return undefined;
  const { property, object } = call.callee;
  const method = property.type === 'Identifier' && Object.hasOwn(V2_REPLACEMENT, property.name) ? property.name : undefined;
  if (!method || !onMcpServer(file, handler, call, method)) return undefined;
  const { source, analysis } = file;
  const receiver = memberPath(object) ?? 'server';
  const registration = `${codeSnippet(source.slice(object.start!, object.end!), 40)}.${method}(...)`;
  if (method === 'tool') {
    const scope = {
      source,
      declarations: constDeclarations(analysis.index),
      functions: enclosingFunctions(handler.ancestors),
      imports: analysis.importedNames,
    };
    const read = readToolOverload(call, scope);
    if ('unreadable' in read) return refuse('legacy-registration', 'unreadable', { registration, why: read.unreadable, receiver });
  }
  return refuse('legacy-registration', 'notRewritten', { registration, receiver, replacement: V2_REPLACEMENT[method]! });
}

function onMcpServer(file: FilePlanning, handler: HandlerSite, call: CallExpression, method: string): boolean {
  const { analysis, options } = file;
  const receiver = (call.callee as Extract<CallExpression['callee'], { type: 'MemberExpression' }>).object;
  const role = receiverResolver(analysis.index, analysis.importedNames).roleOf(receiver, enclosingFunctions(handler.ancestors));
  if (role !== undefined) return role === 'mcp-server';
  return options.typeFacts?.fromSdk?.(receiver.start!, receiver.end!) === true || officialRefusalAbove(analysis.comments, call, method) !== undefined;
}
