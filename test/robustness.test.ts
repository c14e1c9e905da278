// Robustness of a run over a real file system (through runCodemod): every hostile file is
// reported, nothing else stops, and no file is ever left half written.
//
// The trees live under the checkout's .tmp (git-ignored) rather than the system temp directory so
// that, where a test needs the TypeScript checker, `@modelcontextprotocol/server` resolves from
// the project's node_modules.
//
// Read-only files. As root, a file's permission bits do not stop a write, and even for other
// users an atomic write (temp file + rename) replaces a read-only file whenever its directory
// is writable. So "read-only" is decided from the mode: a file without any write permission
// bit (or one this user may not write) is reported at stage `write` and left as it is; the
// option `writeReadOnly: true` is the user asking for it anyway, and the file then keeps its
// read-only mode (writeFileAtomic copies the mode bits). A dry run reports nothing for them:
// it writes nothing.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseSource } from '../src/analyse/parse.ts';
import { loadTypeScript } from '../src/analyse/load-typescript.ts';
import { TsTypeFactsProvider, TypeScriptFacts } from '../src/analyse/ts-type-facts.ts';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { planOrQuestions } from '../src/transform.ts';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import type { TypeFactsSource } from '../src/transform.ts';
import { BROKEN_SERVER, ELICIT_SERVER, PLAIN_MODULE, SPLIT_SERVER, V1_MANIFEST, V1_SERVER } from './engine-samples.ts';
import { BIN, cli, git, runCli } from './support/cli.ts';
import { ROOT } from './support/fixtures.ts';
import { noTypes, putFile } from './support/scratch.ts';
import { typecheck } from './support/typecheck.ts';

const TMP = path.join(ROOT, '.tmp');
const made: string[] = [];
let dir: string;

beforeEach(async () => {
  await mkdir(TMP, { recursive: true });
  dir = await mkdtemp(path.join(TMP, 'robustness-'));
  made.push(dir);
});
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

const put = (relative: string, content: string | Uint8Array, mode?: number) => putFile(dir, relative, content, mode);

const migrated = (text: string) => text.includes('inputRequired.elicit(');

/** Every file below `root` (links not followed), relative, sorted. */
async function listTree(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string) => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) await visit(full);
      else out.push(path.relative(root, full));
    }
  };
  await visit(root);
  return out.sort();
}

/** A TypeScript server whose handler lifts an unannotated local: needs the checker. */
const LIFTING = `import { McpServer } from '@modelcontextprotocol/server';

export function createServer(db: { count(table: string): number }): McpServer {
  const server = new McpServer({ name: 'lift', version: '1.0.0' });
  server.registerTool('go', { description: 'Ask first' }, async (ctx) => {
    const count = db.count('logs');
    const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: \`\${count} \${answer.action}\` }] };
  });
  return server;
}
`;

const errorsOf = (result: RunResult) => result.errors.map((e) => [e.file, e.stage]);

/** A server padded with comments to about `size` bytes (the padding is plain text, so cheap to parse). */
function paddedServer(size: number): string {
  const line = '// padding: the quick brown fox jumps over the lazy dog, again and again.\n';
  return ELICIT_SERVER + line.repeat(Math.ceil((size - ELICIT_SERVER.length) / line.length));
}

