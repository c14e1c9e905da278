// The engine's step for the request-state module: one module a package, written once, imported
// by the package's migrated files and wired into the server where it is built.
//
// - Before the files are transformed (place): each candidate's package (the nearest
//   package.json), the modules that build the server its handlers are registered on (followed
//   through the imports, see import-graph.ts), and where the package's module goes: the path
//   the user named (--state-module), else beside the module that builds the server, else in
//   the deepest folder holding the package's candidates. Its form follows the package:
//   TypeScript when a candidate is, else an ES module or CommonJS as the candidates are.
// - After (finish): the module is written where a migrated file imports it (or refreshed when
//   an earlier run wrote an older text and nobody edited it), and the verifier is wired into
//   each module that builds the server and is not a migrated file that did it itself.
//
// Both steps keep the run's guarantees: the module's place is inside the directory the run is
// in and the work tree of the files importing it, never a symbolic link (new-file-bounds.ts; a
// place out of bounds refuses the files that would import it, as a foreign file there does);
// every write is atomic and replaces only what was read (a new module only where there is
// still none); a read-only file is left as it is.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { analyseFile } from '../analyse/analyse-file.ts';
import { dialectOf, ParseFailure } from '../analyse/parse.ts';
import { SERVER_PACKAGE, STATE_EXPORTS, TODO_MARKER } from '../analyse/sdk-surface.ts';
import { codeStyleOf } from '../analyse/code-style.ts';
import { importedFrom, isImported, moduleSystemOf, STATE_MODULE_NAME, stateModuleSpecifier } from '../analyse/module-imports.ts';
import { addImport } from '../rewrite/edits/imports.ts';
import type { StateModuleOptions } from '../plan/plan-options.ts';
import type { Edit } from '../core/vocabulary.ts';
import { wireVerifier } from '../rewrite/edits/verifier.ts';
import { applyEdits } from '../rewrite/rewrite.ts';
import { STATE_MODULE_SENTINEL, stateModuleStatus, stateModuleText, type StateModuleForm } from '../rewrite/state-module.ts';
import { ChangedOnDiskError, readOnlyReason, writeFileAtomic } from './atomic-write.ts';
import { describeFsError } from './discover.ts';
import { ImportGraph, resolveAmong } from './import-graph.ts';
import { newFileProblem } from './new-file-bounds.ts';
import { displayPath, readSource } from './source-files.ts';
import { verifyParses } from './verify-output.ts';

/** What a run did with a request-state module. */
export interface StateModuleRecord {
  /** The module, relative to the run's directory. */
  file: string;
  form: StateModuleForm;
  /** created, refreshed (an older text of the codemod's), current (left as it was), edited (by a person: left alone). */
  status: 'created' | 'refreshed' | 'current' | 'edited';
  /** The modules the run wired the verifier into (relative), besides migrated files that build their own server. */
  wiredIn: string[];
}

/** Where one candidate's handlers import the module from, or why the file must be left alone. */
export interface Placement {
  options: StateModuleOptions;
  /** The modules that build the server the candidate's handlers are registered on (other than the candidate). */
  builders: string[];
  /** Set when the module's path holds a file the codemod did not write, or is out of bounds. */
  refused?: string;
}

/** A candidate once transformed, as finish needs it. */
export interface TransformedFile {
  absolutePath: string;
  /** Its migrated handlers import mrtrResume from the module. */
  importsModule: boolean;
  /** Its text now: the output when it changed, else what was read. */
  text: string;
  /** Its bytes on disk now (after this run's write, if any). A Uint8Array, so the published declarations need no Node types. */
  bytes: Uint8Array;
  /** Its write waits for the lines of other modules its markers name (the run writes it then, with what this step adds). */
  held?: boolean;
}

/** A file the step changed, in the shape of the run's ChangedFile. */
export interface StepChange {
  path: string;
  absolutePath: string;
  original: string;
  output: string;
  written: boolean;
  /** The file did not exist before (a patch creates it). */
  created?: boolean;
}

