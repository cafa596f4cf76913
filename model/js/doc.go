// Package js owns JavaScript's value semantics as the reference's runtime
// (Node.js 18+, V8) has them, for the parts that do not depend on a document
// value type: every package that must print, compare or compute like the
// reference goes through here instead of writing the rule again.
//
// It owns:
//   - number formatting (Number.prototype.toString, FormatNumber) and
//     Number(string) (StringToNumber), Math.round (Round), and JavaScript's
//     white space (IsSpace, SpaceClass);
//   - JSON string quoting as JSON.stringify does it, lone surrogates included
//     (QuoteJSON, Quote);
//   - strings as sequences of UTF-16 code units: length, indexing, split,
//     comparison, and re-joining surrogate halves (utf16.go);
//   - Math.log, Math.exp and Math.pow as bit-exact ports of fdlibm as V8
//     compiles it (Log, Exp, Pow);
//   - dates: TimeClip, new Date(y, m, d, ...) in a zone (LocalDate),
//     Date.parse as V8's date parser implements it (ParseDate),
//     Date.prototype.toString (DateString) and toISOString (FormatTime).
//
// String(v) of a document value, JSON.stringify of whole documents and the
// equalities live next to the value type (model/yamlsrc) and the evaluator
// (model/expr), on top of this package.
//
// The package is hand-written rather than taken from a library because it
// must be bit-exact with the reference: Go's strconv, math and time differ
// from V8 in the last digit of a number, the last bit of a logarithm, the
// forms Date.parse accepts and the way strings are measured (style.md §2 on
// third-party code). testdata/ holds vectors produced by Node.js itself
// (testdata/dates.js, fdlibm.txt); the tests do not need Node.js.
//
// Strings are Go strings holding UTF-8; a lone UTF-16 surrogate, which only
// arises from splitting strings into code units, is kept in its 3-byte
// generalised UTF-8 form (WTF-8) so that lengths and JSON output stay those
// of JavaScript.
//
// The package imports nothing of the project; solver/logic keeps its own
// copy of the little it needs so that the solver still imports nothing of
// ours.
package js
