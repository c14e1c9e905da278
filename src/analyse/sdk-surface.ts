// The legacy push surface and its MRTR replacement, as data. Detection and rendering both
// read these tables, so supporting another spelling of a legacy call is a one-line change.
import type { InputKind } from '../core/vocabulary.ts';

export const SERVER_PACKAGE = '@modelcontextprotocol/server';

/** How a legacy call is recognised: the receiver path's shape and the method name. */
export interface LegacyCallShape {
  /**
   * `ctx` means the handler's context parameter; `*.server` a receiver that may be the SDK's
   * low-level Server; `*` any receiver (a wrapper's method: never the SDK's own); `thrown` is a
   * URL elicitation thrown as an error.
   */
  receiver: 'ctx.mcpReq' | 'ctx' | '*.server' | '*' | 'thrown';
  method: string;
  /** Fixed kind, or `by-method` when the kind comes from a `{ method: '...' }` request object. */
  kind: InputKind | 'by-method';
  /** What the legacy call resolved to; the migrated variable keeps this type. */
  resultType?: string;
}

export const LEGACY_CALLS: readonly LegacyCallShape[] = [
  { receiver: 'ctx.mcpReq', method: 'elicitInput', kind: 'elicit', resultType: 'ElicitResult' },
  { receiver: 'ctx.mcpReq', method: 'requestSampling', kind: 'sampling', resultType: 'CreateMessageResult | CreateMessageResultWithTools' },
  { receiver: 'ctx.mcpReq', method: 'send', kind: 'by-method' },
  { receiver: 'ctx', method: 'sendRequest', kind: 'by-method' },
  { receiver: '*.server', method: 'elicitInput', kind: 'elicit', resultType: 'ElicitResult' },
  { receiver: '*.server', method: 'createMessage', kind: 'sampling', resultType: 'CreateMessageResult' },
  { receiver: '*.server', method: 'listRoots', kind: 'roots', resultType: 'ListRootsResult' },
  { receiver: '*.server', method: 'request', kind: 'by-method' },
];

/**
 * Push methods of wrappers, named like the legacy requests on an object nothing proves is the
 * SDK's: a framework's on the context it hands a handler (`extra.elicit(...)`, `ctx.sample(...)`,
 * on a holder named like a context), and the SDK's own names of its handler context's requests
 * on any other receiver (a framework session's `requestSampling`, a context a class keeps and
 * its `sendRequest`). Never migrated, always marked, unless the receiver is shown to be unrelated.
 */
export const WRAPPER_CALLS: readonly LegacyCallShape[] = [
  { receiver: 'ctx', method: 'elicit', kind: 'elicit' },
  { receiver: 'ctx', method: 'sample', kind: 'sampling' },
  { receiver: '*', method: 'requestSampling', kind: 'sampling' },
  { receiver: '*', method: 'sendRequest', kind: 'by-method' },
];

/** Parameter names that hold a framework's handler context (`extra`, `ctx`, `context`, `toolContext`). */
export const CONTEXT_PARAMETER = /^(?:extra|ctx|context|\w*(?:Context|Ctx))$/;

/** The method names of the legacy calls. */
export const LEGACY_METHOD_NAMES: ReadonlySet<string> = new Set(LEGACY_CALLS.map((shape) => shape.method));

/** The method names of the wrappers' push calls (`elicit`, `sample`; the others are legacy names too). */
export const WRAPPER_METHOD_NAMES: ReadonlySet<string> = new Set(WRAPPER_CALLS.map((shape) => shape.method));

/** Request methods that used to travel server→client, and the kind each becomes. */
export const REQUEST_METHODS: Readonly<Record<string, InputKind>> = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * The SDK's schemas of those requests and of their results, by the method each is for: a
 * request built with one (`ElicitRequestSchema.parse({...})`), or sent with its result's
 * (`sendRequest(request, ElicitResultSchema)`), names the method however the request is held.
 */
export const REQUEST_SCHEMAS: Readonly<Record<string, string>> = {
  ElicitRequestSchema: 'elicitation/create',
  ElicitResultSchema: 'elicitation/create',
  CreateMessageRequestSchema: 'sampling/createMessage',
  CreateMessageResultSchema: 'sampling/createMessage',
  CreateMessageResultWithToolsSchema: 'sampling/createMessage',
  ListRootsRequestSchema: 'roots/list',
  ListRootsResultSchema: 'roots/list',
};

export interface KindInfo {
  /** The `inputRequired.*` builder that embeds the request. */
  builder: string;
  /** Result type for `by-method` calls (typed like `ResultTypeMap[method]`). */
  resultType: string;
  /** Guidance attached to the migrated site; sampling and roots are deprecated (SEP-2577). */
  guidance?: string;
}

export const KINDS: Readonly<Record<InputKind, KindInfo>> = {
  elicit: { builder: 'inputRequired.elicit', resultType: 'ElicitResult' },
  elicitUrl: { builder: 'inputRequired.elicitUrl', resultType: 'ElicitResult' },
  sampling: {
    builder: 'inputRequired.createMessage',
    resultType: 'CreateMessageResult | CreateMessageResultWithTools',
    guidance: 'sampling is deprecated in MCP 2026-07-28 (SEP-2577): prefer calling your LLM provider API directly from the server.',
  },
  roots: {
    builder: 'inputRequired.listRoots',
    resultType: 'ListRootsResult',
    guidance: 'roots are deprecated in MCP 2026-07-28 (SEP-2577): prefer taking the paths as tool parameters.',
  },
};

