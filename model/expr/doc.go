// Package expr owns the eager evaluation of Variability4TOSCA value
// expressions with the reference implementation's JavaScript semantics
// (variability.md §9, with the value lookup of variability inputs from §6 and
// the boolean rule of §8.6 left to the caller).
//
// It implements:
//   - the operator dispatch, operand handling and error messages of the
//     reference's evaluateValueExpression (§9.1, §9.2, §16 "Solver —
//     translation"), including the per-map-object result cache;
//   - JavaScript value semantics needed by those operators and by other
//     packages: strict equality, SameValueZero, relational comparison, string
//     and number conversion, UTF-16 lengths and JSON.stringify (§9.2, §9.3);
//   - the analytical and regression operators with stats-lite, lodash and
//     regression-js arithmetic, including the two rounding helpers R2 and RR
//     (§9.4, §9.5), on top of bit-exact ports of V8's Math.log, Math.exp and
//     Math.pow (fdlibm as V8 compiles it);
//   - date operands as dayjs and V8's Date parser read them (§9.6).
//
// testdata/ holds expectations produced by running the reference itself
// (testdata/oracle.js); the tests do not need Node.js.
//
// Values are *yamlsrc.Value documents; a nil *Value is JavaScript's undefined.
// Strings are UTF-8; a lone UTF-16 surrogate, which only arises from splitting
// strings into code units, is kept in its 3-byte generalised UTF-8 form so
// that lengths and JSON output stay those of JavaScript.
package expr
