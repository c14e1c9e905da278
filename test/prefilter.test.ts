// The prefilter keeps a file from analysis, so a spelling it misses is a silent site. It looks
// for a few words first and for its spellings only in files that hold one: every spelling must
// hold one of those words, and the two steps must answer as the spellings alone do.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  INIT_HOOK_WORDS,
  LEGACY_CALLS,
  PREFILTER,
  PREFILTER_SPELLINGS,
  PREFILTER_WORDS,
  REQUEST_METHODS,
  REQUEST_SCHEMAS,
  URL_ELICITATION_ERROR,
} from '../src/analyse/sdk-surface.ts';
import { ROOT } from './support/fixtures.ts';

/** Texts each of which one of the spellings matches, every branch of each spelling among them. */
const ASKING = [
  'await ctx.mcpReq.elicitInput(q)',
  'ctx.mcpReq.requestSampling(p)',
  'await ctx.sendRequest(r, ElicitResult)',
  'server.server.createMessage(p)',
  'server.server.listRoots()',
  "{ method: 'elicitation/create', params }",
  "{ method: 'sampling/createMessage', params }",
  "{ method: 'roots/list' }",
  'throw new UrlElicitationRequiredError([])',
  'const transport = new StdioServerTransport()',
  'new StreamableHTTPServerTransport({ sessionIdGenerator })',
  'new SSEServerTransport(path, res)',
  'server.server.oninitialized = () => load()',
  "setNotificationHandler('notifications/initialized', h)",
  'setNotificationHandler(InitializedNotificationSchema, h)',
  'if (server.getClientCapabilities()?.sampling)',
  'const { send } = ctx.mcpReq',
  'const req = ctx.mcpReq;',
  'ctx.mcpReq[name](q)',
  'ctx.mcpReq?.[name](q)',
  'ctx.mcpReq.send(r)',
  'ctx.mcpReq?.send(r)',
  'handler({ mcpReq: { elicitInput } })',
  'extra.elicit(q)',
  'ctx.sample (p)',
  'ctx.elicit.call(ctx, q)',
  'ctx.sample.apply(ctx, [p])',
  'ctx.sample . bind(ctx)',
  'const { elicit } = extra',
  'const { elicit: ask } = extra',
  'const { sample, log } = ctx',
  'async ({ sample }) => sample(p)',
  'ElicitRequestSchema.parse(r)',
  'sendRequest(r, ElicitResultSchema)',
  'CreateMessageRequestSchema',
  'CreateMessageResultSchema',
  'CreateMessageResultWithToolsSchema',
  'ListRootsRequestSchema',
  'ListRootsResultSchema',
  'server.request(r, s)',
  'this.server?.request(r)',
  'mcp.Server.request(r)',
  'server[method](p)',
  'this.server?.[name](p)',
];

/** Texts none of the spellings matches. */
const QUIET = ['ctx.mcpReq.id', 'ctx.mcpReq?.signal', 'socket.send(data)', 'http.request(url)', 'const examples = [1, 2]', 'server.listen(3000)'];

const spellings = PREFILTER_SPELLINGS.map((source) => new RegExp(source));
const bySpellings = new RegExp(PREFILTER_SPELLINGS.join('|'));

describe('the prefilter', () => {
  it('has an example of every spelling', () => {
    expect(spellings.filter((spelling) => !ASKING.some((text) => spelling.test(text))).map((s) => s.source)).toEqual([]);
  });

  it.each(ASKING)('passes %s, by one of its words', (text) => {
    expect(bySpellings.test(text)).toBe(true);
    expect(PREFILTER_WORDS.test(text)).toBe(true);
    expect(PREFILTER.test(text)).toBe(true);
  });

  it('passes every name of the tables it is built from', () => {
    const names = [
      ...LEGACY_CALLS.map((shape) => `x.${shape.method}(`).filter((name) => !/\.(?:request|send)\($/.test(name)),
      ...Object.keys(REQUEST_METHODS),
      ...Object.keys(REQUEST_SCHEMAS),
      ...INIT_HOOK_WORDS,
      URL_ELICITATION_ERROR,
    ];
    expect(names.filter((name) => !PREFILTER.test(name))).toEqual([]);
  });

  it.each(QUIET)('does not pass %s', (text) => {
    expect(bySpellings.test(text)).toBe(false);
    expect(PREFILTER.test(text)).toBe(false);
  });

  it('answers as its spellings alone do on the sources of the fixtures and the test projects', () => {
    const texts = [...sourcesUnder(path.join(ROOT, 'fixtures')), ...sourcesUnder(path.join(ROOT, 'test', 'corpus'))].map((file) => readFileSync(file, 'utf8'));
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((text) => PREFILTER.test(text) !== bySpellings.test(text))).toEqual([]);
    // Both answers among them: the comparison says something.
    expect(new Set(texts.map((text) => bySpellings.test(text))).size).toBe(2);
  });
});

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.[cm]?[jt]sx?$/.test(name) && !name.split(path.sep).includes('node_modules'))
    .map((name) => path.join(dir, name));
}
