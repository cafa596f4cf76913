package expr

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// Expected values in this file were checked against the reference (Node.js
// running Vintner 0.1.8) while writing them; testdata/node_oracle.json holds
// the bulk of the machine-generated cross-checks.

type evalCase struct {
	name string
	doc  string // YAML document with expr and optional expressions/inputs/assigned
	want string // encode() of the result
	err  string // expected error message instead
}

func runCases(t *testing.T, cases []evalCase) {
	t.Helper()
	berlin := location(t, "Europe/Berlin")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.doc
			if !strings.Contains(doc, "expr:") {
				doc = "expr: " + doc
			}
			e, r, _, err := evalDoc(t, doc, berlin)
			if tc.err != "" {
				require.Error(t, err, "evaluating %s", tc.doc)
				require.Equal(t, tc.err, err.Error(), "evaluating %s", tc.doc)
				testkit.Diagnostic(t, err, "error of %s is a diagnostic", tc.doc)
				return
			}
			require.NoError(t, err, "evaluating %s", tc.doc)
			require.Equal(t, tc.want, encode(e, r), "evaluating %s", tc.doc)
		})
	}
}

func TestLiteralsAndDispatch(t *testing.T) {
	runCases(t, []evalCase{
		{name: "string", doc: `"abc"`, want: `"abc"`},
		{name: "boolean", doc: `true`, want: `true`},
		{name: "number", doc: `1.5`, want: `num:1.5`},
		{name: "negative zero", doc: `-0.0`, want: `num:-0`},
		{name: "NaN", doc: `.nan`, want: `num:NaN`},
		{name: "list evaluates to itself", doc: `[1, {add: [1]}]`, want: `[1,{"add":[1]}]`},
		{name: "null", doc: `null`, err: `Cannot read properties of null (reading '_cached_result')`},
		{name: "undefined", doc: `{sub: []}`, err: `Received undefined condition`},
		{name: "date operand", doc: `2023-01-01`, err: `Unknown value expression ""2023-01-01T00:00:00.000Z""`},
		{name: "empty map", doc: `{}`, err: `Unknown value expression "{}"`},
		{name: "unknown map", doc: `{foo: {add: [1, 2]}, bar: [1, "x"]}`,
			err: "Unknown value expression \"{\n    \"foo\": {\n        \"add\": [\n            1,\n            2\n        ]\n    },\n    \"bar\": [\n        1,\n        \"x\"\n    ]\n}\""},
		{name: "null operator value is absent", doc: `{add: null, sub: [3, 1]}`, want: `num:2`},
		{name: "first operator in fixed order", doc: `{sub: [3, 1], add: [1, 1]}`, want: `num:2`},
		{name: "unknown keys are ignored", doc: `{foo: 1, mul: [2, 3]}`, want: `num:6`},
		{name: "weekday null is absent", doc: `{weekday: null}`, err: "Unknown value expression \"{\n    \"weekday\": null\n}\""},
		{name: "user cache property", doc: `{_cached_result: 5, add: [1]}`, want: `num:5`},
		{name: "null cache property", doc: `{_cached_result: null, add: [1]}`, want: `num:1`},
	})
}

func TestArithmetic(t *testing.T) {
	runCases(t, []evalCase{
		{name: "add", doc: `{add: [1, 2, 3.5]}`, want: `num:6.5`},
		{name: "add empty", doc: `{add: []}`, want: `num:0`},
		{name: "add doubles", doc: `{add: [0.1, 0.2]}`, want: `num:0.30000000000000004`},
		{name: "add negative zero", doc: `{add: [-0.0]}`, want: `num:0`},
		{name: "add infinities", doc: `{add: [.inf, -.inf]}`, want: `num:NaN`},
		{name: "add overflow", doc: `{add: [1e308, 1e308]}`, want: `num:Infinity`},
		{name: "add string", doc: `{add: [1, "2"]}`, err: `Element ""2"" is not a number`},
		{name: "add boolean", doc: `{add: [1, true]}`, err: `Element "true" is not a number`},
		{name: "add list", doc: `{add: [1, [2]]}`, err: `Element "[2]" is not a number`},
		{name: "add null", doc: `{add: [1, null]}`, err: `Cannot read properties of null (reading '_cached_result')`},
		{name: "add unknown", doc: `{add: [1, {foo: 1}]}`, err: "Unknown value expression \"{\n    \"foo\": 1\n}\""},
		{name: "add no list", doc: `{add: 5}`, err: `expression.add.reduce is not a function`},
		{name: "nested", doc: `{add: [{mul: [2, 3]}, {div: [10, 4]}, {sub: [1, 2]}]}`, want: `num:7.5`},
		{name: "sub", doc: `{sub: [10, 1, 2]}`, want: `num:7`},
		{name: "sub single", doc: `{sub: [5]}`, want: `num:5`},
		{name: "sub zeros", doc: `{sub: [-0.0, 0]}`, want: `num:-0`},
		{name: "sub string operand", doc: `{sub: "ab"}`, err: `Element ""a"" is not a number`},
		{name: "sub empty string", doc: `{sub: ""}`, err: `Received undefined condition`},
		{name: "sub map", doc: `{sub: {0: 5}}`, err: `expression.sub.slice is not a function`},
		{name: "sub number", doc: `{sub: 5}`, err: `Received undefined condition`},
		{name: "sub first not a number", doc: `{sub: ["a", 1]}`, err: `Element ""a"" is not a number`},
		{name: "mul", doc: `{mul: [2, 3, 4]}`, want: `num:24`},
		{name: "mul empty", doc: `{mul: []}`, want: `num:1`},
		{name: "mul sign of zero", doc: `{mul: [-1, 0]}`, want: `num:-0`},
		{name: "mul infinity by zero", doc: `{mul: [.inf, 0]}`, want: `num:NaN`},
		{name: "mul no list", doc: `{mul: 3}`, err: `expression.mul.reduce is not a function`},
		{name: "div", doc: `{div: [1, 3]}`, want: `num:0.3333333333333333`},
		{name: "div chain", doc: `{div: [100, 2, 5]}`, want: `num:10`},
		{name: "div by zero", doc: `{div: [1, 0]}`, want: `num:Infinity`},
		{name: "div negative by zero", doc: `{div: [-1, 0]}`, want: `num:-Infinity`},
		{name: "div by negative zero", doc: `{div: [1, -0.0]}`, want: `num:-Infinity`},
		{name: "div zero by zero", doc: `{div: [0, 0]}`, want: `num:NaN`},
		{name: "div map", doc: `{div: {0: 1}}`, err: `expression.div.slice is not a function`},
		{name: "mod", doc: `{mod: [7, 3]}`, want: `num:1`},
		{name: "mod keeps dividend sign", doc: `{mod: [-7, 3]}`, want: `num:-1`},
		{name: "mod negative divisor", doc: `{mod: [7, -3]}`, want: `num:1`},
		{name: "mod both negative", doc: `{mod: [-7, -3]}`, want: `num:-1`},
		{name: "mod fraction", doc: `{mod: [5.5, 2]}`, want: `num:1.5`},
		{name: "mod by zero", doc: `{mod: [1, 0]}`, want: `num:NaN`},
		{name: "mod by infinity", doc: `{mod: [5, .inf]}`, want: `num:5`},
		{name: "mod negative zero", doc: `{mod: [-0.0, 5]}`, want: `num:-0`},
		{name: "mod of a map", doc: `{mod: {0: 5, 1: 3}}`, want: `num:2`},
		{name: "mod missing divisor", doc: `{mod: [1]}`, err: `Received undefined condition`},
		{name: "mod string", doc: `{mod: [1, "2"]}`, err: `Element ""2"" is not a number`},
	})
}

