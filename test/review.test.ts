// Reviewing generated diffs: coloured --dry-run output, --patch FILE (git apply-able, equal
// to what a real run writes) and --report FILE.html (one self-contained page, checked in a
// real headless Chromium). The CLI runs are the real entry (node bin/mrtr-codemod.js) in
// temporary git repositories under .tmp/, so the lifted local's type resolves against this
// project's node_modules.
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import type { RunResult } from '../src/engine/run.ts';
import { shouldColor, stripAnsi } from '../src/report/color.ts';
import { classifyUnifiedDiff, colorizeDiff, unifiedDiff, unifiedDiffs } from '../src/report/diff.ts';
import { escapeHtml, renderHtmlReport } from '../src/report/html-report.ts';
import { ELICIT_SERVER } from './engine-samples.ts';
import { git, runCli } from './support/cli.ts';

const PROJECT_TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));
const CHROMIUM = findChromium();
/** Where no Chromium is found the browser test is not run, except under CI (`.ci/run` installs one), where it must be. */
const BROWSER_REQUIRED = Boolean(process.env.CI);
if (!CHROMIUM && !BROWSER_REQUIRED) {
  process.stderr.write(
    `test/review.test.ts: the review page's headless-browser test was skipped: no Chromium found; to run it, install one (apt-get install chromium) or name one, CHROMIUM_PATH=/path/to/chromium npx vitest run test/review.test.ts (with CI set it is required)\n`,
  );
}

/** CHROMIUM_PATH when set (then only it), else a Chromium or Chrome installed where systems put it, or one Playwright downloaded. */
function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  const installed = [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ];
  let downloaded: string | undefined;
  try {
    downloaded = chromium.executablePath();
  } catch {
    downloaded = undefined; // Playwright has no browser of its own here
  }
  return [...installed, downloaded].find((file): file is string => file !== undefined && existsSync(file));
}
const ESC = '\u001b';

/**
 * Three sites: `confirm` lifts `n` across an elicitation, `summarise` samples (migrated, with
 * the deprecation note; its prompt text is markup, to prove the page escapes source), and the
 * `oninitialized` hook lists roots outside any request (marked no-request-to-answer).
 */
