#!/usr/bin/env node
// `node scripts/marker-stats.js <diff or folder>...`: how many `@mrtr-todo` markers the
// migrations added and how long their lines are (median, longest), read from unified diffs (a
// folder: every `*.diff` under it, as the real-corpus scorer keeps them). The length of a
// marker is its added line without the indentation; a comment line that follows it is counted
// in its total. Markers of the same code with the same text in one file are counted as repeats.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MARKER = /^\s*\/\/\s*@mrtr-todo\(([\w-]+)\)/;

function diffsUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? diffsUnder(join(path, e.name)) : e.name.endsWith('.diff') ? [join(path, e.name)] : [],
  );
}

/** Each marker an added line starts: its code, first line, total length, and the file it is in. */
function markersOf(diff) {
  const out = [];
  let file = '';
  let last;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) file = line.slice(4);
    if (!line.startsWith('+') || line.startsWith('+++')) {
      last = undefined;
      continue;
    }
    const text = line.slice(1).trim();
    const m = MARKER.exec(line.slice(1));
    if (m) out.push((last = { file, code: m[1], first: text, total: text.length }));
    else if (last && text.startsWith('//') && !text.includes('@')) last.total += text.length;
    else last = undefined;
  }
  return out;
}

const median = (xs) => (xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]);

const paths = process.argv.slice(2);
if (paths.length === 0) {
  process.stderr.write('usage: node scripts/marker-stats.js <diff or folder>...\n');
  process.exit(2);
}
const markers = paths.flatMap(diffsUnder).flatMap((p) => markersOf(readFileSync(p, 'utf8')));
const firsts = markers.map((m) => m.first.length);
const seen = new Set();
const repeats = markers.filter((m) => {
  const key = `${m.file}\0${m.first}`;
  return seen.has(key) || !seen.add(key);
}).length;
const byCode = new Map();
for (const m of markers) byCode.set(m.code, (byCode.get(m.code) ?? 0) + 1);
process.stdout.write(
  `markers: ${markers.length}; first line: median ${median(firsts)}, longest ${Math.max(0, ...firsts)} chars; ` +
    `with continuation: longest ${Math.max(0, ...markers.map((m) => m.total))}; repeated in a file: ${repeats}\n`,
);
process.stdout.write(
  `by code: ${[...byCode]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(', ')}\n`,
);
