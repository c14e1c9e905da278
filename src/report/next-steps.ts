// What a person does after a run, and what the run did with the request-state module: the
// summary and the review page both end with these.
import type { RunResult } from '../engine/run.ts';
import type { StateModuleRecord } from '../engine/state-modules.ts';
import { count } from './formats/check-report.ts';
import { buildBlockers, siteTotals } from './run-tally.ts';

/** One sentence a module the run wrote, refreshed, or left because a person edited it (`file` apart). */
export function stateModuleNotes(modules: readonly StateModuleRecord[]): Array<{ file: string; note: string }> {
  const notes: Array<{ file: string; note: string }> = [];
  for (const m of modules) {
    const wired = m.wiredIn.length > 0 ? `; verifier wired in ${m.wiredIn.join(', ')}` : '';
    let note: string | undefined;
    if (m.status === 'created') note = `new, the request-state helpers every migrated file imports${wired}`;
    else if (m.status === 'refreshed') note = `refreshed to this version of the codemod${wired}`;
    else if (m.status === 'edited')
      note = `edited by hand since the codemod wrote it, so left as it is (compare it with mrtr-codemod's templates/request-state.ts)${wired}`;
    else if (wired) note = `up to date${wired}`;
    if (note) notes.push({ file: m.file, note });
  }
  return notes;
}

/** The steps left after a run that changed something, in the order to take them. */
export function nextSteps(result: RunResult, options: { dryRun: boolean }): string[] {
  const migrated = siteTotals(result.sites).migrated;
  if (result.changed.length === 0 && migrated === 0) return [];
  const steps: string[] = [];
  if (options.dryRun) steps.push('Apply the change: run again without --dry-run (or `git apply` the patch).');
  const manifests = result.changed.filter((f) => f.path === 'package.json' || f.path.endsWith('/package.json')).map((f) => f.path);
  if (manifests.length > 0) steps.push(`Run \`npm install\` (or your package manager's install): ${manifests.join(', ')} changed.`);
  const blockers = buildBlockers(result).length;
  if (blockers > 0) {
    steps.push(
      `Remove the code on the experimental tasks API (${count(blockers, 'use')} under "Blocking the build"), or move it to the tasks extension: the server does not build on the v2 SDK until it goes.`,
    );
  }
  if (migrated > 0 || result.stateModules.length > 0) {
    steps.push(
      'Set MCP_REQUEST_STATE_KEY (at least 32 random bytes, the same on every instance that may receive a retry) where the server runs; without it each process signs with its own random key, which only works while one process serves every round of a call. Give several instances (or one that restarts while a flow is open) one round store too, or a round answered on one can be replayed on another: mrtrConfigure({ rounds: mrtrRedisRounds(redis) }) from the request-state module.',
    );
  }
  steps.push(
    'Run your formatter on the changed files: untouched code is kept byte for byte, new code is written in a plain style that does not know your line width.',
  );
  const marked = siteTotals(result.sites).marked + (result.entryPoints ?? []).filter((e) => e.status === 'marked').length;
  if (marked > 0) steps.push(`Work through the ${marked} marker${marked === 1 ? '' : 's'} left (grep -rn @mrtr-todo), then run \`mrtr-codemod check\`.`);
  return steps;
}
