// The official v1-to-v2 codemod's `@mcp-codemod-error` comments above a statement whose
// question the MRTR rewrite replaces. Such a comment quotes code (`forwarded to confirm(…)`,
// `"const { sendRequest } = ctx"`); once the statement is rewritten, a comment whose quoted
// names are all gone from it names a problem that is gone too, and `check` would keep failing
// on it. One that still finds a name it quotes stays, as does one whose code it does not read.
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { lineStartOf } from '../core/vocabulary.ts';
import type { Round } from './handler-rounds.ts';
import type { SuspensionPoint } from './types.ts';

const OFFICIAL_HEAD = /^\s*\*?\s*@mcp-codemod-error\s+/;
/** Keywords a quoted declaration holds, which are not what it is about. */
const NOT_NAMES = new Set(['const', 'let', 'var', 'ctx', 'extra']);

/**
 * The start offsets of the source lines of each official marker above a rewritten statement
 * that nothing of the statement's rewritten text still names: the renderer leaves them out.
 */
export function obsoleteMarkerLines(analysis: FileAnalysis, rounds: readonly Round[], points: readonly SuspensionPoint[]): number[] {
  const { source } = analysis;
  const lines: number[] = [];
  rounds.forEach((round, i) => {
    const start = round.statement.start!;
    const before = source.slice(start, round.statement.end!);
    const after = rewrittenStatement(source, round, points[i]!);
    for (const comment of commentsAbove(analysis, start)) {
      const head = OFFICIAL_HEAD.exec(comment.value);
      if (!head) continue;
      const messages = comment.value.slice(head[0].length).split(' | ');
      const obsolete = messages.every((m) => {
        const names = quotedNames(m);
        return names.length > 0 && names.some((n) => mentions(before, n)) && !names.some((n) => mentions(after, n));
      });
      if (!obsolete) continue;
      for (let at = lineStartOf(source, comment.start!); at < comment.end!; at = source.indexOf('\n', at) + 1) {
        lines.push(at);
        if (source.indexOf('\n', at) === -1) break;
      }
    }
  });
  return lines;
}

/** The statement with each of its legacy calls replaced by the request the rewrite writes for it. */
function rewrittenStatement(source: string, round: Round, point: SuspensionPoint): string {
  const start = round.statement.start!;
  let text = '';
  let cursor = start;
  const calls = round.sites.map((site, j) => ({ call: site.call, request: point.requests[j]! })).sort((a, b) => a.call.start! - b.call.start!);
  for (const { call, request } of calls) {
    text += source.slice(cursor, call.start!) + request.requestText + (request.resultWrap?.join(' ') ?? '');
    cursor = call.end!;
  }
  return text + source.slice(cursor, round.statement.end!);
}

/** The own-line comments right above the line a statement starts on, nearest last. */
function commentsAbove(analysis: FileAnalysis, statementStart: number): FileAnalysis['comments'] {
  const { source } = analysis;
  const found: FileAnalysis['comments'] = [];
  let boundary = lineStartOf(source, statementStart);
  for (let k = analysis.comments.length - 1; k >= 0; k--) {
    const c = analysis.comments[k]!;
    if (c.end! > boundary) continue;
    const ownLine = source.slice(lineStartOf(source, c.start!), c.start!).trim() === '';
    if (!ownLine || source.slice(c.end!, boundary).trim() !== '') break;
    found.unshift(c);
    boundary = lineStartOf(source, c.start!);
  }
  return found;
}

/**
 * The names a message of the official codemod quotes about the context: the callee it says the
 * context is forwarded to (`confirm` of `forwarded to this.confirm(…)`), or the names of the
 * destructuring it quotes. None for any other message (kept: its code is not read here).
 */
function quotedNames(message: string): string[] {
  const forwarded = /^The context object is forwarded to ([\w$.]+)\(/.exec(message);
  if (forwarded) return [forwarded[1]!.split('.').pop()!];
  const quoted = /^Destructuring of context parameter [^"]*"([^"]*)"/.exec(message);
  if (!quoted) return [];
  return [...quoted[1]!.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]).filter((n) => !NOT_NAMES.has(n));
}

/** Whether `text` holds `name` as a whole identifier. */
function mentions(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w$])${name.replaceAll('$', '\\$')}(?![\\w$])`).test(text);
}
