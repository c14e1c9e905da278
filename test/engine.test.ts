import { chmod, lstat, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/engine/atomic-write.ts';
import { discoverFiles, isSourceFile } from '../src/engine/discover.ts';
import { runCodemod, type RunResult } from '../src/engine/run.ts';
import { decodeSource, FileReader } from '../src/engine/source-files.ts';
import { unifiedDiff } from '../src/report/diff.ts';
import { formatJsonSummary } from '../src/report/json-summary.ts';
import { formatSummary } from '../src/report/summary.ts';
import { BROKEN_SERVER, ELICIT_SERVER, MIXED_SERVER, PLAIN_MODULE, UNRELATED_BROKEN } from './engine-samples.ts';
import { noTypes, putFile } from './support/scratch.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-engine-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const put = (relative: string, content: string | Uint8Array) => putFile(dir, relative, content);

describe('discoverFiles', () => {
  it('keeps source extensions, drops declaration files, skips dependency and output folders, sorts', async () => {
    for (const name of ['a.ts', 'b.tsx', 'c.mts', 'd.cts', 'e.js', 'f.jsx', 'g.mjs', 'h.cjs', 'types.d.ts', 'more.d.mts', 'README.md', 'data.json']) {
      await put(`src/${name}`, PLAIN_MODULE);
    }
    await put('src/deep/er/z.ts', PLAIN_MODULE);
    for (const skipped of ['node_modules/pkg/index.ts', 'dist/index.js', 'build/index.js', '.git/hooks/x.js', 'src/node_modules/y.ts']) {
      await put(skipped, ELICIT_SERVER);
    }

    const { files, problems } = await discoverFiles(['.'], dir);
    expect(problems).toEqual([]);
    expect(files.map((f) => path.relative(dir, f))).toEqual([
      'src/a.ts',
      'src/b.tsx',
      'src/c.mts',
      'src/d.cts',
      'src/deep/er/z.ts',
      'src/e.js',
      'src/f.jsx',
      'src/g.mjs',
      'src/h.cjs',
    ]);
    expect(files.every((f) => path.isAbsolute(f))).toBe(true);
  });

  it('deduplicates overlapping arguments and takes a named file even in a skipped folder', async () => {
    await put('src/a.ts', PLAIN_MODULE);
    await put('dist/keep.js', PLAIN_MODULE);
    const { files } = await discoverFiles(['src', './src/a.ts', path.join(dir, 'src'), 'dist/keep.js', 'src/../src/a.ts'], dir);
    expect(files.map((f) => path.relative(dir, f))).toEqual(['dist/keep.js', 'src/a.ts']);
  });

  it('reports missing arguments and goes on', async () => {
    await put('src/a.ts', PLAIN_MODULE);
    const { files, problems } = await discoverFiles(['nope', 'src'], dir);
    expect(files.map((f) => path.relative(dir, f))).toEqual(['src/a.ts']);
    expect(problems).toEqual([{ path: path.join(dir, 'nope'), message: 'no such file or directory' }]);
  });

  it('follows symlinks only inside the root, lists each file once under its real place, survives cycles', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'mrtr-outside-'));
    try {
      await writeFile(path.join(outside, 'secret.ts'), ELICIT_SERVER);
      await put('root/src/real.ts', PLAIN_MODULE);
      await put('root/node_modules/dep/index.ts', PLAIN_MODULE);
      const root = path.join(dir, 'root');
      await symlink(outside, path.join(root, 'out-dir'));
      await symlink(path.join(outside, 'secret.ts'), path.join(root, 'out-file.ts'));
      await symlink(path.join(root, 'src', 'real.ts'), path.join(root, 'alias.ts'));
      await symlink(path.join(root, 'src'), path.join(root, 'src-link'));
      await symlink(root, path.join(root, 'src', 'loop'));
      await symlink(path.join(root, 'node_modules', 'dep'), path.join(root, 'dep-link'));
      await symlink(path.join(root, 'missing.ts'), path.join(root, 'dangling.ts'));

      const { files, problems, skipped } = await discoverFiles([root], dir);
      // Links out of the root are not followed, and each is noted.
      expect(problems).toEqual([]);
      expect(skipped.map((p) => [path.relative(dir, p.path), p.reason])).toEqual([
        ['root/out-dir', 'symbolic link to a folder outside the folder being walked; not followed'],
        ['root/out-file.ts', 'symbolic link to a file outside the folder being walked; not followed'],
      ]);
      expect(files.map((f) => path.relative(dir, f))).toEqual(['root/src/real.ts']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('knows declaration files from sources', () => {
    expect(isSourceFile('x.d.ts')).toBe(false);
    expect(isSourceFile('x.d.cts')).toBe(false);
    expect(isSourceFile('styles.d.css.ts')).toBe(false);
    expect(isSourceFile('x.ts')).toBe(true);
    expect(isSourceFile('d.ts')).toBe(true);
    expect(isSourceFile('x.json')).toBe(false);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the content and keeps the mode bits, leaving no temporary file', async () => {
    const file = await put('bin/tool.ts', 'old\n');
    await chmod(file, 0o751);
    await writeFileAtomic(file, 'new\n');
    expect(await readFile(file, 'utf8')).toBe('new\n');
    expect((await stat(file)).mode & 0o7777).toBe(0o751);
    expect(await readdir(path.dirname(file))).toEqual(['tool.ts']);
  });

  it('keeps the setuid and setgid bits (they are set after the owner, whose change clears them)', async (ctx) => {
    const file = await put('bin/suid', 'old\n');
    await chmod(file, 0o6755);
    const before = (await stat(file)).mode & 0o7777;
    // Not every file system (or user) may set them: then there is nothing to keep, or to test.
    if ((before & 0o6000) !== 0o6000) ctx.skip();
    await writeFileAtomic(file, 'new\n');
    expect((await stat(file)).mode & 0o7777).toBe(before);
  });

  it('writes through a symlink, which stays a link', async () => {
    const target = await put('real.ts', 'old\n');
    const link = path.join(dir, 'link.ts');
    await symlink(target, link);
    await writeFileAtomic(link, 'new\n');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, 'utf8')).toBe('new\n');
  });

  it('creates a missing file', async () => {
    const file = path.join(dir, 'fresh.ts');
    await writeFileAtomic(file, 'hello\n', { mode: 0o640 });
    expect(await readFile(file, 'utf8')).toBe('hello\n');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });
});

