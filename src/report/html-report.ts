// The `--report FILE.html` page: one self-contained file for reviewing a run. Inline CSS,
// no script, no external resource of any kind (a Content-Security-Policy of
// `default-src 'none'` makes the browser refuse one even if it slipped in), so it can be
// opened from disk, attached to a ticket or archived by CI. Everything that comes from the
// migrated sources (paths, code, reasons) is HTML-escaped. Besides each file's diff and sites,
// it says what changed around the handlers (the request-state module, shown once and folded;
// the package.json; the v1-to-v2 pass) and ends with the next steps. The files with handlers
// come first; a file the v1-to-v2 upgrade alone changed is folded; a file both passes changed
// shows each pass's diff apart (passes.ts), the upgrade's folded.
import type { ChangedFile, RunError, RunResult, RunSite } from '../engine/run.ts';
import { INPUT_KIND_NAMES } from '../core/vocabulary.ts';
import { isRefusalCode, refusalDocsAnchor } from '../plan/refusal.ts';
import type { DiffLine } from './diff-line.ts';
import { classifyUnifiedDiff, unifiedDiff } from './diff.ts';
import { count, errorLocation } from './formats/check-report.ts';
import { nextSteps, stateModuleNotes } from './next-steps.ts';
import { passChange, passesOf } from './passes.ts';
import { positionMap } from '../core/position-map.ts';
import { guidanceNotes, openUpgradeNotes, RERUN_WHY, rerunWhere, siteTotals, upgradeWarnings, type FileUpgradeNote } from './run-tally.ts';

interface HtmlReportOptions {
  /** Whether the run wrote nothing (changes were only computed). */
  dryRun: boolean;
}

const REPORT_TITLE = 'mrtr-codemod review';

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A file the page has a section for: changed by the run, or not changed but with sites. */
interface ReportedFile {
  path: string;
  /** Absent when the run did not change the file (all its sites were left with markers). */
  change?: ChangedFile;
  /** The id of its section. */
  id: string;
  sites: RunSite[];
  /** `2 migrated · 1 marker`, shown in the table of contents and the section heading. */
  counts: string;
  /**
   * The request-state module (folded: the same text in every project), a package.json, a
   * source file the v1-to-v2 upgrade alone changed (folded), or a source file.
   */
  role: 'module' | 'manifest' | 'upgrade' | 'source';
}

export function renderHtmlReport(result: RunResult, options: HtmlReportOptions): string {
  const files = reportedFiles(result);
  const openUpgrades = openUpgradeNotes(result);
  const around = aroundTheHandlers(result, files).map((item) => `<li>${item}</li>`);
  const upgrades = [
    ...openUpgrades.map((note) => renderUpgradeNote(note, `${note.file}:${note.line}:${note.column}`, note.code)),
    // A warning's position is only near the statement (see UpgradeNote): its line is enough.
    ...upgradeWarnings(result).map((note) => renderUpgradeNote(note, `${note.file}:${note.line}`, 'warning')),
  ];
  const notes = guidanceNotes(result.sites).map(
    ({ note, sites }) => `<li class="guidance">${escapeHtml(note)} <span class="muted">(${count(sites, 'site')})</span></li>`,
  );
  const steps = nextSteps(result, { dryRun: options.dryRun }).map((step) => `<li>${escapeHtml(step)}</li>`);
  const nothing = files.length === 0 && result.errors.length === 0 && result.upgrades.length === 0;
  return page([
    ...renderHeader(result, options, openUpgrades.length),
    '<main>',
    ...(files.length > 0 ? ['<nav class="toc" aria-label="Files"><h2>Files</h2><ul>', ...files.map(renderTocEntry), '</ul></nav>'] : []),
    ...listSection('around', 'Besides the handlers', around),
    ...listSection('upgrades', 'v1 to v2 (official codemod)', upgrades),
    ...listSection('notes', 'Deprecation notes', notes),
    ...listSection('errors', 'Errors', result.errors.map(renderError)),
    ...files.map(renderFile),
    ...(nothing ? ['<p class="empty">Nothing to migrate: no file makes a legacy server→client request.</p>'] : []),
    ...listSection('next-steps', 'Next steps', steps, 'ol'),
    '</main>',
  ]);
}