export class StateModules {
  readonly graph = new ImportGraph();
  /** Modules an earlier run wrote, found among the files read: refreshed when outdated. */
  private readonly existing = new Map<string, string>();
  /** Module files a read file imports that do not exist (a jscodeshift run leaves them to us). */
  private readonly missing = new Set<string>();
  private readonly placements = new Map<string, Placement>();
  /** Each package's module, once placed (by the package's root): files placed later use it too. */
  private readonly placed = new Map<string, { modulePath: string; refused?: string }>();
  /** The form of each module path met: a package's, or that of the files importing a missing one. */
  private readonly forms = new Map<string, StateModuleForm>();
  private readonly packages = new Map<string, { root: string; type?: string }>();
  /** The files that import each module path (placed, or found importing a missing one). */
  private readonly importers = new Map<string, Set<string>>();
  /** Files an earlier run migrated (they import mrtrResume from a module that exists), by the module they import. */
  private readonly migratedEarlier = new Map<string, string>();
  /** Whether each module met builds a server whose options the codemod can extend. */
  private readonly wirable = new Map<string, boolean>();

  constructor(
    private readonly cwd: string,
    /** --state-module: the module's path for every package, relative to cwd. */
    private readonly requested?: string,
    /** Write read-only files too (RunSettings.writeReadOnly). */
    private readonly writeReadOnly = false,
  ) {}