describe('hostile inputs are reported, the rest of the run goes on', () => {
  it('unparsable, binary, non-UTF-8 and UTF-16 files: each reported, untouched; good files migrated', async () => {
    const good = await put('src/good.ts', ELICIT_SERVER);
    const brokenBytes = Buffer.from(BROKEN_SERVER);
    const broken = await put('src/broken.ts', brokenBytes);
    const binaryBytes = Buffer.concat([Buffer.from('elicitInput'), Buffer.from([0, 1, 2, 255, 254])]);
    const binary = await put('src/binary.js', binaryBytes);
    const latin1Bytes = Buffer.from('// café: ctx.mcpReq.elicitInput(...)\n', 'latin1');
    const latin1 = await put('src/latin1.ts', latin1Bytes);
    const utf16Bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ELICIT_SERVER, 'utf16le')]);
    const utf16 = await put('src/utf16.ts', utf16Bytes);
    const last = await put('src/zz-last.ts', ELICIT_SERVER);

    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });

    expect(errorsOf(result)).toEqual([
      ['src/binary.js', 'read'],
      ['src/broken.ts', 'parse'],
      ['src/latin1.ts', 'read'],
      ['src/utf16.ts', 'read'],
    ]);
    expect(result.errors.find((e) => e.stage === 'parse')).toMatchObject({ line: 3, message: expect.stringMatching(/^cannot parse/) });
    expect(result.errors.filter((e) => e.stage === 'read').map((e) => e.message)).toEqual([
      expect.stringContaining('binary'),
      expect.stringContaining('UTF-8'),
      expect.stringContaining('binary'),
    ]);
    expect(await readFile(broken)).toEqual(brokenBytes);
    expect(await readFile(binary)).toEqual(binaryBytes);
    expect(await readFile(latin1)).toEqual(latin1Bytes);
    expect(await readFile(utf16)).toEqual(utf16Bytes);
    expect(result.changed.map((c) => [c.path, c.written])).toEqual([
      ['src/good.ts', true],
      ['src/zz-last.ts', true],
      ['src/mrtr-request-state.ts', true],
    ]);
    expect(migrated(await readFile(good, 'utf8'))).toBe(true);
    expect(migrated(await readFile(last, 'utf8'))).toBe(true);
  });

  it("JSON imported with `assert { type: 'json' }` (v2 and v1 servers): migrated, the clause kept as written", async () => {
    const assertImport = "import meta from './meta.json' assert { type: 'json' };";
    const withAssert = (server: string) => server.replace(/\n/, `\n${assertImport}\n`);
    const v2 = await put('src/v2.ts', withAssert(ELICIT_SERVER));
    const v1 = await put('src/v1.ts', withAssert(V1_SERVER));
    await put('src/meta.json', '{ "name": "demo" }\n');
    await put('package.json', V1_MANIFEST);

    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });

    expect(errorsOf(result)).toEqual([]);
    for (const file of [v2, v1]) {
      const text = await readFile(file, 'utf8');
      expect(migrated(text)).toBe(true);
      expect(text.split('\n')[1]).toBe(assertImport);
    }
  });

  it('a 5 MB candidate is noted as too large and not parsed; a 5 MB plain file is read and passed over', async () => {
    const bigServer = paddedServer(5 * 1024 * 1024);
    const bigServerFile = await put('src/big-server.ts', bigServer);
    const bigPlain = 'export const table = [\n' + '  { key: "row", weight: 1, enabled: true },\n'.repeat(120_000) + '];\n';
    expect(bigPlain.length).toBeGreaterThan(5 * 1024 * 1024);
    await put('src/big-plain.ts', bigPlain);
    const good = await put('src/good.ts', ELICIT_SERVER);

    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });

    expect(result.filesScanned).toBe(3);
    expect(result.candidates).toBe(2);
    expect(result.errors).toEqual([]);
    expect(result.skipped).toEqual([
      {
        file: 'src/big-server.ts',
        reason: 'too large to analyse (5.0 MiB, the limit is 1.0 MiB): likely a bundle; migrate its sources and build it again',
        candidate: true,
      },
    ]);
    expect(await readFile(bigServerFile, 'utf8')).toBe(bigServer);
    expect(migrated(await readFile(good, 'utf8'))).toBe(true);
  });

  it('a large candidate under a raised limit is migrated whole', async () => {
    const server = paddedServer(2 * 1024 * 1024);
    const file = await put('big.ts', server);
    const result = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: noTypes, maxFileBytes: 4 * 1024 * 1024 });
    expect(result.errors).toEqual([]);
    const text = await readFile(file, 'utf8');
    expect(migrated(text)).toBe(true);
    expect(text.endsWith(server.slice(-1000))).toBe(true);
  });

  it('keeps CRLF line endings and a byte order mark, alone and together', async () => {
    const crlf = await put('crlf.ts', ELICIT_SERVER.replace(/\n/g, '\r\n'));
    const bom = await put('bom.ts', '\uFEFF' + ELICIT_SERVER);
    const both = await put('both.ts', '\uFEFF' + ELICIT_SERVER.replace(/\n/g, '\r\n'));
    const result = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([]);
    // The three files, and the request-state module they import.
    expect(result.changed).toHaveLength(4);

    for (const [file, hasBom, isCrlf] of [
      [crlf, false, true],
      [bom, true, false],
      [both, true, true],
    ] as const) {
      const bytes = await readFile(file);
      expect([...bytes.subarray(0, 3)].join(',') === '239,187,191').toBe(hasBom);
      const text = bytes.toString('utf8');
      expect(migrated(text)).toBe(true);
      if (isCrlf) expect(text.replace(/\r\n/g, '')).not.toContain('\n');
      else expect(text).not.toContain('\r');
      expect(() => parseSource(text, 'ts')).not.toThrow();
    }
  });

  it('never follows a symlink out of the root; a link inside is written through once and stays a link', async () => {
    const outside = await mkdtemp(path.join(TMP, 'robustness-outside-'));
    made.push(outside);
    const secret = path.join(outside, 'secret.ts');
    await writeFile(secret, ELICIT_SERVER);
    await mkdir(path.join(outside, 'lib'));
    await writeFile(path.join(outside, 'lib', 'server.ts'), ELICIT_SERVER);

    const real = await put('root/src/real.ts', ELICIT_SERVER);
    const root = path.join(dir, 'root');
    await symlink(secret, path.join(root, 'out-file.ts'));
    await symlink(path.join(outside, 'lib'), path.join(root, 'out-dir'));
    await symlink('../../outside-nope.ts', path.join(root, 'dangling.ts'));
    await symlink(path.join(root, 'src', 'real.ts'), path.join(root, 'alias.ts'));
    await symlink(root, path.join(root, 'src', 'loop'));

    const result = await runCodemod({ paths: ['root'], write: true, cwd: dir, types: noTypes });

    expect(result.changed.map((c) => c.path)).toEqual(['root/src/real.ts', 'root/src/mrtr-request-state.ts']);
    expect(await readFile(secret, 'utf8')).toBe(ELICIT_SERVER);
    expect(await readFile(path.join(outside, 'lib', 'server.ts'), 'utf8')).toBe(ELICIT_SERVER);
    expect(await listTree(outside)).toEqual(['lib/server.ts', 'secret.ts']);
    expect(migrated(await readFile(real, 'utf8'))).toBe(true);
    expect((await lstat(path.join(root, 'alias.ts'))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(root, 'alias.ts'))).toBe(real);
    expect(result.sites.every((s) => s.file === 'root/src/real.ts')).toBe(true);
  });

  // A link that leads out of the root is never followed, and each one is reported.
  it('notes each symlink that leads out of the root', async () => {
    const outside = await mkdtemp(path.join(TMP, 'robustness-outside-'));
    made.push(outside);
    await writeFile(path.join(outside, 'secret.ts'), ELICIT_SERVER);
    await put('root/src/real.ts', PLAIN_MODULE);
    await symlink(path.join(outside, 'secret.ts'), path.join(dir, 'root', 'out-file.ts'));
    await symlink(outside, path.join(dir, 'root', 'out-dir'));

    const result = await runCodemod({ paths: ['root'], write: true, cwd: dir, types: noTypes });

    expect(result.errors).toEqual([]);
    expect(result.skipped?.map((s) => [s.file, s.candidate])).toEqual([
      ['root/out-dir', false],
      ['root/out-file.ts', false],
    ]);
  });

  it('reports a read-only file and leaves it alone, unless asked; modes are kept either way', async () => {
    const readOnly = await put('src/a-read-only.ts', ELICIT_SERVER, 0o444);
    const noWriteBits = await put('src/b-exec-only.ts', ELICIT_SERVER, 0o555);
    const writable = await put('src/c-writable.ts', ELICIT_SERVER, 0o640);

    const dry = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: noTypes });
    expect(dry.errors).toEqual([]);
    expect(dry.changed.map((c) => [c.path, c.written])).toEqual([
      ['src/a-read-only.ts', false],
      ['src/b-exec-only.ts', false],
      ['src/c-writable.ts', false],
      ['src/mrtr-request-state.ts', false],
    ]);

    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([
      { file: 'src/a-read-only.ts', stage: 'write', message: 'read-only file (no write permission bit); left as it is (make it writable to migrate it)' },
      { file: 'src/b-exec-only.ts', stage: 'write', message: 'read-only file (no write permission bit); left as it is (make it writable to migrate it)' },
    ]);
    expect(result.changed.map((c) => c.path)).toEqual(['src/c-writable.ts', 'src/mrtr-request-state.ts']);
    // Their sites are still listed: the report says what the file holds, the error why it was not written.
    expect(new Set(result.sites.map((s) => s.file))).toEqual(new Set(['src/a-read-only.ts', 'src/b-exec-only.ts', 'src/c-writable.ts']));
    expect(await readFile(readOnly, 'utf8')).toBe(ELICIT_SERVER);
    expect(await readFile(noWriteBits, 'utf8')).toBe(ELICIT_SERVER);
    expect(migrated(await readFile(writable, 'utf8'))).toBe(true);
    expect((await stat(readOnly)).mode & 0o7777).toBe(0o444);
    expect((await stat(noWriteBits)).mode & 0o7777).toBe(0o555);
    expect((await stat(writable)).mode & 0o7777).toBe(0o640);

    const forced = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes, writeReadOnly: true });
    expect(forced.errors).toEqual([]);
    expect(forced.changed.map((c) => [c.path, c.written])).toEqual([
      ['src/a-read-only.ts', true],
      ['src/b-exec-only.ts', true],
    ]);
    expect(migrated(await readFile(readOnly, 'utf8'))).toBe(true);
    expect((await stat(readOnly)).mode & 0o7777).toBe(0o444);
    expect((await stat(noWriteBits)).mode & 0o7777).toBe(0o555);
  });

  it('everything at once: each hazard reported once, every good file migrated, no stray temporary file', async () => {
    const goods = await Promise.all(['a', 'm', 'z'].map((n) => put(`src/${n}/server.ts`, ELICIT_SERVER, 0o600)));
    await put('src/broken.ts', BROKEN_SERVER);
    await put('src/bin.js', Buffer.from([0x65, 0x6c, 0x69, 0x63, 0x69, 0x74, 0, 0]));
    await put('src/big.ts', paddedServer(3 * 1024 * 1024));
    await put('src/ro.ts', ELICIT_SERVER, 0o444);
    await put('src/crlf.ts', '\uFEFF' + ELICIT_SERVER.replace(/\n/g, '\r\n'), 0o751);
    await put('src/plain.ts', PLAIN_MODULE);
    await symlink('/etc', path.join(dir, 'src', 'etc-link'));
    await symlink('/etc/hostname', path.join(dir, 'src', 'host.ts'));

    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });

    expect(errorsOf(result)).toEqual([
      ['src/bin.js', 'read'],
      ['src/broken.ts', 'parse'],
      ['src/ro.ts', 'write'],
    ]);
    expect(result.skipped?.map((s) => s.file)).toEqual(['src/big.ts', 'src/etc-link']);
    expect(result.changed.map((c) => c.path)).toEqual(['src/a/server.ts', 'src/crlf.ts', 'src/m/server.ts', 'src/z/server.ts', 'src/mrtr-request-state.ts']);
    for (const file of goods) {
      expect(migrated(await readFile(file, 'utf8'))).toBe(true);
      expect((await stat(file)).mode & 0o7777).toBe(0o600);
    }
    expect((await stat(path.join(dir, 'src/crlf.ts'))).mode & 0o7777).toBe(0o751);
    expect((await listTree(dir)).filter((f) => f.endsWith('.mrtr-tmp'))).toEqual([]);
  });
});