/** Registration methods whose handlers may answer input_required, and the kind they serve. */
export const HANDLER_REGISTRARS: Readonly<Record<string, 'tool' | 'prompt' | 'resource'>> = {
  registerTool: 'tool',
  tool: 'tool',
  registerPrompt: 'prompt',
  prompt: 'prompt',
  registerResource: 'resource',
  resource: 'resource',
};

/** Low-level request handlers that may answer input_required, by method and by v1 schema name. */
export const LOW_LEVEL_METHODS: Readonly<Record<string, 'tool' | 'prompt' | 'resource'>> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'resource',
};
export const LOW_LEVEL_SCHEMAS: Readonly<Record<string, string>> = {
  CallToolRequestSchema: 'tools/call',
  GetPromptRequestSchema: 'prompts/get',
  ReadResourceRequestSchema: 'resources/read',
};

/** The config property whose presence means the handler's first parameter is the arguments. */
export const ARGS_SCHEMA_PROPERTY: Readonly<Record<'tool' | 'prompt', string>> = {
  tool: 'inputSchema',
  prompt: 'argsSchema',
};

/** What the request-state module exports to migrated files and to the module that builds the server. */
export const STATE_EXPORTS = { resume: 'mrtrResume', verify: 'mrtrVerify' } as const;

/** Prefix of every comment the codemod leaves for a human; `check` counts them. */
export const TODO_MARKER = '@mrtr-todo';
/** Prefix of informational comments (deprecation guidance) that do not fail `check`. */
export const NOTE_MARKER = '@mrtr-note';
/** The error a v1 tool threw to ask for URL elicitations (migrated like a question). */
export const URL_ELICITATION_ERROR = 'UrlElicitationRequiredError';
/** Each URL elicitation of a `throw new UrlElicitationRequiredError([...])`, as a question. */
export const URL_THROW_SHAPE: LegacyCallShape = { receiver: 'thrown', method: URL_ELICITATION_ERROR, kind: 'elicitUrl', resultType: 'ElicitResult' };

/** Parameter names that stand for a legacy call when a function is handed one (`async function ask(elicitInput, ...)`). */
export const LEGACY_PARAMETER_NAMES: ReadonlySet<string> = new Set(['elicitInput', 'createMessage', 'listRoots', 'requestSampling', 'sendRequest', 'send']);

/** Words only a file setting an initialize hook holds (`server.server.oninitialized = ...`). */
export const INIT_HOOK_WORDS = ['oninitialized', 'notifications/initialized', 'InitializedNotificationSchema'];

/** Whether a file's text may set an initialize hook. */
export const INIT_HOOK_TEXT = new RegExp(INIT_HOOK_WORDS.map((w) => w.replace('/', '\\/')).join('|'));

/**
 * Cheap text test, built from the tables above: only a file containing one of these words can
 * hold a legacy site. A plain `send` or `request` is in half the files of a project (sockets,
 * streams, HTTP clients), so those are looked for as `mcpReq.send`, by the request method they
 * name, or on a `server`. The request context taken whole (`const { send } = ctx.mcpReq`,
 * `const req = ctx.mcpReq`, `ctx.mcpReq[name]`, `{ mcpReq: { elicitInput } }`) or a server's
 * method named in brackets may ask with a method or a name another module holds, so those
 * spellings count too; `ctx.mcpReq.id` and the like do not. So do a wrapper's push method
 * (`.elicit(`, or destructured) and a request named only by its schema (`ElicitResultSchema`).
 */
export const PREFILTER_SPELLINGS: readonly string[] = [
  ...[
    ...new Set(LEGACY_CALLS.filter((shape) => shape.method !== 'request' && shape.method !== 'send').map((shape) => shape.method)),
    ...Object.keys(REQUEST_METHODS),
    URL_ELICITATION_ERROR,
    // An entry point, which serves only the 2025 era until it is served by serveStdio or
    // createMcpHandler.
    'StdioServerTransport',
    'StreamableHTTPServerTransport',
    'SSEServerTransport',
    // Registrations a 2026-07-28 client never sees: made in an initialize hook, or behind the
    // client's capabilities read while the server is built.
    ...INIT_HOOK_WORDS,
    'getClientCapabilities',
  ].map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
  // `ctx.mcpReq?.[name]` is the bracket form too.
  'mcpReq(?!\\??\\.(?!send\\b|\\[))',
  // A wrapper's push method, called (`.elicit(`) or invoked otherwise (`.sample.call(`).
  '\\.(?:elicit|sample)\\s*(?:\\(|\\.\\s*(?:call|apply|bind)\\b)',
  // A wrapper's push method taken out of its context (`{ elicit }`, `{ elicit: ask }`, `{ sample, ... }`);
  // not anchored on the brace or comma before it, which every file has in numbers (slow to scan).
  '\\b(?:elicit\\s*[,:}]|sample\\s*[,}])',
  '(?:Elicit|CreateMessage|ListRoots)(?:Request|Result)(?:WithTools)?Schema',
  '[sS]erver\\??\\.request\\b',
  '[sS]erver(?:\\?\\.)?\\[',
];

const SPELLINGS = new RegExp(PREFILTER_SPELLINGS.join('|'));

/**
 * Words one of which every text a spelling above matches holds. A regular expression's time
 * grows with its alternatives, and most files hold none of these few: looked for first, they
 * spare most files the whole list. A new spelling needs its word here (the prefilter's test
 * checks an example of each spelling).
 */
export const PREFILTER_WORDS = /licit|[sS]ampl|oots|erver(?:\??\.request|(?:\?\.)?\[|Transport)|nitialized|Capabilities|mcpReq|sendRequest|reateMessage/;

/** Whether a file's text may hold a legacy site (see PREFILTER_SPELLINGS). */
export const PREFILTER = { test: (text: string): boolean => PREFILTER_WORDS.test(text) && SPELLINGS.test(text) };
