// The package.json edit that goes with a v1 → v2 upgrade: the v2 server package at the version
// MRTR needs, the other v2 packages and zod when the migrated code imports them, and the v1 SDK
// dropped once nothing imports it. A pure function of the manifest's text: edits are spliced into
// the original text, so indentation, key order, line endings, the trailing newline and every
// untouched line stay as they were (JSON.stringify would reflow inline arrays and the like).
//
// On zod: @modelcontextprotocol/server@2.4.0 lists `zod: ^4.2.0` as a regular dependency (and
// `@modelcontextprotocol/core: 2.4.0`), so installing the server brings a suitable zod. But the
// user's own `import { z } from 'zod'` resolves to the zod *their* manifest declares: a project
// that declares zod 3.x (or 4.0/4.1) gets schemas the v2 SDK cannot use (registerTool fails to
// typecheck, or fails at the first tools/list). That range is the user's choice (zod 3 → 4 is a
// breaking upgrade of their own code), so it is not changed here: zodRangeProblem() says when it
// must be. When the code imports zod and the manifest does not declare it at all (it came in
// through the v1 SDK), `^4.2.0` is added.
import { SERVER_PACKAGE } from '../analyse/sdk-surface.ts';
import { V1_PACKAGE } from './v1-upgrade.ts';

/** Ranges for the packages an upgraded server may import. MRTR needs server/core/client 2.4.0. */
export const V2_RANGES: Readonly<Record<string, string>> = {
  '@modelcontextprotocol/server': '^2.4.0',
  '@modelcontextprotocol/client': '^2.4.0',
  '@modelcontextprotocol/core': '^2.4.0',
  '@modelcontextprotocol/node': '^2.1.2',
  '@modelcontextprotocol/express': '^2.0.2',
  // Where the official codemod sends `@modelcontextprotocol/sdk/server/sse.js`. Not published
  // at 2.4.0: 2.3.1 is its newest release on the registry.
  '@modelcontextprotocol/server-legacy': '^2.3.1',
  zod: '^4.2.0',
};

/** A declared range below this floor is raised to V2_RANGES[name] (simple ranges only). */
const FLOORS: Readonly<Record<string, [number, number, number]>> = {
  '@modelcontextprotocol/server': [2, 4, 0],
  '@modelcontextprotocol/client': [2, 4, 0],
  '@modelcontextprotocol/core': [2, 4, 0],
};

const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

