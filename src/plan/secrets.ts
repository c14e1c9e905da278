// Lifted locals that look like secrets: requestState is signed, not encrypted, so the client
// reads everything carried in it. Found by the local's name (`dbUrl`, `signingKey`, `creds`) and
// by the shape of its value (read from the environment, a URL with a password, a bearer token,
// a JWT, a private key, an Authorization header).
import { refuse } from './refusal.ts';

export interface SecretLocal {
  name: string;
  /** Why it looks secret, in a few words ("its name", "read from the environment"). */
  why: string;
}

/** Words of a name that say credential on their own. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'secrets',
  'token',
  'credential',
  'credentials',
  'creds',
  'cred',
  'cookie',
  'cookies',
  'jwt',
  'dsn',
  'bearer',
  'authorization',
  'auth',
  'headers',
  'apikey',
  'privatekey',
  'signingkey',
]);
/** Pairs of words that do (`api` `key`, `db` `url`). */
const SECRET_PAIRS = [
  [/^(api|private|signing|access|secret|encryption|hmac|client)$/, /^keys?$/],
  [/^session$/, /^(id|key)$/],
  [/^(db|database|postgres|mongo|redis|mysql|connection|conn)$/, /^(url|uri|str|string)$/],
  [/^client$/, /^secret$/],
] as const;
/** A word that makes `token` a count (`maxTokens`, `tokenCount`), not a credential. */
const TOKEN_COUNT = /^(max|num|total|count|limit|usage|used|budget)$/;

/** The words of a camelCase, PascalCase or snake_case name, lower-cased. */
function wordsOf(name: string): string[] {
  return name
    .replace(/^[_$#]+/, '')
    .split(/[_$-]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

function secretName(name: string): boolean {
  const words = wordsOf(name);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === 'token' || w === 'tokens') {
      if (!words.some((other) => TOKEN_COUNT.test(other))) return true;
      continue;
    }
    if (SECRET_WORDS.has(w)) return true;
    const next = words[i + 1];
    if (next !== undefined && SECRET_PAIRS.some(([a, b]) => a.test(w) && b.test(next))) return true;
  }
  return false;
}

const VALUE_SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/\b(process\.env|Deno\.env|import\.meta\.env|Bun\.env)\b/, 'read from the environment'],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@'"`]+:[^\s/@'"`]+@/i, 'a URL with a password'],
  [/\bBearer\s/, 'a bearer token'],
  [/\beyJ[\w-]{5,}\.[\w-]{5,}\./, 'a JWT'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/\b(authorization|proxy-authorization|x-api-key|cookie|set-cookie)\b/i, 'an Authorization or Cookie header'],
  [/\bauthInfo\b/, "the caller's credentials (authInfo)"],
];

/** Why the local `name`, whose value is written `valueText`, looks like a secret; undefined when it does not. */
export function secretLook(name: string, valueText: string | undefined): string | undefined {
  if (secretName(name)) return 'its name';
  if (valueText === undefined) return undefined;
  return VALUE_SHAPES.find(([shape]) => shape.test(valueText))?.[1];
}

/** The marker's reason and next step for the secrets a question carries (the report says the same). */
export function secretInState(secrets: readonly SecretLocal[]): { reason: string; next: string; marker: string } {
  const list = secrets.map((s) => `\`${s.name}\` (${s.why})`).join(', ');
  const { reason, next, marker } = refuse('secret-in-state', secrets.length === 1 ? 'oneCarried' : 'severalCarried', { list });
  return { reason, next, marker };
}
