// Loads the `typescript` package this codemod depends on, with createRequire: importing it as
// ESM costs about half a second more at start-up. Kept apart from ts-type-facts.ts because
// `import.meta` makes a module ESM-only, and the jscodeshift transform loads that module
// through a CommonJS hook (it loads TypeScript with its own `require`).
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

/** The compiler API, as `typescript` exports it. */
export type TypeScript = typeof TS;

export function loadTypeScript(): TypeScript {
  return createRequire(import.meta.url)('typescript') as TypeScript;
}