const inputsDoc = `
inputs:
  a: {default: 5}
  b: {default_expression: {add: [1, 2]}}
  c: {}
  d: {default_expression: {token: [a, ',', 3]}}
  e: {default: {add: [2, 2]}}
  g: {default: [1, 2]}
  h: {default_expression: {variability_input: a}}
  n: null
  s: str
expressions:
  five: 5
  sum: {add: [1, 2]}
  ref: {value_expression: sum}
  bad: {foo: 1}
  inp: {variability_input: a}
`

func TestLookups(t *testing.T) {
	runCases(t, []evalCase{
		{name: "default", doc: "expr: {variability_input: a}" + inputsDoc, want: `num:5`},
		{name: "assigned", doc: "expr: {variability_input: a}\nassigned: {a: 7}" + inputsDoc, want: `num:7`},
		{name: "assigned null falls back", doc: "expr: {variability_input: a}\nassigned: {a: null}" + inputsDoc, want: `num:5`},
		{name: "assigned expression", doc: "expr: {variability_input: a}\nassigned: {a: {mul: [3, 3]}}" + inputsDoc, want: `num:9`},
		{name: "default expression", doc: "expr: {variability_input: b}" + inputsDoc, want: `num:3`},
		{name: "default is evaluated", doc: "expr: {variability_input: e}" + inputsDoc, want: `num:4`},
		{name: "default list", doc: "expr: {variability_input: g}" + inputsDoc, want: `[1,2]`},
		{name: "chained default expression", doc: "expr: {variability_input: h}" + inputsDoc, want: `num:5`},
		{name: "no value", doc: "expr: {variability_input: c}" + inputsDoc,
			err: `Variability input "c" has no value nor default (expression) assigned`},
		{name: "undefined default expression", doc: "expr: {variability_input: d}" + inputsDoc,
			err: `Did not find variability input "d"`},
		{name: "null declaration", doc: "expr: {variability_input: n}" + inputsDoc, err: `Variability input "n" is not defined`},
		{name: "undeclared", doc: "expr: {variability_input: zz}" + inputsDoc, err: `Variability input "zz" is not defined`},
		{name: "undeclared but assigned", doc: "expr: {variability_input: zz}\nassigned: {zz: 1}" + inputsDoc,
			err: `Variability input "zz" is not defined`},
		{name: "no declarations", doc: "expr: {variability_input: a}", err: `Variability input "a" is not defined`},
		{name: "inherited method", doc: "expr: {variability_input: constructor}" + inputsDoc, err: `Received undefined condition`},
		{name: "inherited __proto__", doc: "expr: {variability_input: __proto__}" + inputsDoc, err: `Unknown value expression "{}"`},
		{name: "name not a string", doc: "expr: {variability_input: 5}" + inputsDoc, err: `Element "5" is not a string`},
		{name: "name a list", doc: "expr: {variability_input: [a]}" + inputsDoc, err: `Element "["a"]" is not a string`},
		{name: "declarations as list", doc: "expr: {variability_input: \"0\"}\ninputs: [{default: 3}]", want: `num:3`},
		{name: "value expression", doc: "expr: {value_expression: sum}" + inputsDoc, want: `num:3`},
		{name: "value expression literal", doc: "expr: {value_expression: five}" + inputsDoc, want: `num:5`},
		{name: "value expression reference", doc: "expr: {value_expression: ref}" + inputsDoc, want: `num:3`},
		{name: "value expression input", doc: "expr: {value_expression: inp}" + inputsDoc, want: `num:5`},
		{name: "value expression unknown", doc: "expr: {value_expression: bad}" + inputsDoc,
			err: "Unknown value expression \"{\n    \"foo\": 1\n}\""},
		{name: "value expression missing", doc: "expr: {value_expression: zz}" + inputsDoc, err: `Did not find value expression "zz"`},
		{name: "value expression inherited", doc: "expr: {value_expression: toString}", err: `Received undefined condition`},
		{name: "value expression name", doc: "expr: {value_expression: 5}", err: `Element "5" is not a string`},
	})
}

func TestInputValueRemembers(t *testing.T) {
	doc, err := yamlsrc.Parse([]byte(inputsDoc), "")
	require.NoError(t, err)
	assigned := yamlsrc.NewMap()
	e := New(Env{Inputs: doc.Get("inputs"), Expressions: doc.Get("expressions"), Assigned: assigned})

	v, err := e.InputValue("e")
	require.NoError(t, err)
	require.Equal(t, 4.0, v.Num(), "value of e")
	// The default itself (an expression) is remembered, and it now carries
	// the reference's cache property.
	j, err := e.JSON(assigned)
	require.NoError(t, err)
	require.Equal(t, `{"e":{"add":[2,2],"_cached_result":4}}`, j)

	v, err = e.InputValue("b")
	require.NoError(t, err)
	require.Equal(t, 3.0, v.Num(), "value of b")
	require.Equal(t, 3.0, assigned.Get("b").Num(), "remembered default_expression result")

	_, err = e.InputValue("c")
	require.EqualError(t, err, `Variability input "c" has no value nor default (expression) assigned`)

	// A later change of the assignment is seen; remembered values win over
	// defaults.
	assigned.Map().Set("a", yamlsrc.NewNumber(11))
	v, err = e.InputValue("h")
	require.NoError(t, err)
	require.Equal(t, 11.0, v.Num(), "value of h")

	r, ok := e.Cached(doc.Get("inputs").Get("e").Get("default"))
	require.True(t, ok)
	require.Equal(t, 4.0, r.Num())
}

