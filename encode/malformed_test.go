package encode

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// divEvaluator evaluates every value expression to what a division by zero
// gives, Infinity (JSON "null").
type divEvaluator struct{}

func (divEvaluator) Eval(*yamlsrc.Value) (*yamlsrc.Value, error) {
	return yamlsrc.NewNumber(math.Inf(1)), nil
}

func build(t *testing.T, src string) *graph.Graph {
	t.Helper()
	d, err := yamlsrc.Parse([]byte(src), "t.yaml")
	require.NoError(t, err)
	g, err := graph.Build(d, "t.yaml")
	require.NoError(t, err)
	return g
}

const nodes = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    n: {type: t}\n    m:\n      type: t\n"

// TestMalformedImplies: each implies entry as the reference reads it
// (implies.length, then [target, condition] = implies); every case was run
// through the reference (Vintner 0.1.8).
func TestMalformedImplies(t *testing.T) {
	tests := []struct {
		name     string
		entry    string
		wantLine string // the error, or "" for success
		wantRef  string
		warnings []string
	}{
		{
			name:     "null",
			entry:    "null",
			wantLine: `t.yaml:8:11: expected an implies entry of node "m" as a list [target, condition], found null (the reference fails with: Cannot read properties of null (reading 'length'))`,
			wantRef:  "Cannot read properties of null (reading 'length')",
		},
		{
			name:     "number",
			entry:    "5",
			wantLine: `t.yaml:8:11: expected an implies entry of node "m" as a list [target, condition], found a number (the reference fails with: implies is not iterable)`,
			wantRef:  "implies is not iterable",
		},
		{
			name:     "map",
			entry:    "{a: 1}",
			wantLine: `t.yaml:8:11: expected an implies entry of node "m" as a list [target, condition], found a map (the reference fails with: implies is not iterable)`,
			wantRef:  "implies is not iterable",
		},
		{
			name:     "string of two characters",
			entry:    "ab",
			warnings: []string{`t.yaml:8:11: expected an implies entry of node "m" as a list [target, condition], found a string: its characters are read as target and condition, as the reference does`},
		},
		{
			name:     "string of three characters",
			entry:    "abc",
			wantLine: `t.yaml:8:11: Node "m" has an implies with more than 2 elements`,
			wantRef:  `Node "m" has an implies with more than 2 elements`,
		},
		{
			name:     "empty string",
			entry:    "''",
			wantLine: `t.yaml:8:11: Node "m" has an implies without an target`,
			wantRef:  `Node "m" has an implies without an target`,
			warnings: []string{`t.yaml:8:11: expected an implies entry of node "m" as a list [target, condition], found a string: its characters are read as target and condition, as the reference does`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := build(t, nodes+"      implies:\n        - "+tc.entry+"\n")
			var warnings []string
			_, err := Encode(g, divEvaluator{}, Options{Warn: func(d *diag.Diagnostic) { warnings = append(warnings, d.Line()) }})
			require.Equal(t, tc.warnings, warnings, "warnings of %s", tc.name)
			if tc.wantLine == "" {
				require.NoError(t, err, "implies %s", tc.entry)
				return
			}
			testkit.ErrorLine(t, err, tc.wantLine, tc.wantRef, "implies "+tc.entry)
		})
	}
}

// TestValueExpressionErrorPosition: a value expression in logic position
// that is not a boolean is reported at the expression, not at the element.
func TestValueExpressionErrorPosition(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{
			name: "element condition",
			src:  nodes + "      conditions:\n        - true\n        - {div: [1, 0]}\n",
			want: `t.yaml:9:11: Element "null" is not a boolean`,
		},
		{
			name: "nested in and",
			src:  nodes + "      conditions: {and: [true, {div: [1, 0]}]}\n",
			want: `t.yaml:7:32: Element "null" is not a boolean`,
		},
		{
			name: "constraint",
			src:  "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    constraints:\n      - {div: [1, 0]}\n",
			want: `t.yaml:5:9: Element "null" is not a boolean`,
		},
		{
			name: "a scalar keeps the element's position",
			src:  nodes + "      conditions: 5\n",
			want: `t.yaml:6:7: Element "null" is not a boolean`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Encode(build(t, tc.src), divEvaluator{}, Options{})
			require.Error(t, err, tc.name)
			d := testkit.Diagnostic(t, err, tc.name)
			require.Equal(t, tc.want, d.Line(), tc.name)
		})
	}
}

// TestWordedJSErrors: JavaScript errors of the reference in the encoding,
// worded by v4t with the reference's message kept.
func TestWordedJSErrors(t *testing.T) {
	tests := []struct {
		name, src, wantLine, wantRef string
	}{
		{
			name:     "operands not a list",
			src:      nodes + "      conditions: {and: {a: 1}}\n",
			wantLine: `t.yaml:7:25: expected the operands of and as a list, found a map (the reference fails with: expression.and.map is not a function)`,
			wantRef:  "expression.and.map is not a function",
		},
		{
			name:     "implies without a second operand",
			src:      nodes + "      conditions: {implies: [true]}\n",
			wantLine: `t.yaml:6:7: expected a condition, found nothing (the reference fails with: Cannot read properties of undefined (reading '_cached_element'))`,
			wantRef:  "Cannot read properties of undefined (reading '_cached_element')",
		},
		{
			name:     "number as a logic expression",
			src:      "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    expressions: {e: 5}\n  node_templates:\n    n: {type: t, conditions: {logic_expression: e}}\n",
			wantLine: `t.yaml:6:8: expected the logic expression "e" as a map, a list or a boolean, found a number (the reference fails with: Cannot create property '_id' on number '5')`,
			wantRef:  "Cannot create property '_id' on number '5'",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Encode(build(t, tc.src), divEvaluator{}, Options{})
			testkit.ErrorLine(t, err, tc.wantLine, tc.wantRef, tc.name)
		})
	}
}