describe('a rewrite that would not parse', () => {
  it('is never written: the file is left as it is, reported, and its sites are not listed', async () => {
    const file = await put('lift.ts', LIFTING);
    await put('other.ts', ELICIT_SERVER);
    // Type facts that name an impossible type: the rewrite then embeds text that does not parse.
    const badTypes: TypeFactsSource = { forFile: async () => ({ local: () => ({ text: 'number }{ (', jsonSafe: true }) }) };

    const result = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: badTypes });

    expect(result.errors).toEqual([
      {
        file: 'lift.ts',
        stage: 'transform',
        message: expect.stringMatching(/^internal error: the rewritten text would not parse at line \d+ .*; the file was left as it is/),
      },
    ]);
    expect(await readFile(file, 'utf8')).toBe(LIFTING);
    expect(result.changed.map((c) => c.path)).toEqual(['other.ts', 'mrtr-request-state.ts']);
    expect(result.sites.map((s) => s.file)).toEqual(['other.ts']);
  });
});

describe('inputs the pure transform once got wrong (test/property.test.ts): marked, not broken', () => {
  // Each once made a rewrite that threw or did not parse. A run now writes each with a marker on
  // the sites it cannot migrate, into text that parses, and goes on with the next file.
  const CASES: Record<string, string> = {
    'overlap.ts': `server.registerTool('pick_root', { description: 'd' }, async (ctx) => {
  const { roots } = await server.server.listRoots();
  const choice = await ctx.mcpReq.elicitInput({});
});
`,
    'clash.ts': `import { McpServer } from '@modelcontextprotocol/server';
const mrtrResume = 1;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { description: 'd' }, async (ctx) => {
  const a = await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: a.action }] };
});
`,
  };

  it('are rewritten with markers into text that parses, and the run goes on', async () => {
    for (const [name, text] of Object.entries(CASES)) await put(name, text);
    await put('zz-good.ts', ELICIT_SERVER);

    // No checker (not `noTypes`, which throws when asked): the checker is rightly asked whether
    // `server.server` in overlap.ts is an SDK object; without one, the receiver stays unknown.
    const result = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: false });

    expect(result.errors).toEqual([]);
    expect(result.changed.map((c) => c.path)).toEqual(['clash.ts', 'overlap.ts', 'zz-good.ts', 'mrtr-request-state.ts']);
    expect(result.sites.filter((s) => s.file !== 'zz-good.ts').map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['clash.ts', 5, 'marked', 'name-clash'],
      ['overlap.ts', 2, 'marked', 'unknown-receiver'],
      ['overlap.ts', 3, 'marked', 'blocked-by-sibling'],
    ]);
    const markersIn = (text: string) => [...text.matchAll(/@mrtr-todo\(([\w-]+)\)/g)].map(([, code]) => code);
    const clash = await readFile(path.join(dir, 'clash.ts'), 'utf8');
    expect(markersIn(clash)).toEqual(['name-clash']);
    expect(() => parseSource(clash, 'ts')).not.toThrow();
    const overlap = await readFile(path.join(dir, 'overlap.ts'), 'utf8');
    expect(markersIn(overlap)).toEqual(['unknown-receiver', 'blocked-by-sibling']);
    expect(() => parseSource(overlap, 'ts')).not.toThrow();
    expect(migrated(await readFile(path.join(dir, 'zz-good.ts'), 'utf8'))).toBe(true);
    expect((await listTree(dir)).filter((f) => f.endsWith('.mrtr-tmp'))).toEqual([]);
  });
});

