// A line of a unified diff, classified: what the colored diff and the review page draw.
export type DiffLineKind = 'file-old' | 'file-new' | 'header' | 'hunk' | 'add' | 'remove' | 'context' | 'no-newline';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line as it is in the patch, sign included, without its `\n`. */
  text: string;
  /** `\n`, or '' for a last line that had none. */
  eol: string;
  /** Line number in the original file (context and removed lines). */
  oldLine?: number;
  /** Line number in the new file (context and added lines). */
  newLine?: number;
}