  /** Every file the run reads goes through here, with its text. */
  note(file: string, source: string): void {
    this.graph.note(file, source);
    if (path.basename(file).startsWith(`${STATE_MODULE_NAME}.`) && source.includes(STATE_MODULE_SENTINEL)) {
      this.existing.set(file, source);
      this.forms.set(file, /\.(c|m)?tsx?$/.test(file) ? 'ts' : /^(const|let|var) \w+ = require\(|^exports\./m.test(source) ? 'cjs' : 'esm');
    }
    // Its specifiers (read with its text) are looked through, not the whole text: a search of
    // every file's text for the name took ~12 ms on 30 MB of sources.
    for (const specifier of this.graph.specifiersOf(file)) {
      if (!specifier.includes(STATE_MODULE_NAME)) continue;
      const dir = path.dirname(file);
      const found = resolveAmong(dir, specifier, existsSync);
      if (found && source.includes(STATE_EXPORTS.resume)) this.migratedEarlier.set(file, found);
      if (found) continue;
      const module = sourceFileOf(path.resolve(dir, specifier), file);
      this.missing.add(module);
      this.importedBy(module, [file]);
      if (!this.forms.has(module))
        this.forms.set(module, dialectOf(file) !== 'js' ? 'ts' : /\brequire\s*\(/.test(source) && !/^\s*(import|export)\s/m.test(source) ? 'cjs' : 'esm');
    }
  }

  /**
   * Decides, before the candidates are transformed, where each one's module is. A file placed
   * by a later call (one the cross-module pass migrates, having no request of its own) gets the
   * module already placed for its package, if there is one. Returns every placement so far.
   */
  async place(candidates: ReadonlyArray<{ absolutePath: string; source: string }>): Promise<Map<string, Placement>> {
    const texts = new Map(candidates.map((c) => [c.absolutePath, c.source]));
    const canWire = (file: string) => this.canWire(file, texts.get(file));
    const byPackage = new Map<string, (typeof candidates)[number][]>();
    for (const c of candidates) {
      const root = this.packageOf(c.absolutePath).root;
      const list = byPackage.get(root);
      if (list) list.push(c);
      else byPackage.set(root, [c]);
    }
    for (const [root, members] of byPackage) {
      const builders = new Map(
        members.map((c) => [c.absolutePath, this.graph.buildersReaching(c.absolutePath).filter((b) => b !== c.absolutePath && canWire(b))]),
      );
      let decided = this.placed.get(root);
      if (!decided) {
        decided = await this.placeModule(members, builders);
        this.placed.set(root, decided);
      } else
        this.importedBy(
          decided.modulePath,
          members.map((c) => c.absolutePath),
        );
      const { modulePath, refused } = decided;
      for (const c of members) {
        const own = builders.get(c.absolutePath)!;
        this.placements.set(c.absolutePath, {
          options: { path: modulePath, verifierWiredElsewhere: own.length > 0 },
          builders: own,
          ...(refused ? { refused } : {}),
        });
      }
    }
    return this.placements;
  }

  /** Where a package's module goes, decided for its first members (`builders`: the modules each reaches that build a server). */
  private async placeModule(
    members: ReadonlyArray<{ absolutePath: string; source: string }>,
    builders: ReadonlyMap<string, string[]>,
  ): Promise<{ modulePath: string; refused?: string }> {
    const type = this.packageOf(members[0]!.absolutePath).type;
    const form = packageForm(members, type);
    // Beside the module(s) that build the server: found through the imports, or a candidate itself.
    const located = [...new Set([...[...builders.values()].flat(), ...members.map((c) => c.absolutePath).filter((f) => this.graph.builders.has(f))])];
    const modulePath = this.modulePath(
      moduleExtension(form, type),
      members.map((c) => c.absolutePath),
      located,
    );
    this.forms.set(modulePath, form);
    this.importedBy(
      modulePath,
      members.map((c) => c.absolutePath),
    );
    const refused = this.foreign(modulePath, form) ?? (await this.outOfBounds(modulePath));
    return { modulePath, ...(refused ? { refused } : {}) };
  }

  /**
   * Writes the modules the transformed files import (and refreshes outdated ones), then wires
   * the verifier where the servers are built. Returns the files changed (the wired modules,
   * then the request-state modules) and what was done.
   */
  async finish(
    files: readonly TransformedFile[],
    write: boolean,
  ): Promise<{ changes: StepChange[]; errors: Array<{ file: string; message: string }>; modules: StateModuleRecord[] }> {
    const moduleChanges: StepChange[] = [];
    const wiringChanges: StepChange[] = [];
    const errors: Array<{ file: string; message: string }> = [];
    const records = new Map<string, StateModuleRecord>();
    const byPath = new Map(files.map((f) => [f.absolutePath, f]));

    const wanted = new Set<string>();
    for (const f of files) {
      const placed = this.placements.get(f.absolutePath);
      if (f.importsModule && placed && !placed.refused) wanted.add(placed.options.path!);
    }
    for (const file of [...this.missing, ...this.existing.keys()]) wanted.add(file);

    for (const file of wanted) {
      const outcome = await (this.written.get(file) ?? this.writeModule(file, this.forms.get(file)!, write));
      if ('error' in outcome) errors.push({ file: displayPath(this.cwd, file), message: outcome.error });
      else {
        records.set(file, outcome.record);
        if (outcome.change) moduleChanges.push(outcome.change);
      }
    }

    // The verifier, where the servers are built.
    const toWire = this.serversToWire(files, byPath);
    const failed = new Set<string>();
    for (const [builder, { modulePath, migratedNow }] of [...toWire].sort(([a], [b]) => a.localeCompare(b))) {
      const known = byPath.get(builder);
      const wired = await this.wire(builder, modulePath, known, write);
      if ('error' in wired) {
        errors.push({ file: displayPath(this.cwd, builder), message: wired.error });
        failed.add(builder);
        continue;
      }
      if (wired.change) wiringChanges.push(wired.change);
      // (Wired by an earlier run for the files that one migrated: not this run's doing.)
      if (wired.change || migratedNow) records.get(modulePath)?.wiredIn.push(displayPath(this.cwd, builder));
    }
    const unmarked = await this.unmarkWired(toWire, failed, byPath, write);
    errors.push(...unmarked.errors);
    // The modules wired first (and the markers that said they were not), then the request-state modules (reviewed last).
    return { changes: [...wiringChanges, ...unmarked.changes, ...moduleChanges], errors, modules: [...records.values()] };
  }

  /**
   * The marker an earlier run left where it found no server to wire says what is done now: it
   * goes from each file whose servers are all wired (a file that builds one of them too was
   * rewritten by its wiring: left for the next run).
   */
  private async unmarkWired(
    toWire: ReadonlyMap<string, { importers: string[] }>,
    failed: ReadonlySet<string>,
    byPath: ReadonlyMap<string, TransformedFile>,
    write: boolean,
  ): Promise<{ changes: StepChange[]; errors: Array<{ file: string; message: string }> }> {
    const wiredFor = new Map<string, boolean>();
    for (const [builder, { importers }] of toWire)
      for (const importer of importers) wiredFor.set(importer, !failed.has(builder) && wiredFor.get(importer) !== false);
    const changes: StepChange[] = [];
    const errors: Array<{ file: string; message: string }> = [];
    for (const [importer, wired] of [...wiredFor].sort(([a], [b]) => a.localeCompare(b))) {
      if (!wired || toWire.has(importer)) continue;
      const unmarked = await this.unmark(importer, byPath.get(importer), write);
      if ('error' in unmarked) errors.push({ file: displayPath(this.cwd, importer), message: unmarked.error });
      else if (unmarked.change) changes.push(unmarked.change);
    }
    return { changes, errors };
  }

  /**
   * The modules that build the servers the migrated files' handlers are registered on, each with
   * the request-state module it imports the verifier from and the files it is wired for: those
   * this run migrated, and those an earlier run migrated whose server it could not reach then
   * (`migrate src/tools/`, then `migrate src/`): they import the module already.
   */
  private serversToWire(
    files: readonly TransformedFile[],
    byPath: ReadonlyMap<string, TransformedFile>,
  ): Map<string, { modulePath: string; importers: string[]; migratedNow: boolean }> {
    const toWire = new Map<string, { modulePath: string; importers: string[]; migratedNow: boolean }>();
    const add = (builder: string, modulePath: string, importer: string, now: boolean) => {
      const wanted = toWire.get(builder) ?? { modulePath, importers: [], migratedNow: false };
      wanted.importers.push(importer);
      wanted.migratedNow ||= now;
      toWire.set(builder, wanted);
    };
    for (const f of files) {
      const placed = this.placements.get(f.absolutePath);
      if (!f.importsModule || !placed || placed.refused) continue;
      for (const builder of placed.builders) add(builder, placed.options.path!, f.absolutePath, true);
    }
    for (const [importer, modulePath] of this.migratedEarlier) {
      if (byPath.get(importer)?.importsModule || !this.writtenByUs(modulePath)) continue;
      for (const builder of this.graph.buildersReaching(importer)) {
        if (builder !== importer && this.canWire(builder, byPath.get(builder)?.text)) add(builder, modulePath, importer, false);
      }
    }
    return toWire;
  }

  /**
   * The module (with the extension `ext` of the package's form) the files of a package an earlier
   * run migrated import, where a run over a part of the package put it beside them: the package
   * keeps one module, whose verifier serves them all.
   */
  private earlierModule(root: string, ext: string): string | undefined {
    const modules = [...this.migratedEarlier]
      .filter(([file, module]) => this.packageOf(file).root === root && path.extname(module) === ext && this.writtenByUs(module))
      .map(([, module]) => module);
    return modules.sort()[0];
  }

  /** Whether a file builds an MCP server whose options the codemod can extend (its text, when the run has it). */
  private canWire(file: string, text: string | undefined): boolean {
    let ok = this.wirable.get(file);
    if (ok === undefined) this.wirable.set(file, (ok = buildsWirableServer(file, text ?? readSource(file)?.source)));
    return ok;
  }

  /** Whether a module is one this codemod wrote (an earlier run's, read by this one or not). */
  private writtenByUs(modulePath: string): boolean {
    const text = this.existing.get(modulePath) ?? readSource(modulePath)?.source;
    return text !== undefined && text.includes(STATE_MODULE_SENTINEL);
  }

  /** Removes the server-elsewhere marker an earlier run wrote in a file whose server is wired now. */
  private async unmark(file: string, known: TransformedFile | undefined, write: boolean): Promise<{ change?: StepChange } | { error: string }> {
    const read = known ? { source: known.text, bytes: known.bytes } : readSource(file);
    if (!read) return { error: 'cannot read the file, to remove its server-elsewhere marker (the verifier is wired now)' };
    const output = read.source.replace(SERVER_ELSEWHERE_MARKER, '');
    if (output === read.source) return {};
    const change: StepChange = { path: displayPath(this.cwd, file), absolutePath: file, original: read.source, output, written: false };
    if (!write || known?.held) return { change };
    try {
      const readOnly = this.writeReadOnly ? undefined : await readOnlyReason(file);
      if (readOnly) return { error: `${readOnly}; its server-elsewhere marker was left (the verifier is wired now: delete it)` };
      await writeFileAtomic(file, output, { expected: read.bytes });
      change.written = true;
    } catch (error) {
      if (error instanceof ChangedOnDiskError)
        return { error: 'the file changed on disk during the run; its server-elsewhere marker was left (the verifier is wired now: delete it)' };
      return { error: `cannot write: ${describeFsError(error)}` };
    }
    return { change };
  }

  private async writeModule(
    file: string,
    form: StateModuleForm,
    write: boolean,
  ): Promise<{ record: StateModuleRecord; change?: StepChange } | { error: string }> {
    const text = stateModuleText(form);
    const record = (status: StateModuleRecord['status']): StateModuleRecord => ({ file: displayPath(this.cwd, file), form, status, wiredIn: [] });
    let bytes: Buffer | undefined;
    try {
      bytes = await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { error: `cannot read the request-state module: ${describeFsError(error)}` };
    }
    const before = bytes?.toString('utf8');
    let status: StateModuleRecord['status'] = 'created';
    if (before !== undefined) {
      const found = stateModuleStatus(before, form);
      if (found.kind === 'foreign') return { error: `${displayPath(this.cwd, file)} is not a request-state module mrtr-codemod wrote; left as it is` };
      if (found.kind === 'current') return { record: record('current') };
      if (found.kind === 'edited') return { record: record('edited') };
      status = 'refreshed';
    }
    // Found (a dry run too) before anything is written: the same outcome either way.
    const refused = await this.outOfBounds(file);
    if (refused) return { error: refused };
    const change: StepChange = {
      path: displayPath(this.cwd, file),
      absolutePath: file,
      original: before ?? '',
      output: text,
      written: false,
      ...(before === undefined ? { created: true } : {}),
    };
    if (write) {
      try {
        const readOnly = bytes && !this.writeReadOnly ? await readOnlyReason(file) : undefined;
        if (readOnly) return { error: `${readOnly}; the request-state module was left as it is (make it writable to refresh it)` };
        // Its folder (named by --state-module) may not exist yet: it is inside the bounds.
        if (!bytes) await mkdir(path.dirname(file), { recursive: true });
        // A new module never replaces a file made meanwhile, a refreshed one only the text read.
        await writeFileAtomic(file, text, { ...(bytes ? { expected: bytes } : { absent: true }), noLink: true });
        change.written = true;
      } catch (error) {
        if (error instanceof ChangedOnDiskError) return { error: 'the request-state module changed on disk during the run; it was left as it is (run again)' };
        return { error: `cannot write the request-state module: ${describeFsError(error)}` };
      }
    }
    return { record: record(status), change };
  }

  /** Modules written before the first file that imports them (see writeBefore), by path. */
  private readonly written = new Map<string, Promise<{ record: StateModuleRecord; change?: StepChange } | { error: string }>>();

  /**
   * Writes the module a migrated file is about to import, once, before that file is written:
   * a run stopped between writes (Ctrl-C, a crash) then leaves no file importing a module
   * that does not exist, and a rerun finishes the job. The reason when it cannot be written.
   */
  async writeBefore(modulePath: string): Promise<string | undefined> {
    const form = this.forms.get(modulePath);
    if (form === undefined) return undefined;
    let pending = this.written.get(modulePath);
    if (!pending) {
      pending = this.writeModule(modulePath, form, true);
      this.written.set(modulePath, pending);
    }
    const outcome = await pending;
    return 'error' in outcome ? outcome.error : undefined;
  }

  /** Wires the verifier into the module that builds a server, and imports it there. */
  private async wire(
    file: string,
    modulePath: string,
    known: TransformedFile | undefined,
    write: boolean,
  ): Promise<{ change?: StepChange } | { error: string }> {
    const read = known ? { source: known.text, bytes: known.bytes } : readSource(file);
    if (!read) return { error: 'cannot read the module that builds the server, to wire the request-state verifier' };
    const wired = wiredText(file, read.source, modulePath);
    if (wired === undefined || 'error' in wired) return wired ?? {};
    // (The run puts a transformed file's own original in its place.)
    const change: StepChange = { path: displayPath(this.cwd, file), absolutePath: file, original: read.source, output: wired.output, written: false };
    if (!write || known?.held) return { change };
    const error = await this.writeWired(file, wired.output, read.bytes);
    if (error) return { error };
    change.written = true;
    return { change };
  }

  /** Writes a wired server module, unless it is read-only or changed during the run: then why not. */
  private async writeWired(file: string, output: string, bytes: Uint8Array): Promise<string | undefined> {
    const byHand = 'add requestState: { verify: mrtrVerify() } by hand, or run again once it is';
    try {
      const readOnly = this.writeReadOnly ? undefined : await readOnlyReason(file);
      if (readOnly) return `${readOnly}; the request-state verifier was not wired: ${byHand} writable`;
      // Compared just before the rename: an edit saved while the run was busy is kept.
      await writeFileAtomic(file, output, { expected: bytes });
      return undefined;
    } catch (error) {
      if (error instanceof ChangedOnDiskError) return `the file changed on disk during the run, so the request-state verifier was not wired: ${byHand} saved`;
      return `cannot write: ${describeFsError(error)}`;
    }
  }

  private modulePath(ext: string, members: string[], builders: string[]): string {
    if (this.requested !== undefined) {
      const target = path.resolve(this.cwd, this.requested);
      const isDir = this.requested.endsWith('/') || (existsSync(target) && !path.extname(target));
      return isDir ? path.join(target, STATE_MODULE_NAME + ext) : target;
    }
    const earlier = this.earlierModule(this.packageOf(members[0]!).root, ext);
    if (earlier) return earlier;
    const dir = commonDirectory(builders.length > 0 ? builders : members);
    return path.join(dir, STATE_MODULE_NAME + ext);
  }

  private importedBy(module: string, files: readonly string[]): void {
    const set = this.importers.get(module) ?? new Set<string>();
    for (const file of files) set.add(file);
    this.importers.set(module, set);
  }

  /** Why the module's path cannot be used: it is outside the run's bounds, or a link. */
  private async outOfBounds(modulePath: string): Promise<string | undefined> {
    const problem = await newFileProblem(modulePath, this.cwd, this.importers.get(modulePath) ?? []);
    if (!problem) return undefined;
    return `the request-state module's path ${displayPath(this.cwd, modulePath)} ${problem}, so it is not written there (name another path with --state-module)`;
  }

  /** Why the module's path cannot be used: it holds a file the codemod did not write. */
  private foreign(modulePath: string, form: StateModuleForm): string | undefined {
    let text: string;
    try {
      text = readFileSync(modulePath, 'utf8');
    } catch {
      return undefined;
    }
    if (stateModuleStatus(text, form).kind !== 'foreign') return undefined;
    return `the request-state module's path ${displayPath(this.cwd, modulePath)} holds a file mrtr-codemod did not write; the file was left as it is (move that file, or name another path with --state-module)`;
  }

  /**
   * The nearest folder with a package.json above a file, and its module type; the run's
   * directory when there is none up to it.
   */
  private packageOf(file: string): { root: string; type?: string } {
    const dir = path.dirname(file);
    const cached = this.packages.get(dir);
    if (cached) return cached;
    let found: { root: string; type?: string };
    const manifest = manifestType(dir);
    if (manifest.exists) found = { root: dir, type: manifest.type };
    else if (dir === this.cwd || path.dirname(dir) === dir) found = { root: this.cwd, type: manifestType(this.cwd).type };
    else found = this.packageOf(dir);
    this.packages.set(dir, found);
    return found;
  }
}

function manifestType(dir: string): { exists: boolean; type?: string } {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'package.json'), 'utf8');
  } catch {
    return { exists: false };
  }
  try {
    const type = (JSON.parse(text) as { type?: unknown }).type;
    return { exists: true, type: typeof type === 'string' ? type : undefined };
  } catch {
    return { exists: true };
  }
}

