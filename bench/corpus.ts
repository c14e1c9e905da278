// A synthetic but realistic project for the benchmark: mostly plain TypeScript / JavaScript
// modules of varying size (types, functions, classes, JSX components, data tables), and a
// few percent MCP servers with legacy server→client requests. Some servers lift locals across
// a question without annotating them, which needs the TypeScript checker and the SDK's types:
// the corpus is generated inside the project (.tmp/bench-corpus) so that
// `@modelcontextprotocol/server` and `zod` resolve from its node_modules.
//
// Deterministic: the same (files, seed) always gives the same bytes.
import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PREFILTER } from '../src/analyse/sdk-surface.ts';

/** Bump when the generator changes, so stale corpora are rebuilt. */
export const CORPUS_VERSION = 4;

export interface CorpusManifest {
  version: number;
  files: number;
  seed: number;
  /** Files that mention a legacy name (pass PREFILTER), and their bytes. */
  candidates: number;
  candidateBytes: number;
  totalBytes: number;
  /** Candidate kinds, for the report. */
  kinds: Record<string, number>;
}

export type Rng = () => number;

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
export const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const WORDS = [
  'order',
  'user',
  'account',
  'invoice',
  'report',
  'session',
  'cache',
  'queue',
  'token',
  'record',
  'item',
  'price',
  'stock',
  'event',
  'metric',
  'config',
  'route',
  'payload',
  'batch',
  'entry',
  'ledger',
  'audit',
  'profile',
  'widget',
  'channel',
];
const VERBS = [
  'load',
  'save',
  'build',
  'parse',
  'format',
  'merge',
  'split',
  'compute',
  'resolve',
  'update',
  'collect',
  'render',
  'validate',
  'normalise',
  'fetch',
];

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const name = (r: Rng, n: number) => `${pick(r, VERBS)}${cap(pick(r, WORDS))}${n}`;
const typeName = (r: Rng, n: number) => `${cap(pick(r, WORDS))}${cap(pick(r, WORDS))}${n}`;

/** Size of a plain module, in bytes: most small, a long tail of large ones. */
export function plainSize(r: Rng): number {
  const x = r();
  if (x < 0.65) return int(r, 300, 3_000);
  if (x < 0.92) return int(r, 3_000, 12_000);
  if (x < 0.995) return int(r, 12_000, 40_000);
  return int(r, 40_000, 150_000);
}