/**
 * The files the page has a section for: those with sites first (changed in the run's order, then
 * the others), then the other changed sources, those the upgrade alone changed, the manifests
 * and the request-state modules.
 */
function reportedFiles(result: RunResult): ReportedFile[] {
  const sitesByFile = groupSites(result.sites);
  const changedPaths = new Set(result.changed.map((f) => f.path));
  const moduleFiles = new Set(result.stateModules.map((m) => m.file));
  const unchangedWithSites = [...sitesByFile.keys()].filter((file) => !changedPaths.has(file)).sort();
  const roleOf = (file: { path: string; change?: ChangedFile }): ReportedFile['role'] => {
    if (moduleFiles.has(file.path)) return 'module';
    if (/(^|\/)package\.json$/.test(file.path)) return 'manifest';
    return file.change && !sitesByFile.has(file.path) && !passesOf(file.change).includes('mrtr') ? 'upgrade' : 'source';
  };
  const rank = (file: { path: string; role: ReportedFile['role'] }) => (sitesByFile.has(file.path) ? 0 : 1 + ROLE_ORDER.indexOf(file.role));
  return [...result.changed.map((change) => ({ path: change.path, change })), ...unchangedWithSites.map((path) => ({ path }))]
    .map((file) => ({ ...file, role: roleOf(file) }))
    .sort((a, b) => rank(a) - rank(b))
    .map((file, i) => {
      const fileSites = sitesByFile.get(file.path) ?? [];
      return { ...file, id: `file-${i + 1}`, sites: fileSites, counts: file.role === 'source' ? siteCounts(fileSites) : ROLE_LABEL[file.role] };
    });
}

const ROLE_ORDER: ReadonlyArray<ReportedFile['role']> = ['source', 'upgrade', 'manifest', 'module'];

/** The title, what the run did to the files, and the totals. */
function renderHeader(result: RunResult, options: HtmlReportOptions, openUpgrades: number): string[] {
  const totals = siteTotals(result.sites);
  return [
    '<header class="top">',
    `<h1>${escapeHtml(REPORT_TITLE)}</h1>`,
    `<p class="mode">${
      options.dryRun
        ? 'Dry run: nothing was written. Apply the change with <code>mrtr-codemod migrate</code> (or the <code>--patch</code> file with <code>git apply</code>).'
        : 'The changed files were rewritten in place.'
    }</p>`,
    '<dl class="totals">',
    total('files', options.dryRun ? 'Files to change' : 'Files changed', result.changed.length, `of ${result.filesScanned} scanned`),
    total('migrated', 'Sites migrated', totals.migrated),
    total('markers', 'Markers left', totals.marked, totals.marked > 0 ? 'grep -rn @mrtr-todo' : undefined),
    ...(result.upgrades.length > 0 ? [total('upgrades', 'v1 to v2 items left', openUpgrades)] : []),
    total('errors', 'Errors', result.errors.length),
    '</dl>',
    '</header>',
  ];
}

function renderTocEntry(file: ReportedFile): string {
  return `<li><a href="#${file.id}"><code>${escapeHtml(file.path)}</code></a> <span class="muted">${file.counts}</span></li>`;
}

/** A section of the page that lists `items` (HTML list items), or nothing when there are none. */
function listSection(name: string, title: string, items: readonly string[], list: 'ul' | 'ol' = 'ul'): string[] {
  return items.length === 0 ? [] : [`<section class="${name}" id="${name}"><h2>${title}</h2><${list}>`, ...items, `</${list}></section>`];
}

/** Whether `text` is a page renderHtmlReport wrote (its head names the codemod's review). */
export function isReviewPage(text: string): boolean {
  const head = text.slice(0, text.indexOf('</head>') + 1);
  return text.startsWith('<!doctype html>\n') && head.includes(`\n<title>${escapeHtml(REPORT_TITLE)}</title>\n`);
}

