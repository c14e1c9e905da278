// The target SDK's type declarations, as this package carries them: the checker falls back to
// them when a project does not resolve the SDK itself. A repository before `npm install`, or a
// v1 project that the official codemod is moving to v2 (the v2 packages are not installed yet),
// would otherwise see every SDK-typed value as `any`, and its sites would be refused for the
// checkout, not for the code. With them, a fresh clone and an installed checkout get the same
// answers.
//
// The build (scripts/build.js, through carryDeclarations below) copies the declaration files of
// the modules in CARRIED_MODULES, and every file they import, into dist/sdk-types/, with
// manifest.json naming each module's entry file. Run from a checkout (tests, the benchmark),
// there is no copy: the same modules are read where the checkout installed them (its
// devDependencies, at the same versions).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';
import { isV1Specifier, V1_PACKAGE } from './v1-server-source.ts';

/**
 * The module names the checker resolves from the carried declarations when the project cannot:
 * the server package and its stdio entry, the spec's schemas and types, and zod, in whose
 * terms the SDK's result types are written (without it an `ElicitResult` is `any`).
 */
export const CARRIED_MODULES = [
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/server/stdio',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/core/internal',
  'zod',
  'zod/v4',
] as const;

/** The packages that hold them. */
const CARRIED_PACKAGES = ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod'];

/**
 * The carried declaration file that stands in for `specifier` when the project resolves nothing
 * for it: a carried module's own; for the v1 SDK's server modules, the v2 module the official
 * codemod moves their imports to (`@modelcontextprotocol/sdk/server/mcp.js` and `types.js` to
 * `@modelcontextprotocol/server`). A v1 project before `npm install` then reads its modules that
 * this run upgrades as it will read them once upgraded, and an installed one reads the v1 SDK.
 */
export function standInFor(carried: CarriedDeclarations, specifier: string): string | undefined {
  const own = carried.modules.get(specifier);
  if (own !== undefined || !isV1Specifier(specifier)) return own;
  if (specifier.startsWith(`${V1_PACKAGE}/client`)) return undefined;
  return carried.modules.get(
    /^@modelcontextprotocol\/sdk\/server\/stdio(\.js)?$/.test(specifier) ? '@modelcontextprotocol/server/stdio' : '@modelcontextprotocol/server',
  );
}

export interface CarriedDeclarations {
  /** The folders of the carried packages (with a trailing `/`): a file under one resolves carried modules to carried files. */
  folders: string[];
  /** Each carried module name's declaration file (absolute). */
  modules: ReadonlyMap<string, string>;
}

interface Manifest {
  /** Each module name's declaration file, relative to the manifest's folder. */
  modules: Record<string, string>;
  /** Each carried package's version. */
  versions: Record<string, string>;
}

const found = new Map<string, CarriedDeclarations | null>();

/**
 * The carried declarations for the pipeline compiled into `analyseFolder` (dist/analyse in the
 * package, src/analyse in a checkout): the package's copy, dist/sdk-types beside it, else the
 * checkout's installed packages; undefined when neither is there. The caller names the folder
 * because only an ES module knows its own (`import.meta`), and the jscodeshift transform loads
 * this one as CommonJS.
 */
export function carriedDeclarationsFor(analyseFolder: string): CarriedDeclarations | undefined {
  let carried = found.get(analyseFolder);
  if (carried === undefined) {
    const packagedCopy = path.join(analyseFolder, '..', 'sdk-types');
    carried = packaged(packagedCopy) ?? installed(path.dirname(analyseFolder)) ?? null;
    found.set(analyseFolder, carried);
  }
  return carried ?? undefined;
}

