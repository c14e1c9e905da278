// Loads the `typescript` package this codemod depends on, with createRequire: importing it as
// ESM costs about half a second more at start-up; and finds the SDK declarations this package
// carries. Kept apart from ts-type-facts.ts because `import.meta` makes a module ESM-only, and
// the jscodeshift transform loads that module through a CommonJS hook (it loads TypeScript with
// its own `require`, and names the folder of the declarations itself).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TS from 'typescript';
import { carriedDeclarationsFor, type CarriedDeclarations } from './carried-declarations.ts';

/** The compiler API, as `typescript` exports it. */
export type TypeScript = typeof TS;

export function loadTypeScript(): TypeScript {
  return createRequire(import.meta.url)('typescript') as TypeScript;
}

/** The SDK declarations the checker falls back to (carried-declarations.ts), found from this module's folder. */
export function loadCarriedDeclarations(): CarriedDeclarations | undefined {
  return carriedDeclarationsFor(path.dirname(fileURLToPath(import.meta.url)));
}