describe('no half-written file, ever', () => {
  /**
   * Runs the codemod over `dir` in a child process (`bash -c`, so a shell limit can be set
   * first), with `prelude` evaluated before it. Prints the run's errors and changed files.
   */
  function childRun(shellSetup: string, prelude: string): Promise<ChildOutcome> {
    const script = [
      prelude,
      `const { runCodemod } = await import(${JSON.stringify(path.join(ROOT, 'src/engine/run.ts'))});`,
      `const result = await runCodemod({ paths: ['.'], write: true, cwd: ${JSON.stringify(dir)}, types: false });`,
      'process.stdout.write(JSON.stringify({ errors: result.errors, changed: result.changed.map((c) => [c.path, c.written]) }));',
    ].join('\n');
    return outcome(
      spawn('bash', ['-c', `${shellSetup} exec "${process.execPath}" --import tsx --input-type=module -e "$0"`, script], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }

  it('a write that fails part way (file size limit) leaves the original intact and no temporary file; the run reports it and goes on', async () => {
    const big = paddedServer(600 * 1024);
    const bigFile = await put('a-big.ts', big, 0o640);
    const small = await put('b-small.ts', ELICIT_SERVER);

    // RLIMIT_FSIZE of 256 KiB: writing the 600 KiB temporary file fails with EFBIG part way.
    const run = await childRun('ulimit -f 256 &&', '');

    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { errors: Array<{ file: string; stage: string; message: string }>; changed: Array<[string, boolean]> };
    expect(result.errors).toEqual([{ file: 'a-big.ts', stage: 'write', message: expect.stringMatching(/^cannot write: .*(EFBIG|too large)/i) }]);
    expect(result.changed).toEqual([
      ['b-small.ts', true],
      ['mrtr-request-state.ts', true],
    ]);
    expect(await readFile(bigFile, 'utf8')).toBe(big);
    expect((await stat(bigFile)).mode & 0o7777).toBe(0o640);
    expect(migrated(await readFile(small, 'utf8'))).toBe(true);
    expect(await listTree(dir)).toEqual(['a-big.ts', 'b-small.ts', 'mrtr-request-state.ts']);
  });

  // The temporary file gets half of the new text, is flushed, and the process dies (SIGKILL).
  // The write then never ends, as a write still in progress would not: a timer stands for it
  // (with nothing pending, Node would exit before a signal it sent itself is handled).
  const crashHalfWay = `
    import { createRequire, syncBuiltinESMExports } from 'node:module';
    const fsp = createRequire(import.meta.url)('node:fs/promises');
    const realOpen = fsp.open;
    fsp.open = async (file, ...rest) => {
      const handle = await realOpen(file, ...rest);
      if (String(file).endsWith('.mrtr-tmp')) {
        handle.writeFile = async (data) => {
          const bytes = Buffer.from(data);
          await handle.write(bytes.subarray(0, bytes.length >> 1));
          await handle.sync();
          process.kill(process.pid, 'SIGKILL');
          await new Promise((resolve) => setTimeout(resolve, 60_000));
        };
      }
      return handle;
    };
    syncBuiltinESMExports();
  `;

  it('a process killed in the middle of a write leaves the original intact', async () => {
    const server = paddedServer(64 * 1024);
    const file = await put('server.ts', server);

    // Killed writing the source (the request-state module it imports is written, whole, first).
    const run = await childRun(
      '',
      crashHalfWay.replace("String(file).endsWith('.mrtr-tmp')", "String(file).endsWith('.mrtr-tmp') && String(file).includes('/.server.ts.')"),
    );

    expect(run.signal, run.stderr).toBe('SIGKILL');
    // The original is whole; the half-written temporary file is beside it, never in its place.
    expect(await readFile(file, 'utf8')).toBe(server);
    const left = (await listTree(dir)).filter((f) => f !== 'server.ts' && f !== 'mrtr-request-state.ts');
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\.server\.ts\.\d+\.[0-9a-f]+\.mrtr-tmp$/);
    expect((await stat(path.join(dir, left[0]!))).size).toBeLessThan(server.length);
  });

  it('Ctrl-C in the middle of a write leaves the original intact and no temporary file', async () => {
    const server = paddedServer(64 * 1024);
    const file = await put('server.ts', server);
    const interruptHalfWay = crashHalfWay.replace("process.kill(process.pid, 'SIGKILL');", "process.kill(process.pid, 'SIGINT');");

    const run = await childCli(interruptHalfWay, ['migrate', '.']);

    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('mrtr-codemod: interrupted (SIGINT)');
    expect(await readFile(file, 'utf8')).toBe(server);
    expect(await listTree(dir)).toEqual(['server.ts']);
  });

  it("the next run recognises a killed run's temporary file and removes it, and leaves a live run's alone", async () => {
    const file = await put('server.ts', paddedServer(64 * 1024));
    await git(dir, 'init', '-q');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'start');
    expect((await childRun('', crashHalfWay)).signal).toBe('SIGKILL');
    const [stale] = (await listTree(dir)).filter((f) => f.endsWith('.mrtr-tmp'));
    expect(stale).toBeDefined();

    // Without recognising it, the dirty-tree guard would refuse: an untracked file.
    const next = await cli(dir, 'migrate', '.');
    expect(next.stderr).toBe(`mrtr-codemod: removed ${stale}, a temporary file left by an interrupted run\n`);
    expect(next.code).toBe(0);
    const outsideGit = async () => (await listTree(dir)).filter((f) => !f.startsWith(`.git${path.sep}`));
    expect(migrated(await readFile(file, 'utf8'))).toBe(true);
    expect(await outsideGit()).toEqual(['mrtr-request-state.ts', 'server.ts']);

    // One whose process still runs (this one) may belong to a run in progress: kept.
    const live = `.other.ts.${process.pid}.0123456789ab.mrtr-tmp`;
    await put(live, 'in progress');
    await put('other.ts', ELICIT_SERVER);
    expect((await cli(dir, 'migrate', '--force', '.')).stderr).toBe('');
    expect(await outsideGit()).toEqual([live, 'mrtr-request-state.ts', 'other.ts', 'server.ts']);
  });

  it('an edit made while the run writes (between its read and its rename) is kept, and reported', async () => {
    const file = await put('server.ts', ELICIT_SERVER);
    await put('other.ts', ELICIT_SERVER);

    // The moment the new text of server.ts is flushed to its temporary file, someone saves the
    // file: the latest moment before the rename.
    const editWhileWriting = `
      import { createRequire, syncBuiltinESMExports } from 'node:module';
      import { appendFileSync } from 'node:fs';
      const fsp = createRequire(import.meta.url)('node:fs/promises');
      const realOpen = fsp.open;
      fsp.open = async (file, ...rest) => {
        const handle = await realOpen(file, ...rest);
        const name = String(file);
        if (name.endsWith('.mrtr-tmp') && name.includes('/.server.ts.')) {
          const sync = handle.sync.bind(handle);
          handle.sync = async () => {
            await sync();
            appendFileSync(${JSON.stringify(file)}, '// saved by the user meanwhile\\n');
          };
        }
        return handle;
      };
      syncBuiltinESMExports();
    `;
    const run = await childCli(editWhileWriting, ['migrate', '.']);

    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain('Files changed: 2\n  other.ts\n  mrtr-request-state.ts\n');
    expect(run.stdout).toContain('Errors: 1\n  server.ts  the file changed on disk during the run; it was left as it is, with that change (run again)\n');
    expect(await readFile(file, 'utf8')).toBe(`${ELICIT_SERVER}// saved by the user meanwhile\n`);
    expect(migrated(await readFile(path.join(dir, 'other.ts'), 'utf8'))).toBe(true);
    expect(await listTree(dir)).toEqual(['mrtr-request-state.ts', 'other.ts', 'server.ts']);
  });
});

