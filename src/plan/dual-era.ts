// Dual-era handlers (see legacy-arms.ts): a handler whose every legacy request sits in the
// 2025-era arm of an era test, beside an arm that answers with inputRequired itself for the
// same kinds of input, loses that arm. The SDK's shim then serves 2025 clients with the modern
// arm (each input request becomes a real server→client request), so nothing is rewritten
// around the hand-written arm and no request-state module is wired for it: its own state
// travels as it did. What becomes unused with the arm goes with it (dead-code.ts).
import type { Node } from '@babel/types';
import { boundNames, isNonReferencePosition, walk, type FunctionNode } from '../analyse/ast.ts';
import { callGraphOf } from '../analyse/call-graph.ts';
import { serverFactories, type EraScope } from '../analyse/era-tests.ts';
import { enclosingFunctions } from '../analyse/file-index.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite, UrlElicitationThrow } from '../analyse/find-sites.ts';
import { receiverResolver } from '../analyse/receivers.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import { codeSnippet } from '../core/escape.ts';
import { type Edit, INPUT_KIND_NAMES, type InputKind, type Span } from '../core/vocabulary.ts';
import { legacyArmEdits } from '../rewrite/edits/legacy-arm.ts';
import type { FilePlanning } from './file-planning.ts';
import { legacyArms, type LegacyArm } from './legacy-arms.ts';
import { handlerId } from './plan-handler.ts';
import { refuse, Refusal } from './refusal.ts';

/** What deleting a handler's 2025-era arms takes: the edits, and the requests that go with them. */
interface ArmsDeleted {
  edits: Edit[];
  sites: readonly LegacySite[];
  throws: UrlElicitationThrow[];
  /** The arms deleted, to tell what the reports say of them. */
  arms: LegacyArm[];
}

/**
 * Each dual-era handler's 2025-era arms deleted, its requests reported as migrated, and the
 * handler no longer planned; a handler whose arm cannot go is marked with the reason. Runs
 * before URL throws are placed: a throw in a deleted arm goes with it.
 */
export function placeDualEraHandlers(file: FilePlanning): void {
  const { analysis } = file;
  if ((file.byHandler.size === 0 && analysis.urlThrows.length === 0) || !/\bera\b/.test(analysis.source) || !analysis.source.includes('inputRequired')) return;
  const scope: EraScope = {
    bindings: receiverResolver(analysis.index, analysis.importedNames),
    imports: analysis.importedNames,
    index: analysis.index,
    factories: serverFactories(analysis.index, analysis.importedNames),
  };
  // Handlers that ask, or throw a URL elicitation (not placed yet).
  const throwing = file.handlers.filter((h) => !file.byHandler.has(h) && analysis.urlThrows.some((t) => t.functions.includes(h.fn)));
  for (const [handler, sites] of [...file.byHandler, ...throwing.map((h) => [h, []] as const)]) {
    const outcome = armsOf(file, handler, sites, scope);
    if (outcome === undefined) continue;
    if (outcome instanceof Refusal) {
      if (!file.preset.has(outcome.site!)) file.preset.set(outcome.site!, outcome);
      continue;
    }
    file.byHandler.delete(handler);
    file.dualEra.edits.push(...outcome.edits);
    for (const t of outcome.throws) file.dualEra.throws.add(t);
    report(file, handler, outcome);
  }
}

/** The handler's arms deleted; a Refusal when one holding its requests cannot go; undefined when it is no dual-era handler. */
function armsOf(file: FilePlanning, handler: HandlerSite, sites: readonly LegacySite[], scope: EraScope): ArmsDeleted | Refusal | undefined {
  const { analysis, source } = file;
  const fn = handler.fn;
  if (!source.slice(fn.start!, fn.end!).includes('inputRequired') || sites.some((s) => file.preset.get(s)?.code === 'legacy-sdk')) return undefined;
  const functions = [...enclosingFunctions(analysis.index.functions.find((f) => f.node === fn)?.ancestors ?? []), fn];
  const arms = legacyArms(fn, functions, scope).filter((arm) => arm.answers.returns);
  const throws = analysis.urlThrows.filter((t) => t.functions.includes(fn));
  const armAt = (node: Node) => arms.find((arm) => arm.legacy.some((s) => s.start <= node.start! && node.end! <= s.end));
  const requests = [...sites.map((site) => ({ node: site.call, kind: site.kind })), ...throws.map((t) => ({ node: t.statement, kind: 'elicitUrl' as const }))];
  // Every request in a legacy arm, asked there and nowhere else (not through a helper of this or another module).
  if (!requests.every((r) => armAt(r.node) && r.kind) || sites.some((s) => s.via) || !askedHereOnly(file, handler)) return undefined;
  const holding = arms.filter((arm) => requests.some((r) => armAt(r.node) === arm));
  const edits: Edit[] = [];
  for (const arm of holding) {
    const kinds = new Set(requests.filter((r) => armAt(r.node) === arm).map((r) => r.kind!));
    const written = legacyArmEdits(source, arm);
    const kept = keptBecause(file, fn, arm, holding, kinds) ?? (written ? undefined : unwritable(arm));
    if (kept) {
      // Pinned to a request of the arm; a handler that only throws is left to placeUrlThrows.
      const site = sites.find((s) => armAt(s.call) === arm) ?? sites[0];
      const test = codeSnippet(source.slice(arm.statement.test.start!, arm.statement.test.end!));
      return site && refuse('hand-migrated', 'legacyArmKept', { test, ...kept }).at(site);
    }
    edits.push(...written!);
  }
  return { edits, sites, throws, arms: holding };
}

