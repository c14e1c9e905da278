// The marker a refused site leaves is one short line: what blocks (the statement, quoted) and a
// next step for what is asked; the reports hold the full reason. One marker per handler and
// reason, however many calls share it; a marker written in an earlier version's long form is
// rewritten once, and a second run changes nothing.
import { describe, expect, it } from 'vitest';
import { markersInComment } from '../src/analyse/markers.ts';
import { parseSource } from '../src/analyse/parse.ts';
import { resolveFileLineRefs, resolveLineRefs } from '../src/core/line-refs.ts';
import { MAKER_MAX, MARKER_QUOTE_MAX, markerLine, REFUSAL_CODES, refuse, type RefusalCode } from '../src/plan/refusal.ts';
import { markerComment } from '../src/rewrite/edits/marker-comment.ts';
import { transformSource } from '../src/transform.ts';

/** A long name or snippet of the source, as a site may hand one (a receiver, a type, a test). */
const LONG = 'this.options.servers.primary.connection.server'.repeat(3);
/** The longest statement a marker quotes: `callee(…)`, shortened as quotedNode shortens it. */
const AT = `\`${'x'.repeat(MARKER_QUOTE_MAX - 3)}(…)\``;
/** Values the codemod writes itself: the longest step, a line number, the quoted request, the longest code, callee and dispatch fix. */
const OWN: Record<string, string> = {
  step: 'call your LLM provider directly (sampling is deprecated)',
  line: '12345',
  fileLine: '12345',
  request: AT,
  /** The longest callee a marker names whole. */
  maker: 'x'.repeat(MAKER_MAX),
  code: 'unserialisable-local',
  fix: 'return its answer or bind it to a local',
  /** The statement an in-helper marker names. */
  blocker: '`try`',
  /** How many more uses a marker counts. */
  more: '999',
  /** Two lines a helper may both ask at, and the longest way they lie. */
  first: '12345',
  second: '12345',
  how: 'second in an expression',
};
const data = new Proxy({} as Record<string, string>, { get: (_, name: string) => OWN[name] ?? LONG });

const messages = Object.entries(REFUSAL_CODES).flatMap(([code, entry]) =>
  Object.keys((entry as { messages?: object }).messages ?? {}).map((id) => [code as RefusalCode, id] as const),
);

describe('a marker line', () => {
  it.each(messages)('%s/%s is at most 160 characters with the longest values', (code, id) => {
    const refusal = (refuse as (c: string, i: string, d: object) => ReturnType<typeof refuse>)(code, id, data);
    const line = markerComment({
      indent: '',
      code,
      text: resolveFileLineRefs(
        resolveLineRefs(markerLine(refusal, AT), (n) => n),
        (_, n) => n,
      ),
    });
    expect(line.length, line).toBeLessThanOrEqual(160);
    expect(line).toMatch(/ — \S/); // a next step follows what blocks
    expect(line).not.toContain(' Next: ');
  });
});

const SERVER = "import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\n";
const DONE = "  return { content: [{ type: 'text', text: 'done' }] };";
/** A helper that logs before it asks, so it cannot be split for its handlers. */
const helper = (call: string) => `async function gather(ctx) {\n  log('asking');\n  const answer = await ${call};\n  return answer;\n}\n`;
const tool = (name: string, body: string) => `server.registerTool('${name}', {}, async (args, ctx) => {\n${body}\n${DONE}\n});\n`;
const markerLines = (output: string) =>
  output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('// @mrtr-todo'));

