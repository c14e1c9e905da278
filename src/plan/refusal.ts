// Why a site is not migrated, in the words the marker and the report use: every code, with
// its meaning, its help and its messages, in one table.
import { SHORT_MAX } from './short-why.ts';
import { cutText, fileLineRef, lineRef } from '../core/line-refs.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { InputKind } from '../core/vocabulary.ts';
import { readmeUrl } from '../core/vocabulary.ts';

/** A site that cannot be migrated: why, and what the user should do. */
export class Refusal {
  constructor(
    readonly code: RefusalCode,
    readonly reason: string,
    readonly next: string,
    readonly site?: LegacySite,
    /** The marker's one line (see markerLine), `{{at}}` left for the statement it is written above. */
    readonly marker: string = reason,
  ) {}

  /** The same refusal, pinned to the site it is about. */
  at(site: LegacySite): Refusal {
    return new Refusal(this.code, this.reason, this.next, site, this.marker);
  }
}

const MANUAL_HOW = 'return inputRequired({ inputRequests, requestState }) and resume from ctx.mcpReq.requestState() on the retry';

/** The manual step, as a marker's "Next:" says it. */
export const MANUAL_STEP = `migrate by hand: ${MANUAL_HOW}`;

/** The manual step as a report's help text says it (and, below, in the middle of a sentence). */
export const MANUAL_HELP = `Migrate it by hand: ${MANUAL_HOW}; then delete the @mrtr-todo comment.`;
const MANUAL_HELP_LOWER = MANUAL_HELP.charAt(0).toLowerCase() + MANUAL_HELP.slice(1);

// Words several messages share.
const V1_NEXT = 'move the server to v2 first (mrtr-codemod migrate runs the official v1-to-v2 codemod unless --no-v1), then run again.';
const LOOP_NEXT = `give the loop a block body over an array (for...of), or a while/for condition, then run again; or ask once for everything the loop needs (several keys in one inputRequired), or ${MANUAL_STEP}.`;
// A helper kept whole by a call in a function no handler reaches by a call the run follows: what
// to do depends on that caller (see RefusedCall.callerReach).
const UNREACHED_STEP = {
  local: 'call it in a tool or drop the call',
  method: 'have one do so, then run again',
  exported: 'ask in its handlers and pass the answer in',
} as const;
const UNREACHED_WHY = {
  local: 'and no handler reaches `{{caller}}()`: no handler of its module calls it, directly or through its functions',
  method: 'and no handler reaches `{{caller}}()` by a call the codemod follows (a call through an interface or a base class of another module is not followed)',
  exported:
    'and `{{caller}}()` is no handler but a function its module exports: a helper is split only for the calls handlers make (in their body or a function of their module), not for the functions of other modules they call',
} as const;
const UNREACHED_NEXT = {
  local:
    'if `{{caller}}()` should ask the client, call it from a tool handler (or register it as one); else have it not call `{{helper}}()`, which cannot ask outside a request; then run the codemod again.',
  method: `have the handler call \`{{caller}}()\` through its own class, or declare the interface, the handler and its implementations in one module, then run the codemod again; or ${MANUAL_STEP}.`,
  exported:
    "call `{{helper}}()` in the handlers that call `{{caller}}()` and pass its result to `{{caller}}()`, so that every call of the helper is a handler's; then run the codemod again.",
} as const;
/** The message of a helper kept whole by a caller no handler reaches, by what that caller is (its RefusedCall.callerReach, or local). */
export const UNREACHED_IDS = {
  inHelper: { local: 'exportedCallerUnreached', method: 'exportedCallerUnreachedMethod', exported: 'exportedCallerUnreachedExported' },
  viaHelper: { local: 'keptWholeUnreached', method: 'keptWholeUnreachedMethod', exported: 'keptWholeUnreachedExported' },
  wrapped: { local: 'otherModuleWrappedUnreached', method: 'otherModuleWrappedUnreachedMethod', exported: 'otherModuleWrappedUnreachedExported' },
} as const;
const HELPER_STEP: Readonly<Record<InputKind, string>> = {
  elicit: 'build inputRequired.elicit(...) in it, ask in the handler',
  elicitUrl: 'build inputRequired.elicitUrl(...) in it, ask in the handler',
  sampling: 'call your LLM provider directly (sampling is deprecated)',
  roots: 'take the paths as tool parameters (roots are deprecated)',
};

/**
 * What a helper that asks should do instead, by what it asks: build the request for its
 * handlers to ask (elicitation), or stop asking (sampling and roots are deprecated, and have
 * a better answer than a builder). The `{{step}}` of the helper messages.
 */
export function helperStep(kind: InputKind): string {
  return HELPER_STEP[kind];
}

const IN_HELPER =
  'this request is made in `{{helper}}()`, which {{handlers}} {{reach}}; a helper cannot suspend the handler that called it, and this one cannot be split:';
const HELPER_NEXT = '{{step}} (or inline `{{helper}}` into the handlers); then run the codemod again.';
const ARGUMENTS_FIRST =
  'with the arguments first, but registers a tool without a schema, which the SDK calls with its context alone: the context parameter the migration adds would not typecheck.';
const ARGUMENTS_FIRST_NEXT =
  "give the registry's type a form for a tool without a schema (`(ctx: ServerContext) => ...`), or declare this tool's schema, then run again.";
// A `(ctx) => ...` member added to the type alone would not do: a union of the two forms gives
// the other handlers' arguments no contextual type, nor the registry's registerTool call a
// handler the SDK's overloads take. A schema makes the type true: the SDK then passes (args, ctx).
const ARGUMENTS_FIRST_SCHEMA_NEXT =
  "declare this tool's `{{key}}`{{hint}}, or an empty one: the registry then registers it with a schema, the SDK passes `(args, ctx)` as `{{type}}` says, and the migration adds the context second; then run again.";
const CONTEXT_NEXT = 'name the context parameter (ctx) and destructure inside the body, then run again.';
const RECOMPUTE_NEXT = 'recompute `{{name}}` after the answer, or keep a JSON form of it and rebuild it, then run again.';
const RECOMPUTE_OR_DECLARE_NEXT =
  'recompute `{{name}}` after the answer, or keep a JSON form of it and rebuild it; or, if the call that makes it may run again, declare it idempotent (`// @mrtr-idempotent` above its statement) so the retry makes it again; then run again.';
const DECLARE_CALL_NEXT =
  'if calling `{{maker}}` again on the retry is safe, declare it idempotent (--idempotent {{maker}}, or `// @mrtr-idempotent` above the statement of line {{line}}) so the retry makes `{{name}}` again instead of carrying it; else recompute `{{name}}` after the answer; then run again.';
const ANNOTATE_JSON_NEXT = 'annotate the declaration of `{{name}}` with its JSON type, or recompute it after the answer; then run again.';
const ANNOTATE_NEXT = 'annotate the declaration of `{{name}}` with its type, then run again.';
const HTTP_NEXT =
  "at the top of the function that receives the requests, send those `isLegacyRequest(request)` says are not 2025 ones to `createMcpHandler(() => buildServer(), { legacy: 'reject' })` from '@modelcontextprotocol/server' (on Node: `toNodeHandler` and `toWebRequest` from '@modelcontextprotocol/node'), keeping this transport for 2025 clients; then delete this comment.";
const OUTSIDE_NEXT =
  'have {{callFile}} test the tool through a client (or call the halves the split makes) instead of `{{helper}}()`, then run the codemod again.';
const SIBLING_NEXT = 'fix what keeps `{{sibling}}()` whole (the marker at {{file}}:{{fileLine}} says what), then run the codemod again.';
const EXPORTED_HELPER_NEXT = '{{step}} (or inline `{{helper}}` into the handlers that call it); then run the codemod again.';

/**
 * What a refusal says: `marker`, the one line written in the code (what blocks, then the next
 * step, after ` — `); `reason` and `next`, the full explanation the reports give. A line any
 * of them names (`{{line}}`, `{{fileLine}}`) is where that statement is in the text the user
 * reads (the markers and the migration among what moves it): see core/line-refs.ts.
 */
interface RefusalMessage {
  marker: string;
  reason: string;
  next: string;
}

/**
 * Every code a marker may carry, as ESLint describes a rule: the one-sentence meaning and the
 * help the reports give (SARIF rules, JSON, the ESLint plugin, the README's table, made from
 * this one by `npm run docs`), and the messages a marker says, each a reason and a next step
 * with `{{name}}` where `refuse` puts the site's own words (names and snippets of the source,
 * escaped where they are taken). A Refusal takes only these codes, so a new one cannot go
 * undescribed; its documentation is at `refusalDocsAnchor(code)`.
 */