/** The whole document around the body's lines. */
function page(body: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(REPORT_TITLE)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function total(key: string, label: string, value: number, hint?: string): string {
  const cls = value > 0 && (key === 'errors' || key === 'markers' || key === 'upgrades') ? ` attention-${key}` : '';
  return `<div class="total${cls}" data-total="${key}"><dt>${label}</dt><dd>${value}</dd>${hint ? `<dd class="hint">${escapeHtml(hint)}</dd>` : ''}</div>`;
}

function renderFile({ path, change, id, sites, counts, role }: ReportedFile): string {
  // A file both passes changed: the upgrade's diff folded, then the MRTR diff the sites link to.
  const upgrade = change && passesOf(change).length === 2 ? passChange(change, 'v1-upgrade') : undefined;
  const shown = upgrade ? passChange(change!, 'mrtr')! : change;
  const lines = shown ? classifyUnifiedDiff(unifiedDiff(shown)) : [];
  const anchored = new Set(lines.filter((l) => l.oldLine !== undefined).map((l) => l.oldLine!));
  // A site's line is in the file on disk; the MRTR diff's old side is the upgrade's text.
  const toShown: (line: number, column: number) => { line: number } = upgrade ? positionMap(upgrade.original, upgrade.output) : (line) => ({ line });

  const out: string[] = [];
  const heading = `<code>${escapeHtml(path)}</code> <span class="muted">${counts}${change ? '' : ' · not changed'}</span>`;
  if (role === 'module' || role === 'upgrade') {
    // The same generated text in every project, or the official codemod's change alone: folded, opened on demand.
    out.push(`<section class="file folded ${role}" id="${id}" data-path="${escapeHtml(path)}" data-role="${role}">`);
    out.push(`<details><summary><h2>${heading}</h2> <span class="muted">${role === 'module' ? MODULE_SUMMARY : UPGRADE_SUMMARY}</span></summary>`);
  } else {
    out.push(`<section class="file" id="${id}" data-path="${escapeHtml(path)}" data-role="${role}">`);
    out.push(`<h2>${heading}</h2>`);
  }
  if (upgrade) out.push(`<p class="upgraded">${V1_NOTE}</p>`);
  if (sites.length > 0) {
    out.push('<h3>Sites</h3>');
    out.push('<ol class="sites">');
    for (const site of sites) {
      const line = toShown(site.line, site.column).line;
      out.push(renderSite(site, anchored.has(line) ? `${id}-o${line}` : undefined));
    }
    out.push('</ol>');
  }
  if (upgrade) {
    out.push(`<details class="pass" data-pass="v1-upgrade"><summary><h3>Diff, pass 1: the v1-to-v2 upgrade (official codemod)</h3></summary>`);
    out.push(diffTable(classifyUnifiedDiff(unifiedDiff(upgrade)), `${id}-v1`), '</details>');
  }
  if (shown) {
    out.push(upgrade ? '<h3 data-pass="mrtr">Diff, pass 2: the MRTR migration</h3>' : '<h3>Diff</h3>');
    out.push(diffTable(lines, id));
  }
  if (role === 'module' || role === 'upgrade') out.push('</details>');
  out.push('</section>');
  return out.join('\n');
}

/** A diff's lines as a table, each old line anchored as `${fileId}-o<line>`. */
function diffTable(lines: readonly DiffLine[], fileId: string): string {
  return [
    '<div class="diff-wrap"><table class="diff">',
    '<colgroup><col class="ln-col"><col class="ln-col"><col></colgroup>',
    ...lines.map((line) => renderDiffLine(line, fileId)),
    '</table></div>',
  ].join('\n');
}

const ROLE_LABEL = { module: 'request-state module', manifest: 'package manifest', upgrade: 'v1-to-v2 upgrade only' } as const;

const UPGRADE_SUMMARY =
  'No handler here asks anything: the official <code>@modelcontextprotocol/codemod</code> moved it to the v2 SDK because a server with handlers that do is built from it or hands it its server. Open to read the change.';

const MODULE_SUMMARY =
  "Generated once per package from mrtr-codemod's templates/request-state.ts and imported by every migrated file: the signed state, the resume checks, the capability check and the verifier. Open to read it.";

const V1_NOTE =
  'This file was on the v1 SDK (<code>@modelcontextprotocol/sdk</code>), which has no multi round-trip requests: the official <code>@modelcontextprotocol/codemod</code> (v1-to-v2) moved it to <code>@modelcontextprotocol/server</code> first (imports, <code>extra</code> to <code>ctx</code>, schemas), then its handlers were migrated. Each pass has its diff below.';

/** What changed around the handlers, one sentence each (HTML). */
function aroundTheHandlers(result: RunResult, files: readonly ReportedFile[]): string[] {
  const items: string[] = [];
  const link = (path: string) => {
    const file = files.find((f) => f.path === path);
    return file ? `<a href="#${file.id}"><code>${escapeHtml(path)}</code></a>` : `<code>${escapeHtml(path)}</code>`;
  };
  for (const { file, note } of stateModuleNotes(result.stateModules)) {
    items.push(
      `${link(file)}: ${escapeHtml(note)}. Its verifier goes into the server's options (<code>requestState: { verify: mrtrVerify() }</code>); it checks only the state the module minted and hands any other to the verifier the options already had.`,
    );
  }
  for (const file of files.filter((f) => f.role === 'manifest' && f.change)) {
    items.push(
      `${link(file.path)}: the v1 SDK (<code>@modelcontextprotocol/sdk</code>) has no multi round-trip requests, so the package moves to <code>@modelcontextprotocol/server</code> (added; the v1 SDK removed once nothing imports it). Run your package manager's install.`,
    );
  }
  const upgraded = files.filter((f) => f.change?.upgradedFromV1);
  if (upgraded.length > 0)
    items.push(
      `${upgraded.map((f) => link(f.path)).join(', ')}: moved from the v1 SDK to v2 by the official codemod before their handlers were migrated (see each file).`,
    );
  return items;
}

/** What the handler runs again on each retry instead of carrying it: the locals, and each call with why it may run again. */
function rerunHtml(site: RunSite): string[] {
  const locals = site.rederived ?? [];
  const calls = site.rerun ?? [];
  if (locals.length === 0 && calls.length === 0) return [];
  const names = locals.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ');
  const items = calls.map((c) => `<li><code>${escapeHtml(c.text)}</code> (${escapeHtml(rerunWhere(c))}, ${escapeHtml(RERUN_WHY[c.why])})</li>`);
  return [
    `<div class="rerun"><p>Runs again on each retry, not carried${names ? `: ${names}` : ''}.</p>`,
    ...(items.length > 0 ? ['<ul>', ...items, '</ul>'] : []),
    '</div>',
  ];
}

function renderSite(site: RunSite, anchor: string | undefined): string {
  const where = `line ${site.line}:${site.column}`;
  const whereHtml = anchor ? `<a class="where" href="#${anchor}">${where}</a>` : `<span class="where">${where}</span>`;
  const handler = site.handler
    ? `<code class="handler">${escapeHtml(site.handler)}</code>`
    : '<span class="handler none">outside any tool, prompt or resource handler</span>';
  const kind = `<span class="kind kind-${escapeHtml(site.kind)}">${escapeHtml(INPUT_KIND_NAMES[site.kind])}</span>`;
  const attrs =
    `class="site site-${escapeHtml(site.status)}" data-status="${escapeHtml(site.status)}" data-kind="${escapeHtml(site.kind)}"` +
    (site.handler ? ` data-handler="${escapeHtml(site.handler)}"` : '') +
    (site.code ? ` data-code="${escapeHtml(site.code)}"` : '');

  const out: string[] = [`<li ${attrs}>`];
  if (site.status === 'migrated') {
    out.push(`<div class="site-head"><span class="badge badge-migrated">migrated</span> ${handler} ${kind} ${whereHtml}</div>`);
    const lifted = site.lifted ?? [];
    out.push(
      lifted.length > 0
        ? `<p class="lifted">Moved into requestState: ${lifted.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}</p>`
        : '<p class="lifted lifted-none">Nothing to carry: no local lives across the question.</p>',
    );
    out.push(...rerunHtml(site));
  } else {
    out.push(
      `<div class="site-head"><span class="badge badge-marked">marked</span> <code class="code">@mrtr-todo(${escapeHtml(site.code ?? 'todo')})</code> ${handler} ${kind} ${whereHtml}</div>`,
    );
    if (site.reason) out.push(`<p class="reason"><strong>Why:</strong> ${escapeHtml(site.reason)}</p>`);
    if (site.next) out.push(`<p class="next"><strong>Next:</strong> ${escapeHtml(site.next)}</p>`);
    // The page fetches and links nothing outside itself: the README's entry is named, not linked.
    if (site.code && isRefusalCode(site.code)) {
      out.push(`<p class="docs"><strong>Docs:</strong> the README of mrtr-codemod, <code>#${escapeHtml(refusalDocsAnchor(site.code))}</code></p>`);
    }
  }
  if (site.guidance) out.push(`<p class="guidance"><strong>Note:</strong> ${escapeHtml(site.guidance)}</p>`);
  out.push('</li>');
  return out.join('\n');
}

const LINE_CLASS: Record<DiffLine['kind'], string> = {
  'file-old': 'diff-file',
  'file-new': 'diff-file',
  header: 'diff-file',
  hunk: 'diff-hunk',
  add: 'diff-add',
  remove: 'diff-remove',
  context: 'diff-context',
  'no-newline': 'diff-meta',
};

function renderDiffLine(line: DiffLine, fileId: string): string {
  const id = line.oldLine !== undefined ? ` id="${fileId}-o${line.oldLine}"` : '';
  const oldNo = line.oldLine !== undefined ? ` data-n="${line.oldLine}"` : '';
  const newNo = line.newLine !== undefined ? ` data-n="${line.newLine}"` : '';
  return `<tr class="diff-line ${LINE_CLASS[line.kind]}"${id}><td class="ln"${oldNo}></td><td class="ln"${newNo}></td><td class="text">${displayText(line.text)}</td></tr>`;
}

/** The line escaped; a CR (CRLF files) is dropped at the end and shown as ␍ elsewhere, as HTML would turn it into a line break. */
function displayText(text: string): string {
  const shown = text.replace(/\r$/, '').replace(/\r/g, '\u240d');
  return shown === '' ? ' ' : escapeHtml(shown);
}

function renderError(error: RunError): string {
  return `<li class="error" data-stage="${escapeHtml(error.stage)}"><code>${escapeHtml(errorLocation(error))}</code> <span class="muted">${escapeHtml(error.stage)}</span> ${escapeHtml(error.message)}</li>`;
}

function groupSites(sites: readonly RunSite[]): Map<string, RunSite[]> {
  const byFile = new Map<string, RunSite[]>();
  for (const site of sites) {
    const list = byFile.get(site.file) ?? [];
    list.push(site);
    byFile.set(site.file, list);
  }
  for (const list of byFile.values()) list.sort((a, b) => a.line - b.line || a.column - b.column);
  return byFile;
}

function renderUpgradeNote(note: FileUpgradeNote, at: string, label: string): string {
  return `<li class="upgrade-note" data-code="${escapeHtml(note.code)}"><code>${escapeHtml(at)}</code> <span class="muted">${escapeHtml(label)}</span> ${escapeHtml(note.message)}</li>`;
}

function siteCounts(sites: readonly RunSite[]): string {
  const { migrated, marked } = siteTotals(sites);
  return marked > 0 ? `${migrated} migrated · ${count(marked, 'marker')}` : `${migrated} migrated`;
}

const CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --panel: #f6f8fa;
  --add-bg: #dafbe1; --add-fg: #116329; --del-bg: #ffebe9; --del-fg: #a40e26;
  --hunk-bg: #ddf4ff; --hunk-fg: #0550ae; --ok: #1a7f37; --warn: #9a6700; --warn-bg: #fff8c5;
  --err: #cf222e; --link: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --panel: #151b23;
    --add-bg: #12361f; --add-fg: #7ee2a8; --del-bg: #4a1619; --del-fg: #ffa198;
    --hunk-bg: #0c2d6b; --hunk-fg: #a5d6ff; --ok: #3fb950; --warn: #d29922; --warn-bg: #3b2e0a;
    --err: #f85149; --link: #4493f8;
  }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 1.5rem clamp(1rem, 3vw, 3rem); background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
