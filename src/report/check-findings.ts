// What `check` finds in one file: the sites the codemod reports for it, each merged with its own
// marker comment, and the other markers of its comments.
//
// A refused site and its own marker (in the comment lines just above the site's statement, where
// migrate writes it) are one finding, reported at the site with the marker's words. The marker
// speaks for its handler's later sites too (one marker per handler and reason). Its code wins
// over the site's: migrate asked the checker what a lint does not (is a carried local JSON?),
// so after a migration `check` reports what the next `migrate` says it would. A marker stays
// after its legacy call is gone, so every file that mentions one is scanned, not only those the
// prefilter passes. `@mrtr-note` comments are guidance, not findings.
import type { Comment } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { markersByLines, markersInComment, type MarkerComment } from '../analyse/markers.ts';
import { INPUT_KIND_NAMES, lineEndOf } from '../core/vocabulary.ts';
import { isRefusalCode, refusalDocsUrl } from '../plan/refusal.ts';
import type { RunSite } from '../engine/run.ts';
import { statementLines } from '../engine/output-syntax.ts';
import { LEGACY_RULE, OFFICIAL_RULE, TODO_RULE_PREFIX, type Finding } from './formats/check-report.ts';

export { mentionsMarker } from '../analyse/markers.ts';

export interface FileScan {
  markers: MarkerComment[];
  /** Lines that hold only comment text (and whitespace). */
  commentLines: Set<number>;
  /** First line of the statement holding the legacy call at `line:column`, when the file parsed. */
  statementLine(line: number, column: number): number | undefined;
  parseError?: { message: string; line?: number; column?: number };
}

/** Markers in the comments of one file, and where each legacy call's statement begins. */
export async function scanSource(source: string, fileName: string): Promise<FileScan> {
  const [{ analyseSites }, { ParseFailure }] = await Promise.all([import('../analyse/analyse-file.ts'), import('../analyse/parse.ts')]);
  let analysis;
  try {
    analysis = analyseSites(source, fileName);
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    // Still list the markers (by lines that start as comments), so the report says what it can.
    const fallback = markersByLines(source);
    return {
      ...fallback,
      statementLine: () => undefined,
      parseError: {
        message: `cannot parse: ${error.message}`,
        ...(error.line !== undefined ? { line: error.line } : {}),
        ...(error.column !== undefined ? { column: error.column + 1 } : {}),
      },
    };
  }
  return scanAnalysis(analysis);
}

/** scanSource over a file the run has analysed already (nothing is parsed again). */
export function scanAnalysis({ source, comments, sites }: Pick<FileAnalysis, 'source' | 'comments' | 'sites'>): FileScan {
  return scanComments(source, comments, statementLines(sites));
}

/** The scan of a text with these comments, its legacy calls' statements at the lines `statements` gives. */
export function scanComments(source: string, comments: readonly Comment[], statements: ReadonlyMap<string, number>): FileScan {
  const markers = comments.flatMap((comment) => markersInComment(comment));
  const lineStarts = lineStartOffsets(source);
  const commentLines = new Set<number>();
  for (const comment of comments) {
    const { start, end } = comment.loc!;
    const before = source.slice(lineStarts[start.line - 1]!, comment.start!);
    for (let line = start.line; line <= end.line; line++) {
      if (line === start.line && before.trim() !== '') continue;
      const after = line === end.line ? source.slice(comment.end!, lineEndOf(source, comment.end!)) : '';
      if (after.trim() !== '' && !after.trim().startsWith('//') && !after.trim().startsWith('/*')) continue;
      commentLines.add(line);
    }
  }
  return { markers, commentLines, statementLine: (line, column) => statements.get(`${line}:${column}`) };
}

/** One file's findings: its sites, each merged with its own marker, and the other markers. */
export function findingsForFile(file: string, sites: readonly RunSite[], scan: FileScan | undefined): Finding[] {
  const markers = scan?.markers ?? [];
  const used = new Set<MarkerComment>();
  const ordered = [...sites].sort((a, b) => a.line - b.line || a.column - b.column);
  const handlerMarker = new Map<string, MarkerComment>();
  const statementOf = (site: RunSite) => scan?.statementLine(site.line, site.column) ?? site.line;
  const placeOf = (site: RunSite) => `${site.line}:${site.column}`;
  const codesAt = new Map<number, Set<string | undefined>>();
  const atPlace = new Map<string, number>();
  for (const site of ordered) {
    codesAt.set(statementOf(site), (codesAt.get(statementOf(site)) ?? new Set()).add(site.code));
    atPlace.set(placeOf(site), (atPlace.get(placeOf(site)) ?? 0) + 1);
  }
  const findings = ordered.map((site) => {
    const own = ownMarker(site, statementOf(site), codesAt.get(statementOf(site))!, markers, scan);
    // A call reported under two codes is two findings already: neither takes another's marker.
    const alone = atPlace.get(placeOf(site)) === 1;
    const marker = own ?? (alone && site.handler !== undefined ? handlerMarker.get(site.handler) : undefined);
    if (own && site.handler !== undefined) handlerMarker.set(site.handler, own);
    if (site.status === 'migrated' && !marker) return legacyFinding(file, site);
    return todoFinding(file, site, markers, marker, used);
  });
  for (const marker of markers) if (!used.has(marker)) findings.push(markerFinding(file, marker));
  return findings;
}