/** One block of plain code. `typed` adds annotations; `jsx` may add a component. */
function plainBlock(r: Rng, n: number, typed: boolean, jsx: boolean): string {
  const t = (s: string) => (typed ? s : '');
  const fn = name(r, n);
  const ty = typeName(r, n);
  switch (int(r, 0, jsx ? 6 : 5)) {
    case 0:
      return typed
        ? `/** A ${pick(r, WORDS)} as stored. */\nexport interface ${ty} {\n  id: string;\n  ${pick(r, WORDS)}Count: number;\n  tags: readonly string[];\n  createdAt: string;\n  meta?: Record<string, unknown>;\n}\n\n`
        : `/** @typedef {{ id: string, count: number }} ${ty} */\n\n`;
    case 1:
      return `export function ${fn}(items${t(`: Array<{ id: string; value: number }>`)}, limit = ${int(r, 2, 90)})${t(': number')} {\n  let total = 0;\n  for (const item of items) {\n    if (item.value > limit) continue;\n    total += item.value * ${int(r, 1, 9)};\n  }\n  // ${pick(r, WORDS)} totals are capped, see the ${pick(r, WORDS)} policy.\n  return Math.min(total, ${int(r, 100, 9999)});\n}\n\n`;
    case 2:
      return `export class ${ty} {\n  ${t('private readonly ')}entries${t(': Map<string, number>')} = new Map();\n\n  ${typed ? `constructor(private readonly prefix: string = '${pick(r, WORDS)}') {}` : `constructor(prefix = '${pick(r, WORDS)}') {\n    this.prefix = prefix;\n  }`}\n\n  ${fn}(key${t(': string')}, delta${t(': number')})${t(': number')} {\n    const next = (this.entries.get(key) ?? 0) + delta;\n    this.entries.set(\`\${this.prefix}:\${key}\`, next);\n    return next;\n  }\n\n  toJSON()${t(': Record<string, number>')} {\n    return Object.fromEntries(this.entries);\n  }\n}\n\n`;
    case 3: {
      const rows = Array.from(
        { length: int(r, 3, 12) },
        (_, i) => `  { key: '${pick(r, WORDS)}-${i}', weight: ${int(r, 0, 500)}, enabled: ${r() < 0.5} },`,
      ).join('\n');
      return `export const ${fn.toUpperCase()}_TABLE = [\n${rows}\n]${t(' as const')};\n\n`;
    }
    case 4:
      return `export async function ${fn}Async(url${t(': string')}, retries = ${int(r, 1, 5)})${t(': Promise<string>')} {\n  for (let attempt = 0; attempt <= retries; attempt++) {\n    try {\n      const response = await fetch(url, { headers: { accept: 'application/json' } });\n      if (response.ok) return await response.text();\n    } catch (error) {\n      if (attempt === retries) throw error;\n    }\n    await new Promise((resolve) => setTimeout(resolve, ${int(r, 10, 400)} * 2 ** attempt));\n  }\n  throw new Error(\`${pick(r, WORDS)} unavailable: \${url}\`);\n}\n\n`;
    case 5:
      return `const ${fn}Cache = new Map${t('<string, string>')}();\n\nexport function ${fn}Label(id${t(': string')}, locale = 'en')${t(': string')} {\n  const key = \`\${locale}:\${id}\`;\n  const hit = ${fn}Cache.get(key);\n  if (hit !== undefined) return hit;\n  const label = id.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join(' ');\n  ${fn}Cache.set(key, label);\n  return label;\n}\n\n`;
    default:
      return `export function ${ty}View({ items, title }${t(': { items: string[]; title: string }')}) {\n  return (\n    <section className="${pick(r, WORDS)}">\n      <h2>{title}</h2>\n      <ul>\n        {items.map((item) => (\n          <li key={item}>{item}</li>\n        ))}\n      </ul>\n    </section>\n  );\n}\n\n`;
  }
}

export function plainModule(r: Rng, ext: string, target: number): string {
  const typed = ext === '.ts' || ext === '.tsx';
  const jsx = ext === '.tsx' || ext === '.jsx';
  let out = `// Generated module for the mrtr-codemod benchmark.\nimport { ${name(r, 0)} } from './${pick(r, WORDS)}-helpers${typed ? '.ts' : '.js'}';\n\n`;
  for (let n = 1; out.length < target; n++) out += plainBlock(r, n, typed, jsx);
  return out;
}

// --- servers ----------------------------------------------------------------------------

const SCHEMA = `{ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }`;

/** A tool that lifts an unannotated local across a question: needs the checker in TS. */
function liftingTool(r: Rng, id: string): string {
  return `  server.registerTool(
    '${id}',
    { description: 'Delete the ${pick(r, WORDS)} rows of a table', inputSchema: z.object({ table: z.string() }) },
    async ({ table }, ctx) => {
      const count = world.count(table);
      const label = \`\${table}:\${count}\`;
      const answer = await ctx.mcpReq.elicitInput({
        message: \`Delete \${count} rows of \${table}?\`,
        requestedSchema: ${SCHEMA},
      });
      if (answer.action !== 'accept') {
        return { content: [{ type: 'text', text: \`Kept \${label}.\` }] };
      }
      world.delete(table);
      return { content: [{ type: 'text', text: \`Deleted \${count} rows (\${label}).\` }] };
    },
  );
`;
}

