// Text taken from user code (a tool name, a receiver, a type) that the codemod writes into
// generated code must stay data: inside a string literal it cannot end the string, inside a
// `//` comment it cannot end the line. Every generated string literal and comment goes
// through these two functions; nothing else builds either from source text.
//
// The same holds for what the codemod prints: a file name, a tool name or a piece of source
// shown on a terminal or in a text report cannot move the cursor, erase a line, recolour or
// reorder what follows, or start a new line of its own (terminalText, at every printing sink),
// and the JSON reports carry such characters as `\u` escapes (jsonText).

/**
 * Characters that are escaped wherever source text is written: C0/C1 controls and DEL, the
 * JavaScript line terminators U+2028/U+2029 (which end a `//` comment), the bidirectional
 * controls that can make code read otherwise than it runs ("Trojan Source", CVE-2021-42574),
 * a byte-order mark, and lone surrogates (which no encoder can write).
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v' };

function escapeChar(char: string): string {
  const short = SHORT[char];
  if (short) return short;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` as a JavaScript string literal (single-quoted unless told) whose value is exactly `text`. */
export function jsString(text: string, quote: "'" | '"' = "'"): string {
  const special = quote === "'" ? /[\\']/g : /[\\"]/g;
  return `${quote}${text.replace(special, '\\$&').replace(UNSAFE, escapeChar)}${quote}`;
}

/**
 * `text` made safe for the inside of a `//` comment (and a block comment): every character
 * that could end the comment or hide text is written as its escape, so the comment stays one
 * line and reads as it runs.
 */
export function commentText(text: string): string {
  return text.replace(UNSAFE, escapeChar).replace(/\*\//g, '*\\/');
}

/** A `//` comment line at `indent` holding `text`, escaped. */
export function lineComment(indent: string, text: string): string {
  return `${indent}// ${commentText(text)}`;
}

/**
 * `text` safe to print as (part of) one line on a terminal or in a text report: every
 * character of the table above, line breaks and tabs included, is written as its escape.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Text of several lines (a message we composed) with each line escaped as terminalText. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

/**
 * A line of source code shown on a terminal (a diff line): as terminalText, but tabs are kept
 * (they indent code) and so is a carriage return that ends the line (a CRLF file's line end).
 */
export function terminalCodeLine(line: string): string {
  const cr = line.endsWith('\r') ? '\r' : '';
  const body = cr ? line.slice(0, -1) : line;
  return body.replace(UNSAFE, (char) => (char === '\t' ? char : escapeChar(char))) + cr;
}

/**
 * A JSON document with the characters JSON.stringify leaves as they are (DEL, C1 controls,
 * U+2028/U+2029, bidirectional controls, a byte-order mark) written as `\u` escapes: the same
 * value, safe to print. Such characters can only occur inside strings, where `\u` escapes are
 * valid; the C0 controls JSON.stringify escapes itself, and its own line breaks stay.
 */
export function jsonText(json: string): string {
  return json.replace(UNSAFE, (char) => (char.charCodeAt(0) < 0x20 ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

const GIT_SHORT: Record<string, string> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '"': '\\"',
  '\\': '\\\\',
};

/**
 * A path as git writes it in a patch header (`git diff`, quote_c_style): as it is, unless it
 * holds a double quote, a backslash or a character of the table above; then in double quotes,
 * with C escapes and such characters' UTF-8 bytes in octal. (git quotes any other non-ASCII
 * byte too unless core.quotePath is off; `git apply` reads both, so those stay readable.)
 */
export function gitQuotedPath(path: string): string {
  if (!/["\\]/.test(path) && path.search(UNSAFE) === -1) return path;
  const quoted = path
    .replace(/["\\]/g, (char) => GIT_SHORT[char]!)
    .replace(UNSAFE, (char) => GIT_SHORT[char] ?? [...Buffer.from(char)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join(''));
  return `"${quoted}"`;
}

/** A piece of source quoted in a message: whitespace runs collapsed, long text shortened. */
export function codeSnippet(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