export const REFUSAL_CODES = {
  'no-request-to-answer': {
    short: 'A server→client request runs outside tools/call, prompts/get or resources/read (e.g. in oninitialized).',
    help: 'Only those handlers may answer input_required. Ask from inside a tool, prompt or resource handler with inputRequired(...), or stop asking (take roots or other input as tool parameters).',
    messages: {
      outsideHandler: {
        marker: '{{at}} asks outside a tool, prompt or resource handler — ask from one, or stop asking here',
        reason:
          'this server→client request runs outside a tools/call, prompts/get or resources/read handler, and only those may answer input_required in MCP 2026-07-28.',
        next: 'ask from inside a tool, prompt or resource handler with inputRequired(...), or stop asking (take roots or other input as tool parameters).',
      },
      urlThrowOutsideHandler: {
        marker: '{{at}} is thrown outside a tool, prompt or resource handler — return elicitUrl(...) from one',
        reason:
          'UrlElicitationRequiredError is thrown outside a tools/call, prompts/get or resources/read handler (or inside a function nested in one), where no input_required result can be returned.',
        next: 'return inputRequired({ inputRequests: { url: inputRequired.elicitUrl({ message, url }) } }) from the handler itself.',
      },
    },
  },
  'unregistered-handler': {
    short:
      'The request is made in a function the codemod cannot tie to a tool, prompt or resource handler, though it looks like one: it takes or uses a request context, or a factory returns it (kept in an object, behind a wrapper, or registered by a helper of the project).',
    help: `Register the function itself as the handler (server.registerTool(name, config, fn)) or call it from a handler's body, then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER} If no tool, prompt or resource handler runs it, stop asking there.`,
    messages: {
      contextParameter: {
        marker: '{{at}} is in a function tied to no handler — register it itself, or call it from one',
        reason:
          'this request goes through the request context `{{context}}` of a function the codemod could not tie to a tools/call, prompts/get or resources/read handler: it is neither registered where the codemod can see it (kept in an object or array, wrapped by another function, registered through a helper of the project) nor called from one.',
        next: `if such a handler runs it, register the function itself (server.registerTool(name, config, fn)) or call it from the handler's body, then run again; or ${MANUAL_STEP}. If something else runs it (resources/list, completion, a notification), stop asking there.`,
      },
      returnedByFactory: {
        marker: '{{at}} is in a function a factory returns — register it directly, or migrate it by hand',
        reason:
          'this request is made in a function that {{factory}} returns, which the codemod could not tie to a tools/call, prompts/get or resources/read handler: a function a factory returns is registered by whatever calls the factory (a loop over tool declarations, a registry of the project), which the codemod does not follow.',
        next: `if a tool, prompt or resource handler is what it returns, ${MANUAL_STEP} (or register the returned function with server.registerTool(name, config, fn) where the codemod can see it, then run again). If something else runs it (resources/list, completion, a notification), stop asking there.`,
      },
      takesContext: {
        marker: '{{at}} is in a function tied to no handler — register it itself, or call it from one',
        reason:
          'this request is made in a function that takes a request context (`{{context}}`), which only request handlers are handed, but that the codemod could not tie to a tools/call, prompts/get or resources/read handler: it is neither registered where the codemod can see it (kept in an object or array, wrapped by another function, registered through a helper of the project) nor called from one.',
        next: `if such a handler runs it, register the function itself (server.registerTool(name, config, fn)) or call it from the handler's body, then run again; or ${MANUAL_STEP}. If something else runs it (resources/list, completion, a notification), stop asking there.`,
      },
    },
  },
  'nested-site': {
    short: 'The request is awaited inside a block, condition or larger expression the codemod does not restructure.',
    help: `Move the request to a statement of its own at the top level of the handler and run mrtr-codemod migrate again, or ${MANUAL_HELP_LOWER}`,
    messages: {
      bracelessBranch: {
        marker: '{{at}} is in an if branch without braces — give the branch braces, then run again',
        reason: 'the request is in an if branch without braces, or in an else-if chain.',
        next: `give the branch braces (else { if (...) { ... } }), then run again; or ${MANUAL_STEP}.`,
      },
      labeled: {
        marker: '{{at}} is inside a labeled statement — migrate it by hand (see the docs)',
        reason: 'the request is inside a labeled statement.',
        next: MANUAL_STEP,
      },
      notAwaited: {
        marker: '{{at}} is not awaited where it is made — await it there, then run again',
        reason: 'the request is not awaited where it is made.',
        next: `await the request where it is made, then run again; or ${MANUAL_STEP}.`,
      },
      conditional: {
        marker: '{{at}} is asked only under a ?:, &&, ||, ?? or ?. — ask it in an if of its own, then run again',
        reason: 'the request is asked only when a condition around it holds (`?:`, `&&`, `||`, `??` or `?.`), and the rewrite would ask it every time.',
        next: `ask it in an if statement of its own (if (cond) { const answer = await ...; }), then run again; or ${MANUAL_STEP}.`,
      },
      twoRequests: {
        marker: 'the statement awaiting {{at}} makes another request too — split it in two statements, then run again',
        reason: 'the statement that awaits this request contains another request.',
        next: `split it into separate statements, then run again; or ${MANUAL_STEP}.`,
      },
      workBeforeAwait: {
        marker: 'the statement runs other code before awaiting {{at}} — await it in a statement of its own first',
        reason: 'the statement runs other code before it awaits the request, and that code must not run twice.',
        next: `await the request in its own statement first (const answer = await ...), then run again; or ${MANUAL_STEP}.`,
      },
      declarationNotCarried: {
        marker: '`{{name}}` is declared before the asking block and used after it — declare it where it is used',
        reason:
          '`{{name}}` is declared before the block that asks and is used after it, but not carried to the question that resumes there, so the retry cannot skip its declaration.',
        next: `declare \`{{name}}\` where it is used, then run again; or ${MANUAL_STEP}.`,
      },
      narrowingLost: {
        marker: '`{{name}}` is narrowed before the question, which the retry loses — read it again after the question',
        reason:
          '`{{name}}` is narrowed by a check before the question (it cannot be null or undefined there), but the copy the retry restores would be declared before the block that asks, where that check does not reach, so the code after the question would not typecheck.',
        next: `read it again after the question, under a name of its own, instead of carrying \`{{name}}\`; then run again; or ${MANUAL_STEP}.`,
      },
      unreadableIf: {
        marker: 'the if statement around {{at}} could not be read — migrate it by hand (see the docs)',
        reason: 'the if statement around the question could not be read.',
        next: MANUAL_STEP,
      },
      notAsync: {
        marker: 'the handler is not async, so it cannot resume — make it async, then run again',
        reason: 'the handler is not an async function, so it cannot await its state on the retry.',
        next: `make the handler async, then run again; or ${MANUAL_STEP}.`,
      },
    },
  },
  closure: {
    short: 'The request is made inside a function nested in the handler.',
    help: `Inline the request into the handler body and run mrtr-codemod migrate again, or ${MANUAL_HELP_LOWER}`,
    messages: {
      nestedFunction: {
        marker: '{{at}} is in a function nested in the handler — move it into the handler body, then run again',
        reason: 'the request is made inside a function nested in the handler, which the handler cannot suspend.',
        next: `lift the request out of the nested function into the handler body, or ${MANUAL_STEP}.`,
      },
    },
  },
  'unserialisable-local': {
    short: 'A local living across the question does not survive JSON (Date, Map, class instance, function).',
    help: 'Recompute the value after the question, or keep a JSON-safe form of it; or, if the call that makes it may run again on the retry, declare it idempotent (a `// @mrtr-idempotent` comment above its statement or on the function, or --idempotent NAME); then run mrtr-codemod migrate again.',
    messages: {
      importedHelper: {
        marker: '`{{helper}}()` (line {{line}}) is bound with names code run once reads — give it an import() of its own',
        reason:
          'this handler would ask through the halves of `{{helper}}()`, which it binds with import() at line {{line}}, but code that runs once before a question reads a name that statement binds: it cannot run again on the retry to bind the result half, and a function cannot travel in requestState.',
        next: 'bind `{{helper}}` in an import() statement of its own (`const { {{helper}} } = await import(...)`), then run the codemod again.',
      },
      caughtError: {
        marker: 'caught `{{name}}` (line {{line}}) is read after its catch asks — copy what you need to a local first',
        reason: 'the caught error `{{name}}` is used after a question asked in its catch block; an error does not survive JSON.',
        next: 'keep what you need of `{{name}}` (e.g. its message) in a local before asking, then run again.',
      },
      notAVariable: {
        marker: 'the {{kind}} `{{name}}` (line {{line}}) would travel in requestState — move it out, or below the last question',
        reason: 'the {{kind}} `{{name}}` is declared before a question and used after it; it cannot travel in requestState.',
        next: 'move `{{name}}` out of the handler (or below the last question), then run again.',
      },
      holdsUnsafe: {
        marker: '`{{name}}` (line {{line}}) holds {{value}} across a question, which JSON cannot carry — recompute it after',
        reason: '`{{name}}` lives across a question but holds {{value}}, which does not survive a JSON round trip.',
        next: RECOMPUTE_NEXT,
      },
      checkerSays: {
        marker: '`{{name}}` (line {{line}}) outlives a question but {{why}} — recompute it after, or mark its call idempotent',
        reason: '`{{name}}` (line {{line}}) lives across a question but {{why}}.',
        next: RECOMPUTE_OR_DECLARE_NEXT,
      },
      checkerSaysCall: {
        marker: '`{{name}}` (line {{line}}) is not JSON — --idempotent {{maker}} if safe to rerun, to make it again',
        reason:
          '`{{name}}` (line {{line}}) lives across a question but {{why}}, and `{{maker}}()`, which makes it, runs once: nothing shows calling it again is safe.',
        next: DECLARE_CALL_NEXT,
      },
      notJson: {
        marker: '`{{name}}` (line {{line}}) outlives a question but is not JSON — recompute it after the answer',
        reason: '`{{name}}` (line {{line}}) lives across a question but does not survive a JSON round trip.',
        next: RECOMPUTE_OR_DECLARE_NEXT,
      },
      notJsonCall: {
        marker: '`{{name}}` (line {{line}}) is not JSON — --idempotent {{maker}} if safe to rerun, to make it again',
        reason:
          '`{{name}}` (line {{line}}) lives across a question but does not survive a JSON round trip, and `{{maker}}()`, which makes it, runs once: nothing shows calling it again is safe.',
        next: DECLARE_CALL_NEXT,
      },
    },
  },
  'legacy-sdk': {
    short: 'The module is on the v1 SDK (imported directly, or through a module of the project), which has no MRTR.',
    help: 'Port the v1 import the marker names to its v2 package (mrtr-codemod migrate runs the official v1-to-v2 codemod unless --no-v1; what it leaves is named), then run mrtr-codemod migrate again.',
    messages: {
      importsV1: {
        marker: '`{{name}}` is still imported from `{{specifier}}` (v1 SDK, no MRTR) — port that import to v2, then run again',
        reason:
          'this module still imports `{{name}}` from the v1 SDK (`{{specifier}}`), which has no MRTR: migrated to v2 calls, this request would not run on its server.',
        next: 'port that import to its v2 package by hand (the official v1-to-v2 codemod left it; if it did not run, run mrtr-codemod migrate without --no-v1), then run again.',
      },
      reachesV1: {
        marker: 'this module imports `{{specifier}}`, which stays on the v1 SDK — move that module to v2 first',
        reason:
          'this module reaches the v1 SDK through `{{specifier}}` (a module that stays on v1, or a copy of the SDK kept in the project), which has no MRTR: migrated to v2 calls, this request would not run on its server.',
        next: V1_NEXT,
      },
    },
  },
  'legacy-registration': {
    short: "The handler is registered with the v1 SDK's tool(), prompt() or resource(), which v2's McpServer does not have.",
    help: 'Register it with registerTool(name, { description, inputSchema: z.object(shape), annotations }, cb) (registerPrompt, registerResource for the others), then run mrtr-codemod migrate again.',
    messages: {
      unreadable: {
        marker: '`{{registration}}` does not exist on v2 and could not be rewritten — use `{{receiver}}.registerTool(...)`',
        reason:
          "this handler is registered with `{{registration}}`, which v2's McpServer does not have (the server throws at start-up), and the codemod could not rewrite it to registerTool: {{why}}.",
        next: 'rewrite the registration as `{{receiver}}.registerTool(name, { description, inputSchema: z.object(shape), annotations }, cb)`, then run again.',
      },
      notRewritten: {
        marker: '`{{registration}}` does not exist on v2 — rewrite it as `{{receiver}}.{{replacement}}`, then run again',
        reason:
          "this handler is registered with `{{registration}}`, which v2's McpServer does not have: migrated, it would still never be registered (the server throws at start-up).",
        next: 'rewrite the registration as `{{receiver}}.{{replacement}}`, then run again.',
      },
    },
  },
  'hand-migrated': {
    short: 'The handler already answers with inputRequired (or reads inputResponses) itself, besides a legacy request.',
    help: "Finish its migration by hand, the way the rest of it already asks and reads answers, then run mrtr-codemod migrate again. A 2025-era arm chosen by the request context's `era` beside an inputRequired arm is deleted by the codemod (the SDK serves 2025 clients with the inputRequired arm); it is marked when the other arm does not ask for that input, code before the era test would run again on each round, or the arm cannot be written in place.",
    messages: {
      answersItself: {
        marker: 'the handler already answers with inputRequired (`{{shown}}`) — finish its migration by hand',
        reason:
          'this handler already answers in the 2026-07-28 way itself (`{{shown}}`), and restructuring it around that would run its own resume logic twice.',
        next: 'finish its migration by hand (ask with inputRequired(...) as the rest of it does, and read the answer from ctx.mcpReq.inputResponses), then run again.',
      },
      earlierRun: {
        marker: '{{at}} was left in a handler an earlier run migrated — migrate it by hand (see the docs)',
        reason: 'this handler was migrated by an earlier run, and this request was left as it was.',
        next: MANUAL_STEP,
      },
      legacyArmKept: {
        marker: '{{at}} is in a 2025 arm (`{{test}}`) that must stay — run `check` for the fix',
        reason:
          'this request is in the 2025-era arm of a handler that answers with inputRequired in its other arm (`{{test}}`), but that arm cannot simply be deleted: {{why}}',
        next: '{{fix}}; then run again.',
      },
    },
  },
  'mutated-local': {
    short: 'A local living across the question refers to an object held elsewhere, which the code after the question changes.',
    help: 'The retry would change a JSON copy carried in requestState, not that object. Look the local up again after the question (or change the object through its owner); or, if the call that reads it does nothing else, declare it idempotent (a `// @mrtr-idempotent` comment above its statement or on the function, or --idempotent NAME) so the retry reads it again; then run mrtr-codemod migrate again.',
    messages: {
      changedAfter: {
        marker: '`{{name}}` (line {{line}}) is changed after the question (`{{change}}`), on a copy — look it up again after it',
        reason:
          '`{{name}}` refers to an object held elsewhere (`{{from}}`) and the code after the question changes it (`{{change}}`): the retry would change a copy carried in requestState, not that object.',
        next: 'look `{{name}}` up again after the question (or change the object through its owner); or, if `{{from}}` does nothing but read, mark its statement `// @mrtr-idempotent` so the retry reads it again; then run again.',
      },
    },
  },
  'untyped-local': {
    short:
      'Nothing shows a local that would travel in requestState holds plain JSON (it is typed any, or is an untyped call result in JavaScript), or its type cannot be named at the handler.',
    help: 'Annotate the local with its JSON type (a JSDoc @type in JavaScript), or recompute it after the answer, then run mrtr-codemod migrate again.',
    messages: {
      untypedInJs: {
        marker: 'nothing shows `{{name}}` (line {{line}}), outliving a question, is JSON — add a JSDoc @type or recompute it',
        reason:
          'nothing shows that `{{name}}`{{held}}, which lives across a question, holds plain JSON: JavaScript gives it no type here, and a Date, a Map or a class instance would not survive the trip through requestState.',
        next: 'if it is plain JSON, say so with a JSDoc type on its declaration (an @type tag such as {number}), or recompute it after the answer; then run again.',
      },
      anyInResume: {
        marker: '`{{name}}` (line {{line}}), outliving a question, is typed `{{type}}` — annotate it with its JSON type, run again',
        reason: '`{{name}}`{{held}}, which lives across a question, has type `{{type}}`, and the resumed code would have to declare it `any`.',
        next: ANNOTATE_JSON_NEXT,
      },
      typeShowsNothing: {
        marker: '`{{name}}` (line {{line}}), outliving a question, is typed `{{type}}` — annotate it with its JSON type, run again',
        reason:
          '`{{name}}`{{held}}, which lives across a question, has type `{{type}}`, which does not show it holds plain JSON (a Date, a Map or a class instance would not survive the trip through requestState).',
        next: ANNOTATE_JSON_NEXT,
      },
      typedCall: {
        marker: '`{{name}}` (line {{line}}) may not be JSON — --idempotent {{maker}} if safe to rerun, to make it again',
        reason:
          '`{{name}}`{{held}}, which lives across a question, has type `{{type}}`, which does not show it holds plain JSON, and `{{maker}}()`, which makes it, runs once: nothing shows calling it again is safe.',
        next: DECLARE_CALL_NEXT,
      },
      unnamedType: {
        marker: 'the type of `{{name}}` (line {{line}}), outliving a question, cannot be named here — annotate its declaration',
        reason: 'the type of `{{name}}`, which lives across a question, cannot be named here.',
        next: ANNOTATE_NEXT,
      },
      noTypeFacts: {
        marker: 'the type of `{{name}}` (line {{line}}), outliving a question, is unknown — annotate it or `npm install` first',
        reason: 'the type of `{{name}}`, which lives across a question, cannot be named here (no type information was available).',
        next: ANNOTATE_NEXT,
      },
    },
  },
  'unbounded-local': {
    short:
      'A local that would travel in requestState is a collection read from elsewhere (a query, a file, a cache): it can grow without bound, and travels whole on every round.',
    help: 'Carry only what the code after the question needs (ids, a count), or read the collection again after the answer, then run mrtr-codemod migrate again.',
    messages: {
      collection: {
        marker: '`{{name}}` (line {{line}}) is a collection read from elsewhere, carried whole each round — carry only ids',
        reason:
          '`{{name}}`{{held}}, which lives across a question, is a collection (`{{type}}`) read from elsewhere: it can grow without bound, and it would travel whole in requestState on every round (over MCP_REQUEST_STATE_MAX_BYTES, 64 KB by default, the call fails).',
        next: 'carry only what the code after the question needs (ids, a count), or read it again after the answer; then run again.',
      },
    },
  },
  'param-reassigned': {
    short: 'An argument is reassigned before a question; the retry re-sends the original.',
    help: 'Assign to a new local instead of the parameter, then run mrtr-codemod migrate again.',
    messages: {
      reassigned: {
        marker: 'the argument `{{name}}` is reassigned (line {{line}}) before a question — assign to a new local instead',
        reason: 'the argument `{{name}}` is reassigned (line {{line}}) before a question; a retry re-sends the original arguments.',
        next: 'assign to a new local instead of the parameter, then run again.',
      },
    },
  },
  'unknown-request': {
    short: 'A send(request) whose request object, or its method, the codemod cannot read.',
    help: `Write the request as an object literal with a literal method, or ${MANUAL_HELP_LOWER}`,
    messages: {
      notLiteral: {
        marker: 'the request {{at}} sends is not a literal — write it inline ({ method, params }), then run again',
        reason: 'the request object is not a literal, so the codemod cannot tell which request it sends.',
        next: `write the request inline as { method: 'elicitation/create', params: ... }, or ${MANUAL_STEP}.`,
      },
      methodUnread: {
        marker: '{{at}}: its method `{{method}}` is unreadable — use a string or a local const',
        reason:
          "the request's method `{{method}}` is not a string the codemod can read here (a const of another module, an enum, a computed value), so it cannot tell which request it sends.",
        next: `name the method with a string (method: 'elicitation/create') or a const of this module, then run again; or ${MANUAL_STEP}.`,
      },
      handRolled: {
        marker: '`{{reference}}` sends `{{method}}` as a hand-built request — ask from a handler with inputRequired(...)',
        reason:
          "`{{reference}}` sends a JSON-RPC request for `{{method}}` built by hand, not through the SDK's request methods, so the codemod does not rewrite it.",
        next: `ask from a tool, prompt or resource handler with inputRequired(...), or ${MANUAL_STEP}.`,
      },
    },
  },
  'server-elsewhere': {
    short:
      'The server these handlers are registered on is built neither in this file nor in a module of the run that imports it, so the request-state verifier is not wired.',
    help: 'Add requestState: { verify: mrtrVerify() } to the McpServer options where the server is built (mrtrVerify comes from the generated request-state module), then delete the @mrtr-todo comment.',
    messages: {
      verifierNotWired: {
        marker: 'the server is built in no module of this run — add `requestState: { verify: mrtrVerify() }` where it is built',
        reason:
          'the server these handlers are registered on is built neither in this file nor in a module of this run that imports it, so the request-state verifier is not wired.',
        next: 'add `requestState: { verify: mrtrVerify() }` to the McpServer options where the server is built, importing mrtrVerify from the request-state module this file imports mrtrResume from.',
      },
    },
  },
  'stdio-entry': {
    short:
      'A server connected to a StdioServerTransport serves only the 2025 era, and the codemod cannot turn its wiring into serveStdio(factory): 2026-07-28 clients fall back to 2025.',
    help: "Build the server in a function that returns a new McpServer each time (registrations included) and replace the connect call with serveStdio(() => buildServer()) from '@modelcontextprotocol/server/stdio'; it serves both eras, building one server per opening (up to two: a probe, then the era the client chose). Then delete the @mrtr-todo comment.",
    messages: {
      singleton: {
        marker: '`{{server}}` on a stdio transport serves 2025 only — build it in a function, use serveStdio(factory)',
        reason:
          '`{{server}}` is built here with `new {{cls}}(...)` and connected to a StdioServerTransport, which serves only the 2025 era; serveStdio needs a function that builds a new server for each opening.',
        next: "move the construction and its registrations into `function buildServer() { ...; return {{server}}; }`, replace `{{connect}}` with `serveStdio(() => buildServer())` from '@modelcontextprotocol/server/stdio', then delete this comment.",
      },
      heldServer: {
        marker: '`{{server}}` is used besides its connection (`{{use}}`, line {{line}}) — move that into its factory, use serveStdio',
        reason:
          '`{{server}}` is used besides being connected and closed (`{{use}}`), and serveStdio builds its own server for each opening, so that use would reach a server that serves no one.',
        next: "move that use into the function that builds the server, replace `{{connect}}` with `serveStdio(() => {{factory}})` from '@modelcontextprotocol/server/stdio', then delete this comment.",
      },
      heldMember: {
        marker: '`{{member}}` of the server is used (`{{use}}`, line {{line}}) — keep one per server the serveStdio factory builds',
        reason:
          '`{{member}}` comes with the server from `{{factory}}` and is used here other than called as a statement (`{{use}}`); serveStdio builds a server (and a `{{member}}`) for each opening.',
        next: "keep what each server built in a list from the factory passed to `serveStdio(() => {{factory}})` (from '@modelcontextprotocol/server/stdio') in place of `{{connect}}`, use each entry's `{{member}}`, then delete this comment.",
      },
      unknownServer: {
        marker: '`{{server}}` is not built by a call that can be repeated — serve with serveStdio(() => buildServer())',
        reason: '`{{server}}` is not built in this module by a call the codemod can repeat, so the connect call cannot become serveStdio(factory).',
        next: "replace `{{connect}}` with `serveStdio(() => buildServer())` from '@modelcontextprotocol/server/stdio', where buildServer returns a new server each time, then delete this comment.",
      },
      wiring: {
        marker: 'this stdio wiring (`{{use}}`) cannot be rewritten — serve with serveStdio(() => buildServer())',
        reason: 'this StdioServerTransport is wired in a way the codemod does not rewrite (`{{use}}`), and a server connected to it serves only the 2025 era.',
        next: "serve with `serveStdio(() => buildServer())` from '@modelcontextprotocol/server/stdio' (pass `{ transport }` for a transport of your own), where buildServer returns a new server each time, then delete this comment.",
      },
    },
  },
  'http-entry': {
    short:
      'A server connected to a Streamable HTTP or SSE transport serves only the 2025 era, and the codemod cannot put createMcpHandler in front of its wiring: 2026-07-28 clients fall back.',
    help: `In the function that receives the requests, send those isLegacyRequest says are not 2025 ones to createMcpHandler(() => buildServer(), { legacy: 'reject' }) from '@modelcontextprotocol/server' (on Node wrapped in toNodeHandler, with toWebRequest, from '@modelcontextprotocol/node'), and keep the transport for 2025 clients: createMcpHandler's own 2025 half has no session, so the SDK's shim could not ask there. An SSE transport has no 2026-07-28 form: serve Streamable HTTP beside it. Then delete the @mrtr-todo comment.`,
    messages: {
      sse: {
        marker: 'an SSE transport serves 2025 clients only — serve Streamable HTTP beside it with createMcpHandler(() => buildServer())',
        reason: 'an SSE transport serves only the 2025 era, and 2026-07-28 has no SSE transport: a 2026-07-28 client cannot use it.',
        next: "serve Streamable HTTP beside it with `createMcpHandler(() => buildServer())` from '@modelcontextprotocol/server' for 2026-07-28 clients; then delete this comment.",
      },
      wiring: {
        marker: "this HTTP transport's wiring (`{{use}}`) cannot be rewritten — route 2026 requests to createMcpHandler",
        reason:
          'this Streamable HTTP transport is wired in a way the codemod does not rewrite (`{{use}}`), and serves only the 2025 era: a 2026-07-28 client falls back.',
        next: HTTP_NEXT,
      },
      options: {
        marker: 'the transport option `{{option}}` has no createMcpHandler counterpart — do it for 2026 requests too',
        reason:
          'this Streamable HTTP transport is built with `{{option}}`, which createMcpHandler has no counterpart for: a 2026-07-28 request served there would go without it.',
        next: `do the same for the requests of 2026-07-28 clients (host and origin checks: hostHeaderValidationResponse and originValidationResponse from '@modelcontextprotocol/server'), then ${HTTP_NEXT}`,
      },
      optionValue: {
        marker: "the transport's `{{option}}` is `{{value}}`, which cannot be carried over — give createMcpHandler `{{counterpart}}`",
        reason:
          "this Streamable HTTP transport's `{{option}}` is `{{value}}`, which the codemod cannot carry to createMcpHandler: a 2026-07-28 request served there would go without it.",
        next: `give createMcpHandler the same (\`{{counterpart}}\` in its options), then ${HTTP_NEXT}`,
      },
      unreadBody: {
        marker: 'the route passes on an unread body (`{{call}}`) — parse the JSON first and pass it to handleRequest',
        reason: "the route hands the transport the request's unread body (`{{call}}`), and telling a 2026-07-28 request from a 2025 one reads the body first.",
        next: `parse the JSON body before the route (express.json(), or read it yourself) and pass it as handleRequest's third argument, then run the codemod again; or ${HTTP_NEXT}`,
      },
      unknownServer: {
        marker: '`{{server}}` is not built in the route — build it in a function, then add createMcpHandler',
        reason:
          '`{{server}}` is not built in the route by a call the codemod can repeat for each request, so createMcpHandler cannot build it (`{{connect}}`).',
        next: `build the server in a function that returns a new one each time (registrations included), then ${HTTP_NEXT}`,
      },
      singleton: {
        marker: '`{{server}}` is built once, outside the route — build one per request, then add createMcpHandler',
        reason: '`{{server}}` is built once, outside the route that connects it (`{{connect}}`), and createMcpHandler builds a new server for each request.',
        next: `move its construction and registrations into a function that returns a new server each time, then ${HTTP_NEXT}`,
      },
      heldServer: {
        marker: '`{{server}}` is used besides its connection (`{{use}}`, line {{line}}) — move that into its factory, add createMcpHandler',
        reason:
          '`{{server}}` is used besides being connected and closed (`{{use}}`), and the servers createMcpHandler builds from `{{factory}}` for 2026-07-28 requests would not be.',
        next: `move that use into the function that builds the server, then ${HTTP_NEXT}`,
      },
      heldMember: {
        marker: '`{{member}}` of the server from `{{factory}}` is used (`{{use}}`, line {{line}}) — wire it in the factory, add createMcpHandler',
        reason:
          '`{{member}}` comes with the server from `{{factory}}` and is used (`{{use}}`), and the servers createMcpHandler builds for 2026-07-28 requests would come without it.',
        next: `have the factory handed to createMcpHandler wire what \`{{member}}\` does for its own server (createMcpHandler closes each server after its request), then ${HTTP_NEXT}`,
      },
    },
  },
  'tasks-api': {
    short: "Code on the v1 SDK's experimental tasks API, which v2 removed (SEP-2663): the server does not build until it goes.",
    help: 'Remove the tasks code (the task store and queue, the tools registered with registerToolTask and the server options that name them), or move it to the tasks extension; then delete the @mrtr-todo comment.',
    messages: {
      removed: {
        marker: '`{{use}}` is the v1 tasks API, which v2 removed — remove it and its tools, or use the tasks extension',
        reason: "`{{use}}` is the v1 SDK's experimental tasks API, which v2 removed (SEP-2663): this code does not build on v2.",
        next: 'remove it with the tools and options that use it, or move it to the tasks extension; then delete this comment.',
      },
      removedSeveral: {
        marker: '`{{use}}` and {{more}} more are the v1 tasks API, which v2 removed — remove them, or use the tasks extension',
        reason: "`{{uses}}` are the v1 SDK's experimental tasks API, which v2 removed (SEP-2663): this code does not build on v2.",
        next: 'remove them with the tools and options that use them, or move them to the tasks extension; then delete this comment.',
      },
    },
  },
  'secret-in-state': {
    short: 'A local the migrated handler carries in requestState looks like a secret (by its name or its value), and the client can read requestState.',
    help: 'requestState is signed, not encrypted. Keep the value on the server: read it again after the answer instead of carrying it (drop it from the locals of mrtr.ask), or carry a key to it. If it is not secret, delete the @mrtr-todo comment.',

    messages: {
      oneCarried: {
        marker: '{{list}} looks secret, and the client can read requestState — read it again after the answer',
        reason: '{{list}} looks like a secret and travels in requestState, which is signed but not encrypted: the client can read it.',
        next: 'keep it on the server: read it again after the answer instead of carrying it (drop it from the locals of mrtr.ask), or carry a key to it; if it is not secret, delete this comment.',
      },
      severalCarried: {
        marker: '{{list}} look secret, and the client can read requestState — read them again after the answer',
        reason: '{{list}} look like secrets and travel in requestState, which is signed but not encrypted: the client can read them.',
        next: 'keep them on the server: read them again after the answer instead of carrying them (drop them from the locals of mrtr.ask), or carry a key to them; if they are not secret, delete this comment.',
      },
    },
  },
  'framework-state': {
    short: "A framework's tool would need requestState to resume, and the framework passes no verified one.",
    help: 'Make the code before the question only derive values and let each path ask once (a return after it), or migrate by hand with state you sign and verify yourself (createRequestStateCodec); then run mrtr-codemod migrate again.',
    messages: {
      runsAgain: {
        marker: '`{{statement}}` (line {{line}}) runs again on every retry (no verified state) — move it below the question',
        reason:
          'the code before the question runs again on the retry, and `{{statement}}` (line {{line}}) does more than derive values; {{framework}} builds its server without a requestState verifier, so nothing sealed can tell the retry it already ran.',
        next: 'move it below the question, or make it only derive values (a read declared idempotent counts: // @mrtr-idempotent), then run again.',
      },
      mustTravel: {
        marker: '`{{name}}` (line {{line}}) needs a verified requestState to travel — recompute it after the question',
        reason:
          "`{{name}}` comes from work that runs once before the question and is read after it, so it would have to travel in requestState; {{framework}} builds its server without a requestState verifier (its accessor returns the client's unsigned string), so nothing sealed can carry it.",
        next: 'recompute `{{name}}` after the question (or make its statement only derive values), or migrate by hand with state you sign and verify yourself (createRequestStateCodec), then run again.',
      },
      asksTwice: {
        marker: 'this path asks again at line {{line}}; carrying this answer needs a verified requestState — ask both at once (Promise.all)',
        reason:
          'the handler can go on from this question to another (line {{line}}), so this answer would have to travel in requestState to the round that answers the other; {{framework}} builds its server without a requestState verifier, so nothing sealed can carry it.',
        next: 'ask both at once (await Promise.all([...]): one round, two keys), or return right after this question, or migrate by hand; then run again.',
      },
      inLoop: {
        marker: 'asked in a loop: earlier answers would need a verified requestState — ask once, before the loop',
        reason:
          'the question is inside a loop, so a call can ask it more than once; the earlier answers would have to travel in requestState, which {{framework}} does not verify.',
        next: 'ask once, before the loop, for everything it needs (several keys in one round), then run again.',
      },
      inTry: {
        marker: 'asked inside a try whose catch a returned question never reaches — move the question out of the try',
        reason:
          'the question is inside a try, whose catch handled the push call failing (the client declining the capability); a migrated question is returned, and the SDK answers such a failure itself, so the catch would never run.',
        next: 'move the question out of the try (check what the catch handled another way), then run again.',
      },
    },
  },
  'blocked-by-sibling': {
    short: 'The handler is left as it was because another request in it cannot be migrated.',
    help: 'Fix the other site of the handler first, then run mrtr-codemod migrate again.',
    messages: {
      otherSite: {
        marker: 'left whole: {{request}} (line {{line}}) is refused ({{code}}) — fix that first (its marker)',
        reason: 'this handler is left as it was because another request in it cannot be migrated (line {{line}}: {{code}}).',
        next: 'fix that site first, then run the codemod again.',
      },
      urlThrow: {
        marker: 'left whole: a URL elicitation this handler throws cannot be migrated — fix that first (see its marker)',
        reason: 'this handler also throws a URL elicitation that cannot be migrated, so it is left as it was.',
        next: 'see the marker at the throw, then run the codemod again.',
      },
      otherInCase: {
        marker: 'case left whole: the request of line {{line}} cannot be migrated ({{code}}) — fix that first (see its marker)',
        reason: 'this case of the handler is left as it was because something else in it cannot be migrated (line {{line}}: {{code}}).',
        next: 'fix that first, then run the codemod again.',
      },
      otherInCaseAnywhere: {
        marker: 'case left whole: something in it cannot be migrated ({{code}}) — fix that first',
        reason: 'this case of the handler is left as it was because something else in it cannot be migrated ({{code}}).',
        next: 'fix that first, then run the codemod again.',
      },
      noSiteLeft: {
        marker: 'no site of this handler can be migrated — see its other markers',
        reason: 'no site of this handler can be migrated.',
        next: 'see the other markers.',
      },
    },
  },
  'name-clash': {
    short: 'The module declares a name the migration adds (an import or a generated helper).',
    help: 'Rename the local declaration, then run mrtr-codemod migrate again.',
    messages: {
      usedInHandler: {
        marker: 'the handler uses `{{name}}`, a name the migration needs — rename it, then run again',
        reason: 'the handler already uses the name `{{name}}`, which the migration needs.',
        next: 'rename that variable and run again.',
      },
      declaredInModule: {
        marker: 'the module declares `{{name}}`, a name the migration adds — rename it, then run again',
        reason: 'the module already declares `{{name}}`, a name the migration adds.',
        next: 'rename the local declaration, then run again.',
      },
      typeOnlyImport: {
        marker: '`{{name}}` is imported as a type only, and the migration calls it — drop `type`, then run again',
        reason: 'the module imports `{{name}}` as a type only, and the migration calls it.',
        next: 'import it as a value (drop `type`), then run again.',
      },
    },
  },
  loop: {
    short: 'The request is inside a loop the retry cannot resume (for...in, for await, a computed iterable, labeled jumps).',
    help: 'Loop over an array with for...of (or a while/for condition), or ask once for everything the loop needs, then run mrtr-codemod migrate again.',
    messages: {
      forIn: {
        marker: '{{at}} is in a for...in loop — loop over an array with for...of, or ask once for all, then run again',
        reason: 'the request is inside a for...in loop, whose key order the retry could not resume.',
        next: LOOP_NEXT,
      },
      forAwait: {
        marker: '{{at}} is in a for await loop — loop over an array with for...of, or ask once for all, then run again',
        reason: 'the request is inside a for await loop.',
        next: LOOP_NEXT,
      },
      computedIterable: {
        marker: 'the for...of around {{at}} computes what it iterates — iterate over a local array, or ask once for all',
        reason: 'the for...of loop iterates over an expression that computes something, which the retry would compute again.',
        next: LOOP_NEXT,
      },
      forInitExpression: {
        marker: 'the for loop around {{at}} starts with an expression — declare its counter, or ask once for all',
        reason: 'the for loop starts with an expression the retry could not skip.',
        next: LOOP_NEXT,
      },
      labeledJump: {
        marker: 'the loop around {{at}} jumps to a label — drop the labeled break or continue, or ask once for all',
        reason: 'the loop body breaks or continues to a label.',
        next: LOOP_NEXT,
      },
      bracelessLoop: {
        marker: '{{at}} is in a loop without braces — give the loop braces, then run again',
        reason: 'the request is inside a loop without braces.',
        next: LOOP_NEXT,
      },
      inHeader: {
        marker: '{{at}} is awaited in a loop or switch header — migrate it by hand (see the docs)',
        reason: 'the request is awaited in a loop or switch header.',
        next: MANUAL_STEP,
      },
      loopVariableAssigned: {
        marker: 'the for...of around {{at}} assigns its own variable — assign to another local, then run again',
        reason: 'the for...of loop around the question assigns its own variable, which the retry takes again from the array.',
        next: `assign to another local instead, then run again; or ${MANUAL_STEP}.`,
      },
      unreadableWhile: {
        marker: 'the while loop around {{at}} could not be read — migrate it by hand (see the docs)',
        reason: 'the while loop around the question could not be read.',
        next: MANUAL_STEP,
      },
      forDeclaration: {
        marker: 'the for loop around {{at}} declares what the retry cannot restore — migrate it by hand (see the docs)',
        reason: 'the for loop around the question declares a variable the retry cannot restore.',
        next: MANUAL_STEP,
      },
    },
  },
  'switch-case': {
    short: 'The request is in a switch case that falls through or breaks out from the middle after it.',
    help: 'End the case with break or return right after its work, or turn the switch into if/else, then run mrtr-codemod migrate again.',
    messages: {
      fallsThrough: {
        marker: 'the case holding {{at}} falls through or breaks mid-way — end it with break or return, then run again',
        reason: 'the switch case falls through or breaks out from the middle after the request.',
        next: `end the case with break or return right after its work, then run again; or ${MANUAL_STEP}.`,
      },
      unreadableSwitch: {
        marker: 'the switch around {{at}} could not be read — migrate it by hand (see the docs)',
        reason: 'the switch around the question could not be read.',
        next: MANUAL_STEP,
      },
      computedTest: {
        marker: 'the case holding {{at}} has a computed test — make it a constant, then run again',
        reason: 'the case that asks has a test that computes something, which the retry would compute again to find the case.',
        next: `make the case test a constant, then run again; or ${MANUAL_STEP}.`,
      },
    },
  },
  finally: {
    short: 'The request is inside a finally block, which would run on every round.',
    help: 'Move the question out of the finally block, then run mrtr-codemod migrate again.',
    messages: {
      inFinally: {
        marker: '{{at}} is in a finally block, which runs on every round — move it out of the finally, then run again',
        reason: 'the request is inside a finally block, which would run on every round.',
        next: `move the question out of the finally block; or ${MANUAL_STEP}.`,
      },
    },
  },
  'in-helper': {
    short: 'The request is made in a helper the codemod could not split for its callers.',
    help: 'For elicitation, have the helper build the request (inputRequired.elicit(...)) and let each handler ask and read the answer, or inline the helper into the handlers, then run mrtr-codemod migrate again. For sampling, call your LLM provider directly; for roots, take the paths as tool parameters.',
    messages: {
      exportedNoCaller: {
        marker: 'exported `{{helper}}()` would be split, but this run found no handler calling it — run on its callers too',
        reason:
          'this request is made in `{{helper}}()`, which this module exports. The codemod can split it into a request half and a result half, but only together with the handlers that call it, and it found no call of it in this run (a call through an interface type, or from a package the run leaves out, is not followed).',
        next: 'run the codemod on this module together with the modules whose handlers call `{{helper}}()` (through its own class, not an interface); or {{step}}; then run the codemod again.',
      },
      exportedCalledThrough: {
        marker: '`{{helper}}()` is called at {{file}}:{{fileLine}} via `{{iface}}`, not its class — edit both by hand',
        reason:
          'this request is made in `{{helper}}()`, which this module exports and could split into a request half and a result half, but its call at {{callFile}}:{{fileLine}} is made through `{{type}}`{{from}}, not its class: the method keeps the contract that type gives it, so it is not split.',
        next: 'change `{{type}}` and `{{helper}}()` together by hand, so that their callers get a request and then its answer: {{step}}.',
      },
      exportedCalledUntyped: {
        marker: '`{{helper}}()` may be called at {{file}}:{{fileLine}} on an untyped receiver — type it, then run again',
        reason:
          'this request is made in `{{helper}}()`, which this module exports and could split for the handlers that call it, but the call at {{callFile}}:{{fileLine}} is made on a receiver with no declared type, which the run cannot tie to `{{owner}}`: it does not follow that call, so it is not split.',
        next: 'declare that receiver as `{{owner}}` (imported from its module), then run the codemod again; or {{step}}.',
      },
      exportedDynamicCall: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} loads it with import() unnamed — bind it by name there',
        reason:
          'this request is made in `{{helper}}()`, which this module exports and could split for its callers, but {{callFile}}:{{fileLine}} loads its module with import() without binding it by name (`const { x } = await import(...)`), so its call cannot follow the split: it is split only once every call of it can, so it stays whole.',
        next: 'in {{callFile}}, bind it by name where its module is loaded (`const { {{helper}} } = await import(...)`), or import it statically; then run the codemod again.',
      },
      exportedCallerUnreached: {
        marker: `no handler reaches its caller \`{{caller}}()\` ({{file}}:{{fileLine}}) — ${UNREACHED_STEP.local}`,
        reason: `this request is made in \`{{helper}}()\`, which this module exports and could split for its callers, but \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.local}; that call could not ask through its halves, so it stays whole.`,
        next: UNREACHED_NEXT.local,
      },
      exportedCallerUnreachedMethod: {
        marker: `no handler calls \`{{caller}}()\` ({{file}}:{{fileLine}}) on its class — ${UNREACHED_STEP.method}`,
        reason: `this request is made in \`{{helper}}()\`, which this module exports and could split for its callers, but \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.method}; that call could not ask through its halves, so it stays whole.`,
        next: UNREACHED_NEXT.method,
      },
      exportedCallerUnreachedExported: {
        marker: `caller \`{{caller}}()\` ({{file}}:{{fileLine}}) is no handler — ${UNREACHED_STEP.exported}`,
        reason: `this request is made in \`{{helper}}()\`, which this module exports and could split for its callers, but \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.exported}; so it stays whole.`,
        next: UNREACHED_NEXT.exported,
      },
      exportedCallerUnsplit: {
        marker: '`{{caller}}()` ({{file}}:{{fileLine}}): {{short}} — fix that',
        reason:
          'this request is made in `{{helper}}()`, which this module exports and could split for its callers, but `{{caller}}()`, a function another module exports that calls it at {{callFile}}:{{fileLine}} and is no handler, cannot be split to ask through its halves: {{why}} So it stays whole.',
        next: 'change what the reason names in `{{caller}}()`, or call `{{helper}}()` from the handlers that call `{{caller}}()` and pass its result in; then run the codemod again.',
      },
      exportedCallerUnlinked: {
        marker: 'kept whole: `{{caller}}()` is dispatched to from another module — {{fix}}',
        reason:
          'this request is made in `{{helper}}()`, which this module exports and could split for its callers; `{{caller}}()` calls it, and the handler at {{callFile}}:{{fileLine}} dispatches to `{{caller}}()` through a type its class extends or implements, but {{why}}, so that handler cannot hand it a context: the helper stays whole.',
        next: `{{fix}}, then run the codemod again; or ${MANUAL_STEP}.`,
      },
      exportedCallOutside: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} calls it outside handlers — test through a client',
        reason:
          'this request is made in `{{helper}}()`, which this module exports and could split for its callers, but {{callFile}}:{{fileLine}} calls it outside any handler (a test or a script), which would be left calling a function that is gone: so it stays whole.',
        next: OUTSIDE_NEXT,
      },
      exportedCallRefused: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} is refused ({{code}}) — fix that first',
        reason:
          'this request is made in `{{helper}}()`, which this module exports and could split for its callers, but its call at {{callFile}}:{{fileLine}} cannot migrate ({{code}}): it is split only once every call of it can, so it stays whole.',
        next: 'fix that call first (see its marker), then run the codemod again.',
      },
      exportedUnsplittable: {
        marker: '`{{stuck}}()` is not split: {{short}} — change that, then run again',
        reason:
          'this request is reached through `{{helper}}()`, which this module exports: a helper cannot suspend the handlers (in other modules) that call it. It cannot be split: {{why}}',
        next: EXPORTED_HELPER_NEXT,
      },
      unsplittable: { marker: '`{{helper}}()` asks and cannot be split — {{step}}', reason: `${IN_HELPER} {{why}}`, next: HELPER_NEXT },
      unsplittableAt: {
        marker: '{{blocker}} (line {{line}}) keeps this helper whole — {{step}}',
        reason: `${IN_HELPER} {{why}}`,
        next: HELPER_NEXT,
      },
      unsplittablePoints: {
        marker: '`{{stuck}}()` asks at lines {{first}} and {{second}} ({{how}}) — {{fix}}',
        reason: `${IN_HELPER} {{why}}`,
        next: '{{fix}}, so that one call asks at one of them; or {{step}} (or inline `{{helper}}` into the handlers); then run the codemod again.',
      },
      dispatchBlocked: {
        marker: '`{{helper}}()` asks; the dispatch {{call}} (line {{line}}) cannot resume it — {{fix}}',
        reason:
          'this request is made in `{{helper}}()`, which {{handlers}} {{reach}} through `{{method}}()`. The handler calls that only through {{call}} (line {{line}}), which hands the call to whichever command object the tool holds; that call could become the resumable part of the handler, but {{why}}',
        next: '{{fix}}, then run the codemod again.',
      },
      callerNotMigrated: {
        marker: '`{{helper}}()` asks here, and {{handlers}} calling it could not be migrated — see the marker there',
        reason: `${IN_HELPER} a handler that calls this helper could not be migrated, so the helper stays as it was.`,
        next: 'see the markers in the handlers that call it.',
      },
    },
  },
  'legacy-entry': {
    short: 'A helper split for the handlers that can ask through its halves keeps its name for calls that cannot, and still pushes its request there.',
    help: 'Migrate the calls that still use the helper (a handler the codemod marked, a test, a script) to ask through its Request and Result halves, as the migrated handlers do, then delete the helper. Until then it serves 2025 clients only: a 2026-07-28 client cannot answer a pushed request.',
    messages: {
      keptFor: {
        marker: '`{{helper}}()` kept for {{file}}:{{fileLine}}, which cannot use its halves — migrate it, then drop this',
        reason:
          'this helper was split into `{{helper}}Request()` and `{{helper}}Result()` for the handlers that can ask through them, and kept under its name, built from its halves, for the calls that cannot (the first at {{file}}:{{fileLine}}): there it still pushes its request, which a 2026-07-28 client cannot answer.',
        next: 'migrate those calls to ask through `{{helper}}Request()` and `{{helper}}Result()` as the migrated handlers do (the markers there say what stops them), then delete `{{helper}}()`.',
      },
      keptOutside: {
        marker: '`{{helper}}()` kept for callers outside this run (no module of it imports it) — drop it once none calls it',
        reason:
          'this helper was split into `{{helper}}Request()` and `{{helper}}Result()` for the handlers that can ask through them, and kept under its name, built from its halves, for callers this run cannot see (it is exported, and no module of the run imports it: another package, a path alias, a file outside the paths given): there it still pushes its request, which a 2026-07-28 client cannot answer.',
        next: 'make those callers ask through `{{helper}}Request()` and `{{helper}}Result()` (or run the codemod on them too), then delete `{{helper}}()`.',
      },
      earlierRun: {
        marker: '`{{helper}}()` kept for calls that cannot use its halves — migrate them, then drop this',
        reason:
          'an earlier run split this helper into `{{helper}}Request()` and `{{helper}}Result()` and kept it under its name for the calls that could not ask through them: it still pushes its request, which a 2026-07-28 client cannot answer.',
        next: 'migrate the calls that still use `{{helper}}()` to ask through its halves, then delete it.',
      },
    },
  },
  'via-helper': {
    short: 'The handler reaches a server→client request through a helper, which cannot suspend it.',
    help: 'Fix the helper (see its own marker), then run mrtr-codemod migrate again.',
    messages: {
      helperChain: {
        marker: 'reaches `{{helper}}()`, asking at line {{line}} — {{step}}',
        reason: 'this handler reaches a server→client request through {{chain}} (line {{line}}), which cannot suspend it.',
        next: HELPER_NEXT,
      },
      dispatchBlocked: {
        marker: '`{{method}}()` asks (line {{line}}); this call cannot resume it — {{fix}}',
        reason:
          'this handler reaches a server→client request through {{chain}} (line {{line}}). `{{method}}()` could become the resumable part of this handler, but {{why}}',
        next: '{{fix}}, then run the codemod again.',
      },
      otherModule: {
        marker: '`{{helper}}()` asks at {{file}}:{{fileLine}} — {{step}}',
        reason: 'this handler reaches a server→client request through `{{helper}}()` ({{file}}:{{fileLine}}), which cannot suspend it.',
        next: HELPER_NEXT,
      },
      keptWhole: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} is refused ({{code}}) — fix that first',
        reason:
          'this handler reaches a server→client request through `{{helper}}()` ({{helperFile}}:{{helperLine}}), which would be split for its callers, but its call at {{callFile}}:{{fileLine}} cannot migrate ({{code}}), so it stays whole and cannot suspend this handler.',
        next: 'fix that call first (see its marker), then run the codemod again.',
      },
      keptWholeUnreached: {
        marker: `no handler reaches caller \`{{caller}}()\` ({{file}}:{{fileLine}}) — ${UNREACHED_STEP.local}`,
        reason: `this handler reaches a server→client request through \`{{helper}}()\`, which would be split for its callers, but \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.local}, so it stays whole and cannot suspend this handler.`,
        next: UNREACHED_NEXT.local,
      },
      keptWholeUnreachedMethod: {
        marker: `no handler calls \`{{caller}}()\` ({{file}}:{{fileLine}}) on its class — ${UNREACHED_STEP.method}`,
        reason: `this handler reaches a server→client request through \`{{helper}}()\`, which would be split for its callers, but \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.method}, so it stays whole and cannot suspend this handler.`,
        next: UNREACHED_NEXT.method,
      },
      keptWholeUnreachedExported: {
        marker: `caller \`{{caller}}()\` ({{file}}:{{fileLine}}) is no handler — ${UNREACHED_STEP.exported}`,
        reason: `this handler reaches a server→client request through \`{{helper}}()\`, which would be split for its callers, but \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.exported}, so it stays whole and cannot suspend this handler.`,
        next: UNREACHED_NEXT.exported,
      },
      keptWholeUnsplit: {
        marker: '`{{caller}}()` ({{file}}:{{fileLine}}): {{short}} — fix that',
        reason:
          'this handler reaches a server→client request through `{{helper}}()`, which would be split for its callers, but `{{caller}}()`, a function another module exports that calls it at {{callFile}}:{{fileLine}} and is no handler, cannot be split to ask through its halves: {{why}} So it stays whole and cannot suspend this handler.',
        next: 'change what the reason names in `{{caller}}()`, or call `{{helper}}()` from the handlers that call `{{caller}}()` and pass its result in; then run the codemod again.',
      },
      throughExported: {
        marker: '`{{wrapper}}()` calls `{{helper}}()` at {{file}}:{{fileLine}}: no split across modules — ask here and pass it in',
        reason:
          'this handler reaches a server→client request through `{{wrapper}}()`, a function another module exports that calls `{{helper}}()` at {{callFile}}:{{fileLine}} and is no handler: a helper is split only for the calls handlers make (in their body or a function of their module), not for the functions of other modules they call, so it stays whole and cannot suspend this handler.',
        next: "call `{{helper}}()` in this handler and pass its result to `{{wrapper}}()`, so that every call of the helper is a handler's; then run the codemod again.",
      },
      throughExportedUnsplit: {
        marker: '`{{wrapper}}()` ({{file}}:{{fileLine}}): {{short}} — fix that',
        reason:
          "this handler reaches a server→client request through `{{wrapper}}()`, a function another module exports that calls `{{helper}}()` at {{callFile}}:{{fileLine}} and is no handler; it could ask through that helper's halves, but it cannot be split: {{why}} So it stays whole and cannot suspend this handler.",
        next: 'change what the reason names in `{{wrapper}}()`, or call `{{helper}}()` in this handler and pass its result to `{{wrapper}}()`; then run the codemod again.',
      },
      keptWholeOutside: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} calls it outside handlers — test through a client',
        reason:
          'this handler reaches a server→client request through `{{helper}}()` ({{helperFile}}:{{helperLine}}), which would be split for its callers, but {{callFile}}:{{fileLine}} calls it outside any handler (a test or a script), which would be left calling a function that is gone: so it stays whole and cannot suspend this handler.',
        next: OUTSIDE_NEXT,
      },
      keptWholeSibling: {
        marker: 'the helper asks with `{{sibling}}()`, which stays whole — see {{file}}:{{fileLine}}',
        reason:
          'this handler reaches a server→client request through `{{helper}}()` ({{file}}:{{fileLine}}), which would be split for its callers, but `{{sibling}}()` makes the same request and stays whole (the marker at {{file}}:{{fileLine}} says why): helpers on the way to one request are split together or not at all, so it cannot suspend this handler.',
        next: SIBLING_NEXT,
      },
      keptWholeDynamic: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} loads it with import() unnamed — bind it by name there',
        reason:
          'this handler reaches a server→client request through `{{helper}}()` ({{helperFile}}:{{helperLine}}), which would be split for its callers, but {{callFile}}:{{fileLine}} loads its module with import() without binding it by name (`const { x } = await import(...)`), so its call cannot follow the split, so it stays whole and cannot suspend this handler.',
        next: 'in {{callFile}}, bind it by name where its module is loaded (`const { {{helper}} } = await import(...)`), or import it statically; then run the codemod again.',
      },
      otherModuleDynamic: {
        marker: '`{{helper}}()` ({{file}}:{{fileLine}}) comes from import() unnamed — bind it by name here, then run again',
        reason:
          "this handler reaches a server→client request through `{{helper}}()` ({{file}}:{{fileLine}}), which it takes from its module with import() other than by name in this function (the whole module, or a name bound elsewhere): its call cannot follow the helper's split, so it cannot suspend this handler.",
        next: 'bind `{{helper}}` by name in this handler (`const { {{helper}} } = await import(...)` before the call), or import it statically; then run the codemod again.',
      },
      otherModuleWrapped: {
        marker: '`{{wrapper}}()` is not split: {{short}} — change that, then run again',
        reason:
          'this call of `{{helper}}()` ({{file}}:{{fileLine}}), which makes a server→client request, is made for handlers that it cannot suspend, and `{{wrapper}}()` cannot be split for them: {{why}}',
        next: 'change what the reason names, or call `{{helper}}` from the handlers themselves; then run the codemod again.',
      },
      otherModuleWrappedKept: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} is refused ({{code}}) — fix that first',
        reason:
          'this call of `{{helper}}()` ({{helperFile}}:{{helperLine}}) would ask through its halves for the handlers that call `{{wrapper}}()`, but the helper stays whole: its call at {{callFile}}:{{fileLine}} cannot migrate ({{code}}).',
        next: 'fix that call first (see its marker), then run the codemod again.',
      },
      otherModuleWrappedUnreached: {
        marker: `no handler reaches caller \`{{caller}}()\` ({{file}}:{{fileLine}}) — ${UNREACHED_STEP.local}`,
        reason: `this call of \`{{helper}}()\` ({{helperFile}}:{{helperLine}}) would ask through its halves for the handlers that call \`{{wrapper}}()\`, but the helper stays whole: \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.local}.`,
        next: UNREACHED_NEXT.local,
      },
      otherModuleWrappedUnreachedMethod: {
        marker: `no handler calls \`{{caller}}()\` ({{file}}:{{fileLine}}) on its class — ${UNREACHED_STEP.method}`,
        reason: `this call of \`{{helper}}()\` ({{helperFile}}:{{helperLine}}) would ask through its halves for the handlers that call \`{{wrapper}}()\`, but the helper stays whole: \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.method}.`,
        next: UNREACHED_NEXT.method,
      },
      otherModuleWrappedUnreachedExported: {
        marker: `caller \`{{caller}}()\` ({{file}}:{{fileLine}}) is no handler — ${UNREACHED_STEP.exported}`,
        reason: `this call of \`{{helper}}()\` ({{helperFile}}:{{helperLine}}) would ask through its halves for the handlers that call \`{{wrapper}}()\`, but the helper stays whole: \`{{caller}}()\` calls it at {{callFile}}:{{fileLine}} ${UNREACHED_WHY.exported}.`,
        next: UNREACHED_NEXT.exported,
      },
      otherModuleWrappedUnsplit: {
        marker: '`{{caller}}()` ({{file}}:{{fileLine}}): {{short}} — fix that',
        reason:
          'this call of `{{helper}}()` ({{helperFile}}:{{helperLine}}) would ask through its halves for the handlers that call `{{wrapper}}()`, but the helper stays whole: `{{caller}}()`, a function another module exports that calls it at {{callFile}}:{{fileLine}} and is no handler, cannot be split to ask through its halves: {{why}}',
        next: 'change what the reason names in `{{caller}}()`, or call `{{helper}}()` from the handlers that call `{{caller}}()` and pass its result in; then run the codemod again.',
      },
      otherModuleWrappedDynamic: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} loads it with import() unnamed — bind it by name there',
        reason:
          'this call of `{{helper}}()` ({{helperFile}}:{{helperLine}}) would ask through its halves for the handlers that call `{{wrapper}}()`, but the helper stays whole: {{callFile}}:{{fileLine}} loads its module with import() without binding it by name (`const { x } = await import(...)`), so its call cannot follow the split.',
        next: 'in {{callFile}}, bind it by name where its module is loaded (`const { {{helper}} } = await import(...)`), or import it statically; then run the codemod again.',
      },
      otherModuleWrappedImport: {
        marker: '`{{helper}}()` ({{file}}:{{fileLine}}) comes from import() here — import it statically, then run again',
        reason:
          'this call of `{{helper}}()` ({{file}}:{{fileLine}}), which makes a server→client request, is made for the handlers that call `{{wrapper}}()`, which it cannot suspend; it takes the helper from its module with import(), and a helper taken so is not split for its callers.',
        next: 'import `{{helper}}` from its module with a static import, then run the codemod again.',
      },
      otherModuleWrappedOutside: {
        marker: '`{{helper}}()` stays whole: {{file}}:{{fileLine}} calls it outside handlers — test through a client',
        reason:
          'this call of `{{helper}}()` ({{helperFile}}:{{helperLine}}) would ask through its halves for the handlers that call `{{wrapper}}()`, but {{callFile}}:{{fileLine}} calls it outside any handler (a test or a script), which would be left calling a function that is gone: so it stays whole.',
        next: OUTSIDE_NEXT,
      },
      otherModuleWrappedSibling: {
        marker: 'the helper asks with `{{sibling}}()`, which stays whole — see {{file}}:{{fileLine}}',
        reason:
          'this call of `{{helper}}()` ({{file}}:{{fileLine}}) would ask through its halves for the handlers that call `{{wrapper}}()`, but `{{sibling}}()` makes the same request and stays whole (the marker at {{file}}:{{fileLine}} says why): helpers on the way to one request are split together or not at all.',
        next: SIBLING_NEXT,
      },
      otherModuleWrappedWhole: {
        marker: '`{{helper}}()` ({{file}}:{{fileLine}}) stays whole for a call in another module — see the markers there',
        reason:
          'this call of `{{helper}}()` ({{file}}:{{fileLine}}) would ask through its halves for the handlers that call `{{wrapper}}()`, but the helper stays whole: a call of it elsewhere cannot ask through its halves.',
        next: 'fix the calls marked in the other modules first, then run the codemod again.',
      },
      otherModuleWrappedHandler: {
        marker: '`{{wrapper}}()` asks through `{{helper}}()` for a handler that cannot migrate — see the marker there',
        reason:
          'this call of `{{helper}}()` ({{file}}:{{fileLine}}) could ask through its halves for the handlers that call `{{wrapper}}()`, but a handler that calls it cannot be migrated, so it stays a call.',
        next: 'fix what the handler’s marker names, then run the codemod again.',
      },
    },
  },
  'blocked-by-helper': {
    short: 'The handler is left as it was because it also reaches a request through a helper.',
    help: 'Fix the helper path first, then run mrtr-codemod migrate again.',
    messages: {
      helperPath: {
        marker: 'left whole: this handler also reaches `{{helper}}()` (line {{line}}), which asks — fix that path first',
        reason: 'this handler also reaches a request through `{{helper}}()` (line {{line}}), so it is left as it was.',
        next: 'fix the `{{helper}}()` path first (see its marker), then run the codemod again.',
      },
    },
  },
  'shadowed-local': {
    short: 'Two locals of the same name would have to travel in requestState.',
    help: 'Rename one of them, then run mrtr-codemod migrate again.',
    messages: {
      twoInScope: {
        marker: 'two locals named `{{name}}` are in scope here (one on line {{line}}) — rename one, then run again',
        reason: 'two locals named `{{name}}` are in scope at this question (one declared on line {{line}}).',
        next: 'rename one of them, then run again.',
      },
      declaredAgain: {
        marker: '`{{name}}` is declared again (line {{line}}) after the asking block — rename one of the two, then run again',
        reason: '`{{name}}` is declared again (line {{line}}) after the block that asks, so the resumed code cannot restore it under the same name.',
        next: 'rename one of the two declarations, then run again.',
      },
    },
  },
  'unknown-receiver': {
    short: 'A call that looks like a legacy request, on a receiver not known to be an MCP server object.',
    help: 'If it is one, make the server object visible (construct or annotate it), or run on TypeScript sources with their types (`npm install` first); if it is not, remove the comment.',
    messages: {
      notAnMcpObject: {
        marker: '`{{receiver}}` is not known to be an MCP server — if it is, construct or annotate it; else delete this',
        reason: '`{{receiver}}` is not known to be an MCP server object, so this call may not be a legacy request at all.',
        next: 'if it is one, make the server object visible (const server = new McpServer(...), or annotate it) or run on TypeScript sources with their types, then run again; if it is not, remove this comment.',
      },
      typesMissing: {
        marker: '`{{receiver}}` has no type: the SDK is not installed — run `npm install`, then run again',
        reason:
          "`{{receiver}}` is not known to be an MCP server object: this TypeScript module's packages are not installed, so its types do not resolve, and this call may not be a legacy request at all.",
        next: 'run `npm install` (the SDK and the types of the project) and run again; if it is not an MCP server object, remove this comment.',
      },
      contextPush: {
        marker: "`{{receiver}}` is a framework's context — if this asks the client, migrate by hand; else delete this",
        reason:
          "`{{receiver}}` is a handler context the codemod cannot prove is the SDK's (a framework's, whose push methods it does not know), and this call is named like a server→client request.",
        next: `if it asks the client mid-call, ${MANUAL_STEP} (or move to the framework's MRTR support); if it is not a request, remove this comment.`,
      },
      wrapperPush: {
        marker: '`{{receiver}}.{{method}}(...)` is on no SDK object known here — ask through the handler context (ctx.mcpReq) instead',
        reason:
          "`{{receiver}}` is no object of the SDK's the codemod knows (a framework's session or context, or one the project keeps), and `{{method}}(...)` is named like a server→client request.",
        next: `if it asks the client mid-call, ask through the handler's own context instead (ctx.mcpReq.elicitInput(...), ctx.mcpReq.requestSampling(...); extra.sendRequest(...) on the v1 SDK) so the codemod can migrate it, or ${MANUAL_STEP} (or move to the framework's MRTR support); if it is not a request, remove this comment.`,
      },
      invokedIndirectly: {
        marker: '`{{reference}}` is invoked indirectly on `{{receiver}}` — call it directly on a known server, or delete this',
        reason:
          '`{{reference}}` is invoked without a plain call (through .call, .apply, .bind, Reflect.apply or a comma), on `{{receiver}}`, which is not known to be an MCP server object, so this may be a legacy request the codemod cannot follow.',
        next: "if it asks the client, call it directly (await {{receiver}}.{{method}}(...)) on a server object the codemod can see is the SDK's (const server = new McpServer(...), or annotate it, or run on TypeScript sources with their types), then run again; if it is not a request, remove this comment.",
      },
    },
  },
  'unknown-tool-name': {
    short: 'The handler is registered under a name that is neither a string nor read from a const, an import or an unchanged parameter.',
    help: 'Register it under a literal name, a const or an imported const (TOOLS.create), then run mrtr-codemod migrate again.',
    messages: {
      computedName: {
        marker: 'the tool name is computed (a call, a let) — register it under a literal or a const, then run again',
        reason:
          'the handler is registered under a name that is neither a string nor read from a const, an import or an unchanged parameter (a call, a `let`), and the request state must name the tool it was minted for.',
        next: 'register it under a literal name, a const or an imported const (TOOLS.create), then run again.',
      },
      instanceName: {
        marker: 'each instance registers under its own `{{member}}` — make `{{member}}` readonly, then run again',
        reason:
          "each instance of this handler's class is registered under its own `{{member}}`, which the class does not keep (readonly), so the request state cannot name the tool it was minted for.",
        next: 'make `{{member}}` readonly (or a string field the class never assigns), then run again.',
      },
    },
  },
  'shared-handler': {
    short: 'One function is registered for several tools; its state must name exactly one.',
    help: 'Give each registration its own function (wrapping a shared one), then run mrtr-codemod migrate again.',
    messages: {
      severalRegistrations: {
        marker: 'this function is registered as {{names}} — give each registration its own wrapper, then run again',
        reason: 'this function is registered as {{names}}; the migrated state must name exactly one of them.',
        next: 'give each registration its own function (wrapping a shared one), then run again.',
      },
      factoryAlternatives: {
        marker: 'the factory of {{handler}} returns one of {{count}} functions — return one that chooses inside it, then run again',
        reason:
          'the factory of {{handler}} returns one of {{count}} functions (chosen when the server is built), and the migrated state must name the one that minted it.',
        next: 'have the factory return one function that makes the choice inside it, then run again.',
      },
      methodUsedElsewhere: {
        marker: '`{{method}}` is registered as {{handler}} and used elsewhere — give each registration its own method',
        reason:
          'the method `{{method}}` is registered as {{handler}} and named elsewhere too (registered again, or called from another handler); the migrated state must name exactly one handler.',
        next: 'give each registration its own method (wrapping a shared one), and call the shared one only from them, then run again.',
      },
    },
  },
  'registered-late': {
    short:
      'The tool is registered from an initialize hook (oninitialized), which a 2026-07-28 client never triggers, or only when client capabilities read while the server is built say so.',
    help: 'Register it when the server is built, for every client: the SDK refuses an input request whose capability the client did not declare; check the capabilities each request carries inside the handler.',
    messages: {
      callFromHook: {
        marker: '`{{callee}}()` runs in an init hook that 2026 clients skip — call it at start-up unless it needs a session',
        reason:
          '`{{callee}}()` runs in an initialize hook, which a 2026-07-28 client never triggers (that revision has no initialize): whatever it registers will not exist for such clients.',
        next: 'if it only registers tools, prompts or resources, call it where the hook is assigned instead, for every client; if it needs the initialized session (a server push, the session id), leave it here and delete this comment.',
      },
      capabilityGuard: {
        marker: 'this registration tests `{{test}}` before clients declare it — drop that test, check each request',
        reason:
          'this registration depends on `{{test}}`, client capabilities read while the server is built, where no client has declared any yet (the factory runs before initialize, and a 2026-07-28 client declares them on each request).',
        next: 'drop the capability test from the condition (keep the rest of it, if any) and register for every client: the SDK refuses an input request whose capability the client did not declare; then delete this comment.',
      },
      ungatedGuard: {
        marker: 'this registration tests `{{test}}` ({{capability}}) before clients declare it — register always',
        reason:
          "this registration depends on `{{test}}`, the client's `{{capability}}` capability read while the server is built, where no client has declared any yet (the factory runs before initialize, and a 2026-07-28 client declares them on each request).",
        next: 'the SDK does not gate `{{capability}}` for you: register for every client and test the capabilities each request carries inside the handler, or keep the tool for 2025 clients only; then delete this comment.',
      },
      removedGuard: {
        marker: 'this registration tests `{{capability}}`, removed in 2026 (SEP-2663) — remove the tool or use tasks extension',
        reason:
          "this registration depends on `{{test}}`, the client's `{{capability}}` capability, which the 2026-07-28 revision removed (SEP-2663): the v2 SDK runs no client task, and the tool registers for no client once the server is built before initialize.",
        next: 'remove the tool, or rebuild it on the tasks extension; then delete this comment.',
      },
      fromOninitialized: {
        marker: '{{handler}} is registered in oninitialized, which 2026 clients skip — register it when the server is built',
        reason:
          '{{handler}} is registered from `oninitialized`, which a 2026-07-28 client never triggers (that revision has no initialize), so it will not exist for such clients.',
        next: 'register it when the server is built, and check the capabilities each request carries inside the handler.',
      },
    },
  },
  'task-augmented': {
    short: 'The request asks the client to run it as a task, which 2026-07-28 input requests do not carry.',
    help: 'Drop the task augmentation (the client answers on the retry), then run mrtr-codemod migrate again.',
    messages: {
      asTask: {
        marker: '{{at}} asks to run as a task, which 2026 input requests cannot — drop the task option',
        reason: 'the request asks the client to run it as a task (`task: {...}`), which the 2026-07-28 input requests do not carry.',
        next: `drop the task augmentation and poll nothing: the client answers on the retry; or ${MANUAL_STEP}.`,
      },
    },
  },
  'url-elicitation': {
    short: 'A URL elicitation the codemod could not move to inputRequired.elicitUrl(...).',
    help: 'Return inputRequired({ inputRequests: { url: inputRequired.elicitUrl({ message, url }) } }) from the handler.',
    messages: {
      notLiteralArray: {
        marker: 'the URL elicitations of {{at}} are not an array of literals — write them inline, then run again',
        reason: 'the URL elicitations are not written out as an array of object literals.',
        next: "write them inline ([{ mode: 'url', message, url, elicitationId }]), then run again.",
      },
      handlerAsksToo: {
        marker: 'nothing follows {{at}}, and the handler asks more — write the work after the throw, or split it',
        reason: 'nothing follows this thrown URL elicitation, and the handler also awaits other requests.',
        next: 'write the work to do once the user is done after the throw (it runs on the retry), or split the handler, then run again.',
      },
      workBeforeThrow: {
        marker: 'nothing follows {{at}}, and code before it must not rerun — write the work after the throw',
        reason:
          'nothing follows the thrown URL elicitation, so the retry would have to run the handler again from the top, and code before it does something that must not run twice.',
        next: 'write the work to do once the user is done after the throw (it runs on the retry, without the code before the question), then run again.',
      },
      paramsNotInline: {
        marker: 'the URL elicitation params of {{at}} are not an inline literal — write them inline, then run again',
        reason:
          'the URL-mode elicitation params are not an object literal written in the call, so the codemod cannot drop the 2025-only `mode` and `elicitationId` fields.',
        next: "write the params inline ({ mode: 'url', message, url, elicitationId }), then run again.",
      },
      retryMarkerUnproven: {
        marker: '{{at}} has a one-shot marker (line {{line}}) its retry may miss — key it on the arguments alone',
        reason:
          'the thrown URL elicitation is guarded by a one-shot retry marker (`{{record}}`, line {{line}}) that the re-sent call must find, but {{why}}: run again from the top, the retry could ask again forever; resumed after the throw, it would leave the key behind.',
        next: 'keep the marker in a module-level const Set (or Map) keyed on the arguments only, or return inputRequired({ inputRequests: { url: inputRequired.elicitUrl({ message, url }) } }) and tell the retry by its requestState, then run again.',
      },
      retryMarkerInRound: {
        marker: '{{at}} has a one-shot marker after a question or in a loop — move it before the questions',
        reason:
          'the thrown URL elicitation is guarded by a one-shot retry marker, so its retry must run the handler from the top, but a question comes before it (or a loop around it may ask one).',
        next: "move the guarded throw before the handler's questions, then run again.",
      },
      thrownInTry: {
        marker: '{{at}} is thrown inside a try block — throw it outside the try, then run again',
        reason: 'the URL elicitation is thrown inside a try block, whose catch or finally would have seen the error.',
        next: 'throw it outside the try block, then run again.',
      },
    },
  },
  sampling: {
    short: 'A sampling request left in place (--sampling=flag): sampling is deprecated (SEP-2577).',
    help: 'Call your LLM provider API directly from the server, or run without --sampling=flag to migrate it to inputRequired.createMessage.',
    messages: {
      flagged: {
        marker: '{{at}} samples, deprecated in 2026-07-28 (left by --sampling=flag) — call your LLM provider directly',
        reason: 'sampling is deprecated in MCP 2026-07-28 (SEP-2577) and was left as it was (--sampling=flag).',
        next: 'call your LLM provider API directly from the server; or run without --sampling=flag to move it to inputRequired.createMessage.',
      },
    },
  },
  layout: {
    short: 'The request, or a block on the way to it, shares its line with other code.',
    help: 'Put the awaited call (and the braces of the blocks around it) on lines of their own (a formatter does this), then run mrtr-codemod migrate again.',
    messages: {
      sharedLine: {
        marker: '{{at}} shares its line with other code — put it on a line of its own (a formatter does), then run again',
        reason: 'the statement shares its line with other code.',
        next: 'put the awaited call on a line of its own and run again.',
      },
      blockOnSharedLine: {
        marker: 'a block around {{at}} opens or closes on a shared line — format the file, then run again',
        reason: 'a block on the way to the request opens or closes on a line shared with other code.',
        next: "put the block's braces (or the case label) on their own lines (a formatter does this), then run again.",
      },
    },
  },
  'expression-body': {
    short: 'The handler body is a single expression.',
    help: `Give the handler a block body ({ ... }) and run mrtr-codemod migrate again, or ${MANUAL_HELP_LOWER}`,
    messages: {
      expressionBody: {
        marker: 'the handler body is a single expression — give it a block body ({ ... }), then run again',
        reason: 'the handler body is a single expression.',
        next: `give the handler a block body ({ ... }) and run again, or ${MANUAL_STEP}.`,
      },
    },
  },
  'foreign-context': {
    short: "The request goes through another context than the handler's own.",
    help: `Make the request through the handler's own context parameter, or ${MANUAL_HELP_LOWER}`,
    messages: {
      otherContext: {
        marker: "{{at}} goes through `{{receiver}}`, not the handler's context — ask through `{{context}}`",
        reason: "the request goes through `{{receiver}}`, not this handler's own context `{{context}}`.",
        next: `make the request through the handler's context ({{context}}), or ${MANUAL_STEP}.`,
      },
    },
  },
  'request-pattern': {
    short: 'A low-level handler destructures its request, so the state cannot be bound to the call it answers.',
    help: 'Name the request parameter (request) and destructure inside the body, then run mrtr-codemod migrate again.',
    messages: {
      destructuredRequest: {
        marker: 'the low-level handler destructures its request — name it (request), destructure in the body, run again',
        reason: 'the low-level handler destructures its request, so the codemod cannot bind the state to the call it answers.',
        next: 'name the request parameter (request) and destructure inside the body, then run again.',
      },
    },
  },
  'context-pattern': {
    short: 'The handler destructures its context parameter, or its parameters do not match the registration.',
    help: `Name the context parameter (ctx) and destructure inside the body, then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER}`,
    messages: {
      destructured: {
        marker: 'the handler destructures its context — name it (ctx) and destructure in the body, then run again',
        reason: 'the handler destructures its context parameter.',
        next: CONTEXT_NEXT,
      },
      destructuredDeeply: {
        marker: 'the handler destructures its context — name it (ctx) and destructure in the body, then run again',
        reason: 'the handler destructures its context parameter with defaults, nesting or a rest element.',
        next: CONTEXT_NEXT,
      },
      paramsMismatch: {
        marker: 'the handler parameters do not match the registration — migrate it by hand (see the docs)',
        reason: 'the handler parameters do not match the registration.',
        next: MANUAL_STEP,
      },
      definitionWithoutContext: {
        marker: "this tool definition's handler takes no context — add it ((args, ctx) => ...), then run again",
        reason: "this tool definition's handler takes no context parameter, and the codemod cannot see that the registry that registers it passes one.",
        next: 'give the handler its context parameter ((args, ctx) => ...) as the registry passes it, then run again.',
      },
      argumentsFirstType: {
        marker: '`{{type}}` (line {{line}}) is args-first, ctx comes alone here — add a `(ctx) =>` form',
        reason: `the registry types this handler \`{{type}}\` (line {{line}}), ${ARGUMENTS_FIRST}`,
        next: ARGUMENTS_FIRST_NEXT,
      },
      argumentsFirstTypeThere: {
        marker: '`{{type}}` ({{file}}:{{fileLine}}) is args-first, ctx comes alone here — add a `(ctx) =>` form',
        reason: `the registry types this handler \`{{type}}\` ({{file}}, line {{fileLine}}), ${ARGUMENTS_FIRST}`,
        next: ARGUMENTS_FIRST_NEXT,
      },
      argumentsFirstSchema: {
        marker: '`{{type}}` (line {{line}}) puts args first — declare `{{key}}` on this tool, then run again',
        reason: `the registry types this handler \`{{type}}\` (line {{line}}), ${ARGUMENTS_FIRST}`,
        next: ARGUMENTS_FIRST_SCHEMA_NEXT,
      },
      argumentsFirstSchemaThere: {
        marker: '`{{type}}` ({{file}}:{{fileLine}}) puts args first — declare `{{key}}` on this tool, then run again',
        reason: `the registry types this handler \`{{type}}\` ({{file}}, line {{fileLine}}), ${ARGUMENTS_FIRST}`,
        next: ARGUMENTS_FIRST_SCHEMA_NEXT,
      },
      cannotAddParameter: {
        marker: 'a context parameter cannot be added to this handler — migrate it by hand (see the docs)',
        reason: 'cannot add a context parameter to this handler.',
        next: MANUAL_STEP,
      },
    },
  },
  'mixed-promise-all': {
    short: 'Promise.all awaits a legacy request together with other work.',
    help: `Await the other work in its own statement, before or after, then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER}`,
    messages: {
      withOtherWork: {
        marker: 'Promise.all awaits {{at}} with other work — await the other work in a statement of its own',
        reason: 'Promise.all awaits a legacy request together with other work.',
        next: `await the other work in its own statement, before or after, then run again; or ${MANUAL_STEP}.`,
      },
      helperMayNotAsk: {
        marker: 'Promise.all awaits `{{helper}}()` with other requests — await it in a statement of its own',
        reason: 'Promise.all awaits `{{helper}}()`, a helper that may answer without asking, together with other requests.',
        next: `await \`{{helper}}()\` in its own statement, before or after, then run again; or ${MANUAL_STEP}.`,
      },
    },
  },
  'optional-call': {
    short: 'The request is made through an optional call (`?.`), which asks only when the receiver or method exists.',
    help: `Make the call unconditional (check for the receiver first, in its own if), then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER}`,
    messages: {
      optionalCall: {
        marker: '{{at}} is an optional call (?.) — test for the receiver in an if of its own, then run again',
        reason: 'the request is made through an optional call (`?.`), which asks only when the receiver or method exists.',
        next: `make the call unconditional (check for the receiver first, in its own if), then run again; or ${MANUAL_STEP}.`,
      },
    },
  },
  'unfollowed-reference': {
    short: 'A legacy request method is handed on or called in a way the codemod cannot follow (not a plain call).',
    help: `Call the request directly where the handler needs the answer (await ctx.mcpReq.elicitInput(...)), then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER}`,
    messages: {
      handedOn: {
        marker: '`{{reference}}` is passed on, not called — call it where the handler needs the answer',
        reason: '`{{reference}}` is used here without being called (passed on, applied or stored), so the request it makes cannot be followed.',
        next: `call it directly where the handler needs the answer (await {{reference}}(...)), then run again; or ${MANUAL_STEP}.`,
      },
      computedMethod: {
        marker: '`{{reference}}` names its method by an expression — name the method, then run again',
        reason: '`{{reference}}` names its method by an expression the codemod cannot read, so it cannot tell which request the call makes.',
        next: `name the method (await ctx.mcpReq.elicitInput(...), or a const holding its name), then run again; or ${MANUAL_STEP}.`,
      },
      nestedPattern: {
        marker: '`{{reference}}` is taken by a nested destructuring — call it on the context instead',
        reason: '`{{reference}}` is taken out of the request context by a nested destructuring, which the codemod does not follow.',
        next: `call it on the context where the handler needs the answer (await ctx.mcpReq.{{reference}}(...)), then run again; or ${MANUAL_STEP}.`,
      },
      sentThrough: {
        marker: '`{{reference}}` is handed a function that asks — have the caller ask with inputRequired(...)',
        reason:
          '`{{reference}}` is a function this one is handed, and a caller in this module hands it one that makes a server→client request, so the request it makes cannot be followed.',
        next: `have the caller ask where its handler needs the answer (return inputRequired(...) from the tool), or ${MANUAL_STEP}.`,
      },
    },
  },
  'return-type': {
    short: "The handler's return type is not a Promise the codemod can widen.",
    help: 'Widen it to Promise<... | InputRequiredResult> (or drop it), then run mrtr-codemod migrate again.',
    messages: {
      notPromise: {
        marker: 'the return type `{{type}}` is not a Promise — widen it to Promise<... | InputRequiredResult>',
        reason: "the handler's return type `{{type}}` is not a Promise the codemod can widen.",
        next: 'widen it to Promise<... | InputRequiredResult> (or drop it), then run again.',
      },
    },
  },
} as const satisfies Record<string, { short: string; help: string; messages?: Record<string, RefusalMessage> }>;

