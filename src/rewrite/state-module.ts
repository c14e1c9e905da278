// The request-state module a migration writes once per package: the text of
// templates/request-state.ts (a real, typechecked module of this repository) under a header
// that names the codemod version and a digest of the text. The JavaScript forms are that
// file through the TypeScript compiler's transpile (types erased; ES module or CommonJS), so
// there is one source to change. The header lets a later run tell a module it wrote and nobody
// edited (replaced when the text changed) from one a person edited (left alone).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { TypeScript } from '../analyse/load-typescript.ts';
import { packageVersion } from '../package-version.ts';

/** TypeScript, an ES module in JavaScript, or CommonJS. */
export type StateModuleForm = 'ts' | 'esm' | 'cjs';

export const STATE_MODULE_SENTINEL = '@mrtr-generated request-state module';

/** Where the template lives in this package. */
export const TEMPLATE_PATH = fileURLToPath(new URL('../../templates/request-state.ts', import.meta.url));

const HEADER = new RegExp(`^// ${STATE_MODULE_SENTINEL}, mrtr-codemod (\\S+), sha256:([0-9a-f]{16})\\.\\r?\\n`);

let template: string | undefined;
const bodies = new Map<StateModuleForm, string>();

/** The module's text in `form`, with `eol` line endings. */
export function stateModuleText(form: StateModuleForm, eol = '\n'): string {
  const body = bodyOf(form);
  const header = [
    `// ${STATE_MODULE_SENTINEL}, mrtr-codemod ${packageVersion()}, sha256:${digest(body)}.`,
    '// Written by mrtr-codemod from its templates/request-state.ts. A later run replaces it when its',
    '// own text differs, unless this file was edited: then it is left as it is, and the run says so.',
    '',
  ].join('\n');
  return `${header}\n${body}`.replace(/\n/g, eol);
}

/** What a later run does with an existing file at the module's path. */
export type StateModuleStatus = { kind: 'current' } | { kind: 'outdated'; version: string } | { kind: 'edited'; version: string } | { kind: 'foreign' };

export function stateModuleStatus(existing: string, form: StateModuleForm): StateModuleStatus {
  const text = existing.replace(/\r\n/g, '\n');
  const match = HEADER.exec(text);
  if (!match) return { kind: 'foreign' };
  const [, version, recorded] = match as unknown as [string, string, string];
  // The body starts after the header's two explanation lines and a blank one.
  const body = text.split('\n').slice(4).join('\n');
  if (digest(body) !== recorded) return { kind: 'edited', version };
  return body === bodyOf(form) ? { kind: 'current' } : { kind: 'outdated', version };
}

function bodyOf(form: StateModuleForm): string {
  let body = bodies.get(form);
  if (body === undefined) {
    template ??= readFileSync(TEMPLATE_PATH, 'utf8').replace(/\r\n/g, '\n');
    body = form === 'ts' ? template : (keptBody(form, template) ?? transpiled(template, form));
    bodies.set(form, body);
  }
  return body;
}

/**
 * The JavaScript forms as the build transpiled them, beside the compiled module: a run that
 * writes one then need not load TypeScript (a third of a second). Used only when made from
 * this very template; a checkout running the source has none.
 */
const KEPT_BODIES = new URL('./state-module-bodies.json', import.meta.url);

function keptBody(form: 'esm' | 'cjs', source: string): string | undefined {
  let kept: Partial<Record<'template' | 'esm' | 'cjs', unknown>>;
  try {
    kept = JSON.parse(readFileSync(KEPT_BODIES, 'utf8')) as typeof kept;
  } catch {
    return undefined;
  }
  const body = kept[form];
  return kept.template === digest(source) && typeof body === 'string' ? body : undefined;
}

/** @internal What the build keeps (scripts/build.js): the JavaScript forms, and the digest of the template they come from. */
export function transpiledBodies(): { template: string; esm: string; cjs: string } {
  const source = readFileSync(TEMPLATE_PATH, 'utf8').replace(/\r\n/g, '\n');
  return { template: digest(source), esm: transpiled(source, 'esm'), cjs: transpiled(source, 'cjs') };
}

function digest(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 16);
}

/**
 * The template as JavaScript. The compiler prints four-space indentation and drops blank
 * lines; both are put back the way the template has them (two spaces, a blank line between
 * top-level declarations), which changes no token.
 */
function transpiled(source: string, form: 'esm' | 'cjs'): string {
  const ts = createRequire(import.meta.url)('typescript') as TypeScript;
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: form === 'esm' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS },
    reportDiagnostics: false,
  });
  const lines = outputText.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const out: string[] = [];
  let inDoc = false;
  for (const raw of lines) {
    const line = raw.replace(/^((?: {4})+)/, (indent) => ' '.repeat(indent.length / 2));
    const previous = out[out.length - 1];
    // A top-level declaration (or the comment above one) after the end of another one.
    const startsDeclaration =
      !inDoc && /^(\/\/|\/\*\*|export |exports\.\w+ = \(|function |async function |const |let |class )/.test(line) && !line.startsWith('//#');
    if (startsDeclaration && previous !== undefined && previous !== '' && !/^(\/\/|\s*\*)/.test(previous) && !/^(\/\*\*)/.test(previous)) out.push('');
    if (line.startsWith('/**')) inDoc = !line.includes('*/');
    else if (inDoc && line.includes('*/')) inDoc = false;
    // The compiler leaves a trailing comma inside a one-line import list.
    out.push(line.startsWith('import ') ? line.replace(/, \} from /, ' } from ') : line);
  }
  return `${out.join('\n')}\n`;
}