func TestStrings(t *testing.T) {
	runCases(t, []evalCase{
		{name: "concat conversions", doc: `{concat: ["a", 1, true, 1.5, 0.1, 1e21, 1.5e-7, -0.0, [1, [2, 3]], {add: [1, 2]}]}`,
			want: `"a1true1.50.11e+211.5e-701,2,33"`},
		{name: "concat visible example", doc: `{concat: [1.5, true, 0.1, 1e21, [1, 2]]}`, want: `"1.5true0.11e+211,2"`},
		{name: "concat specials", doc: `{concat: [[null, 1], [[]], .nan, .inf, -.inf]}`, want: `",1NaNInfinity-Infinity"`},
		{name: "concat map in list", doc: `{concat: [[{a: 1}]]}`, want: `"[object Object]"`},
		{name: "concat numbers", doc: `{concat: [123456789012345680000, 0.000001, 1e-7, 100, 1e100, 5e-324]}`,
			want: `"1234567890123456800000.0000011e-71001e+1005e-324"`},
		{name: "concat undefined item", doc: `{concat: [{token: [a, ",", 5]}, x]}`, want: `"x"`},
		{name: "concat surrogate halves", doc: `{concat: ["😀", {token: ["😀", "", 0]}, {token: ["😀", "", 1]}]}`, want: `"😀😀"`},
		{name: "concat empty", doc: `{concat: []}`, want: `""`},
		{name: "concat no list", doc: `{concat: "ab"}`, err: `expression.concat.map is not a function`},
		{name: "join", doc: `{join: [[1, 2, 3], "-"]}`, want: `"1-2-3"`},
		{name: "join default delimiter", doc: `{join: [[1, 2, 3]]}`, want: `"1,2,3"`},
		{name: "join null delimiter", doc: `{join: [[1, 2], null]}`, want: `"1null2"`},
		{name: "join number delimiter", doc: `{join: [[1, 2], 5]}`, want: `"152"`},
		{name: "join list delimiter", doc: `{join: [[1, 2], [a, b]]}`, want: `"1a,b2"`},
		{name: "join delimiter not evaluated", doc: `{join: [[1, 2], {add: [1]}]}`, want: `"1[object Object]2"`},
		{name: "join items evaluated", doc: `{join: [[{add: [1, 1]}, x], ""]}`, want: `"2x"`},
		{name: "join null item", doc: `{join: [[1, null], "-"]}`, err: `Cannot read properties of null (reading '_cached_result')`},
		{name: "join no list", doc: `{join: [5]}`, err: `expression.join[0].map is not a function`},
		{name: "join missing list", doc: `{join: []}`, err: `Cannot read properties of undefined (reading 'map')`},
		{name: "join null list", doc: `{join: [null, 1]}`, err: `Cannot read properties of null (reading 'map')`},
		{name: "token", doc: `{token: ["a,b,c", ",", 1]}`, want: `"b"`},
		{name: "token out of range", doc: `{token: ["a,b,c", ",", 3]}`, want: `undefined`},
		{name: "token negative", doc: `{token: ["a,b,c", ",", -1]}`, want: `undefined`},
		{name: "token fraction", doc: `{token: ["a,b,c", ",", 1.5]}`, want: `undefined`},
		{name: "token string index", doc: `{token: ["a,b,c", ",", "1"]}`, want: `"b"`},
		{name: "token non-canonical index", doc: `{token: ["a,b,c", ",", "01"]}`, want: `undefined`},
		{name: "token length", doc: `{token: ["a,b,c", ",", length]}`, want: `num:3`},
		{name: "token list index", doc: `{token: ["a,b,c", ",", [2]]}`, want: `"c"`},
		{name: "token negative zero index", doc: `{token: ["a,b", ",", -0.0]}`, want: `"a"`},
		{name: "token missing separator", doc: `{token: ["a,b,c"]}`, want: `undefined`},
		{name: "token missing separator index 0", doc: `{token: ["a,b,c", null, 0]}`, want: `"a,b,c"`},
		{name: "token null separator", doc: `{token: ["anullb", null, 1]}`, want: `"b"`},
		{name: "token number separator", doc: `{token: ["a1b", 1, 1]}`, want: `"b"`},
		{name: "token empty separator", doc: `{token: ["abc", "", 1]}`, want: `"b"`},
		{name: "token empty string", doc: `{token: ["", "", 0]}`, want: `undefined`},
		{name: "token empty string split", doc: `{token: ["", ",", 0]}`, want: `""`},
		{name: "token emoji separator", doc: `{token: ["a😀b😀c", "😀", 2]}`, want: `"c"`},
		{name: "token code units", doc: `{token: ["a😀b", "", 2]}`, want: `"\ude00"`},
		{name: "token code unit count", doc: `{token: ["a😀b", "", length]}`, want: `num:4`},
		{name: "token not a string", doc: `{token: [5, ",", 0]}`, err: `Element "5" is not a string`},
		{name: "token missing", doc: `{token: []}`, err: `Received undefined condition`},
		{name: "token evaluated subject", doc: `{token: [{concat: [a, ",", b]}, ",", 1]}`, want: `"b"`},
	})
}