/** The line of the marker a migrated file gets when its server is not wired (src/plan/wiring.ts). */
const SERVER_ELSEWHERE_MARKER = new RegExp(`^[ \\t]*// ${TODO_MARKER}\\(server-elsewhere\\):[^\\n]*\\n`, 'gm');

/** Whether a file builds an MCP server whose options the codemod can extend. */
function buildsWirableServer(file: string, source: string | undefined): boolean {
  if (source === undefined) return false;
  try {
    const analysis = analyseFile(source, file);
    return (
      analysis.serverConstructions.some((c) => wireVerifier(source, c) !== undefined) &&
      (analysis.serverImport !== undefined || source.includes(SERVER_PACKAGE) || source.includes('@modelcontextprotocol/sdk'))
    );
  } catch {
    return false;
  }
}

function packageForm(members: ReadonlyArray<{ absolutePath: string; source: string }>, type: string | undefined): StateModuleForm {
  if (members.some((c) => dialectOf(c.absolutePath) !== 'js')) return 'ts';
  const cjs = members.filter(
    (c) => c.absolutePath.endsWith('.cjs') || (c.absolutePath.endsWith('.js') && type !== 'module' && !/^\s*(import|export)\s/m.test(c.source)),
  ).length;
  return cjs > members.length / 2 ? 'cjs' : 'esm';
}

