// `check --format json`: the CheckReport itself, pretty-printed. The shape (`version` changes
// only when a field changes meaning or goes away):
//
// {
//   "version": 1,
//   "findings": [                      // sorted by file, line, column, ruleId
//     {
//       "file": "src/server.ts",       // relative to the working directory, `/` separators
//       "line": 7, "column": 26,       // 1-based; columns in UTF-16 code units
//       "ruleId": "legacy-request" | "mrtr-todo/<code>" | "mcp-codemod-error" | "not-analysed",
//       "severity": "error",
//       "message": string,
//       "hint"?: string,               // legacy-request: the command that rewrites it
//       "kind"?: "elicit" | "elicitUrl" | "sampling" | "roots",   // legacy sites
//       "handler"?: "tool:t",          // when the site is inside a handler
//       "markerLine"?: number,         // line of the marker comment, when one is written
//       "docs"?: string                // mrtr-todo/<code>: where the README explains the code
//     }
//   ],
//   "errors": [                        // inputs that could not be checked (exit code 2)
//     { "file", "stage": "discover" | "read" | "parse" | "transform", "message", "line"?, "column"? }
//   ],
//   "skipped": [                       // passed over on purpose: vendored, minified, links out
//     { "file", "reason", "legacyRequests"?: number }   // a vendored folder: its legacy request sites
//   ],
//   "summary": {
//     "filesScanned": number, "filesWithFindings": number, "findings": number,
//     "fixable": number,               // legacy-request findings
//     "errors": number,
//     "skipped": number,
//     "byRule": { "<ruleId>": number },
//     "exitCode": 0 | 1 | 2
//   }
// }
import { jsonText } from '../../core/escape.ts';
import type { CheckReport } from './check-report.ts';

export function formatJson(report: CheckReport): string {
  return `${jsonText(JSON.stringify(report, null, 2))}\n`;
}
