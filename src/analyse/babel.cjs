// @babel/parser and @babel/types are CommonJS. Imported from an ES module, each is first scanned
// by Node for the names it exports (cjs-module-lexer: about 0.2 s at every start, most of the
// time a `check` of a small project takes); required, they load at once. Plain CommonJS, not
// TypeScript: the jscodeshift runner compiles our TypeScript to CommonJS, where `import.meta`
// (which createRequire would need) cannot be. Of @babel/types only its node definitions are
// needed: its index also loads every builder and validator (about twice the time).
'use strict';
const definitions = require('@babel/types/lib/definitions/index.js');

exports.parse = require('@babel/parser').parse;
exports.VISITOR_KEYS = definitions.VISITOR_KEYS;
exports.TS_TYPES = new Set(definitions.FLIPPED_ALIAS_KEYS.TSType);