func TestComparisons(t *testing.T) {
	runCases(t, []evalCase{
		{name: "equal", doc: `{equal: [1, 1.0, 1]}`, want: `true`},
		{name: "equal types", doc: `{equal: [1, "1"]}`, want: `false`},
		{name: "equal zeros", doc: `{equal: [0, -0.0]}`, want: `true`},
		{name: "equal NaN", doc: `{equal: [.nan, .nan]}`, want: `false`},
		{name: "equal single NaN", doc: `{equal: [{div: [0, 0]}]}`, want: `false`},
		{name: "equal lists by identity", doc: `{equal: [[1], [1]]}`, want: `false`},
		{name: "equal alias", doc: `{equal: [&l [1], *l]}`, want: `true`},
		{name: "equal undefined", doc: `{equal: [{token: [a, ",", 3]}]}`, want: `true`},
		{name: "equal short-circuits", doc: `{equal: [1, 2, {foo: 1}]}`, want: `false`},
		{name: "equal evaluates all", doc: `{equal: [1, 1, {foo: 1}]}`, err: "Unknown value expression \"{\n    \"foo\": 1\n}\""},
		{name: "equal empty", doc: `{equal: []}`, err: `Received undefined condition`},
		{name: "equal dates", doc: `{equal: [2023-01-01, 2023-01-01]}`, err: `Unknown value expression ""2023-01-01T00:00:00.000Z""`},
		{name: "equal no list", doc: `{equal: "ab"}`, err: `expression.equal.every is not a function`},
		{name: "equal same input list", doc: "expr: {equal: [{variability_input: g}, {variability_input: g}]}" + inputsDoc, want: `true`},
		{name: "greater", doc: `{greater: [2, 1]}`, want: `true`},
		{name: "greater strings", doc: `{greater: ["10", "9"]}`, want: `false`},
		{name: "greater string and number", doc: `{greater: ["10", 9]}`, want: `true`},
		{name: "greater lists as strings", doc: `{greater: [[10], [9]]}`, want: `false`},
		{name: "greater NaN", doc: `{greater_or_equal: [.nan, 1]}`, want: `false`},
		{name: "greater undefined", doc: `{less_or_equal: [{token: [a, ",", 3]}, 1]}`, want: `false`},
		{name: "greater or equal", doc: `{greater_or_equal: [1, 1]}`, want: `true`},
		{name: "less", doc: `{less: ["a", "b"]}`, want: `true`},
		{name: "less boolean", doc: `{less: [true, 2]}`, want: `true`},
		{name: "less empty string", doc: `{less_or_equal: ["", 0]}`, want: `true`},
		{name: "less padded string", doc: `{less_or_equal: [" 12 ", 12]}`, want: `true`},
		{name: "less hex string", doc: `{less: ["0x10", 17]}`, want: `true`},
		{name: "less UTF-16 order", doc: `{less: ["\U0001F600", "\uff21"]}`, want: `true`},
		{name: "less zeros", doc: `{less: [-0.0, 0]}`, want: `false`},
		{name: "less_or_equal", doc: `{less_or_equal: [2, 1]}`, want: `false`},
		{name: "greater missing", doc: `{greater: [1]}`, err: `Received undefined condition`},
		{name: "in_range", doc: `{in_range: [5, [1, 10]]}`, want: `true`},
		{name: "in_range bounds inclusive", doc: `{in_range: [10, [1, 10]]}`, want: `true`},
		{name: "in_range outside", doc: `{in_range: [11, [1, 10]]}`, want: `false`},
		{name: "in_range reversed", doc: `{in_range: [5, [10, 1]]}`, want: `false`},
		{name: "in_range strings", doc: `{in_range: ["5", ["1", "10"]]}`, want: `false`},
		{name: "in_range mixed", doc: `{in_range: ["5", [1, 10]]}`, want: `true`},
		{name: "in_range null bound", doc: `{in_range: [5, [null, 10]]}`, want: `true`},
		{name: "in_range missing bound", doc: `{in_range: [5, [1]]}`, want: `false`},
		{name: "in_range bounds not evaluated", doc: `{in_range: [5, [{add: [1]}, 10]]}`, want: `false`},
		{name: "in_range date bounds", doc: `{in_range: [1672531200001, [2023-01-01, 2024-01-01]]}`, want: `true`},
		{name: "in_range string bounds", doc: `{in_range: [5, "19"]}`, want: `true`},
		{name: "in_range missing bounds", doc: `{in_range: [5]}`, err: `Cannot read properties of undefined (reading '0')`},
		{name: "in_range null bounds", doc: `{in_range: [5, null]}`, err: `Cannot read properties of null (reading '0')`},
		{name: "valid_values", doc: `{valid_values: [1, [1, 2]]}`, want: `true`},
		{name: "valid_values miss", doc: `{valid_values: [3, [1, 2]]}`, want: `false`},
		{name: "valid_values NaN", doc: `{valid_values: [.nan, [.nan]]}`, want: `true`},
		{name: "valid_values zeros", doc: `{valid_values: [0, [-0.0]]}`, want: `true`},
		{name: "valid_values types", doc: `{valid_values: ["1", [1]]}`, want: `false`},
		{name: "valid_values evaluated", doc: `{valid_values: [1, [{add: [1]}]]}`, want: `true`},
		{name: "valid_values evaluates all", doc: `{valid_values: [1, [1, {foo: 1}]]}`, err: "Unknown value expression \"{\n    \"foo\": 1\n}\""},
		{name: "valid_values missing", doc: `{valid_values: [1]}`, err: `Cannot read properties of undefined (reading 'map')`},
		{name: "valid_values null", doc: `{valid_values: [1, null]}`, err: `Cannot read properties of null (reading 'map')`},
		{name: "valid_values no list", doc: `{valid_values: [1, "1"]}`, err: `expression.valid_values[1].map is not a function`},
		{name: "length", doc: `{length: ["abc", 3]}`, want: `true`},
		{name: "length emoji", doc: `{length: ["😀", 2]}`, want: `true`},
		{name: "length accent", doc: `{length: ["é", 1]}`, want: `true`},
		{name: "min_length", doc: `{min_length: ["abc", 4]}`, want: `false`},
		{name: "max_length", doc: `{max_length: ["😀", 1]}`, want: `false`},
		{name: "max_length infinity", doc: `{max_length: ["a", .inf]}`, want: `true`},
		{name: "length NaN", doc: `{length: ["abc", .nan]}`, want: `false`},
		{name: "length not a string", doc: `{length: [5, 1]}`, err: `Element "5" is not a string`},
		{name: "length list", doc: `{min_length: [["a"], 1]}`, err: `Element "["a"]" is not a string`},
		{name: "length string length", doc: `{length: ["abc", "3"]}`, err: `Element ""3"" is not a number`},
		{name: "length null length", doc: `{length: ["abc", null]}`, err: `Cannot read properties of null (reading '_cached_result')`},
		{name: "length evaluated", doc: `{length: [{concat: [a, b]}, {add: [1, 1]}]}`, want: `true`},
	})
}

