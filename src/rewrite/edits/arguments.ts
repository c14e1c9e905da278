// A parameter added to a function, and an argument added to a call.
import type { CallExpression } from '@babel/types';
import type { Edit } from '../../core/vocabulary.ts';

/** `text` added as the last argument of `call` (`handleX(args)` → `handleX(args, ctx)`). */
export function lastArgument(call: CallExpression, text: string): Edit {
  const last = call.arguments[call.arguments.length - 1];
  return last ? { start: last.end!, end: last.end!, text: `, ${text}` } : { start: call.end! - 1, end: call.end! - 1, text };
}

/** A context parameter added to a handler: inserted at `at` (and, where the parameter list needs closing, at `close.at`). */
export function addedParameter(added: { at: number; text: string; close?: { at: number; text: string } }): Edit[] {
  const insert = ({ at, text }: { at: number; text: string }): Edit => ({ start: at, end: at, text });
  return added.close ? [insert(added), insert(added.close)] : [insert(added)];
}