describe('runCodemod', () => {
  it('isolates failures: unparsable, binary and non-UTF-8 files are reported, the others migrated', async () => {
    await put('src/good.ts', ELICIT_SERVER);
    await put('src/broken.ts', BROKEN_SERVER);
    await put('src/unrelated-broken.ts', UNRELATED_BROKEN);
    await put('src/binary.js', Buffer.from([0x63, 0x72, 0x65, 0x61, 0x74, 0x65, 0x00, 0x01]));
    await put('src/latin1.js', Buffer.from('// café elicitInput\n', 'latin1'));
    await put('src/plain.ts', PLAIN_MODULE);

    const result = await runCodemod({ paths: ['src'], write: true, cwd: dir, types: noTypes });

    expect(result.filesScanned).toBe(6);
    // good.ts and broken.ts mention a legacy call; unrelated-broken.ts is never parsed.
    expect(result.candidates).toBe(2);
    expect(result.errors).toEqual([
      { file: 'src/binary.js', stage: 'read', message: 'binary file (contains NUL bytes); skipped' },
      { file: 'src/broken.ts', stage: 'parse', message: expect.stringMatching(/^cannot parse: Unexpected token/), line: 3, column: 24 },
      { file: 'src/latin1.js', stage: 'read', message: expect.stringMatching(/^not valid UTF-8/) },
    ]);
    // The migrated file, and the request-state module it imports (written beside it).
    expect(result.changed.map((c) => [c.path, c.written])).toEqual([
      ['src/good.ts', true],
      ['src/mrtr-request-state.ts', true],
    ]);
    expect(result.sites).toEqual([
      { file: 'src/good.ts', line: 6, column: 26, kind: 'elicit', handler: 'tool:go', status: 'migrated', lifted: [], guidance: undefined },
    ]);
    const written = await readFile(path.join(dir, 'src/good.ts'), 'utf8');
    expect(written).toBe(result.changed[0]!.output);
    expect(written).toContain("inputRequired.elicit({ message: 'Go?'");
    expect(await readFile(path.join(dir, 'src/broken.ts'), 'utf8')).toBe(BROKEN_SERVER);
  });

  it('writes nothing in a dry run, and a second run finds nothing to change', async () => {
    const file = await put('server.ts', ELICIT_SERVER);
    const dry = await runCodemod({ paths: ['.'], write: false, cwd: dir, types: noTypes });
    expect(dry.changed.map((c) => [c.path, c.written, c.created])).toEqual([
      ['server.ts', false, undefined],
      ['mrtr-request-state.ts', false, true],
    ]);
    expect(await readFile(file, 'utf8')).toBe(ELICIT_SERVER);
    expect(await readdir(dir)).toEqual(['server.ts']);

    const first = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: noTypes });
    expect(first.changed.map((c) => c.output)).toEqual(dry.changed.map((c) => c.output));
    expect(first.stateModules).toEqual([{ file: 'mrtr-request-state.ts', form: 'ts', status: 'created', wiredIn: [] }]);
    const second = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: noTypes });
    expect(second.changed).toEqual([]);
    expect(second.sites).toEqual([]);
    expect(second.stateModules).toEqual([{ file: 'mrtr-request-state.ts', form: 'ts', status: 'current', wiredIn: [] }]);
    expect(await readFile(file, 'utf8')).toBe(first.changed[0]!.output);
  });

  it('keeps a byte order mark and CRLF line endings', async () => {
    const file = await put('server.ts', '\uFEFF' + ELICIT_SERVER.replace(/\n/g, '\r\n'));
    await runCodemod({ paths: ['server.ts'], write: true, cwd: dir, types: noTypes });
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).toContain('inputRequired.elicit(');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('takes a discovery made by its caller as it is, and reports its problems once', async () => {
    await put('src/server.ts', ELICIT_SERVER);
    await put('src/other.ts', ELICIT_SERVER);
    const discovery = await discoverFiles(['src/server.ts', 'missing'], dir);
    const result = await runCodemod({ discovery, write: false, cwd: dir, types: noTypes });
    expect(result.filesScanned).toBe(1);
    expect(result.changed.map((c) => c.path)).toEqual(['src/server.ts', 'src/mrtr-request-state.ts']);
    expect(result.errors).toEqual([{ file: 'missing', stage: 'discover', message: 'no such file or directory' }]);
  });

  it('reports marked and migrated sites with their file (default type provider)', async () => {
    await put('pkg/mixed.ts', MIXED_SERVER);
    const result = await runCodemod({ paths: ['pkg'], write: false, cwd: dir });
    expect(result.errors).toEqual([]);
    expect(result.sites.map((s) => [s.file, s.line, s.column, s.status, s.code])).toEqual([
      ['pkg/mixed.ts', 6, 29, 'marked', 'closure'],
      ['pkg/mixed.ts', 11, 25, 'migrated', undefined],
      ['pkg/mixed.ts', 15, 25, 'migrated', undefined],
    ]);
  });
});

