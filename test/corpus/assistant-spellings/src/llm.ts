import type { CreateMessageRequest, CreateMessageResult, ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';

/** What the tools need from whoever can ask the user or the model. */
export interface Asker {
  elicitInput(params: ElicitRequestFormParams): Promise<ElicitResult>;
  createMessage(params: CreateMessageRequest['params']): Promise<CreateMessageResult>;
}

export async function yesNo(asker: Asker, question: string): Promise<boolean> {
  // corpus-site: mark unknown-receiver
  const answer = await asker.elicitInput({
    message: question,
    requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] },
  });
  return answer.action === 'accept' && answer.content?.yes === true;
}

export async function complete(createMessage: (params: CreateMessageRequest['params']) => Promise<CreateMessageResult>, prompt: string): Promise<string> {
  // corpus-site: mark unknown-receiver
  const result = await createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 256 });
  return result.content.type === 'text' ? result.content.text : '';
}
