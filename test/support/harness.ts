/**
 * End-to-end harness: links a real `@modelcontextprotocol/client` Client to a
 * server factory in process, on either protocol era, answers the server's
 * questions (elicitation, sampling, roots) from a script, and records what
 * the client was asked and what every tool call returned.
 *
 * The point is comparison: a legacy push-style server (2025 era only) and its
 * migrated MRTR version (both eras) should produce the same `Recording`
 * apart from `era`. Everything era-specific that is not behaviour is
 * normalised away here (see `normaliseQuestion` and `stripMeta`).
 *
 * Linking uses `serveStdio(factory, { transport })` over an in-memory pair:
 * that entry serves both eras from one factory (the opening exchange picks
 * the era and pins one instance per connection), whereas a hand-wired
 * `McpServer.connect()` is always 2025-era (SDK-NOTES, "Linking").
 */
import {
  Client,
  InMemoryTransport,
  ProtocolError,
  StreamableHTTPClientTransport,
  type ClientOptions,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMcpHandler, type AuthInfo, type McpServer } from '@modelcontextprotocol/server';
import { serveStdio, type ServeStdioOptions, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';

export type Era = 'modern' | 'legacy';

/**
 * What a test serves: a function building a server (served through serveStdio), or a
 * server's own entry point, which calls serveStdio with its factory and the options given.
 */
export type Served = (() => McpServer) | { serve(options: ServeStdioOptions): StdioServerHandle };

type MaybePromise<T> = T | Promise<T>;

/** What the scripted user answers to an elicitation. */
export type ScriptedElicitResult = {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
};

export type ClientScript = {
  /** Called for each `elicitation/create` the client receives (params normalised, see `Question`). */
  elicit?: (params: Record<string, unknown>) => MaybePromise<ScriptedElicitResult>;
  /** Called for each `sampling/createMessage` the client receives (params normalised). */
  sample?: (params: Record<string, unknown>) => MaybePromise<CreateMessageResult>;
  /** The answer to every `roots/list`. */
  roots?: Array<{ uri: string; name?: string }>;
  /** Told of each `notifications/elicitation/complete` (a client that declared URL elicitation). */
  elicitationComplete?: (params: Record<string, unknown>) => void;
};

/**
 * One question the client was asked, in the order the client's handlers were
 * entered. `params` is normalised so that a push request (2025 era), the
 * legacy shim's re-issued request and an embedded `inputRequests` entry
 * (2026 era) compare equal with `toEqual`/`toStrictEqual`:
 * - `_meta` is dropped (the shim adds `_meta.progressToken`);
 * - absent params become `{}` (push `roots/list` has none, the shim sends `{ _meta }`);
 * - an elicitation with a `requestedSchema` and no `mode` gets `mode: 'form'`
 *   (v1 `extra.sendRequest` omits it, everything else adds it: SDK-NOTES pitfall 6).
 */
export type Question = { method: string; params: unknown };

export type Recording = {
  /** The era that actually ran (checked against the one asked for). */
  era: Era;
  /** One entry per call, in order: the result without `_meta`, or `{ thrown }`. */
  results: unknown[];
  questions: Question[];
};

/** How a call that threw is recorded, so tests can compare it across eras. */
export type ThrownRecord = { thrown: { name: string; code: unknown; message: string } };

/** A tools/call by default; `kind: 'prompt'` makes it a prompts/get (arguments are strings there). */
export type ToolCall = { name: string; arguments?: Record<string, unknown>; kind?: 'tool' | 'prompt' | 'resource' };

/** The JSON-RPC error a `callRaw` returns instead of throwing. */
export type RawError = { error: { code: number; message: string; data: unknown } };

export type ManualConnection = {
  client: Client;
  /**
   * Sends one `tools/call` with `params` as given (include `inputResponses`
   * and `requestState` yourself on a retry). Resolves with the raw result
   * (`resultType: 'input_required'` included, `_meta` kept) or, when the
   * server answers a JSON-RPC error, with `{ error: { code, message, data } }`.
   * Local SDK errors (timeouts, closed connection…) still throw.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the raw wire result, which each test reads field by field
  callRaw(params: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
};

const CLIENT_INFO = { name: 'mrtr-harness', version: '1.0.0' };

/**
 * The v2 client must declare all three, or the modern server answers
 * -32021 (MissingRequiredClientCapability) before the handler can ask.
 */
const CLIENT_CAPABILITIES: NonNullable<ClientOptions['capabilities']> = {
  elicitation: { form: {} },
  sampling: {},
  roots: { listChanged: true },
};

/** Returns a shallow copy of `value` without its `_meta` key; non-objects pass through. */
export function stripMeta<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { _meta: _dropped, ...rest } = value as Record<string, unknown>;
  return rest as T;
}

export function normaliseQuestion(method: string, params: unknown): Question {
  const normalised: Record<string, unknown> = { ...(stripMeta(params as Record<string, unknown> | undefined) ?? {}) };
  if (method === 'elicitation/create' && 'requestedSchema' in normalised && !('mode' in normalised)) {
    normalised.mode = 'form';
  }
  return { method, params: normalised };
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Builds a client, links it to `factory` through `serveStdio` and connects.
 * On any failure (including an era mismatch) everything opened is closed
 * before rethrowing, so a failing test leaks no handles.
 */
export async function link(
  factory: Served,
  era: Era,
  options: ClientOptions,
  register: (client: Client) => void,
): Promise<{ client: Client; close(): Promise<void> }> {
  const client = new Client(CLIENT_INFO, options);
  register(client);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const server = typeof factory === 'function' ? serveStdio(factory, { transport: serverTransport }) : factory.serve({ transport: serverTransport });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // Close both ends even if the first close fails; report the first failure.
    const outcomes = await Promise.allSettled([client.close(), server.close()]);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
  };
  try {
    await client.connect(clientTransport);
    const actual = client.getProtocolEra();
    if (actual !== era) {
      throw new Error(`harness: asked for the ${era} era but the connection negotiated ${String(actual)}`);
    }
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return { client, close };
}

/**
 * Runs `calls` in order (sequentially) on a fresh connection of the given era
 * and records the client-side questions and the results.
 *
 * Fails loudly (rejects after closing) when the server asks something the
 * script has no answer for, or a script handler throws: the client also
 * answers the server with an error at that moment, but that error would only
 * surface as an `isError` result on some paths, which a comparison could miss.
 */
export async function runCalls(
  factory: Served,
  era: Era,
  calls: ToolCall[],
  script: ClientScript,
  /** What the client declares; all three kinds by default. */
  capabilities: NonNullable<ClientOptions['capabilities']> = CLIENT_CAPABILITIES,
): Promise<Recording> {
  return runCallsOn((options, register) => link(factory, era, options, register), era, calls, script, capabilities);
}

/**
 * `runCalls` against a server listening at `url`, over the client's Streamable HTTP
 * transport. The era recorded is the one the connection negotiated: a server that serves
 * only 2025 answers a 2026-07-28 client on 2025, which is what an entry point test looks for.
 */
export async function runCallsOverHttp(
  url: URL,
  era: Era,
  calls: ToolCall[],
  script: ClientScript,
  capabilities: NonNullable<ClientOptions['capabilities']> = CLIENT_CAPABILITIES,
): Promise<Recording> {
  const open = async (options: ClientOptions, register: (client: Client) => void) => {
    const client = new Client(CLIENT_INFO, options);
    register(client);
    await client.connect(new StreamableHTTPClientTransport(url));
    return { client, close: () => client.close() };
  };
  return runCallsOn(open, era, calls, script, capabilities);
}

/**
 * `runCalls` against a server process spawned as an MCP host spawns it (`node ...args`, with
 * `env` added to this process's), over the client's stdio transport. The era recorded is the
 * one negotiated. On the modern era the client's probe spawns a second, short-lived process.
 */
export async function runCallsOverStdio(
  args: string[],
  env: Record<string, string>,
  era: Era,
  calls: ToolCall[],
  script: ClientScript,
  capabilities: NonNullable<ClientOptions['capabilities']> = CLIENT_CAPABILITIES,
): Promise<Recording> {
  const open = async (options: ClientOptions, register: (client: Client) => void) => {
    const client = new Client(CLIENT_INFO, options);
    register(client);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'pipe',
    });
    await client.connect(transport);
    return { client, close: () => client.close() };
  };
  return runCallsOn(open, era, calls, script, capabilities);
}

