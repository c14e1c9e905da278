// The functions a framework tool's answers are read through (see framework-asks.ts): the push
// call checked what the client answered, and the bare response a retry carries is checked the
// same way, with the SDK's own validators, refused with the error the push call threw. Each is
// appended once to a module whose tools ask its kind of question, with what it reads.
import type { CodeStyle } from '../../analyse/code-style.ts';
import { jsString } from '../../core/escape.ts';
import type { InputKind } from '../../core/vocabulary.ts';

export interface CheckedWriting {
  eol: string;
  typed: boolean;
  style: CodeStyle;
}

export interface CheckedRead {
  /** The function's name: `name(asked, responses, key)` reads the answer at `key` (`name(responses, key)` when it reads no question). */
  name: string;
  readsQuestion: boolean;
  /** The names it declares at the module's top level besides itself. */
  declares: readonly string[];
  /** Its imports, by module (types written in TypeScript only). */
  imports: ReadonlyArray<{ module: string; names: readonly string[]; types: readonly string[] }>;
  declaration(writing: CheckedWriting): string;
}

const SERVER = '@modelcontextprotocol/server';
const VALIDATOR = 'mrtrSchemaValidator';
const CHECKS = 'mrtrSchemaChecks';

/** A form answer: accepted content checked against the schema its question asked for (the SDK's elicitInput). */
const FORM: CheckedRead = {
  name: 'mrtrCheckedAnswer',
  readsQuestion: true,
  declares: [VALIDATOR, CHECKS],
  imports: [
    { module: SERVER, names: ['ProtocolError', 'ProtocolErrorCode'], types: ['InputRequests', 'JsonSchemaType', 'JsonSchemaValidator'] },
    { module: `${SERVER}/validators/ajv`, names: ['AjvJsonSchemaValidator'], types: [] },
  ],
  declaration: (writing) => {
    const { semi, q, t } = writingParts(writing);
    // One validator for the module, and each schema compiled once: a question builds its schema
    // anew on every call, and the validator keeps what it compiled by the schema object.
    return [
      `/** The validator form answers are checked with, and each schema's check by its JSON (a question builds its schema on every call). */`,
      `const ${VALIDATOR} = new AjvJsonSchemaValidator()${semi}`,
      `const ${CHECKS} = new Map${t('<string, JsonSchemaValidator<unknown>>')}()${semi}`,
      '',
      `/** The answer at \`key\`: accepted content that does not match the schema its question asked for is refused, as the push call refused it. */`,
      `function ${FORM.name}(asked${t(': InputRequests')}, responses${t(': Record<string, unknown> | undefined')}, key${t(': string')})${t(': unknown')} {`,
      `  const answer = responses?.[key]${t(' as { action?: unknown; content?: unknown } | undefined')}${semi}`,
      `  const schema = (asked[key]?.params${t(' as { requestedSchema?: JsonSchemaType } | undefined')})?.requestedSchema${semi}`,
      `  if (answer?.action !== ${q('accept')} || answer.content === undefined || !schema) return answer${semi}`,
      `  const json = JSON.stringify(schema)${semi}`,
      `  if (!${CHECKS}.has(json)) ${CHECKS}.set(json, ${VALIDATOR}.getValidator(schema))${semi}`,
      `  const checked = ${CHECKS}.get(json)${t('!')}(answer.content)${semi}`,
      `  if (!checked.valid) {`,
      `    throw new ProtocolError(ProtocolErrorCode.InvalidParams, \`Elicitation response content does not match requested schema: \${checked.errorMessage}\`)${semi}`,
      `  }`,
      `  return answer${semi}`,
      `}`,
    ].join(writing.eol);
  },
};

/**
 * A sampling answer: a result of the shape the spec defines, checked as the SDK's createMessage
 * checked it, by the method's result schema and then by the result without tools (the
 * framework's push call refused a question with tools). The SDK's messages are its schemas'
 * issues as JSON, which the standard validators' issues here are the same as.
 */
const SAMPLING: CheckedRead = {
  name: 'mrtrCheckedSample',
  readsQuestion: false,
  declares: [],
  imports: [{ module: SERVER, names: ['SdkError', 'SdkErrorCode', 'specTypeSchemas'], types: [] }],
  declaration: (writing) => {
    const { semi, q, t } = writingParts(writing);
    const refuse = (checked: string, message: string) => [
      // `in` narrows without strictNullChecks too (the project's own compiler options).
      `  if (!(${q('value')} in ${checked})) {`,
      `    throw new SdkError(SdkErrorCode.InvalidResult, \`${message}: \${JSON.stringify(${checked}.issues, null, 2)}\`)${semi}`,
      `  }`,
    ];
    return [
      `/** The answer at \`key\`: a result that is not a sampling result is refused, as the push call refused it. */`,
      `function ${SAMPLING.name}(responses${t(': Record<string, unknown> | undefined')}, key${t(': string')})${t(': unknown')} {`,
      `  const answer = responses?.[key]${semi}`,
      `  if (answer === undefined) return answer${semi}`,
      `  const result = specTypeSchemas.CreateMessageResultWithTools[${q('~standard')}].validate(answer)${semi}`,
      ...refuse('result', 'Invalid result for sampling/createMessage'),
      `  const checked = specTypeSchemas.CreateMessageResult[${q('~standard')}].validate(result.value)${semi}`,
      ...refuse('checked', 'Invalid sampling/createMessage result'),
      `  return checked.value${semi}`,
      `}`,
    ].join(writing.eol);
  },
};

/** The read an answer of each kind goes through, when its round holds its questions (elicitUrl's answer has no content to check). */
export const CHECKED_READS: Readonly<Partial<Record<InputKind, CheckedRead>>> = { elicit: FORM, sampling: SAMPLING };

function writingParts(writing: CheckedWriting) {
  return {
    semi: writing.style.semi ? ';' : '',
    q: (text: string) => jsString(text, writing.style.quote),
    t: (text: string) => (writing.typed ? text : ''),
  };
}