/** Why an arm holding requests of `kinds` stays (what deleting it would change), and what to do; undefined when it may go. */
function keptBecause(
  file: FilePlanning,
  fn: FunctionNode,
  arm: LegacyArm,
  deleted: readonly LegacyArm[],
  kinds: ReadonlySet<InputKind>,
): { why: string; fix: string } | undefined {
  const missing = [...kinds].find((kind) => !arm.answers.kinds.has(kind));
  if (missing) {
    return {
      why: `the other arm asks for no ${INPUT_KIND_NAMES[missing]} with inputRequired.`,
      fix: `have the other arm ask for it too (${KINDS[missing].builder}(...)), or, if it needs no such answer, delete the 2025-era arm by hand`,
    };
  }
  if (arm.effectBefore) {
    const statement = codeSnippet(file.source.slice(arm.effectBefore.start!, arm.effectBefore.end!));
    return {
      why: `\`${statement}\` runs whichever arm is taken, and 2025 clients served by the inputRequired arm would run it again on each round.`,
      fix: 'have it run once (after the answer, in each arm), or make it safe to run again',
    };
  }
  const clash = clashingName(fn, arm, deleted);
  if (clash)
    return {
      why: `\`${clash}\`, declared in the inputRequired arm, is named outside it too.`,
      fix: `rename \`${clash}\` in the inputRequired arm, or delete the 2025-era arm by hand`,
    };
  return undefined;
}

/** Why an arm's layout cannot be kept (see legacyArmEdits). */
function unwritable(arm: LegacyArm): { why: string; fix: string } {
  return arm.within === 'other'
    ? { why: 'the if is the body of another statement, without braces.', fix: 'put braces around it, or delete the 2025-era arm by hand' }
    : { why: 'the if shares its lines with other code.', fix: 'put the if and its braces on lines of their own, or delete the 2025-era arm by hand' };
}

/** The handler asks only in its own body: no helper of this or another module on its way to a request, and no function it delegates to. */
function askedHereOnly(file: FilePlanning, handler: HandlerSite): boolean {
  if (file.reachHelpers.has(handler) || file.deferred.some((d) => d.chain.reaching.some((r) => r.handler === handler))) return false;
  const helpers = file.options.externalHelpers;
  if (!helpers || helpers.size === 0) return true;
  return !callGraphOf(file.analysis.index).calls.some(
    (c) => c.functions.includes(handler.fn) && [...helpers.keys()].some((key) => key === c.callee || key.endsWith(`.${c.callee}`)),
  );
}

/**
 * A name the kept arm declares at its top that the handler names outside it (and outside what
 * goes): written one level out, in place of the if, the arm's declaration would clash with it
 * or shadow it.
 */
function clashingName(fn: FunctionNode, arm: LegacyArm, deleted: readonly LegacyArm[]): string | undefined {
  const kept = arm.kept;
  if (kept?.type !== 'BlockStatement' || arm.within === 'other' || 'elseOf' in arm.within) return undefined;
  const declared = new Set(
    kept.body.flatMap((s) =>
      s.type === 'VariableDeclaration'
        ? s.declarations.flatMap((d) => boundNames(d.id).map((b) => b.name))
        : (s.type === 'FunctionDeclaration' || s.type === 'ClassDeclaration') && s.id
          ? [s.id.name]
          : [],
    ),
  );
  if (declared.size === 0) return undefined;
  const away: Span[] = [kept, arm.statement.test, ...deleted.flatMap((a) => a.legacy)].map((n) => ({ start: n.start!, end: n.end! }));
  let clash: string | undefined;
  walk(fn, (node, parents) => {
    if (clash || away.some((s) => s.start <= node.start! && node.end! <= s.end)) return false;
    const parent = parents[parents.length - 1];
    if (node.type === 'Identifier' && declared.has(node.name) && !(parent && isNonReferencePosition(node, parent))) clash = node.name;
    return undefined;
  });
  return clash;
}

/** Each request of the deleted arms, reported as migrated, saying so. */
function report(file: FilePlanning, handler: HandlerSite, { sites, throws, arms }: ArmsDeleted): void {
  const { source } = file;
  const notified = arms.some((arm) =>
    arm.legacy.some((s) => /createElicitationCompletionNotifier|notifications\/elicitation\/complete/.test(source.slice(s.start, s.end))),
  );
  const deleted = "Its 2025-era arm was deleted: the SDK's shim serves 2025 clients with the handler's inputRequired arm.";
  const completion = notified ? " Those clients no longer get the arm's notifications/elicitation/complete: the shim sends URL elicitations without one." : '';
  const add = (at: Node, kind: InputKind) => {
    const { line, column } = at.loc!.start;
    const guidance = [deleted + (kind === 'elicitUrl' ? completion : ''), KINDS[kind].guidance].filter(Boolean).join(' ');
    file.reports.push({ line, column: column + 1, kind, handler: handlerId(handler), status: 'migrated', lifted: [], guidance });
  };
  for (const site of sites) add(site.call, site.kind!);
  for (const t of throws) add(t.statement, 'elicitUrl');
}