export type RefusalCode = keyof typeof REFUSAL_CODES;

export function isRefusalCode(code: string): code is RefusalCode {
  return Object.hasOwn(REFUSAL_CODES, code);
}

/** The README anchor that explains a code (the SARIF rule's helpUri, the ESLint rule's docs link). */
export function refusalDocsAnchor(code: RefusalCode): string {
  return `mrtr-todo-${code}`;
}

/** Where a code is explained (the reports' documentation link). */
export function refusalDocsUrl(code: RefusalCode): string {
  return readmeUrl(refusalDocsAnchor(code));
}

type Messages<C extends RefusalCode> = (typeof REFUSAL_CODES)[C] extends { messages: infer M } ? M : Record<never, RefusalMessage>;

/** The names a message fills in (`{{name}}`), from its text's type. */
type Placeholders<Text> = Text extends `${string}{{${infer Name}}}${infer Rest}` ? Name | Placeholders<Rest> : never;

/** `{{at}}` is the statement the marker is written above, filled where it is placed (markerLine). */
type MessageData<C extends RefusalCode, Id extends keyof Messages<C>> = Exclude<
  Placeholders<Messages<C>[Id] extends RefusalMessage ? Messages<C>[Id]['reason'] | Messages<C>[Id]['next'] | Messages<C>[Id]['marker'] : never>,
  'at'
