// An output made of the parsed text with comment lines added is not parsed again for the
// summary's next check: what the run works out of it must be what parsing it finds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyseFile, analyseSites } from '../src/analyse/analyse-file.ts';
import { syntaxOfCommentLines, outputSyntaxes, type OutputSyntax } from '../src/engine/output-syntax.ts';
import { runCodemod } from '../src/engine/run.ts';
import { scanComments, scanSource } from '../src/report/check-findings.ts';

const SERVER = `import { McpServer } from '@modelcontextprotocol/server';
/* a block
   comment */
const server = new McpServer({ name: 's', version: '1' });
const note = \`a template
// not a comment
\`;
server.registerTool('go', {}, async (ctx) => {
  const when = new Date();
  const answer = await ctx.mcpReq.elicitInput({
    message: 'Go?',
    requestedSchema: { type: 'object', properties: {} },
  });
  return { content: [{ type: 'text', text: String(when) + answer.action }] };
});
`;

/** The offset where line `line` (1-based) of SERVER starts. */
const lineStart = (line: number) =>
  SERVER.split('\n')
    .slice(0, line - 1)
    .join('\n').length + (line > 1 ? 1 : 0);
const insert = (line: number, text: string) => ({ start: lineStart(line), end: lineStart(line), text });
const apply = (edits: Array<{ start: number; text: string }>) =>
  [...edits].sort((a, b) => b.start - a.start).reduce((text, e) => text.slice(0, e.start) + e.text + text.slice(e.start), SERVER);

/** Both scans, side by side at every site of the output and every line. */
async function scansOf(syntax: OutputSyntax) {
  const parsed = await scanSource(syntax.output, 'server.ts');
  const made = scanComments(syntax.output, syntax.comments, syntax.statements);
  const at = analyseSites(syntax.output, 'server.ts').sites.map((s) => [s.call.loc!.start.line, s.call.loc!.start.column + 1] as const);
  expect(at.length).toBeGreaterThan(0);
  const view = (scan: typeof parsed) => ({
    markers: scan.markers,
    commentLines: [...scan.commentLines].sort((a, b) => a - b),
    statements: at.map(([l, c]) => scan.statementLine(l, c)),
  });
  return { parsed: view(parsed), made: view(made) };
}

describe('the syntax of an output that only adds comment lines', () => {
  it('is what parsing the output finds: comments moved down, the inserted ones, the statements of the calls', async () => {
    const edits = [
      insert(1, '// @mrtr-todo(untyped-local): first\n'),
      insert(10, '  // @mrtr-todo(untyped-local): nothing shows `when` (line 9) is JSON\n  //   and a second line\n'),
      insert(12, '    // between the arguments\n'),
    ];
    const output = apply(edits);
    const syntax = syntaxOfCommentLines(analyseFile(SERVER, 'server.ts'), edits, output)!;
    expect(syntax.output).toBe(output);
    const { parsed, made } = await scansOf(syntax);
    expect(made).toEqual(parsed);
    expect(made.markers.map((m) => [m.code, m.line])).toEqual([
      ['untyped-local', 1],
      ['untyped-local', 11],
    ]);
  });

  it('is not worked out for an edit that is no whole comment line at a line start, or lands in a template', () => {
    const analysis = analyseFile(SERVER, 'server.ts');
    const refused = [
      [insert(10, '  const more = 1;\n')],
      [{ start: lineStart(10) + 2, end: lineStart(10) + 2, text: '// x\n' }],
      [{ start: lineStart(9), end: lineStart(9) + 5, text: '// x\n' }],
      [insert(6, '// inside the template\n')],
      [insert(3, '// inside the block comment\n')],
    ];
    for (const edits of refused) expect(syntaxOfCommentLines(analysis, edits, apply(edits))).toBeUndefined();
  });
});

describe('a run', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-output-syntax-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the syntax of an output it only marked, as parsing it finds it', async () => {
    await writeFile(path.join(dir, 'server.ts'), SERVER);
    const result = await runCodemod({ paths: ['.'], cwd: dir, write: false, types: false });
    expect(result.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'unserialisable-local']]);
    const syntax = outputSyntaxes.get(result.changed[0]!)!;
    expect(syntax.output).toBe(result.changed[0]!.output);
    const { parsed, made } = await scansOf(syntax);
    expect(made).toEqual(parsed);
  });

  it('keeps the syntax of an output it migrated and marked when its reader asks, as parsing it finds it', async () => {
    // One tool migrates, the other keeps a Date across its question (marked): the output is no
    // text with comment lines added, so its syntax comes from parsing it whole.
    const second = `server.registerTool('ask', {}, async (ctx) => {
  const answer = await ctx.mcpReq.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;
    await writeFile(path.join(dir, 'server.ts'), SERVER + second);
    const run = (readsOutputMarkers: boolean) => runCodemod({ paths: ['.'], cwd: dir, write: false, types: false, readsOutputMarkers });
    const unread = await run(false);
    expect(outputSyntaxes.get(unread.changed[0]!)).toBeUndefined();
    const result = await run(true);
    expect(result.sites.map((s) => [s.status, s.code])).toEqual([
      ['marked', 'unserialisable-local'],
      ['migrated', undefined],
    ]);
    expect(result.changed[0]!.output).toBe(unread.changed[0]!.output);
    const syntax = outputSyntaxes.get(result.changed[0]!)!;
    expect(syntax.output).toBe(result.changed[0]!.output);
    const { parsed, made } = await scansOf(syntax);
    expect(made).toEqual(parsed);
  });
});