/** The calls and questions of one connection `open` makes with the era's client options. */
async function runCallsOn(
  open: (options: ClientOptions, register: (client: Client) => void) => Promise<{ client: Client; close(): Promise<void> }>,
  era: Era,
  calls: ToolCall[],
  script: ClientScript,
  capabilities: NonNullable<ClientOptions['capabilities']>,
): Promise<Recording> {
  const questions: Question[] = [];
  const problems: string[] = [];

  /** Records the question first (entry order), then asks the script. */
  const answer = async <R>(method: string, rawParams: unknown, respond: ((params: Record<string, unknown>) => MaybePromise<R>) | undefined): Promise<R> => {
    const question = normaliseQuestion(method, rawParams);
    questions.push(question);
    if (respond === undefined) {
      const problem = `the server asked ${method} but the ClientScript has no answer for it: ${JSON.stringify(question.params)}`;
      problems.push(problem);
      throw new Error(`harness: ${problem}`);
    }
    try {
      return await respond(question.params as Record<string, unknown>);
    } catch (error) {
      problems.push(`the ClientScript handler for ${method} threw ${describeError(error)}`);
      throw error;
    }
  };

  const options: ClientOptions = {
    capabilities,
    // Absent versionNegotiation is the 2025 `initialize` handshake; 'auto'
    // probes with server/discover and picks the modern era on serveStdio.
    ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}),
  };

  // The client refuses handlers for capabilities it does not declare: register only those.
  const connection = await open(options, (client) => {
    if (capabilities.elicitation) {
      client.setRequestHandler(
        'elicitation/create',
        async (request) =>
          // The script's `content` is looser than the SDK's primitive-valued record.
          (await answer('elicitation/create', request.params, script.elicit)) as ElicitResult,
      );
    }
    if (capabilities.sampling) {
      client.setRequestHandler('sampling/createMessage', (request) => answer('sampling/createMessage', request.params, script.sample));
    }
    if (capabilities.roots) {
      client.setRequestHandler('roots/list', async (request) => ({
        roots: await answer('roots/list', request.params, script.roots && (() => script.roots!.map((root) => ({ ...root })))),
      }));
    }
    const complete = script.elicitationComplete;
    if (complete) client.setNotificationHandler('notifications/elicitation/complete', (n) => complete({ ...n.params }));
  });

  const results: unknown[] = [];
  const negotiated = connection.client.getProtocolEra() ?? era;
  try {
    for (const call of calls) {
      try {
        // Modern: callTool/getPrompt auto-fulfil input_required rounds inside the call.
        const { kind, ...params } = call;
        // A resource call's `name` is the URI to read.
        const result =
          kind === 'prompt'
            ? await connection.client.getPrompt({ name: params.name, arguments: params.arguments as Record<string, string> | undefined })
            : kind === 'resource'
              ? await connection.client.readResource({ uri: params.name })
              : await connection.client.callTool(params);
        results.push(stripMeta(result));
      } catch (error) {
        results.push(toThrownRecord(error));
      }
    }
  } finally {
    await connection.close();
  }

  if (problems.length > 0) {
    throw new Error(`harness: the client script could not answer the server:\n- ${problems.join('\n- ')}`);
  }
  return { era: negotiated, results, questions };
}

