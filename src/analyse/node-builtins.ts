// What a few Node built-in functions return, as data: the checker reads it only where the
// module has no declarations (a checkout before `npm install` has no @types/node), so that
// `const id = requested ?? randomUUID()` is a string there as it is once installed. The same
// reason as the SDK declarations this package carries (carried-declarations.ts), at the size of
// what a handler's locals are made with. Only functions whose result is that primitive whatever
// the arguments: `randomInt` (void with a callback) and anything returning a Buffer are left out.
// A type here may be wider than @types/node's (a UUID is a template of its groups there), never
// narrower: the state that carries the value admits every value the installed types would.

export type BuiltinReturn = 'string' | 'number' | 'boolean';

const PATH: Readonly<Record<string, BuiltinReturn>> = {
  basename: 'string',
  dirname: 'string',
  extname: 'string',
  format: 'string',
  isAbsolute: 'boolean',
  join: 'string',
  normalize: 'string',
  relative: 'string',
  resolve: 'string',
  toNamespacedPath: 'string',
};

/** By module (without the `node:` prefix), then by export. */
const RETURNS: Readonly<Record<string, Readonly<Record<string, BuiltinReturn>>>> = {
  crypto: { randomUUID: 'string', timingSafeEqual: 'boolean' },
  fs: { existsSync: 'boolean' },
  os: {
    arch: 'string',
    availableParallelism: 'number',
    endianness: 'string',
    freemem: 'number',
    homedir: 'string',
    hostname: 'string',
    platform: 'string',
    release: 'string',
    tmpdir: 'string',
    totalmem: 'number',
    type: 'string',
    uptime: 'number',
  },
  path: PATH,
  'path/posix': PATH,
  'path/win32': PATH,
  url: { domainToASCII: 'string', domainToUnicode: 'string', fileURLToPath: 'string', format: 'string' },
  util: { format: 'string', inspect: 'string', isDeepStrictEqual: 'boolean' },
};

/** What `name` exported by the module `specifier` (`node:crypto` or `crypto`) returns, when the table knows. */
export function builtinReturn(specifier: string, name: string): BuiltinReturn | undefined {
  const table = RETURNS[specifier.replace(/^node:/, '')];
  return table && Object.hasOwn(table, name) ? table[name] : undefined;
}