>;

/** The longest a statement is quoted in a marker's line (`{{at}}`, see quotedNode). */
export const MARKER_QUOTE_MAX = 32;

/** The most the site's own words take of a marker's line, shared by its placeholders, and the least each gets. */
const MARKER_WORDS_MAX = 32;
const MARKER_WORD_MIN = 12;

/** Values the codemod wrote itself (a step, a line, a refusal code) or shortened already (`request`: quotedNode; `blocker`: a statement's keyword; `short`: a reason cut to fit; `iface`: a type's name, cut to IFACE_MAX; `how`: where two points of a helper lie; `first`, `second`: their lines), quoted whole; `more`: a count. */
const OWN_VALUES: ReadonlySet<string> = new Set([
  'step',
  'line',
  'fileLine',
  'request',
  'code',
  'fix',
  'blocker',
  'more',
  'short',
  'iface',
  'how',
  'first',
  'second',
]);

/** The values that are lines of this module's planned text (named as references: core/line-refs.ts). */
const LINES: ReadonlySet<string> = new Set(['line', 'first', 'second']);

/** Words of the site a marker writes whole, though they take their share of its room: a flag's argument (`maker`, at most MAKER_MAX). */
const WHOLE_WORDS: ReadonlySet<string> = new Set(['maker']);

