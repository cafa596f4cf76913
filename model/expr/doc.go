// Package expr owns the eager evaluation of Variability4TOSCA value
// expressions with the reference implementation's JavaScript semantics
// (variability.md §9, with the value lookup of variability inputs from §6 and
// the boolean rule of §8.6 left to the caller).
//
// It implements:
//   - the operator dispatch, operand handling and error messages of the
//     reference's evaluateValueExpression (§9.1, §9.2, §16 "Solver —
//     translation"), including the per-map-object result cache;
//   - JavaScript semantics on document values that those operators need:
//     strict equality, SameValueZero, relational comparison, number
//     conversion and JSON.stringify with the reference's result cache and
//     V8's cycle errors (§9.2, §9.3), on top of model/js (number formatting,
//     UTF-16 strings, JSON quoting) and yamlsrc.ToString (String(v));
//   - the analytical and regression operators with stats-lite, lodash and
//     regression-js arithmetic, including the two rounding helpers R2 and RR
//     (§9.4, §9.5), on top of model/js's bit-exact Math.log, Math.exp and
//     Math.pow;
//   - date operands as dayjs reads them (§9.6), with model/js's Date.parse.
//
// testdata/ holds expectations produced by running the reference itself
// (testdata/oracle.js); the tests do not need Node.js.
//
// Values are *yamlsrc.Value documents; a nil *Value is JavaScript's undefined.
// Strings are UTF-8, with lone UTF-16 surrogates in WTF-8 as model/js
// describes.
package expr
