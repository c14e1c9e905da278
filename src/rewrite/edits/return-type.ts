// A `Promise<X>` type widened to admit the input_required result a migrated handler returns.
import type { Node } from '@babel/types';
import { type Edit, promisedType } from '../../core/vocabulary.ts';

/** `Promise<X | InputRequiredResult>` for the type `Promise<X>` at `type`; undefined for another type, or one that admits it already. */
export function widenedPromise(source: string, type: Node): Edit | undefined {
  const text = source.slice(type.start!, type.end!);
  const promised = promisedType(text);
  if (promised === undefined || /\bInputRequiredResult\b/.test(text)) return undefined;
  return { start: type.start!, end: type.end!, text: `Promise<${promised} | InputRequiredResult>` };
}
