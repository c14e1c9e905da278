// Types of babel.cjs.
export declare const parse: typeof import('@babel/parser').parse;
/** Which keys of each node type hold child nodes. */
export declare const VISITOR_KEYS: Record<string, readonly string[]>;
/** The node types that are TypeScript types (Babel's `TSType` alias). */
export declare const TS_TYPES: ReadonlySet<string>;