code, .diff { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
a { color: var(--link); }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
h2 code { font-size: 1.05rem; }
.lifted code, .rerun code { background: var(--bg); border: 1px solid var(--border); border-radius: 4px; padding: 0 .3rem; }
h3 { font-size: .85rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 1rem 0 .5rem; }
.muted, .hint { color: var(--muted); font-weight: normal; font-size: .85rem; }
.mode { margin: 0 0 1rem; color: var(--muted); }
.totals { display: flex; flex-wrap: wrap; gap: .75rem; margin: 0 0 1.5rem; }
.total { border: 1px solid var(--border); border-radius: 8px; padding: .5rem 1rem; min-width: 9rem; background: var(--panel); }
.total dt { font-size: .8rem; color: var(--muted); }
.total dd { margin: 0; font-size: 1.6rem; font-weight: 600; }
.total dd.hint { font-size: .75rem; font-weight: normal; }
.attention-markers dd:not(.hint), .attention-upgrades dd:not(.hint) { color: var(--warn); }
.attention-errors dd:not(.hint) { color: var(--err); }
.toc, .around, .upgrades, .notes, .errors, .next-steps, .file { border: 1px solid var(--border); border-radius: 8px; padding: 1rem 1.25rem; margin: 0 0 1.25rem; }
.toc ul, .around ul, .upgrades ul, .notes ul, .errors ul, .next-steps ol { margin: 0; padding-left: 1.25rem; }
.folded summary, .pass summary { cursor: pointer; }
.folded summary h2, .pass summary h3 { display: inline; margin: 0; }
.upgraded { color: var(--muted); margin: 0 0 .5rem; }
.errors { border-color: var(--err); }
.error code { color: var(--err); }
.sites { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
.site { border: 1px solid var(--border); border-left-width: 4px; border-radius: 6px; padding: .5rem .75rem; background: var(--panel); }
.site-migrated { border-left-color: var(--ok); }
.site-marked { border-left-color: var(--warn); }
.site p { margin: .35rem 0 0; }
.site-head { display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
.badge { font-size: .75rem; font-weight: 600; text-transform: uppercase; border-radius: 999px; padding: 0 .55rem; border: 1px solid currentColor; }
.badge-migrated { color: var(--ok); }
.badge-marked { color: var(--warn); background: var(--warn-bg); }
.handler { font-weight: 600; }
.handler.none { font-style: italic; font-weight: normal; color: var(--muted); }
.kind { font-size: .8rem; border: 1px solid var(--border); border-radius: 4px; padding: 0 .4rem; }
.where { font-size: .85rem; }
.guidance { color: var(--muted); }
.diff-wrap { overflow-x: auto; border: 1px solid var(--border); border-radius: 6px; }
.diff { border-collapse: collapse; width: 100%; line-height: 1.45; }
.diff col.ln-col { width: 3.5em; }
.diff td { padding: 0 .5rem; vertical-align: top; }
.diff td.text { white-space: pre; }
.diff td.ln { text-align: right; color: var(--muted); user-select: none; border-right: 1px solid var(--border); }
.diff td.ln::before { content: attr(data-n); }
.diff-add { background: var(--add-bg); }
.diff-add td.text { color: var(--add-fg); }
.diff-remove { background: var(--del-bg); }
.diff-remove td.text { color: var(--del-fg); }
.diff-hunk { background: var(--hunk-bg); color: var(--hunk-fg); }
.diff-file { font-weight: 600; background: var(--panel); }
.diff-meta { color: var(--muted); font-style: italic; }
.diff-line:target { outline: 2px solid var(--link); outline-offset: -2px; }
.empty { color: var(--muted); }
`;