function packaged(copy: string): CarriedDeclarations | undefined {
  const manifestFile = path.join(copy, 'manifest.json');
  if (!existsSync(manifestFile)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  return { folders: [folderOf(copy)], modules: new Map(Object.entries(manifest.modules).map(([name, file]) => [name, path.join(copy, file)])) };
}

function installed(checkout: string): CarriedDeclarations | undefined {
  const nodeModules = findNodeModules(checkout, CARRIED_PACKAGES[0]!);
  if (!nodeModules) return undefined;
  const modules = entryFiles(nodeModules);
  if (!modules) return undefined;
  return {
    folders: CARRIED_PACKAGES.map((pkg) => folderOf(path.join(nodeModules, pkg))),
    modules: new Map(Object.entries(modules).map(([name, file]) => [name, path.join(nodeModules, file)])),
  };
}

/** A folder as the checker names files: `/` separators, one at the end. */
function folderOf(dir: string): string {
  return `${dir.split(path.sep).join('/').replace(/\/$/, '')}/`;
}

/** The node_modules folder above `dir` that holds `pkg`. */
function findNodeModules(dir: string, pkg: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules');
    if (existsSync(path.join(candidate, pkg, 'package.json'))) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/** Each carried module's declaration file under `nodeModules` (as its package exports it to `import`), relative; undefined when one is missing. */
function entryFiles(nodeModules: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of CARRIED_MODULES) {
    const pkg = CARRIED_PACKAGES.find((p) => name === p || name.startsWith(`${p}/`))!;
    const manifestFile = path.join(nodeModules, pkg, 'package.json');
    if (!existsSync(manifestFile)) return undefined;
    const types = exportedTypes(JSON.parse(readFileSync(manifestFile, 'utf8')) as PackageJson, `.${name.slice(pkg.length)}`);
    if (!types) return undefined;
    out[name] = path.posix.join(pkg, types);
  }
  return out;
}

interface PackageJson {
  version?: string;
  exports?: Record<string, unknown>;
}

/** The declaration file a package's `exports` gives `import` of `subpath` (`.`, `./stdio`). */
function exportedTypes(pkg: PackageJson, subpath: string): string | undefined {
  let entry: unknown = pkg.exports?.[subpath];
  // Conditions, in the order a NodeNext `import` takes them.
  for (let depth = 0; entry && typeof entry === 'object' && depth < 4; depth++) {
    const conditions = entry as Record<string, unknown>;
    entry = conditions.import ?? conditions.types ?? conditions.default;
    if (typeof entry === 'string' && !/\.d\.[cm]?ts$/.test(entry)) entry = conditions.types;
  }
  return typeof entry === 'string' && /\.d\.[cm]?ts$/.test(entry) ? path.posix.normalize(entry) : undefined;
}

/**
 * Copies the carried modules' declarations from `nodeModules` into `out` (the build's
 * dist/sdk-types): each entry file and every file it imports within the carried packages, with
 * their comments removed (they are documentation; the types are unchanged), each package's
 * LICENSE and a package.json naming it, and manifest.json. Returns the bytes written.
 */
export function carryDeclarations(ts: typeof TS, nodeModules: string, out: string): number {
  const entries = entryFiles(nodeModules);
  if (!entries) throw new Error(`the packages whose declarations are carried are not installed under ${nodeModules}: ${CARRIED_PACKAGES.join(', ')}`);
  const printer = ts.createPrinter({ removeComments: true });
  const pending = [...new Set(Object.values(entries))];
  const copied = new Set<string>();
  let bytes = 0;
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(out, relative)), { recursive: true });
    writeFileSync(path.join(out, relative), text);
    bytes += Buffer.byteLength(text);
  };
  while (pending.length > 0) {
    const relative = pending.pop()!;
    if (copied.has(relative)) continue;
    copied.add(relative);
    const file = ts.createSourceFile(relative, readFileSync(path.join(nodeModules, relative), 'utf8'), ts.ScriptTarget.Latest, true);
    write(relative, printer.printFile(file));
    for (const specifier of moduleSpecifiers(ts, file)) {
      const target = importedDeclaration(relative, specifier, entries);
      if (target && existsSync(path.join(nodeModules, target))) pending.push(target);
    }
  }
  const versions: Record<string, string> = {};
  for (const pkg of CARRIED_PACKAGES) {
    const manifest = JSON.parse(readFileSync(path.join(nodeModules, pkg, 'package.json'), 'utf8')) as PackageJson & { name: string; license?: string };
    versions[pkg] = manifest.version ?? '';
    write(path.posix.join(pkg, 'package.json'), `${JSON.stringify({ name: manifest.name, version: manifest.version, license: manifest.license }, null, 2)}\n`);
    const license = path.join(nodeModules, pkg, 'LICENSE');
    if (existsSync(license)) write(path.posix.join(pkg, 'LICENSE'), readFileSync(license, 'utf8'));
  }
  write('manifest.json', `${JSON.stringify({ modules: entries, versions } satisfies Manifest, null, 2)}\n`);
  return bytes;
}

/** The modules a declaration file imports or re-exports, or names in an `import("...")` type. */
function moduleSpecifiers(ts: typeof TS, file: TS.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: TS.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push(node.moduleSpecifier.text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      out.push(node.argument.literal.text);
    else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) out.push(node.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The declaration file (relative to node_modules) an import of `specifier` in `from` names, when it is carried. */
function importedDeclaration(from: string, specifier: string, entries: Record<string, string>): string | undefined {
  if (!specifier.startsWith('.')) return entries[specifier];
  const target = path.posix.join(path.posix.dirname(from), specifier);
  // `./x.mjs` is declared by `./x.d.mts`, `./x.cjs` by `./x.d.cts`, `./x.js` by `./x.d.ts`.
  const declared = target.replace(/\.([cm]?)js$/, '.d.$1ts');
  return declared === target ? undefined : declared;
}
