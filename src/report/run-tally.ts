// What a run left, counted one way for every report of it: the text summary (summary.ts),
// `migrate --json` (json-summary.ts) and the `--report` HTML page (html-report.ts). Each count
// is made here only, so the three cannot disagree.
//
// A handler is a tool, prompt or resource handler: the unit the codemod migrates whole or not at
// all (the sites of one handler, by file and handler id, e.g. `tool:delete_records`, are migrated
// together or all left with a marker). A site in no handler (a request in `oninitialized`, a
// timer, an HTTP route) is a site, not a handler: it is counted apart, by `file:line`. The
// `server-elsewhere` and `secret-in-state` reports are not request sites and are not counted
// (they still appear among the markers).
import type { HandlerAskingThrough, RunResult, RunSite } from '../engine/run.ts';
import type { UpgradeNote, UpgradeNoteCode } from '../engine/v1-upgrade.ts';

export interface SiteTotals {
  total: number;
  migrated: number;
  /** Left with an `@mrtr-todo` marker. */
  marked: number;
}

export function siteTotals(sites: readonly RunSite[]): SiteTotals {
  const migrated = sites.filter((s) => s.status === 'migrated').length;
  return { total: sites.length, migrated, marked: sites.length - migrated };
}

/** The deprecation guidance of the sites, each note once with how many sites it concerns, in first-seen order. */
export function guidanceNotes(sites: readonly RunSite[]): { note: string; sites: number }[] {
  const notes = new Map<string, number>();
  for (const site of sites) if (site.guidance) notes.set(site.guidance, (notes.get(site.guidance) ?? 0) + 1);
  return [...notes].map(([note, count]) => ({ note, sites: count }));
}

/** A migrated handler that runs code again on each retry: the locals it derives again, and the calls that makes. */
export interface RerunTally {
  file: string;
  handler: string;
  /** Line of its first site. */
  line: number;
  locals: string[];
  calls: NonNullable<RunSite['rerun']>;
}

/** Why a call may run again, in words. */
export const RERUN_WHY: Readonly<Record<NonNullable<RunSite['rerun']>[number]['why'], string>> = {
  read: 'only reads',
  'pure-function': 'a function shown to only compute',
  declared: 'declared idempotent',
  bracket: 'a per-round bracket: acquired before the dispatch, released in its finally',
};

/** Where a call that runs again is: `line 12`, or `src/registrar.ts:12` for one another module makes. */
export function rerunWhere(call: RerunTally['calls'][number]): string {
  return call.file === undefined ? `line ${call.line}` : `${call.file}:${call.line}`;
}

/** What each migrated handler runs again on a retry, once per handler (every site of it carries the same). */
export function rerunByHandler(sites: readonly RunSite[]): RerunTally[] {
  const out = new Map<string, RerunTally>();
  for (const site of sites) {
    if (site.status !== 'migrated' || site.handler === undefined || !(site.rerun?.length || site.rederived?.length)) continue;
    const key = `${site.file}\0${site.handler}`;
    if (!out.has(key)) out.set(key, { file: site.file, handler: site.handler, line: site.line, locals: site.rederived ?? [], calls: site.rerun ?? [] });
  }
  return [...out.values()];
}

interface HandlerTally {
  /** Undefined for a site outside any handler. */
  handler?: string;
  file: string;
  /** Line of the first site left for a person (or of the first site). */
  line: number;
  migrated: boolean;
  /** Marker codes of its sites, in order, without duplicates. */
  codes: string[];
}

export interface HandlerSummary {
  /** Tool, prompt and resource handlers with a site, or asking through other modules' helpers (RunResult.askingThrough). */
  total: number;
  migrated: number;
  manual: HandlerTally[];
  /** Sites in no handler, each by its place (none can be migrated: nothing can answer there). */
  outside: HandlerTally[];
}

const NOT_A_SITE = new Set(['server-elsewhere', 'secret-in-state']);

