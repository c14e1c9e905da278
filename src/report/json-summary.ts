// The machine-readable summary (`migrate --json`). Its counts are the text summary's and the
// HTML page's (run-tally.ts says what a handler is).
//
// Shape of the JSON object (`version` changes only when a field changes meaning or goes; a new
// field does not change it):
//
// {
//   "version": 1,
//   "dryRun": boolean,                 // true: nothing was written
//   "filesScanned": number,            // source files discovered and read
//   "candidates": number,              // of those, files mentioning a server→client request
//   "changedFiles": [                  // files migrated (or that a dry run would change)
//     { "path": "src/server.ts", "written": boolean,
//       "passes": ["v1-upgrade" | "mrtr"] }  // which passes changed it, in order (passes.ts)
//   ],
//   "v1Only"?: true,                   // --v1-only: the run stopped after the v1-to-v2 upgrade
//   "v1Kept"?: ["src/client.ts"],      // files left on the v1 SDK: MRTR needs none of them (v1-scope.ts)
//   "sites": { "total": number, "migrated": number, "marked": number },
//   "handlers": {
//     "total": number, "migrated": number, "manual": number,
//     "needManualWork": [                // one entry per handler left for a person
//       { "handler": "tool:later", "file": "src/x.ts", "line": number, "codes": ["closure"] }
//     ],
//     "outside": [                     // sites in no tool, prompt or resource handler (oninitialized, a timer): not handlers
//       { "file": "src/x.ts", "line": number, "codes": ["no-request-to-answer"] }
//     ]
//   },
//   "markers": [                       // every @mrtr-todo left in the code
//     { "file", "line", "column", "kind", "handler": string | null, "code", "reason", "next",
//       "marker"?: string,              // the marker's line (its short form), when the run wrote one
//       "docs"?: string }               // where the README explains the code
//   ],
//   "upgrades": {                      // what the official v1-to-v2 codemod left in v1 files
//     "open": [                        // open work: the file is not (all) on the v2 SDK yet
//       { "file", "line", "column", "code": "mcp-codemod-error" | "mcp-codemod-failed" | "v1-import-left" | "tasks-api-left", "message",
//         "blocksBuild": boolean }     // code on the experimental tasks API, which v2 removed: the server does not build
//     ],
//     "warnings": [ { "file", "line", "message" } ]   // changes to verify by hand
//   },
//   "errors": [                        // files that could not be read, parsed or written
//     { "file", "stage": "discover" | "read" | "parse" | "transform" | "write", "message", "line"?, "column"? }
//   ],
//   "skipped": [                       // passed over on purpose: vendored, minified, too large, links out
//     { "file", "reason", "candidate": boolean,    // candidate: mentions a legacy request, not analysed
//       "legacyRequests"?: number }                // a vendored folder: its legacy request sites
//   ],
//   "rerun": [                         // migrated handlers that run code again on each retry instead of carrying it
//     { "file", "handler", "line", "locals": ["note"],   // locals derived again, never in requestState
//       "calls": [ { "text": "notes.get(id)", "line": number, "why": "read" | "pure-function" | "declared" | "bracket",
//                    "file"? } ] }           // file: made in another module (a dispatch's per-round bracket there)
//   ],
//   "notes": [ { "note": string, "sites": number } ],  // deprecation guidance, each once
//   "entryPoints": [                   // stdio and HTTP entry points: rewritten to serve both eras, or marked
//     { "file", "line", "status": "migrated" | "marked", "via"?: "serveStdio" | "createMcpHandler", "code"?, "reason"?, "next"? }
//   ],
//   "stateModules": [                  // the request-state module of each package the run migrated
//     { "file": "src/mrtr-request-state.ts", "form": "ts" | "esm" | "cjs",
//       "status": "created" | "refreshed" | "current" | "edited", "wiredIn": ["src/server.ts"] }
//   ]
// }
//
// Paths are relative to the working directory, with `/` separators. In `upgrades`, only the
// line and column of an `mcp-codemod-error` are exact (see UpgradeNote); the others point near
// the statement, with column 1.
import type { RunResult } from '../engine/run.ts';
import { passesOf } from './passes.ts';
import { isRefusalCode, refusalDocsUrl } from '../plan/refusal.ts';
import { blocksBuild, guidanceNotes, openUpgradeNotes, rerunByHandler, siteTotals, summariseHandlers, upgradeWarnings } from './run-tally.ts';

interface JsonSummaryOptions {
  dryRun: boolean;
}

/** The JSON text printed by `--json`: the object described above, two-space indented, one trailing newline. */
export function formatJsonSummary(result: RunResult, options: JsonSummaryOptions): string {
  const handlers = summariseHandlers(result.sites, result.askingThrough);
  const summary = {
    version: 1,
    dryRun: options.dryRun,
    filesScanned: result.filesScanned,
    candidates: result.candidates,
    changedFiles: result.changed.map((file) => ({ path: file.path, written: file.written, passes: passesOf(file) })),
    ...(result.v1Only ? { v1Only: true } : {}),
    ...(result.v1Kept && result.v1Kept.length > 0 ? { v1Kept: [...result.v1Kept] } : {}),
    sites: siteTotals(result.sites),
    handlers: {
      total: handlers.total,
      migrated: handlers.migrated,
      manual: handlers.manual.length,
      needManualWork: handlers.manual.map((h) => ({ handler: h.handler, file: h.file, line: h.line, codes: h.codes })),
      outside: handlers.outside.map((h) => ({ file: h.file, line: h.line, codes: h.codes })),
    },
    markers: result.sites
      .filter((s) => s.status === 'marked')
      .map((s) => ({
        file: s.file,
        line: s.line,
        column: s.column,
        kind: s.kind,
        handler: s.handler ?? null,
        code: s.code ?? 'todo',
        reason: s.reason ?? '',
        next: s.next ?? '',
        ...(s.marker !== undefined ? { marker: s.marker } : {}),
        ...(s.code !== undefined && isRefusalCode(s.code) ? { docs: refusalDocsUrl(s.code) } : {}),
      })),
    upgrades: {
      open: openUpgradeNotes(result).map((n) => ({
        file: n.file,
        line: n.line,
        column: n.column,
        code: n.code,
        message: n.message,
        blocksBuild: blocksBuild(n),
      })),
      warnings: upgradeWarnings(result).map((n) => ({ file: n.file, line: n.line, message: n.message })),
    },
    errors: result.errors.map((e) => ({ ...e })),
    skipped: (result.skipped ?? []).map((s) => ({
      file: s.file,
      reason: s.reason,
      candidate: s.candidate,
      ...(s.legacyRequests !== undefined ? { legacyRequests: s.legacyRequests } : {}),
    })),
    rerun: rerunByHandler(result.sites).map((h) => ({ ...h, locals: [...h.locals], calls: h.calls.map((c) => ({ ...c })) })),
    notes: guidanceNotes(result.sites),
    entryPoints: (result.entryPoints ?? []).map((e) => ({ ...e })),
    stateModules: result.stateModules.map((m) => ({ file: m.file, form: m.form, status: m.status, wiredIn: [...m.wiredIn] })),
  };
  return `${JSON.stringify(summary, null, 2)}\n`;
}