func TestAnalytical(t *testing.T) {
	runCases(t, []evalCase{
		// Visible expectations (variability.md §9.4).
		{name: "sum", doc: `{sum: [1, 2, 3, 4]}`, want: `num:10`},
		{name: "min", doc: `{min: [1, 2, 3, 4]}`, want: `num:1`},
		{name: "max", doc: `{max: [1, 2, 3, 4]}`, want: `num:4`},
		{name: "median odd", doc: `{median: [1, 2, 3, 4, 10]}`, want: `num:3`},
		{name: "variance", doc: `{variance: [1, 2, 3, 4]}`, want: `num:1.25`},
		{name: "standard deviation", doc: `{standard_deviation: [1, 2, 3, 4]}`, want: `num:1.12`},
		// Rounding with R2.
		{name: "sum exact tie", doc: `{sum: [0.125]}`, want: `num:0.13`},
		{name: "sum negative tie", doc: `{sum: [-0.125]}`, want: `num:-0.13`},
		{name: "sum below tie", doc: `{sum: [1.005]}`, want: `num:1`},
		{name: "sum 2.675", doc: `{sum: [2.675]}`, want: `num:2.67`},
		{name: "sum doubles", doc: `{sum: [0.1, 0.2]}`, want: `num:0.3`},
		{name: "sum negative zero", doc: `{sum: [-0.0]}`, want: `num:0`},
		{name: "mean negative to zero", doc: `{mean: [-0.001]}`, want: `num:-0`},
		{name: "sum empty", doc: `{sum: []}`, want: `num:0`},
		{name: "sum huge", doc: `{sum: [1e21, 1]}`, want: `num:1e+21`},
		{name: "sum drops infinity", doc: `{sum: [1, .inf]}`, want: `num:1`},
		{name: "sum drops NaN", doc: `{sum: [1, .nan, 3]}`, want: `num:4`},
		{name: "count", doc: `{count: [1, .nan, 3]}`, want: `num:3`},
		{name: "count empty", doc: `{count: []}`, want: `num:0`},
		{name: "min empty", doc: `{min: []}`, err: `Minimum of "[]" does not exist`},
		{name: "max empty", doc: `{max: []}`, err: `Maximum of "[]" does not exist`},
		{name: "min NaN only", doc: `{min: [.nan]}`, err: `Minimum of "[null]" does not exist`},
		{name: "min skips NaN", doc: `{min: [.nan, 3, 1]}`, want: `num:1`},
		{name: "min infinity", doc: `{min: [-.inf, 1]}`, want: `num:-Infinity`},
		{name: "min zeros first wins", doc: `{min: [0, -0.0]}`, want: `num:0`},
		{name: "min negative zero first", doc: `{min: [-0.0, 0]}`, want: `num:-0`},
		{name: "median even", doc: `{median: [3, 1, 2, 4]}`, want: `num:2.5`},
		{name: "median not rounded", doc: `{median: [1.115, 2.225]}`, want: `num:1.67`},
		{name: "median empty", doc: `{median: []}`, want: `num:NaN`},
		{name: "mean", doc: `{mean: [123.456, 7.891, 0.005]}`, want: `num:43.78`},
		{name: "mean empty", doc: `{mean: []}`, want: `num:NaN`},
		{name: "variance overflow dropped", doc: `{variance: [1e200, -1e200]}`, want: `num:NaN`},
		{name: "variance single", doc: `{variance: [5]}`, want: `num:0`},
		{name: "standard deviation", doc: `{standard_deviation: [1.45, 1.55]}`, want: `num:0.05`},
		{name: "not a list", doc: `{sum: 5}`, err: `Element "5" is not an array`},
		{name: "string", doc: `{mean: "abc"}`, err: `Element ""abc"" is not an array`},
		{name: "map", doc: `{max: {a: 1}}`, err: `Element "{"a":1}" is not an array`},
		{name: "string item", doc: `{sum: [1, "2"]}`, err: `Element ""2"" is not a number`},
		{name: "null item", doc: `{count: [1, null]}`, err: `Element "null" is not a number`},
		{name: "items not evaluated", doc: `{sum: [1, {add: [1]}]}`, err: `Element "{"add":[1]}" is not a number`},
		{name: "date item", doc: `{median: [1, 2023-01-01]}`, err: `Element ""2023-01-01T00:00:00.000Z"" is not a number`},
	})
}