const REVIEW_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'review', version: '1.0.0' });
  server.registerTool('confirm', { inputSchema: z.object({ x: z.string() }) }, async ({ x }, ctx) => {
    const n: number = Date.now(); // read once: the clock is not derived again
    const answer = await ctx.mcpReq.elicitInput({ message: x, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: \`\${n} \${answer.action}\` }] };
  });
  server.registerTool('summarise', { description: 'Summarise' }, async () => {
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: '<script>alert("x")</script> & more' } }], maxTokens: 10 });
    return { content: [{ type: 'text', text: String(reply.model) }] };
  });
  server.server.oninitialized = async () => {
    const roots = await server.server.listRoots();
    console.log(roots.roots.length);
  };
  return server;
}
`;

/** The real entry, with a colour environment of our choosing (nothing inherited from vitest). */
const cli = (cwd: string, args: string[], env: Record<string, string> = {}) => runCli(cwd, args, env);

/** A fresh git repository under .tmp/ holding `files`, all staged (nothing is committed). */
async function repo(prefix: string, files: Record<string, string>): Promise<string> {
  await mkdir(PROJECT_TMP, { recursive: true });
  const root = await mkdtemp(path.join(PROJECT_TMP, prefix));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  await git(root, 'init', '-q');
  await git(root, 'add', '-A');
  return root;
}

const cleanup: string[] = [];
afterAll(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

describe('colour', () => {
  it('is on only for a terminal without NO_COLOR; FORCE_COLOR forces it, NO_COLOR wins', () => {
    expect(shouldColor(true, {})).toBe(true);
    expect(shouldColor(false, {})).toBe(false);
    expect(shouldColor(undefined, {})).toBe(false);
    expect(shouldColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(true, { NO_COLOR: '' })).toBe(true); // no-color.org: only a non-empty value counts
    expect(shouldColor(true, { TERM: 'dumb' })).toBe(false);
    expect(shouldColor(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor(false, { FORCE_COLOR: '' })).toBe(true);
    expect(shouldColor(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldColor(true, { FORCE_COLOR: 'false' })).toBe(false);
    expect(shouldColor(false, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });

  it('classifies lines by position, so content that looks like a header stays content; stripping colour restores the patch', () => {
    const patch = unifiedDiff({ path: 'notes.md', original: 'top\n-- x\nkeep\n', output: 'top\nkeep\n++ y\n' });
    const kinds = classifyUnifiedDiff(patch).map((l) => `${l.kind} ${l.text}`);
    expect(kinds).toEqual([
      'file-old --- a/notes.md',
      'file-new +++ b/notes.md',
      'hunk @@ -1,3 +1,3 @@',
      'context  top',
      'remove --- x',
      'context  keep',
      'add +++ y',
    ]);
    const colored = colorizeDiff(patch);
    expect(colored).toContain(`${ESC}[31m--- x${ESC}[0m\n`);
    expect(colored).toContain(`${ESC}[32m+++ y${ESC}[0m\n`);
    expect(colored).toContain(`${ESC}[36m@@ -1,3 +1,3 @@${ESC}[0m\n`);
    expect(stripAnsi(colored)).toBe(patch);
  });

  it('numbers lines, keeps "\\ No newline" out of the counts, and keeps CRLF round-trips exact', () => {
    const patch = unifiedDiff({ path: 'a.ts', original: 'a\r\nb\r\nc', output: 'a\r\nB\r\nc' });
    const lines = classifyUnifiedDiff(patch);
    expect(lines.filter((l) => l.kind === 'remove').map((l) => l.oldLine)).toEqual([2]);
    expect(lines.filter((l) => l.kind === 'add').map((l) => l.newLine)).toEqual([2]);
    expect(lines.filter((l) => l.kind === 'context').map((l) => [l.oldLine, l.newLine])).toEqual([
      [1, 1],
      [3, 3],
    ]);
    expect(lines.filter((l) => l.kind === 'no-newline')).toHaveLength(1);
    expect(stripAnsi(colorizeDiff(patch))).toBe(patch);
    expect(colorizeDiff(patch)).toContain(`${ESC}[31m-b${ESC}[0m\r\n`);
  });

  it('--dry-run colours diff lines when the injected flag says so, and not otherwise', async () => {
    const root = await repo('review-color-', { 'src/server.ts': ELICIT_SERVER });
    cleanup.push(root);
    const capture = async (color: boolean) => {
      let stdout = '';
      let stderr = '';
      const code = await main(['migrate', '--dry-run', 'src'], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd: root, color });
      return { code, stdout, stderr };
    };
    const colored = await capture(true);
    const plain = await capture(false);
    expect(colored).toMatchObject({ code: 0, stderr: '' });
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    expect(colored.stdout).toMatch(new RegExp(`^${ESC}\\[32m\\+  const server = new McpServer`, 'm'));
    expect(colored.stdout).toMatch(new RegExp(`^${ESC}\\[31m-  const server = new McpServer`, 'm'));
    expect(colored.stdout).toMatch(new RegExp(`^${ESC}\\[1m--- a/src/server\\.ts${ESC}\\[0m$`, 'm'));
    expect(plain.stdout).not.toContain(ESC);
    expect(stripAnsi(colored.stdout)).toBe(plain.stdout);
  });

  it('the real entry colours a pipe only with FORCE_COLOR, and never with NO_COLOR', async () => {
    const root = await repo('review-color-cli-', { 'server.ts': ELICIT_SERVER });
    cleanup.push(root);
    const [forced, noColor, both, piped] = await Promise.all([
      cli(root, ['migrate', '--dry-run', '.'], { FORCE_COLOR: '1' }),
      cli(root, ['migrate', '--dry-run', '.'], { NO_COLOR: '1' }),
      cli(root, ['migrate', '--dry-run', '.'], { FORCE_COLOR: '1', NO_COLOR: '1' }),
      cli(root, ['migrate', '--dry-run', '.']),
    ]);
    for (const r of [forced, noColor, both, piped]) expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toMatch(new RegExp(`^${ESC}\\[32m\\+`, 'm'));
    expect(forced.stdout).toMatch(new RegExp(`^${ESC}\\[31m-`, 'm'));
    expect(noColor.stdout).not.toContain(ESC);
    expect(both.stdout).not.toContain(ESC);
    expect(piped.stdout).not.toContain(ESC);
    expect(stripAnsi(forced.stdout)).toBe(noColor.stdout);
  });
});

describe('--patch FILE', () => {
  it('with --dry-run: writes only the patch, plain even when colour is forced; git apply --check accepts it and applying it gives what migrate writes', async () => {
    const files = { 'src/server.ts': REVIEW_SERVER, 'src/other/ask.ts': ELICIT_SERVER, 'src/util.ts': 'export const x = 1;\n' };
    const root = await repo('review-patch-', files);
    cleanup.push(root);

    const dry = await cli(root, ['migrate', '--dry-run', '--patch', 'out.patch', 'src'], { FORCE_COLOR: '1' });
    expect(dry).toMatchObject({ code: 1, stderr: '' }); // 1: the change leaves a marker for a person
    expect(dry.stdout).toContain('Patch (3 files) written: out.patch\n');
    // Nothing but the patch was written.
    expect(await git(root, 'status', '--porcelain')).toBe(['A  src/other/ask.ts', 'A  src/server.ts', 'A  src/util.ts', '?? out.patch', ''].join('\n'));
    for (const [name, text] of Object.entries(files)) expect(await readFile(path.join(root, name), 'utf8')).toBe(text);

    const patch = await readFile(path.join(root, 'out.patch'), 'utf8');
    expect(patch).not.toContain(ESC);
    expect(patch.startsWith('--- a/src/other/ask.ts\n+++ b/src/other/ask.ts\n@@ ')).toBe(true);
    expect(patch).toContain('--- a/src/server.ts\n+++ b/src/server.ts\n');
    // The request-state module both import, created beside the module that builds the server.
    expect(patch).toContain('--- /dev/null\n+++ b/src/mrtr-request-state.ts\n');
    expect(patch).not.toContain('Files scanned'); // only the diffs
    // The coloured stdout shows the same patch.
    expect(stripAnsi(dry.stdout).startsWith(patch)).toBe(true);

    await git(root, 'apply', '--check', 'out.patch');

    // A real run on a copy, and the patch applied to another copy: the same files.
    const migrated = `${root}-migrated`;
    const applied = `${root}-applied`;
    cleanup.push(migrated, applied);
    await cp(root, migrated, { recursive: true });
    await cp(root, applied, { recursive: true });
    // --force: the copy's files are staged, not committed (the dirty-tree guard would refuse).
    const real = await cli(migrated, ['migrate', '--force', 'src']);
    expect(real).toMatchObject({ code: 1, stderr: '' });
    await git(applied, 'apply', 'out.patch');
    for (const name of [...Object.keys(files), 'src/mrtr-request-state.ts']) {
      expect(await readFile(path.join(applied, name), 'utf8'), name).toBe(await readFile(path.join(migrated, name), 'utf8'));
    }
    expect(await readFile(path.join(applied, 'src/server.ts'), 'utf8')).toContain('const { n } = mrtr.locals<{ n: number }>();');
  });

  it('without --dry-run: rewrites the files and writes the patch that describes the rewrite', async () => {
    const root = await repo('review-patch-write-', { 'server.ts': REVIEW_SERVER });
    cleanup.push(root);
    const result = await cli(root, ['migrate', '--force', '--patch', 'mrtr.patch', '--report', 'mrtr.html', 'server.ts']);
    expect(result).toMatchObject({ code: 1, stderr: '' });
    expect(result.stdout).toContain('Files changed: 2\n');
    expect(result.stdout).toContain('Patch (2 files) written: mrtr.patch\nReport written: mrtr.html\n');
    const after = await readFile(path.join(root, 'server.ts'), 'utf8');
    expect(after).toContain('inputRequired.createMessage(');

    await git(root, 'apply', '-R', '--check', 'mrtr.patch');
    await git(root, 'checkout', '--', 'server.ts');
    await rm(path.join(root, 'mrtr-request-state.ts'));
    expect(await readFile(path.join(root, 'server.ts'), 'utf8')).toBe(REVIEW_SERVER);
    await git(root, 'apply', 'mrtr.patch');
    expect(await readFile(path.join(root, 'server.ts'), 'utf8')).toBe(after);
    expect(await readFile(path.join(root, 'mrtr.html'), 'utf8')).toContain('The changed files were rewritten in place.');
  });

  it('a patch or report path that cannot be written is a usage error found before any source is touched', async () => {
    const root = await repo('review-patch-bad-', { 'server.ts': ELICIT_SERVER });
    cleanup.push(root);
    const missingDir = await cli(root, ['migrate', '--patch', 'no/such/dir/out.patch', 'server.ts']);
    expect(missingDir.code).toBe(2);
    expect(missingDir.stderr).toContain('--patch no/such/dir/out.patch: its folder does not exist');
    const isDir = await cli(root, ['migrate', '--report', '.', 'server.ts']);
    expect(isDir.code).toBe(2);
    expect(isDir.stderr).toContain('--report .: is a directory');
    const same = await cli(root, ['migrate', '--patch', 'x', '--report', './x', 'server.ts']);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--patch and --report name the same file');
    const noArg = await cli(root, ['migrate', 'server.ts', '--patch']);
    expect(noArg.code).toBe(2);
    expect(await readFile(path.join(root, 'server.ts'), 'utf8')).toBe(ELICIT_SERVER);
  });

  it('with nothing to change writes an empty patch', async () => {
    const root = await repo('review-patch-empty-', { 'util.ts': 'export const x = 1;\n' });
    cleanup.push(root);
    const result = await cli(root, ['migrate', '--dry-run', '--patch', 'out.patch', '.']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Patch (0 files) written: out.patch\n');
    expect(await readFile(path.join(root, 'out.patch'), 'utf8')).toBe('');
  });
});

describe('--report FILE.html', () => {
  let root: string;
  let reportFile: string;
  let html: string;

  beforeAll(async () => {
    root = await repo('review-report-', { 'src/server.ts': REVIEW_SERVER });
    cleanup.push(root);
    const result = await cli(root, ['migrate', '--dry-run', '--report', 'review.html', 'src']);
    expect(result).toMatchObject({ code: 1, stderr: '' });
    expect(result.stdout).toContain('Report written: review.html\n');
    reportFile = path.join(root, 'review.html');
    html = await readFile(reportFile, 'utf8');
  });

  it('is one self-contained file: inline CSS, no script, nothing fetched from anywhere', () => {
    expect(html.startsWith('<!doctype html>\n')).toBe(true);
    expect(html).toMatch(/<style>[^]*\.diff-add[^]*<\/style>/);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/<script\b/i);
    expect(html).not.toMatch(/<(img|iframe|object|embed|video|audio|source)\b/i);
    expect(html).not.toMatch(/\b(src|href|srcset|action)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/https?:\/\//i);
    // Every link is an in-page anchor: the two files' entries in the contents, the module's in
    // the list of what changed besides the handlers, and each of the server's three sites'
    // line (8, 12 and 16 of REVIEW_SERVER) in the diff.
    expect([...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => href)).toEqual([
      '#file-1',
      '#file-2',
      '#file-2',
      '#file-1-o8',
      '#file-1-o12',
      '#file-1-o16',
    ]);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'`);
  });

  it('escapes everything taken from source', () => {
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(html).not.toContain('<script>alert');

    const hostile = '<img src=x onerror="alert(1)">&';
    const result: RunResult = {
      upgrades: [],
      stateModules: [],
      filesScanned: 1,
      candidates: 1,
      changed: [{ path: `dir/${hostile}.ts`, absolutePath: '/x', original: `a ${hostile}\n`, output: `b ${hostile}\n`, written: false }],
      sites: [
        {
          file: `dir/${hostile}.ts`,
          line: 1,
          column: 1,
          kind: 'elicit',
          status: 'marked',
          handler: `tool:${hostile}`,
          code: hostile,
          reason: hostile,
          next: hostile,
          guidance: hostile,
        },
        {
          file: `dir/${hostile}.ts`,
          line: 1,
          column: 3,
          kind: 'roots',
          status: 'migrated',
          handler: 'tool:t',
          lifted: [hostile],
          rederived: [hostile],
          rerun: [{ text: hostile, line: 1, why: 'declared' }],
        },
      ],
      errors: [{ file: hostile, stage: 'parse', message: hostile, line: 2, column: 3 }],
    };
    const page = renderHtmlReport(result, { dryRun: true });
    expect(page).not.toContain('<img');
    expect(page).not.toContain('onerror="');
    expect(page.split(escapeHtml(hostile)).length - 1).toBeGreaterThanOrEqual(12);
  });

  it.skipIf(!CHROMIUM && !BROWSER_REQUIRED)(
    'renders in headless Chromium with the diff and every site explained, and requests nothing but itself',
    async () => {
      expect(
        CHROMIUM,
        `no Chromium found (CI is set, so this test is required): .ci/run installs Debian's chromium (apt-get install chromium); or set CHROMIUM_PATH`,
      ).toBeDefined();
      const userDataDir = await mkdtemp(path.join(PROJECT_TMP, 'chromium-profile-'));
      cleanup.push(userDataDir);
      const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM!,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1200, height: 900 },
      });
      try {
        const page = await context.newPage();
        const requests: string[] = [];
        const dialogs: string[] = [];
        const pageErrors: string[] = [];
        page.on('request', (request) => requests.push(request.url()));
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        page.on('pageerror', (error) => pageErrors.push(error.message));

        const url = pathToFileURL(reportFile).href;
        const response = await page.goto(url, { waitUntil: 'load' });
        expect(response?.ok()).toBe(true);

        expect(await page.title()).toBe('mrtr-codemod review');
        await expect.poll(() => page.locator('h1').innerText()).toBe('mrtr-codemod review');

        // Totals.
        const totalOf = (key: string) => page.locator(`[data-total="${key}"] dd`).first().innerText();
        expect(await totalOf('files')).toBe('2');
        expect(await totalOf('migrated')).toBe('2');
        expect(await totalOf('markers')).toBe('1');
        expect(await totalOf('errors')).toBe('0');

        // The diff: visible added, removed and context lines, styled differently.
        const file = page.locator('section.file[data-path="src/server.ts"]');
        expect(await file.locator('h2').innerText()).toContain('src/server.ts');
        const added = file.locator('tr.diff-add', { hasText: 'const { n } = mrtr.locals<{ n: number }>();' });
        const removed = file.locator('tr.diff-remove', { hasText: 'const answer = await ctx.mcpReq.elicitInput(' });
        const context_ = file.locator('tr.diff-context', { hasText: "import * as z from 'zod/v4';" });
        for (const row of [added, removed, context_]) expect(await row.first().isVisible()).toBe(true);
        // Only the handlers and the imports change in the file: the helpers are in the module.
        expect(await file.locator('tr.diff-add').count()).toBeLessThan(40);
        expect(await file.locator('tr.diff-add', { hasText: 'createRequestStateCodec' }).count()).toBe(0);
        const background = (selector: string) =>
          file
            .locator(selector)
            .first()
            .evaluate((el) => getComputedStyle(el).backgroundColor);
        const [addBg, removeBg, contextBg] = await Promise.all([background('tr.diff-add'), background('tr.diff-remove'), background('tr.diff-context')]);
        expect(new Set([addBg, removeBg, contextBg]).size).toBe(3);
        // Source markup is shown as text, never run.
        expect(await file.locator('tr.diff-remove', { hasText: '<script>alert("x")</script> & more' }).count()).toBe(1);

        // The sites, in source order, each explained.
        const sites = file.locator('ol.sites > li.site');
        expect(await sites.count()).toBe(3);
        expect(
          await sites.evaluateAll((els) =>
            els.map((el) => `${el.getAttribute('data-status')} ${el.getAttribute('data-handler') ?? '-'} ${el.getAttribute('data-kind')}`),
          ),
        ).toEqual(['migrated tool:confirm elicit', 'migrated tool:summarise sampling', 'marked - roots']);
        const confirm = file.locator('li.site[data-handler="tool:confirm"]');
        expect(await confirm.isVisible()).toBe(true);
        expect(await confirm.innerText()).toContain('tool:confirm');
        expect(await confirm.locator('.lifted').innerText()).toBe('Moved into requestState: n');
        const summarise = file.locator('li.site[data-handler="tool:summarise"]');
        expect(await summarise.locator('.lifted').innerText()).toBe('Nothing to carry: no local lives across the question.');
        expect(await summarise.locator('.guidance').innerText()).toContain('sampling is deprecated in MCP 2026-07-28 (SEP-2577)');
        const marked = file.locator('li.site-marked[data-code="no-request-to-answer"]');
        expect(await marked.isVisible()).toBe(true);
        const markedText = await marked.innerText();
        expect(markedText).toContain('@mrtr-todo(no-request-to-answer)');
        expect(markedText).toContain('Why: this server→client request runs outside a tools/call');
        expect(markedText).toContain('Next: ask from inside a tool, prompt or resource handler');
        expect(markedText).toContain('roots are deprecated');

        // A site's line link lands on its row of the diff.
        await confirm.locator('a.where').click();
        expect(new URL(page.url()).hash).toBe('#file-1-o8');
        expect(await page.locator('#file-1-o8').innerText()).toContain('const answer = await ctx.mcpReq.elicitInput(');

        // The notes section lists each guidance once.
        expect(await page.locator('#notes li').count()).toBe(2);

        // The request-state module: shown once, folded, explained; opened on demand.
        const module = page.locator('section.file[data-role="module"]');
        expect(await module.count()).toBe(1);
        expect(await module.getAttribute('data-path')).toBe('src/mrtr-request-state.ts');
        const moduleRow = module.locator('tr.diff-add', { hasText: 'export async function mrtrResume(' });
        expect(await moduleRow.isVisible()).toBe(false);
        await module.locator('summary').click();
        expect(await moduleRow.isVisible()).toBe(true);
        expect(await page.locator('#around li').first().innerText()).toContain(
          'src/mrtr-request-state.ts: new, the request-state helpers every migrated file imports',
        );

        // It ends with the next steps.
        const steps = await page.locator('#next-steps li').allInnerTexts();
        expect(steps[0]).toMatch(/^Apply the change/);
        expect(steps.some((step) => step.startsWith('Set MCP_REQUEST_STATE_KEY'))).toBe(true);
        expect(steps.some((step) => step.startsWith('Run your formatter'))).toBe(true);

        // Nothing but the document itself was requested; no script ran.
        expect(requests).toEqual([url]);
        expect(dialogs).toEqual([]);
        expect(pageErrors).toEqual([]);
        expect(await page.evaluate(() => document.scripts.length)).toBe(0);

        // Dark mode switches the palette.
        const lightBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        await page.emulateMedia({ colorScheme: 'dark' });
        const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(darkBg).not.toBe(lightBg);
      } finally {
        await context.close();
      }
    },
  );
});

describe('diff.ts keeps its exports', () => {
  it('unifiedDiffs joins per-file patches', () => {
    const a = { path: 'a.ts', original: 'x\n', output: 'y\n' };
    const b = { path: 'b.ts', original: 'p\n', output: 'q\n' };
    expect(unifiedDiffs([a, b])).toBe(
      ['--- a/a.ts', '+++ b/a.ts', '@@ -1,1 +1,1 @@', '-x', '+y', '--- a/b.ts', '+++ b/b.ts', '@@ -1,1 +1,1 @@', '-p', '+q', ''].join('\n'),
    );
  });
});
