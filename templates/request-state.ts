// The request-state helpers of a server migrated to MCP 2026-07-28 Multi Round-Trip Requests.
// A migrated handler returns inputRequired(...) and is re-entered by the client's retry, possibly
// on another instance, so everything it needs to resume travels in a signed requestState
// (signed, not encrypted: the client can read it, so keep secrets out of lifted locals).
//
// Set MCP_REQUEST_STATE_KEY (at least 32 bytes, the same on every instance). Without it a random
// per-process key is used, which only works while one process serves every round of a call.
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
  type InputRequests,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';

type MrtrState = { handler: string; step: string; args: string; locals: Record<string, unknown>; ask: InputRequests };

/** A requestState verifier, as `new McpServer(info, { requestState: { verify } })` takes it. */
type MrtrVerifier = NonNullable<NonNullable<ServerOptions['requestState']>['verify']>;

/** Starts every state this module mints, so the verifier claims only its own. */
const MRTR_STATE_PREFIX = 'mrtr-';

export const mrtrCodec = createRequestStateCodec<MrtrState>({
  key: mrtrStateKey(),
  // Bind state to the authenticated principal: state minted for one client is refused for another.
  bind: (ctx) => ctx.http?.authInfo?.clientId ?? '',
});

/**
 * The verifier to put in the server's options: state this module minted is checked (signature,
 * expiry, principal) and decoded; any other state goes to `next` (a verifier the server already
 * had), or is left as it came when there is none.
 */
export function mrtrVerify(next?: MrtrVerifier): MrtrVerifier {
  return (state, ctx) => {
    if (state.startsWith(MRTR_STATE_PREFIX)) return mrtrCodec.verify(state.slice(MRTR_STATE_PREFIX.length), ctx);
    return next ? next(state, ctx) : undefined;
  };
}

function mrtrStateKey(): string | Uint8Array {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.MCP_REQUEST_STATE_KEY;
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

// A digest of the call's arguments, so state minted for one argument set is refused for another.
async function mrtrDigest(value: unknown): Promise<string> {
  const canonical = JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return btoa(String.fromCharCode(...new Uint8Array(hash)));
}

/**
 * Resumes a migrated handler. The verifier has already checked signature, expiry and principal;
 * this checks the state names this handler, one of its steps and these arguments.
 */
export async function mrtrResume(ctx: ServerContext, handler: string, steps: readonly string[], args: unknown) {
  const digest = await mrtrDigest(args);
  const state = ctx.mcpReq.requestState<MrtrState>();
  if (state !== undefined && (typeof state !== 'object' || state.handler !== handler || !steps.includes(state.step) || state.args !== digest)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
  }
  const mint = async (next: MrtrState) => MRTR_STATE_PREFIX + (await mrtrCodec.mint(next, ctx));
  const flow = {
    /** The step whose answer this round carries; undefined on the first call. */
    step: state?.step,
    /** Set once this call returns a question: a finally block then leaves its work to the call that completes. */
    suspended: false,
    locals<T>(): T {
      return state!.locals as T;
    },
    /**
     * The bare response for `key`, parsed with the SDK's schema for `kind` as the push API
     * parsed its result; undefined when it is missing or has another shape.
     */
    response<T = unknown>(key: string, kind: 'elicit' | 'sampling' | 'roots'): T | undefined {
      const value = ctx.mcpReq.inputResponses?.[key];
      const schemas =
        kind === 'elicit' ? [specTypeSchemas.ElicitResult]
        : kind === 'roots' ? [specTypeSchemas.ListRootsResult]
        : [specTypeSchemas.CreateMessageResult, specTypeSchemas.CreateMessageResultWithTools];
      for (const schema of schemas) {
        const parsed = schema['~standard'].validate(value);
        if (!(parsed instanceof Promise) && !parsed.issues) return parsed.value as T;
      }
      return undefined;
    },
    /** Asks the questions of `step`, carrying `locals` (throws at once if the client cannot answer them). */
    ask: (step: string, locals: Record<string, unknown>, ask: InputRequests) => {
      mrtrRequireCapabilities(ctx, ask);
      flow.suspended = true;
      return mint({ handler, step, args: digest, locals, ask }).then((requestState) => inputRequired({ inputRequests: ask, requestState }));
    },
    /** The same question again: the retry came without its answer (spec: re-request, do not error). */
    askAgain: () => {
      flow.suspended = true;
      return mint(state!).then((requestState) => inputRequired({ inputRequests: state!.ask, requestState }));
    },
  };
  return flow;
}

// Never send an input request the client did not declare (spec server requirement 7). A
// 2026-07-28 request carries the client's capabilities (the 2025-era shim checks its own);
// the error is the one the push API threw, so a surrounding try/catch takes its fallback.
// A form question needs `elicitation.form`, or a bare `elicitation: {}` (its 2025 meaning);
// a URL one `elicitation.url`; sampling with tools `sampling.tools`.
function mrtrRequireCapabilities(ctx: ServerContext, ask: InputRequests): void {
  const caps = (ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  if (!caps) return;
  const elicitation = caps.elicitation;
  const form = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  for (const mrtrRequest of Object.values(ask)) {
    const params = mrtrRequest.params as { mode?: string; tools?: unknown; toolChoice?: unknown } | undefined;
    const [declared, message] =
      mrtrRequest.method === 'elicitation/create'
        ? params?.mode === 'url' ? [elicitation?.url, 'Client does not support url elicitation.'] : [form, 'Client does not support form elicitation.']
        : mrtrRequest.method === 'sampling/createMessage'
          ? params?.tools !== undefined || params?.toolChoice !== undefined
            ? [caps.sampling?.tools, 'Client does not support sampling tools capability.']
            : [caps.sampling, 'Client does not support sampling (required for sampling/createMessage)']
          : [caps.roots, 'Client does not support listing roots (required for roots/list)'];
    if (!declared) throw new SdkError(SdkErrorCode.CapabilityNotSupported, message);
  }
}
