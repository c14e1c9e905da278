// Why an exported helper that could be split stays whole, as the markers of its callers and its
// own are told (approvedSplits fills RefusedSplits). A function that asks through another
// module's helper and stays whole names its own reason, so that the helper's marker and the
// marker at that function's call do not send the reader to each other.
import path from 'node:path';
import { fileLineRef } from '../core/line-refs.ts';
import type { HeldBack, LegacyEntryCall, RefusedCall } from '../plan/plan-options.ts';
import { helperKey, type ExportedHelper } from './helper-keys.ts';

/** Why helpers that could be split stay whole (approvedSplits fills it). */
export interface RefusedSplits {
  /** By helperKey: the first call found of the helper that cannot migrate. */
  calls: Map<string, RefusedCall>;
  /** By an importer's absolute path, then handlerId: the refusal that kept the handler from asking through the halves. */
  heldBack: Map<string, Record<string, HeldBack>>;
  /**
   * By an importer's absolute path: its exported functions, no handlers, that call a helper it
   * imports and so keep it whole (each with the call's line and the helper's name).
   */
  exportedCallers?: Map<string, Array<ExportedHelper & { through: string; why?: string }>>;
  /**
   * By an importer's absolute path: its exported functions, no handlers, that would ask through
   * a helper it imports, were they split (each with the key of that helper, `inner`).
   */
  wrappers?: Map<string, Array<ExportedHelper & { inner: string }>>;
  /**
   * By helperKey, then by importer: helpers split though a call cannot ask through their halves,
   * because their module keeps them under their names for such calls (plan/legacy-entry.ts);
   * the first such call of each importer, as its last plan has it.
   */
  entries?: Map<string, Map<string, LegacyEntryCall>>;
}

/** Codes that say a handler is blocked by something else than its own code (another helper, another site). */
export const NOT_ITS_OWN: ReadonlySet<string> = new Set(['via-helper', 'blocked-by-helper', 'blocked-by-sibling', 'in-helper', 'server-elsewhere']);

/**
 * A helper kept whole because its call in a function that asks through it (`inner`) cannot
 * migrate is told why that function stays whole, not that its call is marked: the call's
 * marker says the helper stays whole, and the two would send the reader to each other.
 */
export function wrappersNamed(
  refused: RefusedSplits,
  inner: ReadonlyMap<string, string>,
  helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
  display: (module: string) => string,
): void {
  for (const [wrapper, through] of inner) {
    const whole = refused.calls.get(wrapper);
    const call = refused.calls.get(through);
    const own = wrapperOf(helpers, inner, wrapper);
    if (!whole || !own || (whole.caller === undefined && whole.code === '' && !whole.outside)) continue;
    // Only the call in that function: another caller's refusal is its own.
    if (call && (call.caller !== undefined || !NOT_ITS_OWN.has(call.code) || call.file !== display(own.module))) continue;
    const why = wholeBecause(whole, own.name);
    refused.calls.set(through, { file: display(own.module), line: own.line, code: '', caller: own.name, callerReach: 'exported', why });
  }
}

/** The function `key` names when it asks through another module's helper (`inner`): its module, name and the line of that call. */
function wrapperOf(
  helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
  inner: ReadonlyMap<string, string>,
  key: string,
): (ExportedHelper & { module: string }) | undefined {
  if (!inner.has(key)) return undefined;
  const module = key.slice(0, key.indexOf('\0'));
  const found = helpers.get(module)?.find((h) => helperKey(module, h.name) === key);
  return found && { ...found, module };
}

/** Why a function that asks through a helper stays whole, as its RefusedCall says: a sentence. */
function wholeBecause(whole: RefusedCall, name: string): string {
  if (whole.caller === name && whole.why) return whole.why;
  if (whole.outside) return calledOutside(whole.file, whole.line);
  if (whole.caller === undefined) return `its call at ${whole.file}:${fileLineRef(whole.file, whole.line)} cannot migrate (${whole.code}).`;
  const turn = whole.why ? `, and cannot be split in turn: ${whole.why}` : '.';
  return `\`${whole.caller}()\` calls it at ${whole.file}:${fileLineRef(whole.file, whole.line)} and is no handler${turn}`;
}

/**
 * Drops a helper no module of the run imports by name. A function that asks through another
 * module's helper (`inner`) says why it stays whole: the helper it asks through is then kept
 * whole for it, and its markers name it.
 */
export function unimported(
  approved: Set<string>,
  refused: RefusedSplits,
  inner: ReadonlyMap<string, string>,
  file: string,
  module: string,
  h: ExportedHelper,
): void {
  const key = helperKey(module, h.name);
  approved.delete(key);
  if (inner.has(key) && !refused.calls.has(key))
    refused.calls.set(key, { file, line: h.line, code: '', caller: h.name, callerReach: 'exported', why: NOT_IMPORTED });
}

const NOT_IMPORTED =
  'no module of the run imports it by name, and its module exports it: a caller out of sight (another package, a path alias, a file outside the paths given) would be left calling a function that is gone.';

/** Why a function that asks through a helper stays whole when `file` calls it at `line` outside any handler and any named function. */
function calledOutside(file: string, line: number): string {
  return `it is called outside handlers at ${path.basename(file)}:${fileLineRef(file, line)} (a test or a script), which would be left calling a function that is gone.`;
}

/**
 * Drops a helper whose request another helper of its module makes too (the same line), which
 * stays whole: they are split together or not at all. Its callers' markers name that helper.
 */
export function keptWithSibling(
  approved: Set<string>,
  refused: RefusedSplits,
  list: readonly ExportedHelper[],
  file: string,
  module: string,
  h: ExportedHelper,
): void {
  const key = helperKey(module, h.name);
  const wasApproved = approved.delete(key);
  const sibling = list.find((o) => o.name !== h.name && o.line === h.line && !approved.has(helperKey(module, o.name)));
  if (wasApproved && sibling && !refused.calls.has(key)) refused.calls.set(key, { file, line: h.line, code: '', sibling: sibling.name });
}

/**
 * Calls of helpers outside any handler and any named function (a test's callback), by helper
 * key: the reason a helper stays whole only when no other is found, and only for a helper the
 * run calls elsewhere too (`seen`) or a function that asks through another's helper. A helper
 * only a test calls is better told that no handler calls it.
 */
export interface OutsideCalls {
  calls: Map<string, RefusedCall>;
  seen: Set<string>;
}

/** The record of a call outside any handler: of the function, when it asks through another module's helper. */
export function calledOutsideAt(
  helpers: ReadonlyMap<string, readonly ExportedHelper[]>,
  inner: ReadonlyMap<string, string>,
  key: string,
  file: string,
  line: number,
  index: { display(module: string): string },
): RefusedCall {
  const wrapper = wrapperOf(helpers, inner, key);
  if (!wrapper) return { file, line, code: '', outside: true };
  return { file: index.display(wrapper.module), line: wrapper.line, code: '', caller: wrapper.name, callerReach: 'exported', why: calledOutside(file, line) };
}

/** Gives the helpers no other reason keeps whole the call outside handlers that does (OutsideCalls). */
export function outsideCalls(refused: RefusedSplits, outside: OutsideCalls, inner: ReadonlyMap<string, string>): void {
  for (const [key, record] of outside.calls) if (!refused.calls.has(key) && (inner.has(key) || outside.seen.has(key))) refused.calls.set(key, record);
}
