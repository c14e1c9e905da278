// A framework's tool (see src/analyse/frameworks.ts): an xmcp file-based tool's questions are
// answered in place when nothing has to travel between rounds, and marked with what would have
// had to otherwise. Only a default export whose context is typed with the framework's own type
// is such a tool: the framework's own code and look-alikes keep their marker.
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

const Q = "{ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }";
const HEAD = "import { type ToolExtraArguments } from 'xmcp';\n";
const tool = (body: string) => `${HEAD}export default async function go({ q }: { q: string }, extra: ToolExtraArguments) {\n${body}\n}\n`;
const DONE = "  return { content: [{ type: 'text' as const, text: 'done' }] };";

/** The output's lines after the import. */
const migrated = (source: string) => transformSource(source, '/p/src/tools/go.ts').output.split('\n').slice(1);
/** The `@mrtr-todo` lines of the output, trimmed. */
const markers = (source: string) =>
  migrated(source)
    .filter((l) => l.includes('@mrtr-todo'))
    .map((l) => l.trim());

describe('an xmcp tool refused, with what would have to travel', () => {
  it('names a local made by work before the question and read after it', () => {
    const body = `  const row = await db.load(q);\n  const answer = await extra.elicit(${Q});\n  return { content: [{ type: 'text' as const, text: row + answer.action }] };`;
    expect(markers(tool(body))).toEqual([
      '// @mrtr-todo(framework-state): `row` (line 3) needs a verified requestState to travel — recompute it after the question',
    ]);
  });

  it('names work before the question that would run again, in a case that falls into the asking one too', () => {
    expect(markers(tool(`  audit('asked');\n  const answer = await extra.elicit(${Q});\n${DONE}`))).toEqual([
      "// @mrtr-todo(framework-state): `audit('asked')` (line 3) runs again on every retry (no verified state) — move it below the question",
    ]);
    const body = `  switch (q) {\n    case 'a':\n      audit(q);\n    case 'b':\n      return { content: [{ type: 'text' as const, text: (await extra.elicit(${Q})).action }] };\n  }\n${DONE}`;
    expect(markers(tool(body))).toEqual([
      '// @mrtr-todo(framework-state): `audit(q)` (line 5) runs again on every retry (no verified state) — move it below the question',
    ]);
  });

  it('names the second question of a path, and leaves that one to the first', () => {
    expect(markers(tool(`  const a = await extra.elicit(${Q});\n  const b = await extra.elicit(${Q});\n${DONE}`))).toEqual([
      '// @mrtr-todo(framework-state): this path asks again at line 6; carrying this answer needs a verified requestState — ask both at once (Promise.all)',
      '// @mrtr-todo(blocked-by-sibling): left whole: `extra.elicit(…)` (line 4) is refused (framework-state) — fix that first (its marker)',
    ]);
  });

  it('refuses a question in a loop or a try', () => {
    expect(markers(tool(`  for (const x of [1, 2]) {\n    await extra.elicit(${Q});\n  }\n${DONE}`))).toEqual([
      '// @mrtr-todo(framework-state): asked in a loop: earlier answers would need a verified requestState — ask once, before the loop',
    ]);
    expect(markers(tool(`  try {\n    await extra.elicit(${Q});\n  } catch {\n    return { content: [] };\n  }\n${DONE}`))).toEqual([
      '// @mrtr-todo(framework-state): asked inside a try whose catch a returned question never reaches — move the question out of the try',
    ]);
  });
});

describe('an xmcp tool that samples, under --sampling=flag', () => {
  it('is left as it was, with the flag marker', () => {
    const body = `  const r = await extra.sample({ messages: [], maxTokens: 5 });\n  return { content: [{ type: 'text' as const, text: r.model }] };`;
    const out = transformSource(tool(body), '/p/src/tools/go.ts', undefined, { sampling: 'flag' }).output;
    expect(out).toBe(
      tool(body).replace(
        '  const r',
        '  // @mrtr-todo(sampling): `extra.sample(…)` samples, deprecated in 2026-07-28 (left by --sampling=flag) — call your LLM provider directly\n  const r',
      ),
    );
  });
});

