// The request-state helpers a migrated file needs, emitted once per file after its imports.
// They are plain code the user owns and can read: no runtime dependency on this codemod.
import { TODO_MARKER } from '../analyse/sdk-surface.ts';

/** Present in every emitted block; a file that has it never gets a second one. */
export const HELPERS_SENTINEL = '@mrtr-generated request-state helpers';

/** The names the helper block declares at the top of the module. */
export const HELPER_DECLARED = ['MrtrState', 'mrtrCodec', 'mrtrStateKey', 'mrtrDigest', 'mrtrResume', 'mrtrRequireCapabilities'] as const;

/** What the helpers import from @modelcontextprotocol/server (`type X` for type-only names). */
export const HELPER_IMPORTS = [
  'createRequestStateCodec',
  'inputRequired',
  'specTypeSchemas',
  'ProtocolError',
  'ProtocolErrorCode',
  'SdkError',
  'SdkErrorCode',
  'CLIENT_CAPABILITIES_META_KEY',
  'type ClientCapabilities',
  'type InputRequests',
  'type ServerContext',
] as const;

/**
 * The client capabilities a 2026-07-28 request carries, read off the handler's context `ctx`
 * (undefined on a 2025-era request, whose capabilities are the connection's).
 */
export function requestCapabilities(ctx: string, typed: boolean): string {
  const key = 'CLIENT_CAPABILITIES_META_KEY';
  return typed ? `(${ctx}.mcpReq.envelope as { [${key}]?: ClientCapabilities } | undefined)?.[${key}]` : `${ctx}.mcpReq.envelope?.[${key}]`;
}