function simpleTool(r: Rng, id: string, typed: boolean): string {
  switch (int(r, 0, 3)) {
    case 0:
      return `  server.registerTool('${id}', { description: 'Ask first' }, async (ctx) => {
    world.audit('${id}:start');
    const answer = await ctx.mcpReq.elicitInput({ message: 'Proceed with ${pick(r, WORDS)}?', requestedSchema: ${SCHEMA} });
    return { content: [{ type: 'text', text: answer.action }] };
  });
`;
    case 1:
      return `  server.registerTool('${id}', { description: 'Summarise with the client model', inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    world.audit(\`${id}:\${text.length}\`);
    const completion = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: \`Summarise: \${text}\` } }],
      maxTokens: ${int(r, 32, 256)},
    });
    const summary = completion.content.type === 'text' ? completion.content.text : '(no text)';
    return { content: [{ type: 'text', text: summary }] };
  });
`;
    case 2:
      return `  server.registerTool('${id}', { description: 'List the client roots' }, async (${typed ? '): Promise<CallToolResult> =>' : ') =>'} {
    const listing = await server.server.listRoots();
    return { content: [{ type: 'text', text: listing.roots.map((root) => root.uri).join('\\n') }] };
  });
`;
    default:
      return `  server.registerTool('${id}', { inputSchema: z.object({ note: z.string() }) }, async ({ note }, ctx) => {
    await ctx.mcpReq.send({
      method: 'elicitation/create',
      params: { mode: 'form', message: note, requestedSchema: { type: 'object', properties: {} } },
    });
    return { content: [{ type: 'text', text: 'notified' }] };
  });
`;
  }
}

/** A site the codemod refuses (awaited inside a condition): a marker, no rewrite of it. */
function refusedTool(r: Rng, id: string): string {
  return `  server.registerTool('${id}', { inputSchema: z.object({ force: z.boolean() }) }, async ({ force }, ctx) => {
    if (!force) {
      const answer = await ctx.mcpReq.elicitInput({ message: 'Sure about ${pick(r, WORDS)}?', requestedSchema: ${SCHEMA} });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'kept' }] };
    }
    world.delete('${pick(r, WORDS)}s');
    return { content: [{ type: 'text', text: 'done' }] };
  });
`;
}

export type ServerKind = 'ts-lifting' | 'ts-simple' | 'js-server' | 'refused' | 'mention-only';

export function serverModule(r: Rng, kind: ServerKind, n: number, worldImport: string, padTo: number): { ext: string; text: string } {
  const typed = kind !== 'js-server';
  const ext = typed ? '.ts' : '.js';
  if (kind === 'mention-only') {
    // Passes the prefilter (a chat library's own createMessage) but holds no legacy site.
    let text = `// Chat messages for the ${pick(r, WORDS)} channel.\nexport interface ChatMessage {\n  role: 'user' | 'assistant';\n  text: string;\n}\n\nexport function createMessage(role: ChatMessage['role'], text: string): ChatMessage {\n  return { role, text: text.trim() };\n}\n\n`;
    for (let b = 1; text.length < padTo; b++) text += plainBlock(r, b, true, false);
    return { ext, text };
  }
  const tools: string[] = [];
  const count = int(r, 1, 4);
  for (let i = 0; i < count; i++) {
    const id = `${pick(r, VERBS)}_${pick(r, WORDS)}_${n}_${i}`;
    if (kind === 'ts-lifting' || (kind === 'js-server' && r() < 0.5)) tools.push(liftingTool(r, id));
    else if (kind === 'refused' && i === 0) tools.push(refusedTool(r, id));
    else tools.push(simpleTool(r, id, typed));
  }
  const imports = typed
    ? `import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';\nimport * as z from 'zod/v4';\nimport type { World } from '${worldImport}';\n`
    : `import { McpServer } from '@modelcontextprotocol/server';\nimport * as z from 'zod/v4';\n`;
  let text = `// An MCP server of the benchmark corpus (${kind}).\n${imports}\n`;
  text += `export function createServer${n}(world${typed ? ': World' : ''})${typed ? ': McpServer' : ''} {\n  const server = new McpServer({ name: 'svc-${n}', version: '1.0.0' });\n\n${tools.join('\n')}\n  return server;\n}\n\n`;
  for (let b = 1; text.length < padTo; b++) text += plainBlock(r, b, typed, false);
  return { ext, text };
}

export const WORLD = `// The outside world the corpus servers act on.
export type World = {
  count(table: string): number;
  delete(table: string): void;
  audit(entry: string): void;
};
`;

