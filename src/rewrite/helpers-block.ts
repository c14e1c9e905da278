// The request-state helpers a migrated file needs, emitted once per file after its imports.
// They are plain code the user owns and can read: no runtime dependency on this codemod.
import { TODO_MARKER } from '../analyse/sdk-surface.ts';

/** Present in every emitted block; a file that has it never gets a second one. */
export const HELPERS_SENTINEL = '@mrtr-generated request-state helpers';

/** What the helpers import from @modelcontextprotocol/server (`type X` for type-only names). */
export const HELPER_IMPORTS = [
  'createRequestStateCodec',
  'inputRequired',
  'isSpecType',
  'ProtocolError',
  'ProtocolErrorCode',
  'type InputRequests',
  'type ServerContext',
] as const;

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
    '    /** The bare response for `key` when it has the shape of `kind`, else undefined. */',
    `    response${t("<T = unknown>(key: string, kind: 'elicit' | 'sampling' | 'roots'): T | undefined", '(key, kind)')} {`,
    '      const value = ctx.mcpReq.inputResponses?.[key];',
    '      const ok =',
    "        kind === 'elicit' ? isSpecType.ElicitResult(value)",
    "        : kind === 'roots' ? isSpecType.ListRootsResult(value)",
    '        : isSpecType.CreateMessageResult(value) || isSpecType.CreateMessageResultWithTools(value);',
    `      return ok ? (value${t(' as T')}) : undefined;`,
    '    },',
    `    ask: async (step${t(': string')}, locals${t(': Record<string, unknown>')}, ask${t(': InputRequests')}) => {`,
    '      flow.suspended = true;',
    '      return inputRequired({ inputRequests: ask, requestState: await mint({ handler, step, args: digest, locals, ask }) });',
    '    },',
    '    /** The same question again: the retry came without its answer (spec: re-request, do not error). */',
    '    askAgain: async () => {',
    '      flow.suspended = true;',
    `      return inputRequired({ inputRequests: state${t('!')}.ask, requestState: await mint(state${t('!')}) });`,
    '    },',
    '  };',
    '  return flow;',
    '}',
    `// end of ${HELPERS_SENTINEL}`,
  ];
  return lines.join(options.eol);
}
