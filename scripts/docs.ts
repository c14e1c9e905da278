// `npm run docs`: writes the README's table of refusal codes from the table in
// src/plan/refusal.ts (each code's meaning and help, under the anchor the reports link to).
// test/docs.test.ts fails while the README says anything else.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REFUSAL_CODES, refusalDocsAnchor, type RefusalCode } from '../src/plan/refusal.ts';

export const README = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

const START = '<!-- refusal-codes: written by `npm run docs` from src/plan/refusal.ts -->';
const END = '<!-- /refusal-codes -->';

/** The Markdown table: one row a code, in the table's order. */
export function refusalTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = (Object.keys(REFUSAL_CODES) as RefusalCode[]).map((code) => {
    const { short, help } = REFUSAL_CODES[code];
    return `| <a id="${refusalDocsAnchor(code)}"></a>\`${code}\` | ${cell(short)} | ${cell(help)} |`;
  });
  return ['| code | what it means | what to do |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `readme` with the text between the markers replaced by the table (an error when a marker is missing). */
export function withRefusalTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md: the refusal table's markers (${START} ... ${END}) are missing`);
  return `${readme.slice(0, start + START.length)}\n${refusalTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const readme = readFileSync(README, 'utf8');
  const updated = withRefusalTable(readme);
  if (updated !== readme) writeFileSync(README, updated);
  process.stdout.write(updated === readme ? 'README.md: the refusal table is up to date\n' : 'README.md: refusal table written\n');
}
