package validate

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

// TestAppendQuote: the fast path quotes exactly as %q does.
func TestAppendQuote(t *testing.T) {
	for _, s := range []string{"", "tosca.nodes.Compute", `a"b`, `a\b`, "tab\there", "ünïcode", "~ok~", "\x7f", "new\nline"} {
		t.Run(s, func(t *testing.T) {
			require.Equal(t, strconv.Quote(s), string(appendQuote(nil, s)), "quoting %q", s)
		})
	}
}

// TestSubject: subjects render as the messages spell them.
func TestSubject(t *testing.T) {
	node := sub("node template", "app", nil)
	req := sub("requirement", "host", &node)
	tests := []struct {
		name string
		s    subject
		want string
	}{
		{"named", node, `node template "app"`},
		{"chain", bare("relationship", &req), `relationship of requirement "host" of node template "app"`},
		{"empty name", sub("input", "", nil), `input ""`},
		{"bare", bare("topology_template", nil), "topology_template"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.s.text(), "subject %+v", tc.s)
		})
	}
}

// TestLocateYAMLError: syntax errors point at the offending token, not at
// the line yaml.v3 names.
func TestLocateYAMLError(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"dedent between levels", "a:\n  b:\n    c: 1\n   d: 2\n", `f:4:4: invalid YAML: did not find expected key, found "d"`},
		{"deep dedent", "a:\n    n:\n        app:\n            type: x\n          properties: {}\n", `f:5:11: invalid YAML: did not find expected key, found "properties"`},
		{"list item in a map", "x: 1\n- a\n", `f:2:1: invalid YAML: did not find expected key, found "-"`},
		{"key in a list", "x: 1\na:\n  - b\n  c: 1\n", `f:4:3: invalid YAML: did not find expected '-' indicator, found "c"`},
		{"two colons", "a: b: c\n", `f:1:5: invalid YAML: mapping values are not allowed in this context, found "b:"`},
		{"continued scalar", "x: 1\na: b\n  c: d\n", `f:3:4: invalid YAML: mapping values are not allowed in this context, found "c:"`},
		{"tab", "x: 1\na:\n\tb: 2\n", `f:3:1: invalid YAML: found character that cannot start any token, found a tab`},
		{"tab after a scalar", "x: 1\na:\n  b: 1\n\n \tc: 2\n", `f:5:2: invalid YAML: found a tab character that violates indentation`},
		{"tab after a continued scalar", "a:\n  b: one\n    \ttwo\n  \tc: 2\n", `f:4:3: invalid YAML: found a tab character that violates indentation`},
		{"tab in a list", "a:\n  - x\n\t- y\n", `f:3:1: invalid YAML: found a tab character that violates indentation`},
		{"tab in a block scalar", "a:\n  b: |\n\tfoo\n", `f:3:1: invalid YAML: found a tab character where an indentation space is expected`},
		{"reserved", "x: 1\na: @foo\n", `f:2:4: invalid YAML: found character that cannot start any token, found "@foo"`},
		{"unclosed quote", "x: 1\na: \"unclosed\nb: 2\n", `f:2:4: invalid YAML: found unexpected end of stream, found an unclosed '"'`},
		{"unclosed list", "x: 1\na:\n  b: [1, 2\n  c: 3\n", `f:3:6: invalid YAML: did not find expected ',' or ']': the '[' here is not closed`},
		{"unclosed map", "x: 1\na: {b: 1\nc: 2\n", `f:2:4: invalid YAML: did not find expected ',' or '}': the '{' here is not closed`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newValidator(context.Background(), "f", Options{NoLib: true})
			got := v.run(func() *unit { return v.loadRoot("f", []byte(tc.doc)) })
			require.Len(t, got, 1, "problems of %q", tc.doc)
			require.Equal(t, tc.want, got[0].Line(), "problem of %q", tc.doc)
		})
	}
}

// TestSortProblems: problems are sorted by position and message, and a
// problem of the same defect class as one reported before it at the same
// position is dropped as its follow-on; different defects at one position
// are kept.
func TestSortProblems(t *testing.T) {
	at := func(line, col int) diag.Pos { return diag.Pos{File: "f", Line: line, Col: col} }
	p := func(pos diag.Pos, code, msg string) *diag.Diagnostic {
		return &diag.Diagnostic{Pos: pos, Stage: diag.StageValidate, Code: code, Message: msg}
	}
	tests := []struct {
		name string
		in   diag.List
		want []string
	}{
		{"two kinds of one value: the first reported is kept",
			diag.List{p(at(2, 10), "kind", "z: expected a list"), p(at(2, 10), "kind", "a: expected a list")},
			[]string{"f:2:10: z: expected a list"}},
		{"kind and value type are one class",
			diag.List{p(at(3, 5), "value-type", "expected an integer"), p(at(3, 5), "kind", "expected a map")},
			[]string{"f:3:5: expected an integer"}},
		{"a name not found twice",
			diag.List{p(at(4, 1), "parent", "derives from unknown"), p(at(4, 1), "not-found", "not found")},
			[]string{"f:4:1: derives from unknown"}},
		{"missing parts of one entity are different defects",
			diag.List{p(at(5, 9), "required", "misses b"), p(at(5, 9), "required", "misses a"), p(at(5, 9), "occurrences", "fewer")},
			[]string{"f:5:9: fewer", "f:5:9: misses a", "f:5:9: misses b"}},
		{"different classes at one position are kept",
			diag.List{p(at(6, 3), "undefined", "not defined"), p(at(6, 3), "kind", "expected a map")},
			[]string{"f:6:3: expected a map", "f:6:3: not defined"}},
		{"without a column nothing is a follow-on",
			diag.List{p(diag.Pos{File: "f"}, "kind", "b"), p(diag.Pos{File: "f"}, "kind", "a")},
			[]string{"f: a", "f: b"}},
		{"duplicates and order",
			diag.List{p(at(9, 1), "import", "x"), p(at(1, 2), "required", "y"), p(at(9, 1), "import", "x"), p(diag.Pos{File: "e", Line: 9, Col: 9}, "kind", "z")},
			[]string{"e:9:9: z", "f:1:2: y", "f:9:1: x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range sortProblems(tc.in) {
				got = append(got, d.Line())
			}
			require.Equal(t, tc.want, got, "problems of %v", tc.in)
		})
	}
}

// TestBuiltinDataHint: data type names are suggested from TOSCA's own,
// also for what other type systems call them and for abbreviations.
func TestBuiltinDataHint(t *testing.T) {
	normative := []string{"tosca.datatypes.Root", "Root", "tosca:Root", "tosca.datatypes.network.PortDef", "PortDef"}
	tests := []struct{ name, want string }{
		{"bool", "boolean"},
		{"Bool", "boolean"},
		{"INTEGER", "integer"},
		{"integ", "integer"},
		{"dict", "map"},
		{"strng", "string"},
		{"scalar-unit.sise", "scalar-unit.size"},
		{"scalar-unit", ""}, // an abbreviation of four
		{"PortDf", "PortDef"},
		{"my.Thing", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := ""
			if tc.want != "" {
				want = ` (did you mean "` + tc.want + `"?)`
			}
			require.Equal(t, want, builtinDataHint(tc.name, normative), "hint for %q", tc.name)
		})
	}
}
