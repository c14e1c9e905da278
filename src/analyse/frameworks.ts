// Frameworks that wrap the SDK and hand their tools a context of their own, as data: how a
// tool of theirs is written, which push methods its context has, and what the framework
// exposes for MRTR. The analyser reads a table to know a receiver is a framework's context;
// the rewrite reads it to write the answer's read and the imports. Supporting another
// framework is an entry here, not code.
import type { InputKind } from '../core/vocabulary.ts';

export interface FrameworkAdapter {
  /** The framework's name, as markers and reports say it. */
  name: string;
  /** The module its tools import the framework's names from. */
  module: string;
  /** How a tool's handler is written: `default-export` is a file-based tool (the module's default export is the handler). */
  handler: 'default-export';
  /** The handler's context parameter: its position and the type (exported by `module`) it is annotated with. */
  context: { index: number; type: string };
  /** The context's push methods, each with the kind of question it asks (`elicit` with `mode: 'url'` is a URL elicitation). */
  asks: Readonly<Record<string, InputKind>>;
  /** The context's member holding this round's bare responses, keyed as asked. */
  inputResponses: string;
  /**
   * How the framework hands a handler the state a previous round minted: `unverified` when it
   * builds its server with no `requestState.verify` hook, so the accessor returns the client's
   * raw string and nothing sealed can travel (a handler then migrates only when nothing needs to).
   */
  requestState: { member: string; verified: false };
  /** What `module` re-exports from the SDK: the builder's name, and the type of an answer by kind (none: not exported). */
  exports: { inputRequired: string; answerTypes: Readonly<Partial<Record<InputKind, string>>> };
}

export const FRAMEWORKS: readonly FrameworkAdapter[] = [
  {
    // xmcp 1.x: `export default async function tool(args, extra: ToolExtraArguments)` in a tools
    // folder. `extra.elicit` and `extra.sample` wrap the SDK's push API; `extra.inputResponses` is
    // the SDK's `ctx.mcpReq.inputResponses`; its servers are built without a verifier, so
    // `extra.requestState()` is the unverified wire string.
    name: 'xmcp',
    module: 'xmcp',
    handler: 'default-export',
    context: { index: 1, type: 'ToolExtraArguments' },
    asks: { elicit: 'elicit', sample: 'sampling' },
    inputResponses: 'inputResponses',
    requestState: { member: 'requestState', verified: false },
    exports: { inputRequired: 'inputRequired', answerTypes: { elicit: 'ElicitResult', elicitUrl: 'ElicitResult', sampling: 'SampleResult' } },
  },
];
