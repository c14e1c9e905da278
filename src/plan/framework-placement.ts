// A framework's tools in the file (see analyse/frameworks.ts) take their questions before the
// SDK's planning sees them: each is answered in place, or marked with what would have had to
// travel. A module that also registers SDK handlers, or a tool that also makes a request the
// framework's table does not know, is left to that planning (which marks such calls).
import { frameworkHandlers, type FrameworkHandler } from '../analyse/framework-handlers.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import { moduleSystemOf } from '../analyse/module-imports.ts';
import { KINDS } from '../analyse/sdk-surface.ts';
import type { Edit } from '../core/vocabulary.ts';
import { addImport } from '../rewrite/edits/imports.ts';
import { checkedReadsOf, frameworkAskEdits } from '../rewrite/edits/framework-asks.ts';
import type { CheckedRead } from '../rewrite/edits/checked-answers.ts';
import { blockedBySibling } from './assemble-plan.ts';
import { mark, type FilePlanning } from './file-planning.ts';
import type { FrameworkPlan } from '../rewrite/edits/framework-asks.ts';
import { frameworkAsks, planFrameworkHandler } from './framework-asks.ts';
import { Refusal, refuse } from './refusal.ts';

/** The planning with the framework tools' questions placed: answered (their edits kept) or marked, and no longer candidates. */
export function placeFrameworkHandlers(file: FilePlanning): FilePlanning {
  const { analysis } = file;
  if (analysis.handlers.length > 0) return file;
  const taken = new Set<LegacySite>();
  for (const handler of frameworkHandlers(analysis.program, analysis.importedNames)) {
    const inHandler = file.candidates.filter((s) => s.functions.includes(handler.fn));
    const asks = frameworkAsks(handler, inHandler);
    if (asks.length === 0 || asks.length !== inHandler.length) continue;
    const site = handlerSite(handler);
    const plan = planned(file, handler, asks);
    for (const ask of asks) taken.add(ask);
    if (plan instanceof Refusal) {
      for (const ask of asks) mark(file, ask, !plan.site || plan.site.call === ask.call ? plan : blockedBySibling(file, plan), site);
      continue;
    }
    const writing = { source: file.source, eol: file.eol, typed: analysis.typed, style: file.style };
    file.frameworkEdits.push(...frameworkAskEdits(writing, handler, plan));
    file.frameworkEdits.push(...importEdit(file, handler, plan));
    file.frameworkEdits.push(...checkedReadEdits(file, checkedReadsOf(plan)));
    const requests = plan.rounds.flatMap((r) => r.requests);
    for (const ask of asks) {
      const { line, column } = ask.call.loc!.start;
      const kind = requests.find((r) => r.call === ask.call)!.kind;
      const guidance = KINDS[kind].guidance;
      file.reports.push({ line, column: column + 1, kind, handler: `tool:${handler.name}`, status: 'migrated', lifted: [], ...(guidance ? { guidance } : {}) });
    }
  }
  return taken.size === 0 ? file : { ...file, candidates: file.candidates.filter((s) => !taken.has(s)) };
}

/** The plan, or a refusal when a name its import adds is the module's own. */
function planned(file: FilePlanning, handler: FrameworkHandler, asks: LegacySite[]): FrameworkPlan | Refusal {
  const { analysis, options } = file;
  const plan = planFrameworkHandler(analysis, handler, asks, options.typeFacts, {
    idempotent: options.idempotent ?? [],
    flagSampling: options.sampling === 'flag',
  });
  if (plan instanceof Refusal) return plan;
  const from = (module: string, names: readonly string[]) => names.map((name) => ({ module, name }));
  const added = [
    ...from(handler.adapter.module, importedNames(handler, plan, analysis.typed)),
    ...checkedReadsOf(plan).flatMap((read) => [read.name, ...read.declares].map((name) => ({ module: '', name }))),
    ...checkedReadImports(checkedReadsOf(plan), analysis.typed).flatMap((i) => from(i.module, i.names)),
  ];
  for (const { module, name } of added) {
    const imported = analysis.importedNames.get(name);
    if (analysis.declaredAnywhere.has(name) && !(imported?.from === module && imported.imported === name)) {
      return refuse('name-clash', 'declaredInModule', { name }).at(asks[0]!);
    }
  }
  return plan;
}

/** The imports the checked reads need, one line a module (their types in TypeScript only). */
function checkedReadImports(reads: CheckedRead[], typed: boolean): Array<{ module: string; names: string[]; written: string[] }> {
  const modules = [...new Set(reads.flatMap((r) => r.imports.map((i) => i.module)))];
  return modules.map((module) => {
    const wanted = reads.flatMap((r) => r.imports.filter((i) => i.module === module));
    const names = [...new Set(wanted.flatMap((i) => i.names))];
    const types = typed ? [...new Set(wanted.flatMap((i) => i.types))] : [];
    return { module, names: [...names, ...types], written: [...names, ...types.map((t) => `type ${t}`)] };
  });
}

/** The checked reads at the end of the module, and the names they read imported. */
function checkedReadEdits(file: FilePlanning, reads: CheckedRead[]): Edit[] {
  if (reads.length === 0) return [];
  const { analysis, source } = file;
  const system = moduleSystemOf(analysis.fileName, analysis.program);
  const imports = checkedReadImports(reads, analysis.typed).flatMap(({ module, names, written }) => {
    const wanted = written.filter((_, i) => analysis.importedNames.get(names[i]!)?.from !== module);
    return wanted.length === 0 ? [] : [addImport(source, analysis.program, system, file.style, module, wanted)];
  });
  const end = source.length;
  const gap = source.endsWith(file.eol) ? file.eol : file.eol + file.eol;
  const declarations = reads.map((read) => read.declaration({ ...file, typed: analysis.typed }));
  return [...imports, { start: end, end, text: `${gap}${declarations.join(file.eol + file.eol)}${file.eol}` }];
}

/** The names the migrated tool reads from the framework's module: the builder, and the answers' types in TypeScript. */
function importedNames(handler: FrameworkHandler, plan: FrameworkPlan, typed: boolean): string[] {
  const { exports } = handler.adapter;
  const kinds = new Set(plan.rounds.filter((r) => r.answers.length > 0).flatMap((r) => r.requests.map((q) => q.kind)));
  const types = typed ? [...kinds].flatMap((k) => exports.answerTypes[k] ?? []) : [];
  return [exports.inputRequired, ...new Set(types)];
}

function importEdit(file: FilePlanning, handler: FrameworkHandler, plan: FrameworkPlan): Edit[] {
  const { analysis } = file;
  const { exports, module } = handler.adapter;
  const wanted = importedNames(handler, plan, analysis.typed).filter((name) => analysis.importedNames.get(name)?.from !== module);
  const names = wanted.map((name) => (name === exports.inputRequired ? name : `type ${name}`));
  if (names.length === 0) return [];
  return [addImport(file.source, analysis.program, moduleSystemOf(analysis.fileName, analysis.program), file.style, module, names)];
}

/** The tool as the planner's reports and markers name it (`tool:<name>`). */
function handlerSite(handler: FrameworkHandler): HandlerSite {
  return { kind: 'tool', name: handler.name, call: handler.fn, fn: handler.fn, ctxIndex: handler.adapter.context.index, ancestors: [] };
}