func TestRegressions(t *testing.T) {
	runCases(t, []evalCase{
		// Visible expectations (variability.md §9.5).
		{name: "linear", doc: `{linear_regression: [[[0, 0], [1, 2], [2, 4]], 100]}`, want: `num:200`},
		{name: "polynomial", doc: `{polynomial_regression: [[[0, 0], [1, 1], [2, 4]], 2, 5]}`, want: `num:25`},
		{name: "logarithmic", doc: `{logarithmic_regression: [[[0.01, -4.61], [0.5, -0.7], [1, 0], [2, 0.69], [3, 1]], 4]}`, want: `num:1.34`},
		{name: "exponential", doc: `{exponential_regression: [[[0, 1], [1, 2.72], [2, 7.39], [3, 20.09]], 4]}`, want: `num:54.6`},
		// More cases checked against regression-js.
		{name: "linear noisy", doc: `{linear_regression: [[[1, 1.337], [2, 2.4], [3, 3.9]], 7.5]}`, want: `num:9.59`},
		{name: "linear vertical", doc: `{linear_regression: [[[1, 2], [1, 3]], 6]}`, want: `num:2.5`},
		{name: "linear single point", doc: `{linear_regression: [[[1, 2]], 6]}`, want: `num:2`},
		{name: "linear empty", doc: `{linear_regression: [[], 5]}`, want: `num:NaN`},
		{name: "linear short pair", doc: `{linear_regression: [[[1], [2, 3]], 5]}`, want: `num:NaN`},
		{name: "linear long pair", doc: `{linear_regression: [[[1, 2, 9], [2, 3]], 5]}`, want: `num:6`},
		{name: "polynomial cubic", doc: `{polynomial_regression: [[[0, 1], [1, 3], [2, 7], [3, 13], [4, 21]], 3, 2.5]}`, want: `num:9.75`},
		{name: "polynomial noisy", doc: `{polynomial_regression: [[[0.1, 0.5], [0.7, 1.9], [1.3, 2.2], [2.2, 5.3], [3.1, 8.8]], 2, 1.7]}`, want: `num:3.63`},
		{name: "polynomial order 0", doc: `{polynomial_regression: [[[0, 0], [1, 1], [2, 4]], 0, 5]}`, want: `num:1.67`},
		{name: "polynomial fractional order", doc: `{polynomial_regression: [[[0, 0], [1, 1], [2, 4]], 1.5, 5]}`, want: `num:25`},
		{name: "polynomial order -1 keeps order+1", doc: `{polynomial_regression: [[[0, 0], [1, 1], [2, 4]], -1, 5]}`, want: `num:0`},
		{name: "polynomial order -3", doc: `{polynomial_regression: [[[0, 0], [1, 1], [2, 4]], -3, 5]}`, want: `num:-2`},
		{name: "polynomial NaN order", doc: `{polynomial_regression: [[[1, 2]], .nan, 5]}`, want: `num:NaN`},
		{name: "polynomial empty pair", doc: `{polynomial_regression: [[[1, 2], []], 1, 5]}`, want: `num:NaN`},
		{name: "logarithmic small", doc: `{logarithmic_regression: [[[1, 2], [2, 3], [4, 5]], 8]}`, want: `num:6.33`},
		{name: "logarithmic at zero", doc: `{logarithmic_regression: [[[1, 2], [2, 3]], 0]}`, want: `num:-Infinity`},
		{name: "logarithmic zero x", doc: `{logarithmic_regression: [[[0, 1], [1, 2]], 3]}`, want: `num:NaN`},
		{name: "exponential doubling", doc: `{exponential_regression: [[[0, 2], [1, 4], [2, 8]], 3]}`, want: `num:15.85`},
		{name: "exponential fit", doc: `{exponential_regression: [[[0.5, 1.2], [1.5, 3.1], [2.5, 8.4], [3.5, 22.9]], 4.25]}`, want: `num:47.7`},
		{name: "not a list", doc: `{linear_regression: 5}`, err: `Element "5" is not an array`},
		{name: "data not a list", doc: `{linear_regression: [5, 5]}`, err: `Element "5" is not an array`},
		{name: "data missing", doc: `{linear_regression: []}`, err: `Element "undefined" is not an array`},
		{name: "pair not a list", doc: `{linear_regression: [[1, 2], 5]}`, err: `Element "1" is not an array`},
		{name: "pair with string", doc: `{linear_regression: [[[1, "2"]], 5]}`, err: `Element ""2"" is not a number`},
		{name: "pair with null", doc: `{linear_regression: [[[1, null]], 5]}`, err: `Element "null" is not a number`},
		{name: "pair not evaluated", doc: `{linear_regression: [[[1, 2], [2, {add: [1]}]], 3]}`, err: `Element "{"add":[1]}" is not a number`},
		{name: "x0 string", doc: `{linear_regression: [[[1, 2]], "5"]}`, err: `Element ""5"" is not a number`},
		{name: "x0 missing", doc: `{linear_regression: [[[1, 2]]]}`, err: `Element "undefined" is not a number`},
		{name: "order string", doc: `{polynomial_regression: [[[1, 2]], "2", 5]}`, err: `Element ""2"" is not a number`},
		{name: "polynomial x0 missing", doc: `{polynomial_regression: [[[1, 2]], 2]}`, err: `Element "undefined" is not a number`},
		// The reference exhausts its memory here; we refuse.
		{name: "order too large", doc: `{polynomial_regression: [[[0, 0], [1, 1]], 1000, 5]}`, err: `polynomial regression of order 1000 is not supported`},
		{name: "order infinite", doc: `{polynomial_regression: [[[0, 0], [1, 1]], .inf, 5]}`, err: `polynomial regression of order Infinity is not supported`},
	})
}

func TestDates(t *testing.T) {
	runCases(t, []evalCase{
		{name: "same", doc: `{same: [2023-01-01, 2023-01-01]}`, want: `true`},
		{name: "same string", doc: `{same: [2023-01-01T00:00:00Z, "2023-01-01T00:00:00.000Z"]}`, want: `true`},
		{name: "zone-less string is local", doc: `{same: ["2023-01-01", 2023-01-01]}`, want: `false`},
		{name: "local midnight", doc: `{same: ["2023-01-01", 2022-12-31T23:00:00Z]}`, want: `true`},
		{name: "before", doc: `{before: [2023-01-01, 2023-01-02]}`, want: `true`},
		{name: "before same", doc: `{before: [2023-01-01, 2023-01-01]}`, want: `false`},
		{name: "before_or_same", doc: `{before_or_same: [2023-01-01, 2023-01-01]}`, want: `true`},
		{name: "after", doc: `{after: [2023-01-02, 2023-01-01]}`, want: `true`},
		{name: "after_or_same", doc: `{after_or_same: [2023-01-01, 2023-01-02]}`, want: `false`},
		{name: "numbers are milliseconds", doc: `{same: [1672531200000, 2023-01-01]}`, want: `true`},
		{name: "fractional milliseconds truncate", doc: `{same: [1.9, 1]}`, want: `true`},
		{name: "booleans", doc: `{same: [true, 1]}`, want: `true`},
		{name: "ISO with offset", doc: `{same: ["2023-01-01T10:00:00+01:00", 2023-01-01T09:00:00Z]}`, want: `true`},
		{name: "lower-case z", doc: `{same: ["2023-01-01T10:00:00z", 2023-01-01T10:00:00Z]}`, want: `true`},
		{name: "dayjs milliseconds", doc: `{same: ["2023-01-01T10:00:00.5", "2023-01-01T09:00:00.005Z"]}`, want: `true`},
		{name: "legacy form", doc: `{same: ["Jan 1 2023 10:00 GMT+2", 2023-01-01T08:00:00Z]}`, want: `true`},
		{name: "gap uses former offset", doc: `{same: ["2023-03-26T02:30:00", 2023-03-26T01:30:00Z]}`, want: `true`},
		{name: "overlap uses earlier instant", doc: `{same: ["2023-10-29T02:30:00", 2023-10-29T00:30:00Z]}`, want: `true`},
		{name: "list operand", doc: `{same: [["2023-01-01T00:00:00Z"], 2023-01-01]}`, want: `true`},
		{name: "within", doc: `{within: [2023-06-01, [2023-01-01, 2023-12-31]]}`, want: `true`},
		{name: "within exclusive", doc: `{within: [2023-01-01, [2023-01-01, 2023-12-31]]}`, want: `false`},
		{name: "within reversed bounds", doc: `{within: [2023-06-01, [2023-12-31, 2023-01-01]]}`, want: `true`},
		{name: "within outside", doc: `{within: [2024-06-01, [2023-01-01, 2023-12-31]]}`, want: `false`},
		{name: "invalid string", doc: `{before: ["abc", 1]}`, err: `Element "Invalid Date" is not a date`},
		{name: "null operand", doc: `{after: [null, 1]}`, err: `Element "Invalid Date" is not a date`},
		{name: "NaN operand", doc: `{after: [.nan, 1]}`, err: `Element "Invalid Date" is not a date`},
		{name: "out of range", doc: `{after: [1e20, 1]}`, err: `Element "Invalid Date" is not a date`},
		{name: "map operand", doc: `{after: [{a: 1}, 1]}`, err: `Element "Invalid Date" is not a date`},
		{name: "dayjs-looking map", doc: `{after: [{$isDayjsObject: true}, 1]}`, err: `t.clone is not a function`},
		{name: "not a list", doc: `{same: 5}`, err: `Element "5" is not an array`},
		{name: "map argument", doc: `{before: {0: 1, 1: 2}}`, err: `Element "{"0":1,"1":2}" is not an array`},
		{name: "within bounds missing", doc: `{within: [2023-06-01]}`, err: `Element "undefined" is not an array`},
		{name: "within bounds not a list", doc: `{within: [2023-06-01, 5]}`, err: `Element "5" is not an array`},
		{name: "within null bound", doc: `{within: [1, [null, 2]]}`, err: `Element "Invalid Date" is not a date`},
	})
}

