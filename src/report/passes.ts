// A run's change in the two passes it is made of, each its own reviewable step: the v1-to-v2
// upgrade (the official codemod, on the v1 files MRTR needs, and the package.json above them),
// then the MRTR migration. The patch holds them in that order, as two parts a reviewer can
// apply one after the other (`git apply` takes the whole, a file changed by both passes being
// patched twice); the summary, the JSON summary and the review page say which change of each
// file belongs to which pass. A run with no upgrade has one part, and no part headers.
import type { ChangedFile, RunResult } from '../engine/run.ts';
import { unifiedDiff } from './diff.ts';
import { count } from './formats/check-report.ts';

export type Pass = 'v1-upgrade' | 'mrtr';

/** The passes that changed a file, in the order they ran. */
export function passesOf(file: Pick<ChangedFile, 'original' | 'output' | 'upgraded'>): Pass[] {
  const passes: Pass[] = [];
  if (file.upgraded !== undefined && file.upgraded !== file.original) passes.push('v1-upgrade');
  if (file.output !== (file.upgraded ?? file.original)) passes.push('mrtr');
  return passes;
}

/** How the summary names the passes of a file. */
export const PASS_NAMES: Record<Pass, string> = { 'v1-upgrade': 'v1-to-v2 upgrade', mrtr: 'MRTR' };

type DiffedFile = Pick<ChangedFile, 'path' | 'original' | 'output' | 'splices' | 'created'>;

/** Each file's part of one pass, made once (unifiedDiff keeps a diff by the object it was made from). */
const parts = new WeakMap<ChangedFile, { upgrade: DiffedFile; mrtr: DiffedFile }>();

/** The change a pass made to a file: undefined when that pass did not change it. */
export function passChange(file: ChangedFile, pass: Pass): DiffedFile | undefined {
  if (!passesOf(file).includes(pass)) return undefined;
  if (file.upgraded === undefined) return file;
  let split = parts.get(file);
  if (!split) {
    split = {
      upgrade: { path: file.path, original: file.original, output: file.upgraded },
      mrtr: { path: file.path, original: file.upgraded, output: file.output },
    };
    parts.set(file, split);
  }
  return pass === 'v1-upgrade' ? split.upgrade : split.mrtr;
}

/** Whether any change of the run is the upgrade's. */
export function hasUpgradePart(changed: readonly ChangedFile[]): boolean {
  return changed.some((file) => passesOf(file).includes('v1-upgrade'));
}

export interface PatchOptions {
  /**
   * How to write a generated file (the request-state module): whole (a patch), or as one line
   * saying what it is (a diff shown to a person, unless they ask for it).
   */
  generated?: 'whole' | 'line';
}

/**
 * The run's patch: the upgrade's part, then the MRTR part, each headed by a comment line (which
 * `git apply` and `patch` pass over); one part without a header when there was no upgrade.
 */
export function runPatch(result: Pick<RunResult, 'changed' | 'stateModules'>, options: PatchOptions = {}): string {
  const generated = new Set(options.generated === 'line' ? result.stateModules.map((m) => m.file) : []);
  const diff = (file: DiffedFile) => (generated.has(file.path) ? generatedLine(file) : unifiedDiff(file));
  if (!hasUpgradePart(result.changed)) return result.changed.map(diff).join('');
  const upgrade = result.changed.flatMap((f) => passChange(f, 'v1-upgrade') ?? []);
  const mrtr = result.changed.flatMap((f) => passChange(f, 'mrtr') ?? []);
  let patch = `${partHeader(1, mrtr.length > 0 ? 2 : 1, `the v1-to-v2 upgrade (official @modelcontextprotocol/codemod): ${count(upgrade.length, 'file')}`)}${upgrade.map(diff).join('')}`;
  if (mrtr.length > 0) patch += `${partHeader(2, 2, `the MRTR migration: ${count(mrtr.length, 'file')}`)}${mrtr.map(diff).join('')}`;
  return patch;
}

/** A part's header line (a comment `git apply` passes over), as partHeader writes it. */
export const PART_HEADER_LINE = /^# mrtr-codemod, part \d+ of \d+: [^\n]*\n/gm;

function partHeader(part: number, of: number, what: string): string {
  return `# mrtr-codemod, part ${part} of ${of}: ${what}\n`;
}

/**
 * A generated file in one line: new or replaced, its size, and where to read it whole. Not a
 * diff (nothing in it starts like a patch line), so a patch that holds it still applies, less
 * that file: it is only for a person's terminal.
 */
export function generatedLine(file: DiffedFile): string {
  const lines = file.output.split('\n').length - (file.output.endsWith('\n') ? 1 : 0);
  const size = `${count(lines, 'line')}, ${kilobytes(Buffer.byteLength(file.output))}`;
  const what = file.created ? `new file ${file.path}` : `${file.path} (replaced)`;
  return `# ${what}: the generated request-state module, ${size}; not shown (--show-generated shows it; --patch FILE writes it whole)\n`;
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}