describe('the request-state module and the wiring are written as the sources are', () => {
  /** A prelude that runs `act` (JavaScript, given `file`, the temporary file's path) once the temporary file of `name` is flushed, just before its rename. */
  const onceFlushed = (name: string, act: string) => `
    import { createRequire, syncBuiltinESMExports } from 'node:module';
    import { appendFileSync, writeFileSync } from 'node:fs';
    const fsp = createRequire(import.meta.url)('node:fs/promises');
    const realOpen = fsp.open;
    fsp.open = async (file, ...rest) => {
      const handle = await realOpen(file, ...rest);
      if (String(file).endsWith('.mrtr-tmp') && String(file).includes(${JSON.stringify(`/.${name}.`)})) {
        const sync = handle.sync.bind(handle);
        handle.sync = async () => {
          await sync();
          ${act}
        };
      }
      return handle;
    };
    syncBuiltinESMExports();
  `;

  it('Ctrl-C while the module is written leaves no temporary file, and no file importing it', async () => {
    const server = await put('server.ts', ELICIT_SERVER);
    // The write never ends, as one in progress would not: a timer stands for it (with nothing
    // pending, Node would exit before the signal it sent itself is handled).
    const run = await childCli(
      onceFlushed('mrtr-request-state.ts', "process.kill(process.pid, 'SIGINT'); await new Promise((resolve) => setTimeout(resolve, 60_000));"),
      ['migrate', '.'],
    );
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('mrtr-codemod: interrupted (SIGINT)');
    // The module is written before the files that import it: the server is as it was.
    expect(await readFile(server, 'utf8')).toBe(ELICIT_SERVER);
    expect(await listTree(dir)).toEqual(['server.ts']);
  });

  it('Ctrl-C after the first source is written leaves a tree that compiles, and a rerun finishes the job', async () => {
    const files = ['a.ts', 'b.ts'];
    for (const file of files) await put(file, ELICIT_SERVER);
    // Once a source (not the module) has been renamed into place, the run is interrupted; no
    // rename after it ends, as one in progress would not (the timer keeps the process waiting
    // for the signal).
    const afterFirstSource = `
      import { createRequire, syncBuiltinESMExports } from 'node:module';
      const fsp = createRequire(import.meta.url)('node:fs/promises');
      const realRename = fsp.rename;
      let stopped = false;
      fsp.rename = async (from, to) => {
        if (!String(from).endsWith('.mrtr-tmp')) return realRename(from, to);
        if (stopped) return new Promise(() => {});
        const source = !String(to).endsWith('mrtr-request-state.ts');
        stopped = source;
        await realRename(from, to);
        if (source) {
          process.kill(process.pid, 'SIGINT');
          await new Promise((resolve) => setTimeout(resolve, 60_000));
        }
      };
      syncBuiltinESMExports();
    `;
    const run = await childCli(afterFirstSource, ['migrate', '.']);
    expect(run.code, run.stderr).toBe(130);
    expect(await listTree(dir)).toEqual(['a.ts', 'b.ts', 'mrtr-request-state.ts']);
    const texts = await Promise.all(files.map((file) => readFile(path.join(dir, file), 'utf8')));
    expect(texts.map(migrated).sort()).toEqual([false, true]);
    expect(typecheck([...files, 'mrtr-request-state.ts'].map((file) => path.join(dir, file)))).toEqual([]);

    const again = await cli(dir, 'migrate', '.');
    expect(again.code, again.stderr).toBe(0);
    for (const file of files) expect(migrated(await readFile(path.join(dir, file), 'utf8'))).toBe(true);
    // The typecheck against the SDK's types takes a while on a busy machine.
  }, 120_000);

  it("a file saved at the module's path while the run writes it is kept, and reported", async () => {
    await put('server.ts', ELICIT_SERVER);
    const module = path.join(dir, 'mrtr-request-state.ts');
    const run = await childCli(onceFlushed('mrtr-request-state.ts', `writeFileSync(${JSON.stringify(module)}, 'export const mine = 1;\\n');`), [
      'migrate',
      '.',
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain(
      'Errors: 2\n  mrtr-request-state.ts  the request-state module changed on disk during the run; it was left as it is (run again)\n  server.ts  left as it is: the request-state module it would import could not be written (see that file)\n',
    );
    expect(await readFile(path.join(dir, 'server.ts'), 'utf8')).toBe(ELICIT_SERVER);
    expect(await readFile(module, 'utf8')).toBe('export const mine = 1;\n');
    expect(await listTree(dir)).toEqual(['mrtr-request-state.ts', 'server.ts']);
  });

  it('an edit saved in the module that builds the server while the run wires it is kept, and reported', async () => {
    const server = await put('src/server.ts', SPLIT_SERVER['server.ts']);
    await put('src/tools.ts', SPLIT_SERVER['tools.ts']);
    const run = await childCli(onceFlushed('server.ts', `appendFileSync(${JSON.stringify(server)}, '// saved by the user meanwhile\\n');`), ['migrate', 'src']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain(
      'Errors: 1\n  src/server.ts  the file changed on disk during the run, so the request-state verifier was not wired: add requestState: { verify: mrtrVerify() } by hand, or run again once it is saved\n',
    );
    expect(await readFile(server, 'utf8')).toBe(`${SPLIT_SERVER['server.ts']}// saved by the user meanwhile\n`);
    expect((await listTree(dir)).filter((f) => f.endsWith('.mrtr-tmp'))).toEqual([]);
    // As the error says: run again, and the verifier is wired (the handlers are migrated already).
    const again = await cli(dir, 'migrate', 'src');
    expect(again.code, again.stderr).toBe(0);
    expect(await readFile(server, 'utf8')).toContain('requestState: { verify: mrtrVerify() }');
  });
});

describe('a run stopped by a signal during the v1 pass', () => {
  /** What the codemod left in a temporary folder (tsx keeps its cache there too). */
  const ours = async (tmp: string) => (await readdir(tmp)).filter((name) => name.startsWith('mrtr-'));

  /** A v1 project of a few files: the official codemod takes a second or two over them. */
  async function v1Project(): Promise<void> {
    await put('package.json', V1_MANIFEST);
    for (let i = 0; i < 6; i++) await put(`src/server${i}.ts`, V1_SERVER);
  }

  /** Runs the real entry in `dir` with `tmp` as its temporary folder, and sends `signal` once the v1 pass has made its scratch copy there. */
  async function runUntilScratch(tmp: string, signal: NodeJS.Signals): Promise<ChildOutcome & { scratch: string }> {
    const child = spawn(process.execPath, [BIN, 'migrate', '--force', 'src'], {
      cwd: dir,
      env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = outcome(child);
    let scratch: string | undefined;
    for (let waited = 0; scratch === undefined && waited < 60_000; waited += 10) {
      scratch = (await readdir(tmp)).find((name) => name.startsWith('mrtr-v1-upgrade-'));
      if (scratch === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill(signal);
    return { ...(await exited), scratch: scratch ?? '' };
  }

  it('Ctrl-C removes the scratch copy, says so, and exits 130; the sources are as they were', async () => {
    await v1Project();
    const tmp = await mkdtemp(path.join(TMP, 'robustness-tmpdir-'));
    made.push(tmp);

    const run = await runUntilScratch(tmp, 'SIGINT');
    expect(await ours(tmp)).toEqual([]);
    expect(run.code, run.stderr).toBe(130);
    expect(run.scratch).toMatch(/^mrtr-v1-upgrade-\d+-\w{6}$/);
    expect(run.stderr).toContain(
      'mrtr-codemod: interrupted (SIGINT); files already rewritten are complete, the others are as they were, and no temporary file is left\n',
    );
    for (let i = 0; i < 6; i++) expect(await readFile(path.join(dir, `src/server${i}.ts`), 'utf8')).toBe(V1_SERVER);
    expect(await readFile(path.join(dir, 'package.json'), 'utf8')).toBe(V1_MANIFEST);
  });

  it("a run killed outright leaves its scratch copy, and the next run's v1 pass removes it", async () => {
    await v1Project();
    const tmp = await mkdtemp(path.join(TMP, 'robustness-tmpdir-'));
    made.push(tmp);

    const killed = await runUntilScratch(tmp, 'SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(await ours(tmp)).toEqual([killed.scratch]);

    await runCli(dir, ['migrate', '--dry-run', 'src'], { NO_COLOR: '1', TMPDIR: tmp });
    expect(await ours(tmp)).toEqual([]);
  });
});

/** The CLI (src/cli/main.ts, as bin/mrtr-codemod.js runs it) in a child process in `dir`, with `prelude` evaluated first. */
function childCli(prelude: string, args: readonly string[]): Promise<ChildOutcome> {
  const script = [prelude, `const { cli } = await import(${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))});`, `await cli(${JSON.stringify(args)});`].join(
    '\n',
  );
  return outcome(
    spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** How a child process ended, and what it printed. */
function outcome(child: ChildProcessByStdio<null, Readable, Readable>): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('the type checker', () => {
  /** A provider that counts how often it loads TypeScript and how many programs it builds. */
  function countingProvider() {
    const counts = { loads: 0, projects: 0 };
    const inner = new TsTypeFactsProvider(() => {
      counts.loads++;
      return loadTypeScript();
    });
    const provider: TypeFactsSource = {
      forFile: async (fileName, source, questions) => {
        const facts = await inner.forFile(fileName, source, questions);
        counts.projects = inner.programs;
        return facts;
      },
      flush: () => inner.flush(),
      hurry: () => inner.hurry(),
      close: () => inner.close(),
    };
    return { provider, counts };
  }

  it('is asked its first question while the files are still read, before the others wait', async () => {
    await put('src/a.ts', LIFTING);
    for (let i = 0; i < 100; i++) await put(`src/plain-${String(i).padStart(3, '0')}.ts`, PLAIN_MODULE);
    await put('src/z.ts', LIFTING);
    let read = 0;
    const askedAfter: number[] = [];
    const inner = new TsTypeFactsProvider(loadTypeScript);
    const types: TypeFactsSource = {
      forFile: (fileName, source, questions) => {
        askedAfter.push(read);
        return inner.forFile(fileName, source, questions);
      },
      flush: () => inner.flush(),
    };
    const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, types, onText: () => void read++ });
    expect(result.sites.map((s) => [s.file, s.status])).toEqual([
      ['src/a.ts', 'migrated'],
      ['src/z.ts', 'migrated'],
    ]);
    // a.ts asks as soon as it is read; z.ts once every file is.
    expect(askedAfter).toEqual([1, 102]);
  });

  it('is not loaded for files that lift nothing', async () => {
    await put('server.ts', ELICIT_SERVER);
    await put('plain.ts', PLAIN_MODULE);
    const { provider, counts } = countingProvider();
    const result = await runCodemod({ paths: ['.'], write: false, cwd: dir, types: provider });
    expect(result.changed.map((c) => c.path)).toEqual(['server.ts', 'mrtr-request-state.ts']);
    expect(counts).toEqual({ loads: 0, projects: 0 });
  });

  it('is loaded once, and answers the files of a run that lift locals in two programs: the first question at once, the others together', async () => {
    for (const n of ['a', 'b', 'c']) await put(`src/${n}.ts`, LIFTING);
    await put('src/plain.ts', PLAIN_MODULE);
    const { provider, counts } = countingProvider();
    const result = await runCodemod({ paths: ['src'], write: false, cwd: dir, types: provider });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.status, s.lifted])).toEqual([
      ['src/a.ts', 'migrated', ['count']],
      ['src/b.ts', 'migrated', ['count']],
      ['src/c.ts', 'migrated', ['count']],
    ]);
    expect(result.changed[0]!.output).toContain('mrtr.locals<{ count: number }>()');
    // The first file's question is put while the others are read (the checker takes a while
    // to start); the others' share a program.
    expect(counts).toEqual({ loads: 1, projects: 2 });

    // Files that waited for type facts are written like the others, in place.
    const written = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: provider });
    expect(written.changed.map((c) => [c.path, c.written])).toEqual([
      ['src/a.ts', true],
      ['src/b.ts', true],
      ['src/c.ts', true],
      ['src/mrtr-request-state.ts', true],
    ]);
    for (const n of ['a', 'b', 'c']) expect(await readFile(path.join(dir, `src/${n}.ts`), 'utf8')).toBe(result.changed[0]!.output);
    // The second run's files: two more programs, and TypeScript is not loaded again.
    expect(counts).toEqual({ loads: 1, projects: 4 });
  });

  it('holds the questions of later turns for one program until asked to answer, or nothing more comes', async () => {
    const provider = new TsTypeFactsProvider(loadTypeScript);
    // Written first, so each question is put in the turn it is asked: a write may take any number of turns.
    for (const n of ['a', 'b', 'c', 'd']) await put(`${n}.ts`, LIFTING);
    const ask = async (file: string) => {
      const fileName = path.join(dir, file);
      const step = planOrQuestions(analyseFile(LIFTING, fileName));
      if (!('questions' in step)) throw new Error('LIFTING asks nothing');
      const start = step.questions.locals[0]!.start;
      return provider.forFile(fileName, LIFTING, step.questions).then((facts) => facts.local('count', start));
    };
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

    expect(await ask('a.ts')).toEqual({ text: 'number', jsonSafe: true, primitive: true });
    expect(provider.programs).toBe(1);
    // Asked in turns of their own (as the engine starts files), then the engine waits for them.
    const b = ask('b.ts');
    await nextTurn();
    const c = ask('c.ts');
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(provider.programs).toBe(1);
    provider.hurry();
    expect(await Promise.all([b, c])).toEqual([
      { text: 'number', jsonSafe: true, primitive: true },
      { text: 'number', jsonSafe: true, primitive: true },
    ]);
    expect(provider.programs).toBe(2);
    // A caller that never says so is answered once nothing more has come for a while.
    expect(await ask('d.ts')).toEqual({ text: 'number', jsonSafe: true, primitive: true });
    expect(provider.programs).toBe(3);
  });

  it('reads the declaration files once for tsconfig projects that read them alike', async () => {
    const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] };
    await put('tsconfig.base.json', JSON.stringify({ compilerOptions: options }));
    // Two projects that differ in what a monorepo's projects differ in, and one that reads files otherwise (another target).
    await put('api/tsconfig.json', JSON.stringify({ extends: '../tsconfig.base.json', include: ['.'] }));
    await put('web/tsconfig.json', JSON.stringify({ extends: '../tsconfig.base.json', compilerOptions: { noUnusedLocals: true }, include: ['.'] }));
    await put('old/tsconfig.json', JSON.stringify({ compilerOptions: { ...options, target: 'ES2020' } }));
    const facts = new TypeScriptFacts(loadTypeScript());
    const ask = async (file: string) => {
      await put(file, LIFTING);
      const fileName = path.join(dir, file);
      const step = planOrQuestions(analyseFile(LIFTING, fileName));
      if (!('questions' in step)) throw new Error('LIFTING asks nothing');
      const [answers] = facts.answer([{ fileName, source: LIFTING, questions: step.questions }]);
      return answers!.locals;
    };

    expect(await ask('api/server.ts')).toEqual([{ text: 'number', jsonSafe: true, primitive: true }]);
    const read = facts.declarationFiles;
    expect(read).toBeGreaterThan(10); // the standard library, @types/node, the SDK's declarations
    expect(await ask('web/server.ts')).toEqual([{ text: 'number', jsonSafe: true, primitive: true }]);
    expect(facts.declarationFiles).toBe(read);
    expect(await ask('old/server.ts')).toEqual([{ text: 'number', jsonSafe: true, primitive: true }]);
    expect(facts.declarationFiles).toBeGreaterThan(read);
    expect(facts.programs).toBe(3);
  });

  it('is never loaded with types: false (a lifted local then needs an annotation)', async () => {
    await put('a.ts', LIFTING);
    const result = await runCodemod({ paths: ['.'], write: false, cwd: dir, types: false });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'untyped-local']]);
  });
});