/** The corpora's compiler options (bench/repo-corpus.ts extends them per project). */
export const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "skipLibCheck": true,
    "allowImportingTsExtensions": true,
    "noEmit": true,
    "jsx": "react-jsx",
    "types": ["node"]
  }
}
`;

export function pickServerKind(r: Rng): ServerKind {
  const x = r();
  if (x < 0.35) return 'ts-lifting';
  if (x < 0.6) return 'ts-simple';
  if (x < 0.75) return 'js-server';
  if (x < 0.9) return 'mention-only';
  return 'refused';
}

export interface GeneratedFile {
  relative: string;
  text: string;
  candidate?: ServerKind;
}

/** The files of a corpus of `files` source files (plus a tsconfig.json), about `share` of them servers. */
export function* corpusFiles(files: number, seed: number, share = 0.03): Generator<GeneratedFile> {
  const r = rng(seed);
  yield { relative: 'tsconfig.json', text: TSCONFIG };
  yield { relative: 'support/world.ts', text: WORLD };
  const perDir = 40;
  for (let i = 1; i < files; i++) {
    const pkg = Math.floor(i / (perDir * 10));
    const dir = `packages/pkg-${String(pkg).padStart(3, '0')}/src/${Math.floor(i / perDir) % 10 === 0 ? '' : `area-${Math.floor(i / perDir) % 10}/`}`;
    const depth = dir.split('/').filter(Boolean).length;
    const worldImport = `${'../'.repeat(depth)}support/world.ts`;
    const base = `${dir}${pick(r, WORDS)}-${String(i).padStart(5, '0')}`;
    if (r() < share) {
      const kind = pickServerKind(r);
      const { ext, text } = serverModule(r, kind, i, worldImport, int(r, 2_000, 20_000));
      yield { relative: `${base}${ext}`, text, candidate: kind };
    } else {
      const x = r();
      const ext = x < 0.6 ? '.ts' : x < 0.75 ? '.tsx' : x < 0.95 ? '.js' : '.mjs';
      yield { relative: `${base}${ext}`, text: plainModule(r, ext, plainSize(r)) };
    }
  }
}

/**
 * The manifest `dir` holds when it was built as `wanted` says (same corpus version, file count
 * and seed), else undefined: the corpus is to be built (again).
 */
async function builtManifest(dir: string, wanted: Pick<CorpusManifest, 'version' | 'files' | 'seed'>, rebuild: boolean): Promise<CorpusManifest | undefined> {
  if (rebuild) return undefined;
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'corpus.json'), 'utf8')) as CorpusManifest;
    return manifest.version === wanted.version && manifest.files === wanted.files && manifest.seed === wanted.seed ? manifest : undefined;
  } catch {
    return undefined; // missing or unreadable
  }
}

/** Writes a corpus unless `dir` already holds this exact one; returns its manifest. `share`: the part of the files that are MCP servers (corpusFiles's default if not given). */
/** Writes files under `dir` by relative path, making each folder once. */
export function treeWriter(dir: string): (relative: string, text: string) => Promise<void> {
  const made = new Set<string>();
  return async (relative, text) => {
    const full = path.join(dir, relative);
    const parent = path.dirname(full);
    if (!made.has(parent)) {
      await mkdir(parent, { recursive: true });
      made.add(parent);
    }
    await writeFile(full, text);
  };
}

export async function ensureCorpus(dir: string, files: number, seed: number, rebuild = false, share?: number): Promise<CorpusManifest> {
  const manifestFile = path.join(dir, 'corpus.json');
  const built = await builtManifest(dir, { version: CORPUS_VERSION, files, seed }, rebuild);
  if (built) return built;
  await rm(dir, { recursive: true, force: true });
  const manifest: CorpusManifest = { version: CORPUS_VERSION, files, seed, candidates: 0, candidateBytes: 0, totalBytes: 0, kinds: {} };
  const write = treeWriter(dir);
  for (const file of corpusFiles(files, seed, share)) {
    await write(file.relative, file.text);
    if (file.relative.endsWith('.json')) continue;
    const bytes = Buffer.byteLength(file.text);
    manifest.totalBytes += bytes;
    if (PREFILTER.test(file.text)) {
      manifest.candidates++;
      manifest.candidateBytes += bytes;
    }
    if (file.candidate) manifest.kinds[file.candidate] = (manifest.kinds[file.candidate] ?? 0) + 1;
  }
  await writeFile(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * The corpus as a repository looks after `migrate --no-types` (the compiled CLI `cli`, run once and
 * kept): migrated servers, and the lifted locals without an annotation marked `@mrtr-todo`,
 * which is what `check` guards in CI after a migration. Its manifest counts the files that
 * hold a marker under `kinds.markers`. Kept across runs like the others: after a change to
 * what `migrate` writes, build it again with `--rebuild`.
 */
export async function ensureMigratedCorpus(source: string, dir: string, base: CorpusManifest, cli: string, rebuild = false): Promise<CorpusManifest> {
  const manifestFile = path.join(dir, 'corpus.json');
  const built = await builtManifest(dir, base, rebuild);
  if (built) return built;
  await rm(dir, { recursive: true, force: true });
  await cp(source, dir, { recursive: true });
  await rm(manifestFile, { force: true });
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'migrate', '--force', '--no-types', '--json', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  // 1: markers left (the lifted locals without an annotation), as expected.
  if (code !== 0 && code !== 1) throw new Error(`migrate --no-types over ${dir} exited ${code}`);
  const manifest: CorpusManifest = {
    version: base.version,
    files: base.files,
    seed: base.seed,
    candidates: 0,
    candidateBytes: 0,
    totalBytes: 0,
    kinds: { markers: 0 },
  };
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.json')) continue;
    const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
    const bytes = Buffer.byteLength(text);
    manifest.totalBytes += bytes;
    if (PREFILTER.test(text)) {
      manifest.candidates++;
      manifest.candidateBytes += bytes;
    }
    if (text.includes('@mrtr-todo')) manifest.kinds.markers!++;
  }
  await writeFile(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * Corpora for the linearity check: only candidate files, the same `servers` of them copied
 * `copies` times (copy-1/, copy-2/, ...), so candidate bytes are exactly 1x, 2x, 4x.
 */
export async function ensureLinearityCorpus(dir: string, servers: number, copies: number, seed: number, rebuild = false): Promise<CorpusManifest> {
  const manifestFile = path.join(dir, 'corpus.json');
  const built = await builtManifest(dir, { version: CORPUS_VERSION, files: servers * copies + 1, seed }, rebuild);
  if (built) return built;
  await rm(dir, { recursive: true, force: true });
  const r = rng(seed);
  const manifest: CorpusManifest = { version: CORPUS_VERSION, files: servers * copies + 1, seed, candidates: 0, candidateBytes: 0, totalBytes: 0, kinds: {} };
  await mkdir(path.join(dir, 'support'), { recursive: true });
  await writeFile(path.join(dir, 'tsconfig.json'), TSCONFIG);
  await writeFile(path.join(dir, 'support/world.ts'), WORLD);
  manifest.totalBytes += WORLD.length;
  const made: Array<{ relative: string; text: string; kind: ServerKind }> = [];
  for (let i = 0; i < servers; i++) {
    const kind = pickServerKind(r);
    const { ext, text } = serverModule(r, kind, i, '../../support/world.ts', int(r, 2_000, 20_000));
    made.push({ relative: `server-${String(i).padStart(4, '0')}${ext}`, text, kind });
  }
  for (let c = 1; c <= copies; c++) {
    const sub = path.join(dir, `copy-${c}`, 'src');
    await mkdir(sub, { recursive: true });
    for (const file of made) {
      await writeFile(path.join(sub, file.relative), file.text);
      const bytes = Buffer.byteLength(file.text);
      manifest.totalBytes += bytes;
      manifest.candidates++;
      manifest.candidateBytes += bytes;
      manifest.kinds[file.kind] = (manifest.kinds[file.kind] ?? 0) + 1;
    }
  }
  await writeFile(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}