/** A site the codemod can migrate: the legacy request is still there. */
function legacyFinding(file: string, site: RunSite): Finding {
  return {
    file,
    line: site.line,
    column: site.column,
    ruleId: LEGACY_RULE,
    severity: 'error',
    message: `${INPUT_KIND_NAMES[site.kind]} request still awaited from the client${site.handler ? ` in ${site.handler}` : ''}; MCP 2026-07-28 removed server→client requests`,
    hint: `\`mrtr-codemod migrate ${shellWord(file)}\` can rewrite it`,
    ...siteWhere(site),
  };
}

/**
 * A site the codemod refuses (or a lint takes for migratable under a marker migrate wrote),
 * merged with the marker that speaks for it (added to `used`), whose code it takes.
 */
function todoFinding(file: string, site: RunSite, markers: readonly MarkerComment[], covering: MarkerComment | undefined, used: Set<MarkerComment>): Finding {
  const siteCode = site.code ?? 'unspecified';
  const marker = siteCode === 'server-elsewhere' ? fileMarker(markers, siteCode, used) : covering;
  if (marker) used.add(marker);
  const code = marker?.code ?? siteCode;
  // server-elsewhere is a file-level report (line 1): the marker says where it really is.
  const at = marker && code === 'server-elsewhere' ? marker : site;
  return {
    file,
    line: at.line,
    column: at.column,
    ruleId: `${TODO_RULE_PREFIX}${code}`,
    severity: 'error',
    // The run's own words are the full explanation; the marker's line is their short form.
    message: site.reason !== undefined && code === siteCode ? todoMessage(site.reason, site.next) : todoMessage(marker?.reason ?? '', marker?.next),
    ...docsOf(code),
    ...(code === 'server-elsewhere' ? {} : siteWhere(site)),
    ...(marker ? { markerLine: marker.line } : {}),
  };
}

function siteWhere(site: RunSite): Pick<Finding, 'kind' | 'handler'> {
  return { kind: site.kind, ...(site.handler ? { handler: site.handler } : {}) };
}

/** A marker no site of the run accounts for. */
function markerFinding(file: string, marker: MarkerComment): Finding {
  return {
    file,
    line: marker.line,
    column: marker.column,
    ruleId: marker.kind === 'official' ? OFFICIAL_RULE : `${TODO_RULE_PREFIX}${marker.code ?? 'unspecified'}`,
    severity: 'error',
    message:
      marker.kind === 'official'
        ? marker.reason || 'manual migration required (left by the official v1-to-v2 codemod)'
        : todoMessage(marker.reason, marker.next),
    ...(marker.kind === 'todo' ? docsOf(marker.code ?? '') : {}),
    markerLine: marker.line,
  };
}

/** Where the README explains a refusal code. */
function docsOf(code: string): Pick<Finding, 'docs'> {
  return isRefusalCode(code) ? { docs: refusalDocsUrl(code) } : {};
}

/**
 * The todo marker in the comment lines right above the site's statement: of the site's code, or
 * else one of a code no site of that statement has (migrate saw a reason this run does not).
 */
function ownMarker(
  site: RunSite,
  statementLine: number,
  codesHere: ReadonlySet<string | undefined>,
  markers: readonly MarkerComment[],
  scan: FileScan | undefined,
): MarkerComment | undefined {
  if (!scan || markers.length === 0) return undefined;
  let top = statementLine;
  while (top > 1 && scan.commentLines.has(top - 1)) top--;
  const above = markers.filter((m) => m.kind === 'todo' && m.line >= top && m.line < statementLine);
  return above.find((m) => m.code === site.code) ?? above.find((m) => m.code !== undefined && !codesHere.has(m.code));
}

function fileMarker(markers: readonly MarkerComment[], code: string, used: ReadonlySet<MarkerComment>): MarkerComment | undefined {
  const same = markers.filter((m) => m.kind === 'todo' && m.code === code);
  return same.find((m) => !used.has(m)) ?? same[0];
}

function todoMessage(reason: string, next: string | undefined): string {
  const text = reason.trim() || 'left for a person by mrtr-codemod';
  return next ? `${text} Next: ${next}` : text;
}

/** A path as one shell word (quoted when it holds anything but plain characters). */
function shellWord(file: string): string {
  return /^[\w./@+-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}

function lineStartOffsets(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