function moduleExtension(form: StateModuleForm, type: string | undefined): string {
  if (form === 'ts') return '.ts';
  if (form === 'esm') return type === 'module' ? '.js' : '.mjs';
  return type === 'module' ? '.cjs' : '.js';
}

/** The module file a specifier names: a TypeScript importer's `.js` stands for `.ts`. */
function sourceFileOf(target: string, importer: string): string {
  if (dialectOf(importer) !== 'js' && /\.(m|c)?js$/.test(target)) return target.replace(/\.(m|c)?js$/, (ext) => ext.replace('js', 'ts'));
  return path.extname(target) ? target : `${target}${dialectOf(importer) === 'js' ? path.extname(importer) : '.ts'}`;
}

function commonDirectory(files: readonly string[]): string {
  let dir = path.dirname(files[0]!);
  for (const f of files) while (!(path.dirname(f) + path.sep).startsWith(dir + path.sep) && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return dir;
}

/** A server module's text with the verifier wired and imported; undefined when it has both already. */
function wiredText(file: string, source: string, modulePath: string): { output: string } | { error: string } | undefined {
  let analysis;
  try {
    analysis = analyseFile(source, file);
  } catch (error) {
    return { error: `cannot wire the request-state verifier: ${error instanceof ParseFailure ? error.message : String(error)}` };
  }
  const edits: Edit[] = [];
  for (const construction of analysis.serverConstructions) edits.push(...(wireVerifier(source, construction) ?? []));
  const specifier = stateModuleSpecifier(file, analysis.program, modulePath);
  const importedHere = isImported(importedFrom(analysis.program, specifier), STATE_EXPORTS.verify);
  if (edits.length === 0 && importedHere) return undefined;
  if (!importedHere) {
    const style = codeStyleOf(source, analysis.program);
    edits.push(addImport(source, analysis.program, moduleSystemOf(file, analysis.program), style, specifier, [STATE_EXPORTS.verify]));
  }
  const output = applyEdits(source, edits);
  try {
    verifyParses(output, dialectOf(file));
  } catch (error) {
    return { error: `internal error: wiring the request-state verifier would not parse (${(error as Error).message}); left as it is (please report this)` };
  }
  return { output };
}
