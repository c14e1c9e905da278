// Why a site is not migrated, in the words the marker and the report use.
import type { LegacySite } from '../analyse/find-sites.ts';

/** A site that cannot be migrated: why, and what the user should do. */
export class Refusal {
  constructor(
    readonly code: RefusalCode,
    readonly reason: string,
    readonly next: string,
    readonly site?: LegacySite,
  ) {}

  /** The same refusal, pinned to the site it is about. */
  at(site: LegacySite): Refusal {
    return new Refusal(this.code, this.reason, this.next, site);
  }
}

const MANUAL_HOW = 'return inputRequired({ inputRequests, requestState }) and resume from ctx.mcpReq.requestState() on the retry';

/** The manual step, as a marker's "Next:" says it. */
export const MANUAL_STEP = `migrate by hand: ${MANUAL_HOW}`;

/** The manual step as a report's help text says it (and, below, in the middle of a sentence). */
export const MANUAL_HELP = `Migrate it by hand: ${MANUAL_HOW}; then delete the @mrtr-todo comment.`;
const MANUAL_HELP_LOWER = MANUAL_HELP.charAt(0).toLowerCase() + MANUAL_HELP.slice(1);

/**
 * Every code a marker may carry, with the one-sentence meaning and the help the reports give
 * (SARIF rules, JSON). A Refusal takes only these codes, so a new one cannot go undescribed.
 */