export function helpersBlock(options: { typed: boolean; exportCodec: boolean; eol: string }): string {
  const t = (typed: string, untyped = '') => (options.typed ? typed : untyped);
  const lines = [
    `// ${HELPERS_SENTINEL} (mrtr-codemod).`,
    '// A migrated handler returns inputRequired(...) and is re-entered by the client\'s retry, possibly',
    '// on another instance, so everything it needs to resume travels in a signed requestState',
    '// (signed, not encrypted: the client can read it, so keep secrets out of lifted locals).',
    '// Set MCP_REQUEST_STATE_KEY (at least 32 bytes, the same on every instance). Without it a random',
    '// per-process key is used, which only works while one process serves every round of a call.',
    ...(options.typed
      ? ['type MrtrState = { handler: string; step: string; args: string; locals: Record<string, unknown>; ask: InputRequests };', '']
      : []),
    ...(options.exportCodec
      ? [`// ${TODO_MARKER}(server-elsewhere): no \`new McpServer(...)\` in this file, so the verifier is not wired. Next: add \`requestState: { verify: mrtrCodec.verify }\` to the McpServer options where the server is constructed, importing mrtrCodec from here.`]
      : []),
    `${options.exportCodec ? 'export ' : ''}const mrtrCodec = createRequestStateCodec${t('<MrtrState>')}({`,
    '  key: mrtrStateKey(),',
    '  // Bind state to the authenticated principal: state minted for one client is refused for another.',
    '  bind: (ctx) => ctx.http?.authInfo?.clientId ?? \'\',',
    '});',
    '',
    `function mrtrStateKey()${t(': string | Uint8Array')} {`,
    `  const env = ${t("(globalThis as { process?: { env?: Record<string, string | undefined> } })", 'globalThis')}.process?.env?.MCP_REQUEST_STATE_KEY;`,
    '  if (env) return env;',
    '  // One fallback key per process, shared by every migrated module of the server.',
    "  const slot = Symbol.for('mrtr-codemod.request-state-key');",
    `  const shared = globalThis${t(' as unknown as Record<symbol, Uint8Array | undefined>')};`,
    '  let key = shared[slot];',
    '  if (!key) {',
    '    key = shared[slot] = crypto.getRandomValues(new Uint8Array(32));',
    "    console.warn('MCP_REQUEST_STATE_KEY is not set: using a per-process key; multi-round calls fail across processes.');",
    '  }',
    '  return key;',
    '}',
    '',
    '// A digest of the call\'s arguments, so state minted for one argument set is refused for another.',
    `async function mrtrDigest(value${t(': unknown')})${t(': Promise<string>')} {`,
    `  const canonical = JSON.stringify(value ?? null, (_key, v${t(': unknown')}) =>`,
    '    v && typeof v === \'object\' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,',
    '  );',
    "  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));",
    '  return btoa(String.fromCharCode(...new Uint8Array(hash)));',
    '}',
    '',
    '// Resumes a migrated handler. The codec has already checked signature, expiry and principal;',
    '// this checks the state names this handler, one of its steps and these arguments.',
    `async function mrtrResume(ctx${t(': ServerContext')}, handler${t(': string')}, steps${t(': readonly string[]')}, args${t(': unknown')}) {`,
    '  const digest = await mrtrDigest(args);',
    `  const state = ctx.mcpReq.requestState${t('<MrtrState>')}();`,
    "  if (state !== undefined && (typeof state !== 'object' || state.handler !== handler || !steps.includes(state.step) || state.args !== digest)) {",
    "    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });",
    '  }',
    `  const mint = (next${t(': MrtrState')}) => mrtrCodec.mint(next, ctx);`,
    '  const flow = {',
    '    /** The step whose answer this round carries; undefined on the first call. */',
    '    step: state?.step,',
    '    /** Set once this call returns a question: a finally block then leaves its work to the call that completes. */',
    '    suspended: false,',
    `    locals${t('<T>(): T')}${t('', '()')} {`,
    `      return state${t('!')}.locals${t(' as T')};`,
    '    },',
    '    /**',
    '     * The bare response for `key`, parsed with the SDK\'s schema for `kind` as the push API',
    '     * parsed its result; undefined when it is missing or has another shape.',
    '     */',
    `    response${t("<T = unknown>(key: string, kind: 'elicit' | 'sampling' | 'roots'): T | undefined", '(key, kind)')} {`,
    '      const value = ctx.mcpReq.inputResponses?.[key];',
    '      const schemas =',
    "        kind === 'elicit' ? [specTypeSchemas.ElicitResult]",
    "        : kind === 'roots' ? [specTypeSchemas.ListRootsResult]",
    '        : [specTypeSchemas.CreateMessageResult, specTypeSchemas.CreateMessageResultWithTools];',
    '      for (const schema of schemas) {',
    "        const parsed = schema['~standard'].validate(value);",
    `        if (!(parsed instanceof Promise) && !parsed.issues) return parsed.value${t(' as T')};`,
    '      }',
    '      return undefined;',
    '    },',
    '    /** Asks the questions of `step`, carrying `locals` (throws at once if the client cannot answer them). */',
    `    ask: (step${t(': string')}, locals${t(': Record<string, unknown>')}, ask${t(': InputRequests')}) => {`,
    '      mrtrRequireCapabilities(ctx, ask);',
    '      flow.suspended = true;',
    '      return mint({ handler, step, args: digest, locals, ask }).then((requestState) => inputRequired({ inputRequests: ask, requestState }));',
    '    },',
    '    /** The same question again: the retry came without its answer (spec: re-request, do not error). */',
    '    askAgain: () => {',
    '      flow.suspended = true;',
    `      return mint(state${t('!')}).then((requestState) => inputRequired({ inputRequests: state${t('!')}.ask, requestState }));`,
    '    },',
    '  };',
    '  return flow;',
    '}',
    '',
    '// Never send an input request the client did not declare (spec server requirement 7). A',
    '// 2026-07-28 request carries the client\'s capabilities (the 2025-era shim checks its own);',
    '// the error is the one the push API threw, so a surrounding try/catch takes its fallback.',
    '// A form question needs `elicitation.form`, or a bare `elicitation: {}` (its 2025 meaning);',
    '// a URL one `elicitation.url`; sampling with tools `sampling.tools`.',
    `function mrtrRequireCapabilities(ctx${t(': ServerContext')}, ask${t(': InputRequests')})${t(': void')} {`,
    `  const caps = ${requestCapabilities('ctx', options.typed)};`,
    '  if (!caps) return;',
    '  const elicitation = caps.elicitation;',
    '  const form = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);',
    '  for (const mrtrRequest of Object.values(ask)) {',
    `    const params = mrtrRequest.params${t(' as { mode?: string; tools?: unknown; toolChoice?: unknown } | undefined')};`,
    '    const [declared, message] =',
    "      mrtrRequest.method === 'elicitation/create'",
    "        ? params?.mode === 'url' ? [elicitation?.url, 'Client does not support url elicitation.'] : [form, 'Client does not support form elicitation.']",
    "        : mrtrRequest.method === 'sampling/createMessage'",
    "          ? params?.tools !== undefined || params?.toolChoice !== undefined",
    "            ? [caps.sampling?.tools, 'Client does not support sampling tools capability.']",
    "            : [caps.sampling, 'Client does not support sampling (required for sampling/createMessage)']",
    "          : [caps.roots, 'Client does not support listing roots (required for roots/list)'];",
    '    if (!declared) throw new SdkError(SdkErrorCode.CapabilityNotSupported, message);',
    '  }',
    '}',
    `// end of ${HELPERS_SENTINEL}`,
  ];
  return lines.join(options.eol);
}