describe('an xmcp tool answered in place', () => {
  it('asks questions awaited together in one round, under one guard', () => {
    const body = `  const [a, b] = await Promise.all([extra.elicit(${Q}), extra.sample({ messages: [], maxTokens: 5 })]);\n  return { content: [{ type: 'text' as const, text: a.action + b.model }] };`;
    expect(migrated(tool(body)).slice(0, 16)).toEqual([
      "import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, specTypeSchemas, type InputRequests, type JsonSchemaType, type JsonSchemaValidator } from '@modelcontextprotocol/server';",
      "import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';",
      'export default async function go({ q }: { q: string }, extra: ToolExtraArguments) {',
      '  // @mrtr-note: sampling is deprecated in MCP 2026-07-28 (SEP-2577): prefer calling your LLM provider API directly from the server.',
      '  const mrtrAsked = {',
      `    a: inputRequired.elicit(${Q}),`,
      '    b: inputRequired.createMessage({ messages: [], maxTokens: 5 }),',
      '  };',
      "  const mrtrAnswer = mrtrCheckedAnswer(mrtrAsked, extra.inputResponses, 'a') as ElicitResult | undefined;",
      "  const mrtrAnswer2 = mrtrCheckedSample(extra.inputResponses, 'b') as SampleResult | undefined;",
      '  if (mrtrAnswer === undefined || mrtrAnswer2 === undefined) {',
      '    return inputRequired({ inputRequests: mrtrAsked });',
      '  }',
      '  const [a, b] = [mrtrAnswer, mrtrAnswer2];',
      "  return { content: [{ type: 'text' as const, text: a.action + b.model }] };",
      '}',
    ]);
  });

  it('replaces a question whose answer is not kept by its guard', () => {
    const out = transformSource(tool(`  await extra.elicit(${Q});\n${DONE}`), '/p/src/tools/go.ts').output;
    expect(out.split('\n').slice(0, 4)).toEqual([
      "import { type ToolExtraArguments, inputRequired } from 'xmcp';",
      "import { ProtocolError, ProtocolErrorCode, type InputRequests, type JsonSchemaType, type JsonSchemaValidator } from '@modelcontextprotocol/server';",
      "import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';",
      'export default async function go({ q }: { q: string }, extra: ToolExtraArguments) {',
    ]);
    expect(out.split('\n').slice(4, 10)).toEqual([
      '  const mrtrAsked = {',
      `    answer: inputRequired.elicit(${Q}),`,
      '  };',
      "  if (mrtrCheckedAnswer(mrtrAsked, extra.inputResponses, 'answer') === undefined) {",
      '    return inputRequired({ inputRequests: mrtrAsked });',
      '  }',
    ]);
  });

  it('braces a case that asks, keeping a CRLF file CRLF', () => {
    const body = `  switch (q) {\n    case 'a':\n      const answer = await extra.elicit(${Q});\n      return { content: [{ type: 'text' as const, text: answer.action }] };\n  }\n${DONE}`;
    const out = transformSource(tool(body).replace(/\n/g, '\r\n'), '/p/src/tools/go.ts').output;
    expect(out.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = out.split('\r\n');
    const at = lines.indexOf("    case 'a': {");
    expect(at).toBeGreaterThan(0);
    expect(lines[lines.indexOf("      return { content: [{ type: 'text' as const, text: answer.action }] };") + 1]).toBe('    }');
  });
});

describe('what is not a framework tool keeps its marker', () => {
  const unknown = "// @mrtr-todo(unknown-receiver): `extra` is a framework's context — if this asks the client, migrate by hand; else delete this";
  const asking = `  const answer = await extra.elicit(${Q});\n${DONE}`;

  it('a context with no type, or a type of its own name from elsewhere (the framework itself)', () => {
    expect(markers(`export default async function go({ q }, extra) {\n${asking}\n}\n`)).toEqual([unknown]);
    expect(markers(`import type { ToolExtraArguments } from '@/types/tool';\n${tool(asking).slice(HEAD.length)}`)).toEqual([unknown]);
  });

  it('a helper the tool module exports besides its default', () => {
    expect(markers(`${HEAD}export async function confirm(extra: ToolExtraArguments) {\n${asking}\n}\n`)).toEqual([unknown]);
  });
});
