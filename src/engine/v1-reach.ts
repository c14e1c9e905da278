// Code on the v1 SDK reached through the project's own modules: `import type { McpServer }
// from '../mcp.js'` where mcp.ts re-exports the v1 SDK's class. The official v1-to-v2 codemod
// only upgrades files that import the SDK themselves, so such a file keeps its v1 calls
// (`server.tool(...)`, `extra.sendRequest(...)`) while its server moves to v2. It is handed to
// the official codemod with those imports pointed at the SDK paths they stand for, and its own
// specifiers are put back in what comes out. Where the v1 files are not upgraded (--no-v1),
// a file that reaches one is not migrated either (its server stays v1).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportDeclaration, Node } from '@babel/types';
import { indexFile } from '../analyse/file-index.ts';
import { dialectOf, parseSource } from '../analyse/parse.ts';
import { v1ServerSource, type TakenName } from '../analyse/v1-server-source.ts';
import { resolveAmong } from './import-graph.ts';
import { isV1Source, V1_PACKAGE } from './v1-upgrade.ts';

/** How a file reaches the v1 SDK through a module of the project. */
export interface V1Reach {
  /** The first relative specifier that leads to a v1 module (for a marker). */
  through: string;
  /** The module is a copy of the SDK kept in the project (vendored): no codemod upgrades it. */
  vendored?: boolean;
  /**
   * The first relative specifier that leads to a module that takes a v1 server or handler
   * context from the SDK (v1-server-source.ts): one that stays v1 leaves this file's server on
   * v1. Unset when the modules reached take only v1 types and utilities.
   */
  serverThrough?: string;
  /** The text to hand to the official codemod, when every such import can be pointed at the SDK. */
  aliased?: string;
  /** Puts the file's own specifiers back in the official codemod's output. */
  restore?: (output: string) => string;
}