function toThrownRecord(error: unknown): ThrownRecord {
  if (error instanceof Error) {
    return { thrown: { name: error.name, code: (error as { code?: unknown }).code, message: error.message } };
  }
  return { thrown: { name: typeof error, code: undefined, message: String(error) } };
}

/**
 * Manual mode on the modern era: no auto-fulfilment and no client handlers,
 * so an `input_required` result comes back to the caller as it is on the wire
 * (minus nothing: `resultType`, `inputRequests`, `requestState`, `_meta`).
 */
export async function connectManual(factory: () => McpServer): Promise<ManualConnection> {
  return connectRaw(factory, false);
}

/**
 * The modern era as an ordinary client runs it: each `tools/call` sent as given (the caller may
 * put a `requestState` and `inputResponses` in it), and any `input_required` answer fulfilled
 * by the client (no handlers: only a round that carries nothing but a requestState can be).
 */
export async function connectAutoFulfilling(factory: () => McpServer): Promise<ManualConnection> {
  return connectRaw(factory, true);
}

async function connectRaw(factory: () => McpServer, autoFulfill: boolean): Promise<ManualConnection> {
  const { client, close } = await link(
    factory,
    'modern',
    {
      capabilities: CLIENT_CAPABILITIES,
      versionNegotiation: { mode: 'auto' },
      inputRequired: { autoFulfill },
    },
    () => undefined,
  );

  return { client, callRaw: rawCaller(client, autoFulfill), close };
}