export interface ManifestUpdate {
  /** Whether any source file still imports `@modelcontextprotocol/sdk` (then it stays). */
  stillImportsV1: boolean;
  /**
   * Packages the migrated sources import (importedPackages of their final text): those of
   * V2_RANGES that the manifest does not declare are added to `dependencies`.
   * `@modelcontextprotocol/server` is added whatever this says.
   */
  packages?: readonly string[];
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

/**
 * The manifest text with `@modelcontextprotocol/server` (^2.4.0) in `dependencies` (or its
 * declared range raised to ^2.4.0 when that range cannot reach 2.4.0), the other V2_RANGES
 * packages of `packages` added when not declared, and `@modelcontextprotocol/sdk` removed from
 * `dependencies` and `devDependencies` unless `stillImportsV1`. `peerDependencies` and
 * `optionalDependencies` are not edited. Idempotent; returns the text itself when nothing
 * changes. Throws ManifestError when the text is not a JSON object, or when an object in it
 * has the same key twice (JSON.parse would keep the last, npm too, but which one the user
 * meant cannot be known: the edit would land in one and the other would still win or lose).
 */
export function updateManifest(text: string, update: ManifestUpdate): string {
  let out = text;
  const wanted = new Set([SERVER_PACKAGE, ...(update.packages ?? []).filter((p) => p in V2_RANGES && p !== V1_PACKAGE)]);
  for (const name of [...wanted].sort()) out = ensureDependency(out, name, V2_RANGES[name]!);
  if (!update.stillImportsV1) {
    for (const section of ['dependencies', 'devDependencies'] as const) out = removeMember(out, section, V1_PACKAGE);
  }
  return out;
}

/**
 * Why the declared zod range cannot work with the v2 SDK (which needs zod >= 4.2 for the
 * schemas a server passes to it), or undefined when it can or zod is not declared.
 */
export function zodRangeProblem(text: string): string | undefined {
  const json = parseObject(text);
  for (const section of DEPENDENCY_SECTIONS) {
    const deps = json[section];
    if (!isRecord(deps) || typeof deps.zod !== 'string') continue;
    const range = deps.zod;
    const ok = range.split('||').some((alt) => canReach(alt.trim(), [4, 2, 0]));
    if (!ok)
      return `${section}.zod is '${range}': the v2 SDK needs zod >= 4.2.0 for the schemas your code passes to it; upgrade zod (a breaking change for zod 3 code) before running the migrated server.`;
  }
  return undefined;
}

// --- edits ------------------------------------------------------------------------------------

function ensureDependency(text: string, name: string, range: string): string {
  const root = scan(text);
  for (const sectionName of DEPENDENCY_SECTIONS) {
    const section = root.members.find((m) => m.key === sectionName)?.object;
    const member = section?.members.find((m) => m.key === name);
    if (!member) continue;
    // Declared already. Raise a simple range whose floor is below what MRTR needs.
    const declared = JSON.parse(text.slice(member.valueStart, member.valueEnd)) as unknown;
    const floor = FLOORS[name];
    const simple = typeof declared === 'string' && !declared.includes('||') ? simpleRange(declared.trim()) : undefined;
    if (floor && simple && ['^', '~', '=', '>=', ''].includes(simple.op) && compare(simple.version, floor) < 0) {
      return text.slice(0, member.valueStart) + JSON.stringify(range) + text.slice(member.valueEnd);
    }
    return text;
  }
  return addMember(text, 'dependencies', name, range);
}

function addMember(text: string, sectionName: string, name: string, range: string): string {
  const root = scan(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(text);
  // A manifest written on one line (minified) gets compact members.
  const multiline = /[\r\n]/.test(text.trim());
  const colon = multiline ? ': ' : ':';
  const entry = `${JSON.stringify(name)}${colon}${JSON.stringify(range)}`;
  const sectionMember = root.members.find((m) => m.key === sectionName);
  if (!sectionMember) {
    // A new section: before devDependencies when there is one, else last.
    const value = multiline ? `{${eol}${unit}${unit}${entry}${eol}${unit}}` : `{${entry}}`;
    const member = `${JSON.stringify(sectionName)}${colon}${value}`;
    const before = root.members.findIndex((m) => m.key === 'devDependencies');
    return insertMember(text, root, before === -1 ? root.members.length : before, member, eol + unit);
  }
  const section = sectionMember.object;
  if (!section) throw new ManifestError(`"${sectionName}" is not an object`);
  // npm keeps dependency keys sorted: keep them so; otherwise append.
  const keys = section.members.map((m) => m.key);
  const sorted = keys.every((k, i) => i === 0 || keys[i - 1]!.localeCompare(k, 'en') <= 0);
  const at = sorted ? keys.filter((k) => k.localeCompare(name, 'en') < 0).length : keys.length;
  return insertMember(text, section, at, entry, multiline ? eol + unit + unit : '');
}

/** Inserts a member at index `at` of an object, copying the whitespace of its neighbours. */
function insertMember(text: string, object: ScannedObject, at: number, member: string, defaultLeading: string): string {
  const { members } = object;
  if (members.length === 0) {
    // `{}` (or `{ }`): one member on its own line, the `}` one level out; compact when minified.
    const closing = defaultLeading === '' ? '' : defaultLeading.slice(0, defaultLeading.length - indentUnit(text).length);
    return text.slice(0, object.start + 1) + defaultLeading + member + closing + text.slice(object.end - 1);
  }
  if (at < members.length) {
    const next = members[at]!;
    return text.slice(0, next.start) + member + ',' + next.leading + text.slice(next.start);
  }
  const last = members[members.length - 1]!;
  return text.slice(0, last.valueEnd) + ',' + last.leading + member + text.slice(last.valueEnd);
}

function removeMember(text: string, sectionName: string, name: string): string {
  const section = scan(text).members.find((m) => m.key === sectionName)?.object;
  if (!section) return text;
  const i = section.members.findIndex((m) => m.key === name);
  if (i === -1) return text;
  const { members } = section;
  if (members.length === 1) return text.slice(0, section.start + 1) + text.slice(section.end - 1);
  if (i < members.length - 1) return text.slice(0, members[i]!.start) + text.slice(members[i + 1]!.start);
  return text.slice(0, members[i - 1]!.valueEnd) + text.slice(members[i]!.valueEnd);
}

function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

// --- a JSON scanner that keeps offsets ----------------------------------------------------------

interface ScannedMember {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  valueStart: number;
  valueEnd: number;
  /** Whitespace between the preceding `{` or `,` and the key. */
  leading: string;
  /** Set when the value is an object. */
  object?: ScannedObject;
}

interface ScannedObject {
  /** Offset of `{`; `end` is just after `}`. */
  start: number;
  end: number;
  members: ScannedMember[];
}

function parseObject(text: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ManifestError(`package.json is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(json)) throw new ManifestError('package.json is not a JSON object');
  return json;
}

/** The top-level object of a manifest, with the offsets of every member (nested objects too). */
function scan(text: string): ScannedObject {
  parseObject(text); // validates, so the scanner below may assume well-formed JSON
  const scanner = new JsonScanner(text);
  scanner.ws();
  return scanner.object();
}

/** Reads well-formed JSON from `pos` on, keeping the offsets of the objects' members. */
class JsonScanner {
  pos: number;

  constructor(private readonly text: string) {
    this.pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  ws(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  string(): string {
    const { text } = this;
    const start = this.pos++;
    while (text[this.pos] !== '"') this.pos += text[this.pos] === '\\' ? 2 : 1;
    this.pos++;
    return JSON.parse(text.slice(start, this.pos)) as string;
  }

  /** Passes over a value: the object it is, if it is one. */
  value(): ScannedObject | undefined {
    const { text } = this;
    const c = text[this.pos];
    if (c === '{') return this.object();
    if (c === '"') {
      this.string();
      return undefined;
    }
    if (c === '[') {
      this.pos++;
      this.ws();
      while (text[this.pos] !== ']') {
        this.value();
        this.ws();
        if (text[this.pos] === ',') this.pos++;
        this.ws();
      }
      this.pos++;
      return undefined;
    }
    while (this.pos < text.length && /[^\s,\]}]/.test(text[this.pos]!)) this.pos++;
    return undefined;
  }

  object(): ScannedObject {
    const { text } = this;
    const start = this.pos++;
    const members: ScannedMember[] = [];
    const keys = new Map<string, number>();
    for (;;) {
      const before = this.pos;
      this.ws();
      if (text[this.pos] === '}') break;
      const leading = text.slice(before, this.pos);
      const keyStart = this.pos;
      const key = this.string();
      const first = keys.get(key);
      if (first !== undefined) {
        throw new ManifestError(
          `package.json has the key ${JSON.stringify(key)} twice in one object (lines ${lineAt(text, first)} and ${lineAt(text, keyStart)}); remove one of them`,
        );
      }
      keys.set(key, keyStart);
      this.ws();
      this.pos++; // ':'
      this.ws();
      const valueStart = this.pos;
      const nested = this.value();
      members.push({ key, start: keyStart, valueStart, valueEnd: this.pos, leading, ...(nested ? { object: nested } : {}) });
      this.ws();
      if (text[this.pos] === ',') this.pos++;
    }
    this.pos++;
    return { start, end: this.pos, members };
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

// --- ranges -----------------------------------------------------------------------------------

interface Comparator {
  op: string;
  major: number;
  /** Undefined for a partial version (`4`, `4.x`). */
  minor?: number;
  patch?: number;
}

function comparator(text: string): Comparator | undefined {
  const m = /^(\^|~|>=|<=|>|<|=)?\s*v?(\d+)(?:\.(\d+|x|X|\*))?(?:\.(\d+|x|X|\*))?(?:[-+][\w.-]*)?$/.exec(text);
  if (!m) return undefined;
  const part = (s: string | undefined) => (s === undefined || /^[xX*]$/.test(s) ? undefined : Number(s));
  const minor = part(m[3]);
  return { op: m[1] ?? '', major: Number(m[2]), minor, patch: minor === undefined ? undefined : part(m[4]) };
}

/** The lowest version a simple range (`^2.1.0`, `~2.3`, `2.0.0`, `>=2`) allows, if it is one. */
function simpleRange(range: string): { op: string; version: [number, number, number] } | undefined {
  const c = comparator(range);
  return c && { op: c.op, version: [c.major, c.minor ?? 0, c.patch ?? 0] };
}

/**
 * Whether one `||` alternative of a range can resolve to `target` or above. Alternatives that
 * are not simple ranges (tags, `workspace:`, URLs) are given the benefit of the doubt.
 */
function canReach(alternative: string, target: [number, number, number]): boolean {
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(alternative);
  const parts = hyphen ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`] : alternative.split(/\s+/).filter(Boolean);
  const comparators = parts.map(comparator);
  if (comparators.length === 0 || comparators.some((c) => c === undefined)) return true;
  const highest = (c: Comparator): [number, number, number] => [c.major, c.minor ?? Infinity, c.patch ?? Infinity];
  const upper = comparators.find((c) => c!.op === '<' || c!.op === '<=');
  if (upper) return upper.op === '<' && upper.minor === undefined ? upper.major > target[0] : compare(highest(upper), target) >= (upper.op === '<' ? 1 : 0);
  const c = comparators[0]!;
  switch (c.op) {
    case '>':
    case '>=':
      return true;
    case '^':
      return c.major > 0 ? c.major >= target[0] : compare(highest({ ...c, patch: undefined }), target) >= 0;
    case '~':
      return compare(highest({ ...c, patch: undefined }), target) >= 0;
    default:
      return compare(highest(c), target) >= 0;
  }
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
