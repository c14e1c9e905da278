// Text taken from user code (a tool name, a receiver, a type) that the codemod writes into
// generated code must stay data: inside a string literal it cannot end the string, inside a
// `//` comment it cannot end the line. Every generated string literal and comment goes
// through these two functions; nothing else builds either from source text.

/**
 * Characters that are escaped wherever source text is written: C0/C1 controls and DEL, the
 * JavaScript line terminators U+2028/U+2029 (which end a `//` comment), the bidirectional
 * controls that can make code read otherwise than it runs ("Trojan Source", CVE-2021-42574),
 * a byte-order mark, and lone surrogates (which no encoder can write).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

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

/** A piece of source quoted in a message: whitespace runs collapsed, long text shortened. */
export function codeSnippet(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