/** `tools/call` as sent, with a JSON-RPC error returned as a RawError instead of thrown. */
function rawCaller(client: Client, autoFulfill: boolean): ManualConnection['callRaw'] {
  return async (params) => {
    try {
      // The method-keyed overload passes an input_required result through
      // untouched when allowInputRequired is set (no withInputRequired needed).
      return await client.request({ method: 'tools/call', params }, autoFulfill ? undefined : { allowInputRequired: true });
    } catch (error) {
      // ProtocolError = the server answered a JSON-RPC error; anything else is local.
      if (error instanceof ProtocolError) {
        const raw: RawError = { error: { code: error.code, message: error.message, data: error.data } };
        return raw;
      }
      throw error;
    }
  };
}

/** Manual mode on the modern era against a server process spawned as `runCallsOverStdio` spawns it. */
export async function connectManualOverStdio(args: string[], env: Record<string, string>): Promise<ManualConnection> {
  const client = new Client(CLIENT_INFO, { capabilities: CLIENT_CAPABILITIES, versionNegotiation: { mode: 'auto' }, inputRequired: { autoFulfill: false } });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' }),
  );
  return { client, callRaw: rawCaller(client, false), close: () => client.close() };
}

/**
 * Manual mode on the modern era over the real Streamable HTTP entry (`createMcpHandler`), each
 * request authenticated as `authInfo()` says at the time it is sent (switch it between calls
 * to play another client or user).
 */
export async function connectManualOverHttp(factory: () => McpServer, authInfo: () => AuthInfo): Promise<ManualConnection> {
  const handler = createMcpHandler(factory);
  const transport = new StreamableHTTPClientTransport(new URL('http://probe.invalid/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init), { authInfo: authInfo() }),
  });
  const client = new Client(
    { name: 'http-probe', version: '1.0.0' },
    { capabilities: CLIENT_CAPABILITIES, versionNegotiation: { mode: 'auto' }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(transport);
  return { client, callRaw: rawCaller(client, false), close: () => client.close() };
}

/**
 * `state` with one character of its MAC replaced: the FIRST one. Not the last: the 32-byte
 * MAC is 43 base64url characters, the last one's low 2 bits are padding and the codec's
 * decoder ignores them, so e.g. A/B/C/D there all verify.
 */
export function flipMac(state: string): string {
  const macStart = state.lastIndexOf('.') + 1;
  return state.slice(0, macStart) + (state[macStart] === 'A' ? 'B' : 'A') + state.slice(macStart + 1);
}
