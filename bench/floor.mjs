// The floor the benchmark measures every command against, as a whole process of plain Node
// (no tsx, no loader): the least any tool must do to see the syntax of a project's candidates.
//   node bench/floor.mjs <dir>
// 1. The file list: in a git work tree whose root is <dir>, what git lists
//    (`git ls-files --cached --others --exclude-standard`: git does the .gitignore work, in C);
//    elsewhere a plain synchronous walk. Either way only source files, not below node_modules,
//    dist, build, .git, vendor or third_party, no minified scripts or declaration files: the
//    files the codemod reads.
// 2. Every file read (synchronously), decoded as strict UTF-8 and tested against the codemod's
//    prefilter (its compiled regular expression, dist/analyse/sdk-surface.js).
// 3. Every candidate parsed by @babel/parser with the codemod's options (src/analyse/parse.ts).
// Prints one JSON line: files, candidates, candidate bytes.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { TextDecoder } from 'node:util';
import { PREFILTER } from '../dist/analyse/sdk-surface.js';

const { parse } = createRequire(import.meta.url)('@babel/parser');

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const DECLARATION = /\.d(?:\.[^.]+)?\.[cm]?ts$/;
const MINIFIED = /\.min\.[cm]?js$/;
const SKIPPED = new Set(['node_modules', 'dist', 'build', '.git', 'vendor', 'third_party']);
const isSource = (name) => SOURCE.test(name) && !DECLARATION.test(name) && !MINIFIED.test(name);

function gitFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 1 << 30, encoding: 'utf8' });
  const files = [];
  for (const relative of out.split('\0')) {
    if (!relative || !isSource(relative)) continue;
    if (
      relative
        .split('/')
        .slice(0, -1)
        .some((part) => SKIPPED.has(part))
    )
      continue;
    files.push(path.join(root, relative));
  }
  return files;
}

function walkedFiles(root) {
  const files = [];
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) visit(full);
      } else if (entry.isFile() && isSource(entry.name)) files.push(full);
    }
  };
  visit(root);
  return files;
}

function pluginsFor(file) {
  const dialect = /\.[cm]?tsx?$/.test(file) ? (file.endsWith('x') ? 'tsx' : 'ts') : 'js';
  const own = dialect === 'js' ? ['jsx'] : dialect === 'tsx' ? ['typescript', 'jsx'] : ['typescript'];
  return [...own, 'decorators-legacy', 'importAttributes', 'explicitResourceManagement'];
}

const root = path.resolve(process.argv[2] ?? '.');
const files = existsSync(path.join(root, '.git')) ? gitFiles(root) : walkedFiles(root);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
let candidates = 0;
let candidateBytes = 0;
for (const file of files) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    continue; // listed by git, deleted since
  }
  if (bytes.includes(0)) continue;
  let source;
  try {
    source = utf8.decode(bytes);
  } catch {
    continue;
  }
  if (!PREFILTER.test(source)) continue;
  candidates++;
  candidateBytes += bytes.length;
  try {
    parse(source, {
      sourceType: 'unambiguous',
      allowReturnOutsideFunction: true,
      attachComment: false,
      allowAwaitOutsideFunction: true,
      plugins: pluginsFor(file),
    });
  } catch {
    // a file that does not parse still cost its parse
  }
}
process.stdout.write(`${JSON.stringify({ files: files.length, candidates, candidateBytes })}\n`);