describe('a file whose only legacy construct is a URL elicitation throw', () => {
  it('passes the prefilter and is migrated', async () => {
    await put(
      'src/link.ts',
      [
        "import { McpServer, UrlElicitationRequiredError } from '@modelcontextprotocol/server';",
        "const server = new McpServer({ name: 's', version: '1' });",
        "server.registerTool('link', { description: 'd' }, async () => {",
        "  throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId: 'e1', url: 'https://example.com/auth', message: 'Sign in' }]);",
        '});',
        '',
      ].join('\n'),
    );
    const result = await runCodemod({ paths: ['.'], write: false, cwd: dir, types: noTypes });
    expect(result.candidates).toBe(1);
    expect(result.sites.map((s) => [s.file, s.kind, s.status])).toEqual([['src/link.ts', 'elicitUrl', 'migrated']]);
    expect(result.changed[0]!.output).toContain('inputRequired.elicitUrl(');
  });
});

describe('decodeSource', () => {
  it('accepts UTF-8 and refuses binary and other encodings', () => {
    expect(decodeSource(Buffer.from('const s = "ü";\n'))).toBe('const s = "ü";\n');
    expect(decodeSource(Buffer.from([0x61, 0x00]))).toEqual({ problem: expect.stringContaining('binary') });
    expect(decodeSource(Buffer.from([0x61, 0xe9, 0x0a]))).toEqual({ problem: expect.stringContaining('UTF-8') });
  });
});

