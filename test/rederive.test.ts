// Which statements before a question a handler runs again on the retry, and which it keeps
// running once: what only derives values and is needed after the question is made again; what
// something that runs once reads, narrows or changes, what a loop accumulates, and what belongs
// to one request travel as before (or are refused as before).
import { describe, expect, it } from 'vitest';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { transformSource, transformWithTypes } from '../src/transform.ts';

const Q = "{ message: 'Go?', requestedSchema: { type: 'object', properties: {} } }";
const ask = `  const answer = await ctx.mcpReq.elicitInput(${Q});`;

const server = (body: string, head = '') => `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
type Note = { title: string; tags: string[] };
const notes = new Map<string, Note>();
declare function audit(entry: string): void;
${head}
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
${body}
});
`;

const plan = (body: string, head = '') => transformSource(server(body, head), 's.ts');

describe('what runs again on the retry', () => {
  it('a Map read and the check on it, before the guard; the change after the question lands on the stored note', () => {
    const { output, plan: p } = plan(
      `  const note = notes.get(id);\n  if (!note) return { content: [] };\n${ask}\n  note.tags.push(answer.action);\n  return { content: [] };`,
    );
    expect(p.sites).toMatchObject([{ status: 'migrated', lifted: [], rederived: ['note'], rerun: [{ text: 'notes.get(id)', why: 'read' }] }]);
    expect(output).toContain(
      '  if (mrtr.refused) return mrtr.refused;\n  const note = notes.get(id);\n  if (!note) return { content: [] };\n  if (mrtr.step === undefined) {\n',
    );
  });

  it('a check that only derives, right before what the retry needs, with it: the guard stays one block', () => {
    const { output, plan: p } = plan(
      `  if (notes.size === 0) return { content: [] };\n  const count = notes.size;\n${ask}\n  return { content: [{ type: 'text', text: String(count) + answer.action }] };`,
    );
    expect(p.sites).toMatchObject([{ status: 'migrated', lifted: [], rederived: ['count'] }]);
    expect(output).toContain(
      "  if (notes.size === 0) return { content: [] };\n  const count = notes.size;\n  if (mrtr.step === undefined) {\n    return mrtr.ask('answer', {}, {",
    );
  });

  it('a let nothing has assigned, even where code running once reads it', () => {
    const { plan: p } = plan(
      `  let reason: string | undefined;\n  audit(String(reason));\n${ask}\n  reason = answer.action;\n  return { content: [{ type: 'text', text: reason }] };`,
    );
    expect(p.sites).toMatchObject([{ status: 'migrated', lifted: [], rederived: ['reason'] }]);
  });

  it("a local only the condition of the block that asks reads: the client's capabilities, read from the retry's request", () => {
    const { output, plan: p } = plan(
      `  const caps = server.server.getClientCapabilities();\n  if (caps?.elicitation) {\n  ${ask}\n    audit(answer.action);\n  }\n  return { content: [] };`,
    );
    expect(p.sites).toMatchObject([
      { status: 'migrated', lifted: [], rederived: ['caps'], rerun: [{ text: 'server.server.getClientCapabilities()', why: 'read' }] },
    ]);
    expect(output).toContain(
      '  const caps = (ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities();\n' +
        "  if (mrtr.step === 'answer' || caps?.elicitation) {\n    if (mrtr.step === undefined) {\n",
    );
  });

  it('not what only the question reads, in the same block: it stays in the guard that runs once', () => {
    const { output, plan: p } = plan(
      `  const message = \`Tag \${id}?\`;\n  audit(id);\n  const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });\n  return { content: [{ type: 'text', text: answer.action }] };`,
    );
    expect(p.sites).toMatchObject([{ status: 'migrated', lifted: [] }]);
    expect(p.sites[0]!.rederived).toBeUndefined();
    expect(output).toContain('  if (mrtr.step === undefined) {\n    const message = `Tag ${id}?`;\n    audit(id);\n');
  });
});

describe('what keeps running once', () => {
  it('a local that code running once reads: it travels', () => {
    const { plan: p } = plan(`  const label: string = id.trim();\n  audit(label);\n${ask}\n  return { content: [{ type: 'text', text: label }] };`);
    expect(p.sites).toMatchObject([{ status: 'migrated', lifted: ['label'] }]);
  });

  it('a note a check with an effect narrows: it travels, and its change after the question is refused', () => {
    const { plan: p } = plan(
      `  const note = notes.get(id);\n  if (!note) {\n    audit('none');\n    return { content: [] };\n  }\n${ask}\n  note.tags.push(answer.action);\n  return { content: [] };`,
    );
    expect(p.sites).toMatchObject([{ status: 'marked', code: 'mutated-local' }]);
  });

  it('what a loop that asks accumulates in a local declared outside it', () => {
    const { plan: p } = plan(
      `  let tries: number = 0;\n  let done: boolean = false;\n  while (!done) {\n    tries++;\n    const answer = await ctx.mcpReq.elicitInput(${Q});\n    done = answer.action === 'accept';\n  }\n  return { content: [{ type: 'text', text: String(tries) }] };`,
    );
    expect(p.sites).toMatchObject([{ status: 'migrated' }]);
    expect(p.sites[0]!.lifted).toContain('tries');
  });

  it("a member of the context that belongs to one request (the retry's would differ)", () => {
    const { plan: p } = plan(
      `  const signal = ctx.mcpReq.signal;\n${ask}\n  return { content: [{ type: 'text', text: String(signal.aborted) + answer.action }] };`,
    );
    expect(p.sites).toMatchObject([{ status: 'marked', code: 'untyped-local' }]);
  });

  it('the clock: a time read before the question is the first call’s', () => {
    const { plan: p } = plan(`  const started = Date.now();\n${ask}\n  return { content: [{ type: 'text', text: String(started) + answer.action }] };`);
    expect(p.sites[0]!.rederived).toBeUndefined();
  });
});

describe('with the checker', () => {
  const types = new TsTypeFactsProvider();

  it('re-derives a read through a Map typed by an alias the syntax does not show', async () => {
    const source = server(
      `  const note = byId.get(id);\n  if (!note) return { content: [] };\n${ask}\n  note.tags.push(answer.action);\n  return { content: [] };`,
      'type Notes = Map<string, Note>;\ndeclare const byId: Notes;',
    );
    const { plan: p } = await transformWithTypes(source, 's.ts', types);
    expect(p.sites).toMatchObject([{ status: 'migrated', lifted: [], rederived: ['note'] }]);
  });

  it('carries, with its checked type, what a method the checker does not know as a read gave', async () => {
    // The plan that gathers the questions took `get` for a read; the checker's answer makes `title` travel, and its type was asked too.
    const source = server(
      `  const title = store.get(id);\n${ask}\n  return { content: [{ type: 'text', text: title + answer.action }] };`,
      'declare const store: { get(id: string): string };',
    );
    const { plan: p, output } = await transformWithTypes(source, 's.ts', types);
    expect(p.sites).toMatchObject([{ status: 'migrated', lifted: ['title'] }]);
    expect(output).toContain('const { title } = mrtr.locals<{ title: string }>();');
  });
});