func TestNowAndWeekday(t *testing.T) {
	berlin := location(t, "Europe/Berlin")
	// 2024-02-29 23:30 UTC is already Friday in Berlin.
	now := time.Date(2024, 2, 29, 23, 30, 0, 0, time.UTC)
	cases := []struct {
		loc  *time.Location
		expr string
		want string
	}{
		{berlin, `{weekday: []}`, `"friday"`},
		{time.UTC, `{weekday: []}`, `"thursday"`},
		{time.UTC, `{weekday: 0}`, `"thursday"`},
		{berlin, `{before: [2024-01-01]}`, `true`},
		{berlin, `{after: [2024-01-01]}`, `false`},
		{berlin, `{same: []}`, `true`},
		{berlin, `{before_or_same: [2024-02-29T23:30:00Z]}`, `true`},
		{berlin, `{within: [2024-02-29T23:00:00Z, [2024-02-29]]}`, `true`},
		{berlin, `{same: ["2024-03-01T00:30"]}`, `true`},
		{time.UTC, `{same: ["2024-02-29T23:30"]}`, `true`},
	}
	for _, tc := range cases {
		doc, err := yamlsrc.Parse([]byte(tc.expr), "")
		require.NoError(t, err)
		e := New(Env{Now: now, Location: tc.loc})
		v, err := e.Eval(doc)
		require.NoError(t, err, "%s in %s", tc.expr, tc.loc)
		require.Equal(t, tc.want, encode(e, v), "%s in %s", tc.expr, tc.loc)
	}
}

func TestDateStrings(t *testing.T) {
	doc, err := yamlsrc.Parse([]byte(`{concat: [[2023-01-01T10:20:30Z], "|", [1999-02-03]]}`), "")
	require.NoError(t, err)
	e := New(Env{Location: time.UTC})
	v, err := e.Eval(doc)
	require.NoError(t, err)
	require.Equal(t, "Sun Jan 01 2023 10:20:30 GMT+0000 (Coordinated Universal Time)|Wed Feb 03 1999 00:00:00 GMT+0000 (Coordinated Universal Time)", v.Str())

}

func TestCache(t *testing.T) {
	doc, err := yamlsrc.Parse([]byte(`
shared: &s {add: [1, 2]}
list: &l {variability_input: g}
expr: {add: [*s, *s, {equal: [*l, *l]}]}
inputs: {g: {default: [1, 2]}}
`), "")
	require.NoError(t, err)
	e := New(Env{Inputs: doc.Get("inputs")})
	_, err = e.Eval(doc.Get("expr"))
	require.EqualError(t, err, `Element "true" is not a number`)

	// Shared maps are evaluated once and keep their result.
	r, ok := e.Cached(doc.Get("shared"))
	require.True(t, ok)
	require.Equal(t, 3.0, r.Num())
	j, err := e.JSON(doc.Get("shared"))
	require.NoError(t, err)
	require.Equal(t, `{"add":[1,2],"_cached_result":3}`, j)
	p, err := e.Pretty(doc.Get("list"))
	require.NoError(t, err)
	require.Equal(t, "{\n    \"variability_input\": \"g\",\n    \"_cached_result\": [\n        1,\n        2\n    ]\n}", p)
	// The failing expression was not cached; plain JSON does not know caches.
	_, ok = e.Cached(doc.Get("expr"))
	require.False(t, ok)
	j, err = JSON(doc.Get("shared"))
	require.NoError(t, err)
	require.Equal(t, `{"add":[1,2]}`, j)

	// Undefined results are not cached.
	undef, err := yamlsrc.Parse([]byte(`{token: [a, ",", 3]}`), "")
	require.NoError(t, err)
	v, err := e.Eval(undef)
	require.NoError(t, err)
	require.Nil(t, v)
	_, ok = e.Cached(undef)
	require.False(t, ok)

	// A cached result replaces a user-written cache property in place.
	user, err := yamlsrc.Parse([]byte(`{_cached_result: null, mul: [2, 2], x: 1}`), "")
	require.NoError(t, err)
	_, err = e.Eval(user)
	require.NoError(t, err)
	j, err = e.JSON(user)
	require.NoError(t, err)
	require.Equal(t, `{"_cached_result":4,"mul":[2,2],"x":1}`, j)
}

