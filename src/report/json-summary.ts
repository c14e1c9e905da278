// The machine-readable summary (`migrate --json`) and the handler-level tally shared with the
// text summary ("migrated 14/17 handlers; 3 need manual work: ...").
//
// A handler is the unit the codemod migrates whole or not at all: the sites of one handler (by
// file and handler id, e.g. `tool:delete_records`) are migrated together or all left with a
// marker. A site that belongs to no handler (a request in `oninitialized`, say) counts as a
// handler of its own, named by `file:line`. The file-level `server-elsewhere` report is not a
// request site and is not counted (it still appears among the markers).
//
// Shape of the JSON object (`version` changes only when a field changes meaning or goes):
//
// {
//   "version": 1,
//   "dryRun": boolean,                 // true: nothing was written
//   "filesScanned": number,            // source files discovered and read
//   "candidates": number,              // of those, files mentioning a server→client request
//   "changedFiles": [                  // files migrated (or that a dry run would change)
//     { "path": "src/server.ts", "written": boolean }
//   ],
//   "sites": { "total": number, "migrated": number, "marked": number },
//   "handlers": {
//     "total": number, "migrated": number, "manual": number,
//     "needManualWork": [                // one entry per handler left for a person
//       { "handler": "tool:later" | null, "file": "src/x.ts", "line": number, "codes": ["closure"] }
//     ]
//   },
//   "markers": [                       // every @mrtr-todo left in the code
//     { "file", "line", "column", "kind", "handler": string | null, "code", "reason", "next" }
//   ],
//   "errors": [                        // files that could not be read, parsed or written
//     { "file", "stage": "discover" | "read" | "parse" | "transform" | "write", "message", "line"?, "column"? }
//   ],
//   "notes": [ { "note": string, "sites": number } ]   // deprecation guidance, each once
// }
//
// Paths are relative to the working directory, with `/` separators.
import type { RunResult, RunSite } from '../engine/run.ts';

export interface HandlerTally {
  /** Undefined for a site outside any handler. */
  handler?: string;
  file: string;
  /** Line of the first site left for a person (or of the first site). */
  line: number;
  migrated: boolean;
  /** Marker codes of its sites, in order, without duplicates. */
  codes: string[];
}

export interface HandlerSummary {
  total: number;
  migrated: number;
  manual: HandlerTally[];
}

const NOT_A_SITE = new Set(['server-elsewhere']);

export function summariseHandlers(sites: readonly RunSite[]): HandlerSummary {
  const handlers = new Map<string, HandlerTally>();
  for (const site of sites) {
    if (site.handler === undefined && site.code !== undefined && NOT_A_SITE.has(site.code)) continue;
    const key = site.handler === undefined ? `${site.file}\0@${site.line}:${site.column}` : `${site.file}\0${site.handler}`;
    let tally = handlers.get(key);
    if (!tally) {
      tally = { ...(site.handler !== undefined ? { handler: site.handler } : {}), file: site.file, line: site.line, migrated: true, codes: [] };
      handlers.set(key, tally);
    }
    if (site.status !== 'migrated') {
      if (tally.migrated) tally.line = site.line;
      tally.migrated = false;
      const code = site.code ?? 'todo';
      if (!tally.codes.includes(code)) tally.codes.push(code);
    }
  }
  const all = [...handlers.values()];
  return { total: all.length, migrated: all.filter((h) => h.migrated).length, manual: all.filter((h) => !h.migrated) };
}

/** `migrated 14/17 handlers; 3 need manual work: tool:a (src/a.ts:12, closure), src/b.ts:40 (...)`. */
export function formatHandlerLine(summary: HandlerSummary, shown = 10): string {
  let line = `migrated ${summary.migrated}/${summary.total} handler${summary.total === 1 ? '' : 's'}`;
  const manual = summary.manual;
  if (manual.length === 0) return line;
  const names = manual.slice(0, shown).map((h) => `${h.handler ?? `${h.file}:${h.line}`} (${h.handler ? `${h.file}:${h.line}, ` : ''}${h.codes.join(', ')})`);
  if (manual.length > shown) names.push(`and ${manual.length - shown} more (see the markers)`);
  line += `; ${manual.length} ${manual.length === 1 ? 'needs' : 'need'} manual work: ${names.join(', ')}`;
  return line;
}

export interface JsonSummaryOptions {
  dryRun: boolean;
}

/** The summary object described above. */
export function jsonSummary(result: RunResult, options: JsonSummaryOptions) {
  const handlers = summariseHandlers(result.sites);
  const marked = result.sites.filter((s) => s.status === 'marked');
  const notes = new Map<string, number>();
  for (const site of result.sites) if (site.guidance) notes.set(site.guidance, (notes.get(site.guidance) ?? 0) + 1);
  return {
    version: 1,
    dryRun: options.dryRun,
    filesScanned: result.filesScanned,
    candidates: result.candidates,
    changedFiles: result.changed.map((file) => ({ path: file.path, written: file.written })),
    sites: { total: result.sites.length, migrated: result.sites.length - marked.length, marked: marked.length },
    handlers: {
      total: handlers.total,
      migrated: handlers.migrated,
      manual: handlers.manual.length,
      needManualWork: handlers.manual.map((h) => ({ handler: h.handler ?? null, file: h.file, line: h.line, codes: h.codes })),
    },
    markers: marked.map((s) => ({
      file: s.file, line: s.line, column: s.column, kind: s.kind, handler: s.handler ?? null, code: s.code ?? 'todo', reason: s.reason ?? '', next: s.next ?? '',
    })),
    errors: result.errors.map((e) => ({ ...e })),
    notes: [...notes].map(([note, sites]) => ({ note, sites })),
  };
}

/** The JSON text printed by `--json`: the object above, two-space indented, one trailing newline. */
export function formatJsonSummary(result: RunResult, options: JsonSummaryOptions): string {
  return `${JSON.stringify(jsonSummary(result, options), null, 2)}\n`;
}