describe('the next step a helper marker gives', () => {
  const cases = [
    ["ctx.mcpReq.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } })", /inputRequired\.elicit\(/],
    ['ctx.mcpReq.requestSampling({ messages: [], maxTokens: 10 })', /LLM provider directly/],
    ['server.server.listRoots()', /paths as tool parameters/],
  ] as const;
  it.each(cases)('for %s', (call, advice) => {
    const source = `${SERVER}${helper(call)}${tool('t', '  const got = await gather(ctx);')}`;
    const lines = markerLines(transformSource(source, 'server.ts').output);
    expect(lines.map((l) => /@mrtr-todo\(([\w-]+)\)/.exec(l)![1])).toEqual(['in-helper', 'via-helper']);
    for (const line of lines) {
      expect(line).toMatch(advice);
      if (!call.includes('elicitInput')) expect(line).not.toContain('inputRequired.elicit');
    }
  });
});

describe('one marker per handler and reason', () => {
  const call = "ctx.mcpReq.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } })";
  const calls = Array.from({ length: 7 }, (_, i) => `  const a${i} = await gather(ctx);`).join('\n');
  const source = `${SERVER}${helper(call)}${tool('many', calls)}`;

  it('counts the calls of one helper on one marker, above the first', () => {
    const { output, plan } = transformSource(source, 'server.ts');
    const via = markerLines(output).filter((l) => l.includes('(via-helper)'));
    expect(via).toEqual([
      '// @mrtr-todo(via-helper): reaches `gather()`, asking at line 6 (and 6 more below) — build inputRequired.elicit(...) in it, ask in the handler',
    ]);
    // The line the request is on in the text written: below the marker written above it.
    expect(output.split('\n')[5]).toBe(`  const answer = await ${call};`);
    expect(output.split('\n').findIndex((l) => l.includes('(via-helper)'))).toBe(output.split('\n').indexOf('  const a0 = await gather(ctx);') - 1);
    // The reports still name each call.
    expect(plan.sites.filter((s) => s.code === 'via-helper')).toHaveLength(7);
  });

  it('changes nothing on a second run', () => {
    const once = transformSource(source, 'server.ts').output;
    expect(transformSource(once, 'server.ts').output).toBe(once);
  });

  it('rewrites the markers of an earlier version once, keeping one per handler', () => {
    const long = (code: string) =>
      `  // @mrtr-todo(${code}): this request goes through \`gather()\` (line 3), which cannot suspend it. Next: split \`gather\`.`;
    const marked = source
      .split('\n')
      .flatMap((l) =>
        /^ {2}const a\d = await gather/.test(l) ? [long('via-helper'), l] : /^ {2}const answer = await ctx/.test(l) ? [long('in-helper'), l] : [l],
      )
      .join('\n');
    const { output } = transformSource(marked, 'server.ts');
    expect(output).not.toContain(' Next: ');
    expect(markerLines(output)).toEqual(markerLines(transformSource(source, 'server.ts').output));
    expect(transformSource(output, 'server.ts').output).toBe(output);
  });

  it('is read back by check as a marker of its code', () => {
    const { output } = transformSource(source, 'server.ts');
    const program = parseSource(output, 'ts');
    const found = (program.comments ?? []).flatMap((c) => markersInComment(c));
    expect(found.map((m) => m.code).sort()).toEqual(['in-helper', 'via-helper']);
  });
});

describe('a helper that a function with no name calls', () => {
  // `gather()` asks first, so it could be split, but for the function that calls it besides the
  // handler. The reason names that function by what it is and where it is in the text written
  // (the marker above the request moves it down one line).
  const gather = `${SERVER}async function gather(id: string) {\n  const answer = await server.server.elicitInput({ message: id, requestedSchema: { type: 'object', properties: {} } });\n  return answer;\n}\n`;
  const handler =
    "server.registerTool('t', {}, async () => {\n  const got = await gather('a');\n  return { content: [{ type: 'text', text: got.action }] };\n});\n";
  const retry = 'function withRetry<T>(fn: () => Promise<T>) {\n  return fn();\n}\n';
  it.each([
    [
      'an arrow passed inline',
      `${retry}export async function warm() {\n  return withRetry(async () => await gather('warm'));\n}\n`,
      'it is called by the arrow function at tools.ts:12, which cannot be split: it has no name its callers could use.',
      12,
      "  return withRetry(async () => await gather('warm'));",
    ],
    [
      'a function expression passed inline',
      `${retry}export async function warm() {\n  return withRetry(async function () {\n    return await gather('warm');\n  });\n}\n`,
      'it is called by the function expression at tools.ts:12, which cannot be split: it has no name its callers could use.',
      12,
      '  return withRetry(async function () {',
    ],
    [
      'code where the module loads',
      "export const first = await gather('boot');\n",
      'it is called where its module loads (tools.ts:8), by no handler.',
      8,
      "export const first = await gather('boot');",
    ],
  ])('names %s by where it is', (_name, caller, words, line, text) => {
    const { output, plan } = transformSource(`${gather}${caller}${handler}`, 'tools.ts');
    const helperSite = plan.sites.find((s) => s.code === 'in-helper')!;
    expect(helperSite.reason).toContain(`this one cannot be split: ${words}`);
    expect(output.split('\n')[line - 1]).toBe(text);
    // The marker's line is the short form: what blocks and the step.
    expect(helperSite.marker).toBe('`gather()` asks and cannot be split — build inputRequired.elicit(...) in it, ask in the handler');
  });
});
