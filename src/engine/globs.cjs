// `ignore` and `picomatch` are CommonJS: required here rather than imported from an ES module,
// which would make Node scan their source for export names first (about 25 ms of every run).
// See src/analyse/babel.cjs.
'use strict';
exports.ignore = require('ignore');
exports.picomatch = require('picomatch');