describe('FileReader', () => {
  it('reads files larger and smaller than its buffer whole, one after another', async () => {
    const large = 'x'.repeat(200 * 1024) + 'end\n';
    await put('large.ts', large);
    await put('small.ts', 'const a = 1;\n');
    const reader = new FileReader();
    expect(reader.read(path.join(dir, 'large.ts'))!.toString()).toBe(large);
    expect(reader.read(path.join(dir, 'small.ts'))!.toString()).toBe('const a = 1;\n');
    expect(reader.read(path.join(dir, 'large.ts'), 100 * 1024)).toBeUndefined();
    expect(() => reader.read(path.join(dir, 'missing.ts'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('leaves a candidate the bytes it was read with, for its write, whatever the run reads after it', async () => {
    await put('a/server.ts', ELICIT_SERVER);
    await put('b/later.ts', `export const table = ${JSON.stringify('y'.repeat(ELICIT_SERVER.length * 2))};\n`);
    const result = await runCodemod({ paths: ['.'], write: true, cwd: dir, types: noTypes });
    expect(result.errors).toEqual([]);
    expect(result.changed.map((c) => [c.path, c.written])).toContainEqual(['a/server.ts', true]);
  });
});

describe('reports', () => {
  it('formats a unified diff with a/ and b/ paths', () => {
    expect(unifiedDiff({ path: 'src/x.ts', original: 'a\nb\nc\n', output: 'a\nB\nc\n' })).toBe(
      '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
  });

  it('summarises counts, the request-state module, every marker, errors, each note once, and the next steps', () => {
    const sampling = 'sampling is deprecated.';
    const result: RunResult = {
      upgrades: [],
      stateModules: [{ file: 'src/mrtr-request-state.ts', form: 'ts', status: 'created', wiredIn: ['src/server.ts'] }],
      filesScanned: 4,
      candidates: 3,
      changed: [
        { path: 'package.json', absolutePath: '/x/package.json', original: '{}', output: '{ }', written: true },
        { path: 'src/a.ts', absolutePath: '/x/src/a.ts', original: '', output: 'x', written: true },
      ],
      sites: [
        { file: 'src/a.ts', line: 3, column: 5, kind: 'sampling', handler: 'tool:summarise', status: 'migrated', lifted: [], guidance: sampling },
        { file: 'src/a.ts', line: 9, column: 5, kind: 'sampling', handler: 'prompt:draft', status: 'migrated', lifted: [], guidance: sampling },
        { file: 'src/b.ts', line: 7, column: 11, kind: 'elicit', handler: 'tool:ask', status: 'marked', code: 'closure', reason: 'nested.', next: 'lift it.' },
        // In oninitialized: a site, not a handler.
        { file: 'src/b.ts', line: 20, column: 3, kind: 'roots', status: 'marked', code: 'no-request-to-answer', reason: 'no call.', next: 'ask in a tool.' },
      ],
      errors: [{ file: 'src/c.ts', stage: 'parse', message: 'cannot parse: Unexpected token', line: 2, column: 4 }],
    };
    expect(formatSummary(result, { dryRun: false })).toBe(
      [
        'Files scanned: 4 (3 mention server→client requests)',
        'Files changed: 2',
        '  package.json',
        '  src/a.ts',
        'Request-state module:',
        '  src/mrtr-request-state.ts: new, the request-state helpers every migrated file imports; verifier wired in src/server.ts',
        'Sites migrated: 2',
        'Markers left: 2',
        '  src/b.ts:7:11  closure  nested.  Next: lift it.',
        '  src/b.ts:20:3  no-request-to-answer  no call.  Next: ask in a tool.',
        'Errors: 1',
        '  src/c.ts:2:4  cannot parse: Unexpected token',
        'Notes:',
        '  sampling is deprecated. (2 sites)',
        'migrated 2/3 handlers; 1 needs manual work: tool:ask (src/b.ts:7, closure); 1 site outside any handler needs manual work: src/b.ts:20 (no-request-to-answer)',
        'Next steps:',
        "  1. Run `npm install` (or your package manager's install): package.json changed.",
        '  2. Set MCP_REQUEST_STATE_KEY (at least 32 random bytes, the same on every instance that may receive a retry) where the server runs; without it each process signs with its own random key, which only works while one process serves every round of a call. Give several instances (or one that restarts while a flow is open) one round store too, or a round answered on one can be replayed on another: mrtrConfigure({ rounds: mrtrRedisRounds(redis) }) from the request-state module.',
        '  3. Run your formatter on the changed files: untouched code is kept byte for byte, new code is written in a plain style that does not know your line width.',
        '  4. Work through the 2 markers left (grep -rn @mrtr-todo), then run `mrtr-codemod check`.',
        '',
      ].join('\n'),
    );
    // The JSON summary counts the same way.
    expect(JSON.parse(formatJsonSummary(result, { dryRun: false })).handlers).toEqual({
      total: 3,
      migrated: 2,
      manual: 1,
      needManualWork: [{ handler: 'tool:ask', file: 'src/b.ts', line: 7, codes: ['closure'] }],
      outside: [{ file: 'src/b.ts', line: 20, codes: ['no-request-to-answer'] }],
    });
    const dry = formatSummary(result, { dryRun: true });
    expect(dry).toContain('Files to change: 2 (dry run: nothing written)\n');
    expect(dry).toContain('Next steps:\n  1. Apply the change: run again without --dry-run (or `git apply` the patch).\n  2. Run `npm install`');
  });
});