// TestInvalidTerms: strings that are no terms of the reference's SAT
// library (empty, dashes, digits) as it checks them: one operand on its
// own, several as an array printed the way JavaScript joins it, a string
// constraint as the array that require gets, and names with a leading $
// only when their formula is required. Every case was run through the
// reference (Vintner 0.1.8).
func TestInvalidTerms(t *testing.T) {
	const constraints = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    n: {type: t}\n  variability:\n    constraints: "
	tests := []struct {
		name, src, want string // want "" for success
	}{
		{"or of a term and an empty string", nodes + `      conditions: {or: [a, ""]}` + "\n", `a, is not an array of a Formula or Term`},
		{"or of an empty string", nodes + `      conditions: {or: [""]}` + "\n", `"" is not a Formula or Term`},
		{"several invalid", nodes + `      conditions: {xor: ["", "12", "-"]}` + "\n", `,12,- is not an array of a Formula or Term`},
		{"operands as translated", nodes + `      conditions: {or: [{and: [a, b]}, {and: [c]}, {not: x}, {not: "-y"}, true, {or: []}, {amo: [z]}, {node_presence: n}, {host_presence: n}, "12"]}` + "\n",
			`[object Object],c,-x,y,$T,$F,$T,node.n,$F,12 is not an array of a Formula or Term`},
		{"lookup errors of other operands first", nodes + `      conditions: {exo: ["", {node_presence: nope}]}` + "\n", `Node "nope" not found`},
		{"at most one of one operand is not checked", nodes + `      conditions: {amo: [""]}` + "\n", ""},
		{"at most one of two", nodes + `      conditions: {amo: [a, "-5"]}` + "\n", `a,-5 is not an array of a Formula or Term`},
		{"several conditions are and-ed", nodes + `      conditions: [a, "", {node_presence: m}]` + "\n", `a,,node.m is not an array of a Formula or Term`},
		{"a $ name after the array check", nodes + `      conditions: {or: [{and: ["$x", b]}, ""]}` + "\n", `[object Object], is not an array of a Formula or Term`},
		{"a $ name after lookups", nodes + `      conditions: [{and: ["$x", b]}, {node_presence: nope}]` + "\n", `Node "nope" not found`},
		{"a $ name when required", nodes + `      conditions: {or: ["$x", b]}` + "\n", `Only generated variable names can start with $`},
		{"not of an empty string", nodes + `      conditions: {not: ""}` + "\n", `"" is not a Formula or Term`},
		{"a digit constraint", constraints + `["12"]` + "\n", `12 is not an array of a Formula or Term`},
		{"an empty constraint", constraints + `[""]` + "\n", ` is not an array of a Formula or Term`},
		{"a digit inside a constraint", constraints + `[{or: ["12"]}]` + "\n", `"12" is not a Formula or Term`},
		{"constraints of characters", constraints + "a1\n", `1 is not an array of a Formula or Term`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Encode(build(t, tc.src), divEvaluator{}, Options{})
			if tc.want == "" {
				require.NoError(t, err, tc.name)
				return
			}
			require.Error(t, err, tc.name)
			require.Equal(t, tc.want, err.Error(), tc.name)
		})
	}
}

// TestMalformedConstraints: variability.constraints as the reference's
// for-of loop meets them, at the constraints' position.
func TestMalformedConstraints(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    constraints: "
	tests := []struct {
		value, wantLine, wantRef string
		warnings                 []string
	}{
		{value: "{a: b}", wantLine: "t.yaml:4:18: expected the variability constraints as a list, found a map (the reference fails with: object is not iterable (cannot read property Symbol(Symbol.iterator)))",
			wantRef: "object is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{value: "2020-01-01", wantLine: "t.yaml:4:18: expected the variability constraints as a list, found a date (the reference fails with: object is not iterable (cannot read property Symbol(Symbol.iterator)))",
			wantRef: "object is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{value: "5", wantLine: "t.yaml:4:18: expected the variability constraints as a list, found a number (the reference fails with: number 5 is not iterable (cannot read property Symbol(Symbol.iterator)))",
			wantRef: "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{value: "true", wantLine: "t.yaml:4:18: expected the variability constraints as a list, found a boolean (the reference fails with: boolean true is not iterable (cannot read property Symbol(Symbol.iterator)))",
			wantRef: "boolean true is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{value: "ab", warnings: []string{"t.yaml:4:18: expected the variability constraints as a list, found a string: each character is read as a constraint, as the reference does"}},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			var warnings []string
			_, err := Encode(build(t, head+tc.value+"\n"), divEvaluator{}, Options{Warn: func(d *diag.Diagnostic) { warnings = append(warnings, d.Line()) }})
			require.Equal(t, tc.warnings, warnings, "warnings of constraints %s", tc.value)
			if tc.wantLine == "" {
				require.NoError(t, err, "constraints %s", tc.value)
				return
			}
			testkit.ErrorLine(t, err, tc.wantLine, tc.wantRef, "constraints "+tc.value)
		})
	}
}