/** How a split helper's site names itself in place of a handler (`helper:confirm`). */
const HELPER_SITE = 'helper:';

export function summariseHandlers(sites: readonly RunSite[], askingThrough: readonly HandlerAskingThrough[] = []): HandlerSummary {
  const handlers = new Map<string, HandlerTally>();
  for (const h of askingThrough) handlers.set(`${h.file}\0${h.handler}`, { handler: h.handler, file: h.file, line: h.line, migrated: true, codes: [] });
  for (const site of sites) {
    if (site.handler === undefined && site.code !== undefined && NOT_A_SITE.has(site.code)) continue;
    // A split helper's site is no handler: the handlers asking through it are (askingThrough).
    if (site.status === 'migrated' && site.handler?.startsWith(HELPER_SITE)) continue;
    const key = site.handler === undefined ? `${site.file}\0@${site.line}:${site.column}` : `${site.file}\0${site.handler}`;
    let tally = handlers.get(key);
    if (!tally) {
      tally = { ...(site.handler !== undefined ? { handler: site.handler } : {}), file: site.file, line: site.line, migrated: true, codes: [] };
      handlers.set(key, tally);
    }
    if (site.status !== 'migrated') {
      if (tally.migrated) tally.line = site.line;
      tally.migrated = false;
      const code = site.code ?? 'todo';
      if (!tally.codes.includes(code)) tally.codes.push(code);
    }
  }
  const all = [...handlers.values()].filter((h) => h.handler !== undefined);
  const outside = [...handlers.values()].filter((h) => h.handler === undefined && !h.migrated);
  return { total: all.length, migrated: all.filter((h) => h.migrated).length, manual: all.filter((h) => !h.migrated), outside };
}

/** A note of the official v1-to-v2 codemod, with the file it is about. */
export interface FileUpgradeNote extends UpgradeNote {
  file: string;
}

/**
 * Which notes of the official codemod are open work: the file is not (all) on the v2 SDK yet.
 * A record, not a list, so a new note code does not compile until it is classified here.
 */
const OPEN_WORK: Record<UpgradeNoteCode, boolean> = {
  'mcp-codemod-error': true,
  'mcp-codemod-failed': true,
  'v1-import-left': true,
  'tasks-api-left': true,
  'mcp-codemod-warning': false,
  'mcp-codemod-info': false,
};

/** What the official codemod left for a person in the run's v1 files, file by file. */
export function openUpgradeNotes(result: Pick<RunResult, 'upgrades'>): FileUpgradeNote[] {
  return upgradeNotesWhere(result, (code) => OPEN_WORK[code]);
}

/**
 * Whether a note is of code the v2 SDK cannot build: the v1 SDK's experimental tasks API, which
 * v2 removed (SEP-2663), marked by us at each statement still using it, or by the official
 * codemod at an option naming it or an import from it it does not know.
 */
export function blocksBuild(note: UpgradeNote): boolean {
  return note.code === 'tasks-api-left' || (note.code === 'mcp-codemod-error' && /SEP-2663|\/experimental\/tasks\b/.test(note.message));
}

/** The open notes that keep the server from building, file by file. */
export function buildBlockers(result: Pick<RunResult, 'upgrades'>): FileUpgradeNote[] {
  return openUpgradeNotes(result).filter(blocksBuild);
}

/** The changes the official codemod (or the manifest update) asks to verify by hand. */
export function upgradeWarnings(result: Pick<RunResult, 'upgrades'>): FileUpgradeNote[] {
  return upgradeNotesWhere(result, (code) => code === 'mcp-codemod-warning');
}

function upgradeNotesWhere(result: Pick<RunResult, 'upgrades'>, keep: (code: UpgradeNoteCode) => boolean): FileUpgradeNote[] {
  return result.upgrades.flatMap((upgrade) => upgrade.notes.filter((note) => keep(note.code)).map((note) => ({ file: upgrade.file, ...note })));
}