/** The longest type name a marker names as the receiver's of a call (`IElicitation`). */
const IFACE_MAX = 14;

/** The longest callee a marker names as the argument of --idempotent. */
export const MAKER_MAX = 24;

/**
 * The refusal `code` says with its message `id`, each `{{name}}` of it filled from `data`
 * (ESLint's message syntax: the table holds the words, the call site only the site's own).
 * The marker's line quotes the site's words shortened, so that it stays one short line.
 */
export function refuse<C extends RefusalCode, Id extends keyof Messages<C> & string>(
  code: C,
  id: Id,
  ...data: [MessageData<C, Id>] extends [never] ? [] : [Record<MessageData<C, Id>, string>]
): Refusal {
  const message = (REFUSAL_CODES[code] as { messages?: Record<string, RefusalMessage> }).messages![id]!;
  const values: Record<string, string> = data[0] ?? {};
  // A line of this module or another, in the reason too, as the run writes it (core/line-refs.ts).
  const fill = (text: string) =>
    text.replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
      name === 'fileLine'
        ? fileLineRef(values.callFile ?? values.file ?? '', values[name]!)
        : name === 'helperLine'
          ? fileLineRef(values.helperFile ?? '', values[name]!)
          : LINES.has(name)
            ? lineRef(values[name]!)
            : values[name]!,
    );
  const quoted = [...message.marker.matchAll(/\{\{(\w+)\}\}/g)].filter(([, name]) => name !== 'at' && name !== 'file' && !OWN_VALUES.has(name!)).length;
  const room = Math.max(MARKER_WORD_MIN, Math.floor(MARKER_WORDS_MAX / Math.max(1, quoted)));
  // Another module is named by its file name: its folder is in the reports.
  const word = (name: string) => (name === 'file' ? cutText(values[name]!.split('/').pop()!, 20) : cutText(values[name]!, room));
  const own = (name: string) =>
    LINES.has(name)
      ? lineRef(values[name]!)
      : name === 'fileLine'
        ? fileLineRef(values.file ?? '', values[name]!)
        : name === 'short'
          ? cutText(values[name]!, SHORT_MAX)
          : name === 'iface'
            ? cutText(values[name]!, IFACE_MAX)
            : values[name]!;
  const marker = message.marker.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name === 'at' ? whole : OWN_VALUES.has(name) || WHOLE_WORDS.has(name) ? own(name) : word(name),
  );
  return new Refusal(code, fill(message.reason), fill(message.next), undefined, marker);
}

/**
 * A marker's line after its `@mrtr-todo(<code>): `: the refusal's marker with `{{at}}` the
 * statement it is written above (`at`, quoted), or "this request" where none is named.
 */
export function markerLine(refusal: Pick<Refusal, 'marker'>, at?: string): string {
  return refusal.marker.replace(/\{\{at\}\}/g, at ?? 'this request');
}