// Cycles cannot come from yamlsrc (it rejects self-containing aliases) but
// documents can be built in code; the reference's answers for the YAML
// equivalents are in the comments.
func TestCycles(t *testing.T) {
	// a = [1, a]
	a := yamlsrc.NewList(yamlsrc.NewNumber(1), nil)
	a.List()[1] = a
	// m = {foo: m}
	m := yamlsrc.NewMap()
	m.Map().Set("foo", m)
	// n = {foo: [1, {b: n}]} built as in `{foo: &x [1, {b: *x}]}`
	x := yamlsrc.NewList(yamlsrc.NewNumber(1), yamlsrc.NewMap())
	x.List()[1].Map().Set("b", x)
	// r = {add: [r]}
	r := yamlsrc.NewMap()
	r.Map().Set("add", yamlsrc.NewList(r))

	cases := []struct {
		name string
		expr *yamlsrc.Value
		want string
		err  string
	}{
		{"sum", yamlsrc.MapOf("sum", a), "", "Converting circular structure to JSON\n    --> starting at object with constructor 'Array'\n    --- index 1 closes the circle"},
		{"unknown", m, "", "Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    --- property 'foo' closes the circle"},
		{"unknown nested", yamlsrc.MapOf("foo", x), "", "Converting circular structure to JSON\n    --> starting at object with constructor 'Array'\n    |     index 1 -> object with constructor 'Object'\n    --- property 'b' closes the circle"},
		{"concat", yamlsrc.MapOf("concat", yamlsrc.NewList(a, yamlsrc.NewNumber(2))), `"1,2"`, ""},
		{"greater", yamlsrc.MapOf("greater", yamlsrc.NewList(a, yamlsrc.NewString("1,"))), `false`, ""},
		{"recursion", r, "", "Maximum call stack size exceeded"},
	}
	for _, tc := range cases {
		e := New(Env{})
		v, err := e.Eval(tc.expr)
		if tc.err != "" {
			require.EqualError(t, err, tc.err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, encode(e, v), tc.name)
	}

	// Long cycles elide the middle like V8.
	chain := make([]*yamlsrc.Value, 8)
	for i := range chain {
		chain[i] = yamlsrc.NewList()
	}
	for i := range 7 {
		chain[i].SetList(append(chain[i].List(), chain[i+1]))
	}
	chain[7].SetList(append(chain[7].List(), yamlsrc.NewNumber(1), chain[0]))
	_, err := JSON(chain[0])
	require.EqualError(t, err, "Converting circular structure to JSON\n    --> starting at object with constructor 'Array'\n"+
		"    |     index 0 -> object with constructor 'Array'\n    |     index 0 -> object with constructor 'Array'\n"+
		"    |     ...\n    |     index 0 -> object with constructor 'Array'\n    --- index 1 closes the circle")

	// A one-item list containing itself converts to "" and so to 0.
	self := yamlsrc.NewList(nil)
	self.List()[0] = self
	require.Equal(t, 0.0, ToNumber(self))
	s, err := toString(yamlsrc.NewList(self, self), nil)
	require.NoError(t, err)
	require.Equal(t, ",", s)
}

func TestStringLengthLimit(t *testing.T) {
	// 40 levels of [x, x] would expand to 2^40 items.
	v := yamlsrc.NewList(yamlsrc.NewString("x"), yamlsrc.NewString("x"))
	for range 40 {
		v = yamlsrc.NewList(v, v)
	}
	e := New(Env{})
	_, err := e.Eval(yamlsrc.MapOf("concat", yamlsrc.NewList(v)))
	require.EqualError(t, err, "Invalid string length")
	_, err = e.Eval(yamlsrc.MapOf("sum", yamlsrc.NewList(v)))
	require.EqualError(t, err, "Invalid string length")
	_, err = e.Eval(yamlsrc.MapOf("less", yamlsrc.NewList(v, v)))
	require.EqualError(t, err, "Invalid string length")
	require.True(t, math.IsNaN(ToNumber(v)))
}

func TestErrorPositions(t *testing.T) {
	doc, err := yamlsrc.Parse([]byte("a:\n  b: {add: [1, {sub: [x]}]}\n"), "t.yaml")
	require.NoError(t, err)
	e := New(Env{File: "t.yaml"})
	_, err = e.Eval(doc.Get("a").Get("b"))
	d := testkit.Diagnostic(t, err)
	require.Equal(t, `Element ""x"" is not a number`, d.Message)
	require.Equal(t, diag.StageSolve, d.Stage)
	require.Equal(t, diag.Pos{File: "t.yaml", Line: 2, Col: 16}, d.Pos)

	// JavaScript runtime errors point at the innermost expression too.
	doc, err = yamlsrc.Parse([]byte("- {add: [1, {mod: [1, {add: 5}]}]}\n"), "t.yaml")
	require.NoError(t, err)
	_, err = e.Eval(doc.List()[0])
	d = testkit.Diagnostic(t, err)
	require.Equal(t, "expression.add.reduce is not a function", d.Message)
	require.Equal(t, diag.Pos{File: "t.yaml", Line: 1, Col: 23}, d.Pos)
}

func TestOperators(t *testing.T) {
	require.Equal(t, []string{"add", "sub", "mul", "div", "mod", "variability_input", "value_expression", "concat",
		"join", "token", "equal", "greater", "greater_or_equal", "less", "less_or_equal", "in_range", "valid_values",
		"length", "min_length", "max_length", "sum", "count", "min", "max", "median", "mean", "variance",
		"standard_deviation", "linear_regression", "polynomial_regression", "logarithmic_regression",
		"exponential_regression", "weekday", "same", "before", "before_or_same", "after", "after_or_same", "within"},
		Operators())
}

// FuzzEval parses random YAML and evaluates it as a value expression (the
// whole document, or its expr key with expressions/inputs/assigned as the
// environment). Evaluation must never panic or hang, and every failure must
// be a diagnostic.
func FuzzEval(f *testing.F) {
	var cases []oracleCase
	loadJSON(f, "testdata/node_oracle.json", &cases)
	for i, c := range cases {
		if i%4 == 0 {
			f.Add(c.YAML)
		}
	}
	f.Add("expr: {variability_input: a}\ninputs: {a: {default_expression: {value_expression: e}}}\nexpressions: {e: {concat: [[2023-01-01], x]}}")
	f.Add("{within: [\"Jan 1 2023 10:00 GMT+2\", [\"2023-01-01T00:00:00\", 1e13]]}")
	f.Add("{polynomial_regression: [[[1, 2], [2, 5], [3, 10]], 2.5, 4]}")
	f.Add("{token: [\"a😀b\", \"\", length]}")

	loc := time.FixedZone("X", 3600)
	now := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string) {
		doc, err := yamlsrc.Parse([]byte(text), "fuzz.yaml")
		if err != nil {
			return
		}
		env := Env{Now: now, Location: loc, Assigned: yamlsrc.NewMap()}
		x := doc
		if doc.Has("expr") {
			x = doc.Get("expr")
			env.Expressions = doc.Get("expressions")
			env.Inputs = doc.Get("inputs")
			if a := doc.Get("assigned"); a.IsMap() {
				env.Assigned = a
			}
		}
		e := New(env)
		check := func(v *yamlsrc.Value, err error) {
			if err != nil {
				if _, ok := diag.As(err); !ok {
					t.Fatalf("error %v is not a diagnostic", err)
				}
				return
			}
			if _, err := e.JSON(v); err != nil {
				if _, ok := diag.As(err); !ok {
					t.Fatalf("JSON error %v is not a diagnostic", err)
				}
			}
		}
		check(e.Eval(x))
		// A second evaluation must see the same cached result.
		check(e.Eval(x))
		if env.Inputs.IsMap() {
			for _, name := range env.Inputs.Map().Keys() {
				check(e.InputValue(name))
			}
		}
		if s := x.Get("s"); s.IsString() {
			js.ParseDate(s.Str(), loc)
		}
		_, _ = e.Pretty(env.Assigned)
	})
}
