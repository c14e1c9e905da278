// Typechecks files against the real installed packages with the TypeScript compiler API.
// Loaded through createRequire: importing `typescript` as ESM costs about half a second.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript') as typeof import('typescript');

const OPTIONS: import('typescript').CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  noUnusedLocals: false,
  types: ['node'],
};

/** The diagnostics of compiling `files` (`extra` added to the strict options), each by its file (`code: message`, no position). */
export function diagnosticsByFile(files: string[], extra: import('typescript').CompilerOptions = {}): Map<string, string[]> {
  const byFile = new Map(files.map((f) => [f, [] as string[]]));
  for (const d of ts.getPreEmitDiagnostics(ts.createProgram(files, { ...OPTIONS, ...extra }))) {
    byFile.get(d.file ? d.file.fileName : '')?.push(`TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
  return byFile;
}

export function typecheck(files: string[]): string[] {
  const program = ts.createProgram(files, OPTIONS);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const name = d.file ? d.file.fileName.replace(/^.*\/fixtures\//, 'fixtures/') : '';
    return `${name}${where ? `:${where.line + 1}:${where.character + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
