// A marker's line names what blocks in a few words: the reason a helper cannot be split (`it is a
// helper whose parameters are not plain names.`, nested in `it is called by \`f()\`, which cannot
// be split: ...` for each helper on the way) cut to its innermost part, and who it is about.
import { cutText } from '../core/line-refs.ts';

/** The most a reason takes of a marker's line. */
export const SHORT_MAX = 50;

/** A helper's reason for the marker's one line: `it is a helper that awaits …` as `it awaits …`, cut to fit. */
export function shortWhy(why: string): string {
  const text = why
    .replace(/^it is a helper (that |whose )?/, (_, rel: string | undefined) => (rel === 'whose ' ? 'its ' : rel ? 'it ' : ''))
    .replace(/^it is /, '')
    .replace(/\.$/, '');
  return cutText(text, SHORT_MAX);
}

/** The function the innermost part of a nested reason is about (`helper` when it is not nested), and that part shortened. */
export function innermostWhy(why: string, helper: string): { stuck: string; short: string } {
  const parts = why.split(', which cannot be split: ');
  const outer = parts.length > 1 ? parts[parts.length - 2]! : undefined;
  const named = outer ? [...outer.matchAll(/`([A-Za-z_$][\w$.]*)\(\)`/g)].pop()?.[1] : undefined;
  return { stuck: named ?? helper, short: shortWhy(parts[parts.length - 1]!) };
}

/** What a marker says of an exported caller kept whole: its name, where it calls, and `why` it cannot be split. */
export function unsplitCaller(
  caller: string,
  file: string,
  line: number,
  why: string,
): Record<'caller' | 'file' | 'callFile' | 'fileLine' | 'why' | 'short', string> {
  return { caller, file, callFile: file, fileLine: String(line), why, short: shortWhy(why) };
}