export const REFUSAL_CODES = {
  'no-request-to-answer': {
    short: 'A server→client request runs outside tools/call, prompts/get or resources/read (e.g. in oninitialized).',
    help: 'Only those handlers may answer input_required. Ask from inside a tool, prompt or resource handler with inputRequired(...), or stop asking (take roots or other input as tool parameters).',
  },
  'nested-site': {
    short: 'The request is awaited inside a block, condition or larger expression the codemod does not restructure.',
    help: `Move the request to a statement of its own at the top level of the handler and run mrtr-codemod migrate again, or ${MANUAL_HELP_LOWER}`,
  },
  closure: {
    short: 'The request is made inside a function nested in the handler.',
    help: `Inline the request into the handler body and run mrtr-codemod migrate again, or ${MANUAL_HELP_LOWER}`,
  },
  'unserialisable-local': {
    short: 'A local living across the question does not survive JSON (Date, Map, class instance, function).',
    help: 'Recompute the value after the question, or keep a JSON-safe form of it, then run mrtr-codemod migrate again.',
  },
  'legacy-sdk': {
    short: 'The module is on the v1 SDK (imported directly, or through a module of the project), which has no MRTR.',
    help: 'Move the server to v2 first (mrtr-codemod migrate runs the official v1-to-v2 codemod unless --no-v1), then run mrtr-codemod migrate again.',
  },
  'hand-migrated': {
    short: 'The handler already answers with inputRequired (or reads inputResponses) itself, besides a legacy request.',
    help: 'Finish its migration by hand, the way the rest of it already asks and reads answers, then run mrtr-codemod migrate again.',
  },
  'mutated-local': {
    short: 'A local living across the question refers to an object held elsewhere, which the code after the question changes.',
    help: 'The retry would change a JSON copy carried in requestState, not that object. Look the local up again after the question (or change the object through its owner), then run mrtr-codemod migrate again.',
  },
  'untyped-local': {
    short: 'Nothing shows a local that would travel in requestState holds plain JSON (it is typed any, or is an untyped call result in JavaScript), or its type cannot be named at the handler.',
    help: 'Annotate the local with its JSON type (a JSDoc @type in JavaScript), or recompute it after the answer, then run mrtr-codemod migrate again.',
  },
  'unbounded-local': {
    short: 'A local that would travel in requestState is a collection read from elsewhere (a query, a file, a cache): it can grow without bound, and travels whole on every round.',
    help: 'Carry only what the code after the question needs (ids, a count), or read the collection again after the answer, then run mrtr-codemod migrate again.',
  },
  'param-reassigned': {
    short: 'An argument is reassigned before a question; the retry re-sends the original.',
    help: 'Assign to a new local instead of the parameter, then run mrtr-codemod migrate again.',
  },
  'unknown-request': {
    short: 'A send(request) whose request object is not a literal.',
    help: `Write the request as an object literal with a literal method, or ${MANUAL_HELP_LOWER}`,
  },
  'server-elsewhere': {
    short: 'The server these handlers are registered on is built neither in this file nor in a module of the run that imports it, so the request-state verifier is not wired.',
    help: 'Add requestState: { verify: mrtrVerify() } to the McpServer options where the server is built (mrtrVerify comes from the generated request-state module), then delete the @mrtr-todo comment.',
  },
  'secret-in-state': {
    short: 'A local the migrated handler carries in requestState looks like a secret (by its name or its value), and the client can read requestState.',
    help: 'requestState is signed, not encrypted. Keep the value on the server: read it again after the answer instead of carrying it (drop it from the locals of mrtr.ask), or carry a key to it. If it is not secret, delete the @mrtr-todo comment.',
  },
  'blocked-by-sibling': {
    short: 'The handler is left as it was because another request in it cannot be migrated.',
    help: 'Fix the other site of the handler first, then run mrtr-codemod migrate again.',
  },
  'name-clash': {
    short: 'The module declares a name the migration adds (an import or a generated helper).',
    help: 'Rename the local declaration, then run mrtr-codemod migrate again.',
  },
  loop: {
    short: 'The request is inside a loop the retry cannot resume (for...in, for await, a computed iterable, labeled jumps).',
    help: 'Loop over an array with for...of (or a while/for condition), or ask once for everything the loop needs, then run mrtr-codemod migrate again.',
  },
  'switch-case': {
    short: 'The request is in a switch case that falls through or breaks out from the middle after it.',
    help: 'End the case with break or return right after its work, or turn the switch into if/else, then run mrtr-codemod migrate again.',
  },
  finally: {
    short: 'The request is inside a finally block, which would run on every round.',
    help: 'Move the question out of the finally block, then run mrtr-codemod migrate again.',
  },
  'in-helper': {
    short: 'The request is made in a helper the codemod could not split for its callers.',
    help: 'Have the helper build the request and let each handler ask and read the answer, or inline the helper into the handlers, then run mrtr-codemod migrate again.',
  },
  'via-helper': {
    short: 'The handler reaches a server→client request through a helper, which cannot suspend it.',
    help: 'Fix the helper (see its own marker), then run mrtr-codemod migrate again.',
  },
  'blocked-by-helper': {
    short: 'The handler is left as it was because it also reaches a request through a helper.',
    help: 'Fix the helper path first, then run mrtr-codemod migrate again.',
  },
  'shadowed-local': {
    short: 'Two locals of the same name would have to travel in requestState.',
    help: 'Rename one of them, then run mrtr-codemod migrate again.',
  },
  'unknown-receiver': {
    short: 'A call that looks like a legacy request, on a receiver not known to be an MCP server object.',
    help: 'If it is one, make the server object visible (construct or annotate it) or run on TypeScript sources with their types; if it is not, remove the comment.',
  },
  'unknown-tool-name': {
    short: 'The handler is registered under a name that is neither a string nor read from a const, an import or an unchanged parameter.',
    help: 'Register it under a literal name, a const or an imported const (TOOLS.create), then run mrtr-codemod migrate again.',
  },
  'shared-handler': {
    short: 'One function is registered for several tools; its state must name exactly one.',
    help: 'Give each registration its own function (wrapping a shared one), then run mrtr-codemod migrate again.',
  },
  'registered-late': {
    short: 'The tool is registered from oninitialized, which a 2026-07-28 client never triggers.',
    help: 'Register it when the server is built, and check the capabilities each request carries inside the handler.',
  },
  'task-augmented': {
    short: 'The request asks the client to run it as a task, which 2026-07-28 input requests do not carry.',
    help: 'Drop the task augmentation (the client answers on the retry), then run mrtr-codemod migrate again.',
  },
  'url-elicitation': {
    short: 'A URL elicitation the codemod could not move to inputRequired.elicitUrl(...).',
    help: 'Return inputRequired({ inputRequests: { url: inputRequired.elicitUrl({ message, url }) } }) from the handler.',
  },
  sampling: {
    short: 'A sampling request left in place (--sampling=flag): sampling is deprecated (SEP-2577).',
    help: 'Call your LLM provider API directly from the server, or run without --sampling=flag to migrate it to inputRequired.createMessage.',
  },
  'layout': {
    short: 'The request, or a block on the way to it, shares its line with other code.',
    help: 'Put the awaited call (and the braces of the blocks around it) on lines of their own (a formatter does this), then run mrtr-codemod migrate again.',
  },
  'expression-body': {
    short: 'The handler body is a single expression.',
    help: `Give the handler a block body ({ ... }) and run mrtr-codemod migrate again, or ${MANUAL_HELP_LOWER}`,
  },
  'foreign-context': {
    short: "The request goes through another context than the handler's own.",
    help: `Make the request through the handler's own context parameter, or ${MANUAL_HELP_LOWER}`,
  },
  'request-pattern': {
    short: 'A low-level handler destructures its request, so the state cannot be bound to the call it answers.',
    help: 'Name the request parameter (request) and destructure inside the body, then run mrtr-codemod migrate again.',
  },
  'context-pattern': {
    short: 'The handler destructures its context parameter, or its parameters do not match the registration.',
    help: `Name the context parameter (ctx) and destructure inside the body, then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER}`,
  },
  'mixed-promise-all': {
    short: 'Promise.all awaits a legacy request together with other work.',
    help: `Await the other work in its own statement, before or after, then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER}`,
  },
  'optional-call': {
    short: 'The request is made through an optional call (`?.`), which asks only when the receiver or method exists.',
    help: `Make the call unconditional (check for the receiver first, in its own if), then run mrtr-codemod migrate again; or ${MANUAL_HELP_LOWER}`,
  },
  'return-type': {
    short: "The handler's return type is not a Promise the codemod can widen.",
    help: 'Widen it to Promise<... | InputRequiredResult> (or drop it), then run mrtr-codemod migrate again.',
  },
} as const satisfies Record<string, { short: string; help: string }>;

export type RefusalCode = keyof typeof REFUSAL_CODES;

export function isRefusalCode(code: string): code is RefusalCode {
  return Object.hasOwn(REFUSAL_CODES, code);
}