const RELATIVE_SPECIFIER = /\bfrom\s*(['"])(\.{1,2}\/[^'"]+)\1/g;

/**
 * A module that defines the SDK's server classes itself: a copy of the v1 SDK kept in the
 * project (`vendor/mcp-sdk/server/mcp.js`), which no codemod upgrades (v2's classes are only
 * ever imported from the v2 packages).
 */
const VENDORED_SDK = /\bclass\s+McpServer\b[\s\S]*\bregisterTool\s*\(|\bclass\s+Server\s+extends\s+Protocol\b/;

/**
 * Whether `text` (a file that does not import the v1 SDK itself) imports a module of the
 * project that does. `read` gives a module's text (cached by the caller), undefined when it
 * cannot be read.
 */
export function v1Reach(file: string, text: string, read: (absolutePath: string) => string | undefined): V1Reach | undefined {
  const dir = path.dirname(file);
  const reached = new Map<string, string>();
  for (const m of text.matchAll(RELATIVE_SPECIFIER)) {
    const specifier = m[2]!;
    if (reached.has(specifier)) continue;
    const module = resolveOnDisk(dir, specifier);
    const moduleText = module ? read(module) : undefined;
    if (moduleText === undefined) continue;
    if (VENDORED_SDK.test(moduleText) && !moduleText.includes('requestState')) return { through: specifier, vendored: true };
    if (isV1Source(moduleText)) reached.set(specifier, moduleText);
  }
  if (reached.size === 0) return undefined;
  const through = [...reached.keys()][0]!;
  const serverThrough = [...reached].find(([specifier, moduleText]) => takesV1Server(resolveOnDisk(dir, specifier)!, moduleText))?.[0];
  const aliasing = aliasImports(file, text, reached);
  return { through, ...(serverThrough ? { serverThrough } : {}), ...aliasing };
}

/** Whether a module imports, re-exports or requires a v1 server or handler context (or what cannot be told from one). */
function takesV1Server(moduleFile: string, moduleText: string): boolean {
  let program;
  try {
    program = parseSource(moduleText, dialectOf(moduleFile)).program;
  } catch {
    return true;
  }
  const taken: TakenName[] = [];
  for (const s of program.body) {
    if (s.type === 'ExportAllDeclaration') taken.push({ from: s.source.value, imported: '*' });
    if ((s.type !== 'ImportDeclaration' && s.type !== 'ExportNamedDeclaration') || !s.source) continue;
    for (const spec of s.specifiers as Node[]) {
      const named = spec.type === 'ImportSpecifier' ? spec.imported : spec.type === 'ExportSpecifier' ? spec.local : undefined;
      const imported = named ? (named.type === 'Identifier' ? named.name : named.value) : spec.type === 'ImportDefaultSpecifier' ? 'default' : '*';
      taken.push({ from: s.source.value, imported });
    }
  }
  return v1ServerSource(taken, indexFile(program)) !== undefined;
}

/** A relative specifier's file on disk (TypeScript's `.js`-for-`.ts` convention and folder indexes included). */
function resolveOnDisk(dir: string, specifier: string): string | undefined {
  return resolveAmong(dir, specifier, (name) => existsSync(name) && !name.endsWith(path.sep));
}

/** A reading of files from disk that keeps what it read (a run reads each module once). */
export function cachedReader(): (absolutePath: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (absolutePath) => {
    if (!cache.has(absolutePath)) {
      let text: string | undefined;
      try {
        text = readFileSync(absolutePath, 'utf8');
      } catch {
        text = undefined;
      }
      cache.set(absolutePath, text);
    }
    return cache.get(absolutePath);
  };
}

/** What a v1 module re-exports of the SDK: exported name → SDK specifier and the SDK's own name. */
function sdkReExports(moduleFile: string, moduleText: string): { named: Map<string, { from: string; imported: string }>; star: string[] } | undefined {
  let program;
  try {
    program = parseSource(moduleText, dialectOf(moduleFile)).program;
  } catch {
    return undefined;
  }
  const named = new Map<string, { from: string; imported: string }>();
  const star: string[] = [];
  for (const s of program.body) {
    const from = (s.type === 'ExportNamedDeclaration' || s.type === 'ExportAllDeclaration') && s.source ? s.source.value : undefined;
    if (!from || !(from === V1_PACKAGE || from.startsWith(`${V1_PACKAGE}/`))) continue;
    if (s.type === 'ExportAllDeclaration') star.push(from);
    else
      for (const spec of (s as { specifiers: Node[] }).specifiers) {
        if (spec.type !== 'ExportSpecifier') continue;
        const exported = spec.exported.type === 'Identifier' ? spec.exported.name : spec.exported.value;
        named.set(exported, { from, imported: spec.local.name });
      }
  }
  return named.size > 0 || star.length === 1 ? { named, star } : undefined;
}

/**
 * The file with each import of a reached module replaced by imports of the SDK paths its names
 * come from, and how to put the file's own imports back: undefined when a name cannot be
 * traced to the SDK (the module makes it itself), or the file cannot be parsed.
 */
function aliasImports(file: string, text: string, reached: ReadonlyMap<string, string>): Pick<V1Reach, 'aliased' | 'restore'> | undefined {
  let program;
  try {
    program = parseSource(text, dialectOf(file)).program;
  } catch {
    return undefined;
  }
  const originals: Array<{ declaration: ImportDeclaration; locals: string[] }> = [];
  const replaced: Array<{ start: number; end: number; text: string }> = [];
  for (const s of program.body) {
    if (s.type !== 'ImportDeclaration' || !reached.has(s.source.value)) continue;
    const moduleFile = resolveOnDisk(path.dirname(file), s.source.value)!;
    const exports = sdkReExports(moduleFile, reached.get(s.source.value)!);
    if (!exports) return undefined;
    const bySdk = new Map<string, string[]>();
    for (const spec of s.specifiers) {
      if (spec.type !== 'ImportSpecifier') return undefined;
      const imported = spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value;
      const target = exports.named.get(imported) ?? (exports.star.length === 1 ? { from: exports.star[0]!, imported } : undefined);
      if (!target) return undefined;
      const typeOnly = s.importKind !== 'type' && spec.importKind === 'type' ? 'type ' : '';
      const name = target.imported === spec.local.name ? spec.local.name : `${target.imported} as ${spec.local.name}`;
      bySdk.set(target.from, [...(bySdk.get(target.from) ?? []), `${typeOnly}${name}`]);
    }
    originals.push({ declaration: s, locals: s.specifiers.map((sp) => sp.local.name) });
    const kind = s.importKind === 'type' ? 'type ' : '';
    replaced.push({ start: s.start!, end: s.end!, text: [...bySdk].map(([from, names]) => `import ${kind}{ ${names.join(', ')} } from '${from}';`).join(' ') });
  }
  if (replaced.length === 0) return undefined;
  let aliased = '';
  let at = 0;
  for (const r of replaced) {
    aliased += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  aliased += text.slice(at);
  return { aliased, restore: (output) => restoreImports(file, output, text, originals) };
}

/**
 * The official codemod's output with the file's own imports back: a declaration of the v2
 * packages it wrote from an aliased import becomes the original declaration (the same names),
 * or (names the codemod renamed) the same names from the original module.
 */
function restoreImports(
  file: string,
  output: string,
  original: string,
  originals: ReadonlyArray<{ declaration: ImportDeclaration; locals: string[] }>,
): string {
  let program;
  try {
    program = parseSource(output, dialectOf(file)).program;
  } catch {
    return output;
  }
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const done = new Set<ImportDeclaration>();
  for (const s of program.body) {
    if (s.type !== 'ImportDeclaration' || !s.source.value.startsWith('@modelcontextprotocol/')) continue;
    const locals = s.specifiers.map((sp) => sp.local.name);
    const from = originals.find((o) => locals.every((l) => o.locals.includes(l)));
    if (!from) continue;
    if (!done.has(from.declaration) && from.locals.every((l) => locals.includes(l)) && locals.length === from.locals.length) {
      edits.push({ start: s.start!, end: s.end!, text: original.slice(from.declaration.start!, from.declaration.end!) });
    } else {
      const quote = original[from.declaration.source.start!]!;
      edits.push({ start: s.source.start!, end: s.source.end!, text: `${quote}${from.declaration.source.value}${quote}` });
    }
    done.add(from.declaration);
  }
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += output.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + output.slice(at);
}
