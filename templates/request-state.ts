// The request-state helpers of a server migrated to MCP 2026-07-28 Multi Round-Trip Requests.
// A migrated handler returns inputRequired(...) and is re-entered by the client's retry, possibly
// on another instance, so everything it needs to resume travels in a signed requestState
// (signed, not encrypted: the client can read it, so keep secrets out of lifted locals), and
// the rounds already resumed are recorded in a round store every instance shares (below).
//
// What it guarantees, on both protocol eras:
// - sealed and bound: state is HMAC-signed and bound to the caller (OAuth client and end user),
//   and names the handler, the step and a digest of the call's arguments;
// - once: each round's state resumes at most once (a replay is refused);
// - bounded: a whole flow lives at most MCP_REQUEST_STATE_TTL_SECONDS (600) from its first
//   question, and no state above MCP_REQUEST_STATE_MAX_BYTES (65536) is minted;
// - validated: an accepted answer must match the schema its question asked for;
// - faithful: locals travel as JSON, so one that would not come back the same (a Date, a Map,
//   a class instance, NaN) is refused when the question is asked, not lost on the retry.
// State that fails a check of the verifier (signed, bound, once, bounded) never reaches the
// handler: the client gets JSON-RPC -32602 "Invalid or expired requestState", the reason goes
// to the server's onerror. State minted for another call, or not by this module, is answered
// with a refused state the verifier then refuses the same way. What the handler refuses itself
// (an answer that does not match its question, a local JSON cannot carry) it throws, as the
// push API threw: for a tool the SDK (2.4.0) makes that a result with isError: true, for a
// prompt or a resource a JSON-RPC error.
//
// Set MCP_REQUEST_STATE_KEY (at least 32 bytes, the same on every instance). Without it a random
// per-process key is used, which only works while one process serves every round of a call.
// Several instances (or one that restarts within a flow's TTL) also need one round store they
// share, or a round answered on one could be replayed on another: with Redis,
//   mrtrConfigure({ rounds: mrtrRedisRounds(redis) })   // a connected node-redis or ioredis client
//
// Wire the verifier where the server is built (the codemod does this when it finds the place):
//   new McpServer(info, { requestState: { verify: mrtrVerify() } })
// It verifies only the state this module minted and hands any other requestState to the
// verifier it is given (mrtrVerify(yourVerify)), or leaves it as it came.
import {
  createRequestStateCodec,
  inputRequired,
  specTypeSchemas,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitResult,
  type InputRequests,
  type InputRequiredResult,
  type JsonSchemaType,
  type jsonSchemaValidator,
  type RequestStateCodec,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

type MrtrState = {
  handler: string;
  step: string;
  args: string;
  locals: Record<string, unknown>;
  ask: InputRequests;
  /** This round's id: a state resumes once. */
  round: string;
  /** When the flow asked its first question (Unix seconds): it lives at most the flow TTL. */
  born: number;
};

/** A requestState verifier, as `new McpServer(info, { requestState: { verify } })` takes it. */
type MrtrVerifier = NonNullable<NonNullable<ServerOptions['requestState']>['verify']>;

/** Records the rounds that resumed. `claim` answers false for a round claimed before. */
export interface MrtrRoundStore {
  claim(round: string, expiresAtMs: number): boolean | Promise<boolean>;
}

export interface MrtrOptions {
  /**
   * Where resumed rounds are recorded (default: this process's memory). When several
   * instances serve the server, give them one shared store (mrtrRedisRounds(redis)).
   */
  rounds?: MrtrRoundStore;
  /** How long a whole flow may take, in seconds (default MCP_REQUEST_STATE_TTL_SECONDS or 600). */
  flowTtlSeconds?: number;
  /** The largest requestState minted, in bytes (default MCP_REQUEST_STATE_MAX_BYTES or 65536). */
  maxStateBytes?: number;
  /**
   * Who the state belongs to: state minted for one principal is refused for another. By
   * default the OAuth client id and the end user (`sub`, `userId` or `user_id` of authInfo.extra).
   */
  principal?: (ctx: ServerContext) => string;
  /** Validates accepted elicitation content against its schema (default: Ajv, as the server does on Node). */
  jsonSchemaValidator?: jsonSchemaValidator;
}

/** Starts every state this module mints, so the verifier claims only its own. */
const MRTR_STATE_PREFIX = 'mrtr-';
/** The state a refused call gets back: the verifier refuses it, so the client sees -32602. */
const MRTR_REFUSED_STATE = `${MRTR_STATE_PREFIX}refused`;
/** The same, for a call that came with state this module did not mint. */
const MRTR_FOREIGN_STATE = `${MRTR_STATE_PREFIX}foreign`;

const mrtrSettings: MrtrOptions = {};
let mrtrCodecInstance: RequestStateCodec<MrtrState> | undefined;
let mrtrValidatorInstance: jsonSchemaValidator | undefined;

/** Changes the defaults above; call it before the server serves its first request. */
export function mrtrConfigure(options: MrtrOptions): void {
  Object.assign(mrtrSettings, options);
  mrtrCodecInstance = undefined;
  mrtrValidatorInstance = undefined;
}

function mrtrEnv(name: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}

function mrtrNumber(configured: number | undefined, name: string, fallback: number): number {
  const value = configured ?? Number(mrtrEnv(name) ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function mrtrFlowTtl(): number {
  return mrtrNumber(mrtrSettings.flowTtlSeconds, 'MCP_REQUEST_STATE_TTL_SECONDS', 600);
}

export function mrtrCodec(): RequestStateCodec<MrtrState> {
  mrtrCodecInstance ??= createRequestStateCodec<MrtrState>({ key: mrtrStateKey(), ttlSeconds: mrtrFlowTtl(), bind: mrtrSettings.principal ?? mrtrPrincipal });
  return mrtrCodecInstance;
}

/** The OAuth client and the end user the request is made for ('' for an unauthenticated transport). */
function mrtrPrincipal(ctx: ServerContext): string {
  const auth = ctx.http?.authInfo;
  // Bracketed: `extra` is an index signature (noPropertyAccessFromIndexSignature).
  const user = auth?.extra?.['sub'] ?? auth?.extra?.['userId'] ?? auth?.extra?.['user_id'];
  return JSON.stringify([auth?.clientId ?? '', typeof user === 'string' || typeof user === 'number' ? String(user) : '']);
}

function mrtrStateKey(): string | Uint8Array {
  const env = mrtrEnv('MCP_REQUEST_STATE_KEY');
  if (env) return env;
  // One fallback key per process, shared by every copy of this module the server loads.
  const slot = Symbol.for('mrtr-codemod.request-state-key');
  const shared = globalThis as unknown as Record<symbol, Uint8Array | undefined>;
  let key = shared[slot];
  if (!key) {
    key = shared[slot] = crypto.getRandomValues(new Uint8Array(32));
    console.warn('MCP_REQUEST_STATE_KEY is not set: using a per-process key; multi-round calls fail across processes.');
  }
  return key;
}

/** The rounds this process has resumed, until their flow expires. */
function mrtrMemoryRounds(): MrtrRoundStore {
  const claimed = new Map<string, number>();
  return {
    claim(round, expiresAtMs) {
      const now = Date.now();
      // Expired entries go as new ones come, so the map holds at most one TTL's worth.
      for (const [id, expires] of claimed) {
        if (expires >= now) break;
        claimed.delete(id);
      }
      if (claimed.has(round)) return false;
      claimed.set(round, expiresAtMs);
      return true;
    },
  };
}

const mrtrDefaultRounds = mrtrMemoryRounds();

/** A connected Redis client: node-redis (`sendCommand`) or ioredis (`call`). */
export type MrtrRedis = { sendCommand(args: string[]): Promise<unknown> } | { call(command: string, ...args: string[]): Promise<unknown> };

/**
 * The rounds resumed, in Redis, for every instance that shares it: a round is claimed with
 * `SET <prefix><round> 1 NX PX <ms until its flow expires>`, which succeeds once. When Redis
 * cannot answer, the claim fails and the state is refused (never resumed twice).
 */
export function mrtrRedisRounds(redis: MrtrRedis, prefix = 'mrtr:round:'): MrtrRoundStore {
  return {
    async claim(round, expiresAtMs) {
      const args = ['SET', prefix + round, '1', 'NX', 'PX', String(Math.max(1, Math.ceil(expiresAtMs - Date.now())))];
      const reply = 'sendCommand' in redis ? await redis.sendCommand(args) : await redis.call(args[0]!, ...args.slice(1));
      return reply === 'OK';
    },
  };
}

/**
 * The verifier to put in the server's options: state this module minted is checked (signature,
 * expiry, principal, flow life, first use) and decoded; any other state goes to `next` (a
 * verifier the server already had), or is left as it came when there is none. A refusal
 * reaches the client as -32602 and its reason the server's onerror.
 */
export function mrtrVerify(next?: MrtrVerifier): MrtrVerifier {
  return async (state, ctx) => {
    if (!state.startsWith(MRTR_STATE_PREFIX)) return next ? next(state, ctx) : undefined;
    if (state === MRTR_REFUSED_STATE) throw new Error('state minted for another call (handler, step or arguments)');
    if (state === MRTR_FOREIGN_STATE) throw new Error('state this module did not mint (no verifier claimed it), sent to a migrated handler');
    const payload = await mrtrCodec().verify(state.slice(MRTR_STATE_PREFIX.length), ctx);
    const expires = (payload.born + mrtrFlowTtl()) * 1000;
    if (Date.now() > expires) throw new Error('the flow outlived MCP_REQUEST_STATE_TTL_SECONDS');
    if (!(await (mrtrSettings.rounds ?? mrtrDefaultRounds).claim(payload.round, expires))) throw new Error('this round already resumed (a requestState is used once)');
    return payload;
  };
}

/** Why `value` would not come back the same from JSON.stringify and JSON.parse; undefined when it would. */
function mrtrJsonProblem(value: unknown, path: string, depth: number): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}`;
  if (typeof value !== 'object') return `${path} is ${value === undefined ? 'undefined in an array' : `a ${typeof value}`}`;
  if (depth > 64) return `${path} is nested too deeply (or refers to itself)`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = mrtrJsonProblem(value[i], `${path}[${i}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return `${path} is a ${(value as { constructor?: { name?: string } }).constructor?.name || 'object that is not plain'}`;
  for (const [key, item] of Object.entries(value)) {
    // An undefined property is left out, and reads back as undefined.
    const problem = item === undefined ? undefined : mrtrJsonProblem(item, `${path}.${key}`, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

// A digest of the call's arguments, so state minted for one argument set is refused for another.
async function mrtrDigest(value: unknown): Promise<string> {
  const canonical = JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return btoa(String.fromCharCode(...new Uint8Array(hash)));
}

/** The part of a server that knows what the client declared on a 2025-era connection. */
type MrtrServer = { getClientCapabilities?(): ClientCapabilities | undefined; server?: { getClientCapabilities?(): ClientCapabilities | undefined } };

/**
 * Resumes a migrated handler. The verifier has already checked signature, expiry, principal and
 * first use; this checks the state names this handler, one of its steps and these arguments.
 * `server` (the McpServer or Server the handler is registered on) tells what a 2025-era client
 * declared, so a question it cannot answer throws as the push API did.
 */
export async function mrtrResume(ctx: ServerContext, handler: string, steps: readonly string[], args: unknown, server?: MrtrServer) {
  const digest = await mrtrDigest(args);
  const state = ctx.mcpReq.requestState<MrtrState>();
  // A string is state no verifier decoded: this module's own when the verifier is not wired.
  const raw: unknown = state;
  if (typeof raw === 'string' && raw.startsWith(MRTR_STATE_PREFIX)) {
    throw new Error('requestState was not verified: add requestState: { verify: mrtrVerify() } to the options of the server this handler is registered on');
  }
  // State it did not mint, left as it came (or decoded by another verifier): refused as misdirected.
  const foreign = raw !== undefined && (typeof raw !== 'object' || raw === null || typeof (raw as { round?: unknown }).round !== 'string');
  const misdirected = state !== undefined && (typeof state !== 'object' || state.handler !== handler || !steps.includes(state.step) || state.args !== digest);
  const born = state?.born ?? Math.floor(Date.now() / 1000);
  const carriable = (locals: Record<string, unknown>) => {
    const problem = mrtrJsonProblem(locals, 'locals', 0);
    if (problem) throw new Error(`${handler}: ${problem}, which requestState (JSON) cannot carry; recompute it after the answer, or carry a JSON form of it`);
  };
  // What a split helper decided without asking on this call (see `decided`).
  let decided: { locals: Record<string, unknown>; values: Map<string, unknown> } | undefined;
  const mint = async (next: Omit<MrtrState, 'round' | 'born'>) => {
    carriable(next.locals);
    const requestState = MRTR_STATE_PREFIX + (await mrtrCodec().mint({ ...next, round: crypto.randomUUID(), born }, ctx));
    const max = mrtrNumber(mrtrSettings.maxStateBytes, 'MCP_REQUEST_STATE_MAX_BYTES', 65536);
    if (requestState.length > max) {
      throw new Error(`${handler}: its requestState would be ${requestState.length} bytes, over the limit of ${max} (MCP_REQUEST_STATE_MAX_BYTES); keep large values on the server and carry a key to them`);
    }
    return requestState;
  };
  const flow = {
    /** Set when the state was minted for another call, or not by this module: return it (the client then gets -32602). */
    refused: misdirected ? inputRequired({ requestState: foreign ? MRTR_FOREIGN_STATE : MRTR_REFUSED_STATE }) : undefined,
    /** The step whose answer this round carries; undefined on the first call. */
    step: misdirected ? undefined : state?.step,
    /** Set once this call returns a question: a finally block then leaves its work to the call that completes. */
    suspended: false,
    locals<T>(): T {
      return (decided?.locals ?? state!.locals) as T;
    },
    /**
     * The bare response for `key`, parsed with the SDK's schema for the answer to its question
     * as the push API parsed its result; undefined when it is missing or has another shape.
     * Accepted content that does not match the question's schema throws, as the push API did;
     * so does a sampling result with tool use for a question that offered no tools.
     */
    response<T = unknown>(key: string, kind: 'elicit' | 'sampling' | 'roots'): T | undefined {
      const responses = ctx.mcpReq.inputResponses;
      if (!responses || !Object.hasOwn(responses, key)) return undefined;
      const asked = state && Object.hasOwn(state.ask, key) ? state.ask[key] : undefined;
      const answer = mrtrParseAnswer(kind, asked, responses[key]);
      if (kind === 'elicit' && answer !== undefined) mrtrValidateContent(answer as ElicitResult, asked);
      return answer as T | undefined;
    },
    /**
     * Asks the questions of `step`, carrying `locals`. It throws at once (not in the promise) if
     * the client cannot answer them, so a `try` around `return mrtr.ask(...)` catches it as it
     * caught the push API's throw.
     */
    ask: (step: string, locals: Record<string, unknown>, ask: InputRequests): Promise<InputRequiredResult> => {
      mrtrRequireCapabilities(ctx, ask, server);
      flow.suspended = true;
      return mint({ handler, step, args: digest, locals, ask }).then((requestState) => inputRequired({ inputRequests: ask, requestState }));
    },
    /**
     * A split helper returned its value without asking (a default, an early error): the call
     * goes on as the retry that answers `step` would, with `locals` read back through JSON as
     * that retry reads them, and each helper's value kept under its question's key for `value`.
     * Returns the step, for a handler that keeps it in a local.
     */
    decided(step: string, locals: Record<string, unknown>, values: Record<string, unknown>): string {
      carriable(locals);
      decided = { locals: JSON.parse(JSON.stringify(locals)) as Record<string, unknown>, values: new Map(Object.entries(values)) };
      flow.step = step;
      return step;
    },
    /**
     * The value of the split helper asked at `key`: what its request half returned on this call
     * without asking, or what `result` (its result half) makes of the client's answer;
     * undefined when the answer is missing.
     */
    value<A, T = A>(key: string, kind: 'elicit' | 'sampling' | 'roots', result?: (answer: A) => T): { value: T } | undefined {
      if (decided?.values.has(key)) {
        const value = decided.values.get(key) as T;
        decided.values.delete(key);
        return { value };
      }
      const answer = flow.response<A>(key, kind);
      if (answer === undefined) return undefined;
      return { value: result ? result(answer) : (answer as unknown as T) };
    },
    /** The same question again: the retry came without its answer (spec: re-request, do not error). */
    askAgain: async (): Promise<InputRequiredResult> => {
      flow.suspended = true;
      const { step, locals, ask } = state!;
      return inputRequired({ inputRequests: ask, requestState: await mint({ handler, step, args: digest, locals, ask }) });
    },
  };
  return flow;
}

/**
 * `answer` parsed with the SDK's schema for the answer to `asked`; undefined when it has another
 * shape. A sampling question that offered no tools takes one content block, as the push API's
 * result did: a result with tool use (a content list) is refused with the client's error.
 */
function mrtrParseAnswer(kind: 'elicit' | 'sampling' | 'roots', asked: InputRequests[string] | undefined, answer: unknown): unknown {
  const params = asked?.params as { tools?: unknown; toolChoice?: unknown } | undefined;
  const tools = params?.tools !== undefined || params?.toolChoice !== undefined;
  const schema =
    kind === 'elicit' ? specTypeSchemas.ElicitResult
    : kind === 'roots' ? specTypeSchemas.ListRootsResult
    : tools ? specTypeSchemas.CreateMessageResultWithTools
    : specTypeSchemas.CreateMessageResult;
  const parsed = schema['~standard'].validate(answer);
  if (parsed instanceof Promise) return undefined;
  // A failure has issues, a success its value. The `in` test narrows to the success where
  // `issues` cannot (a project compiled without strictNullChecks).
  if (!parsed.issues && 'value' in parsed) return parsed.value;
  const withTools = kind === 'sampling' && !tools ? specTypeSchemas.CreateMessageResultWithTools['~standard'].validate(answer) : undefined;
  if (withTools && !(withTools instanceof Promise) && !withTools.issues) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid sampling result: ${JSON.stringify(parsed.issues, null, 2)}`);
  }
  return undefined;
}

/** Accepted content must match the schema of the question asked (the push API checked this). */
function mrtrValidateContent(answer: ElicitResult, asked: InputRequests[string] | undefined): void {
  const params = asked?.params as { requestedSchema?: JsonSchemaType } | undefined;
  if (answer.action !== 'accept' || !answer.content || !params?.requestedSchema) return;
  mrtrValidatorInstance ??= mrtrSettings.jsonSchemaValidator ?? new AjvJsonSchemaValidator();
  const result = mrtrValidatorInstance.getValidator(params.requestedSchema)(answer.content);
  if (!result.valid) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Elicitation response content does not match requested schema: ${result.errorMessage}`);
}

// Never send an input request the client did not declare (spec server requirement 7). A
// 2026-07-28 request carries the client's capabilities; on a 2025-era connection they are the
// ones it declared at initialize, which the server knows. The error is the one the push API
// threw, so a surrounding try/catch takes its fallback. A form question needs
// `elicitation.form`, or a bare `elicitation: {}` (its 2025 meaning); a URL one
// `elicitation.url`; sampling with tools `sampling.tools`.
function mrtrRequireCapabilities(ctx: ServerContext, ask: InputRequests, server: MrtrServer | undefined): void {
  const caps = (ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? (server?.server ?? server)?.getClientCapabilities?.();
  if (!caps) return;
  const elicitation = caps.elicitation;
  const form = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  for (const mrtrRequest of Object.values(ask)) {
    const params = mrtrRequest.params as { mode?: string; tools?: unknown; toolChoice?: unknown } | undefined;
    const [wanted, message] =
      mrtrRequest.method === 'elicitation/create'
        ? params?.mode === 'url' ? [elicitation?.url, 'Client does not support url elicitation.'] : [form, 'Client does not support form elicitation.']
        : mrtrRequest.method === 'sampling/createMessage'
          ? params?.tools !== undefined || params?.toolChoice !== undefined
            ? [caps.sampling?.tools, 'Client does not support sampling tools capability.']
            : [caps.sampling, 'Client does not support sampling (required for sampling/createMessage)']
          : [caps.roots, 'Client does not support listing roots (required for roots/list)'];
    if (!wanted) throw new SdkError(SdkErrorCode.CapabilityNotSupported, message);
  }
}
