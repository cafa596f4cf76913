package validate

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendQuote: the fast path quotes exactly as %q does.
func TestAppendQuote(t *testing.T) {
	for _, s := range []string{"", "tosca.nodes.Compute", `a"b`, `a\b`, "tab\there", "ünïcode", "~ok~", "\x7f", "new\nline"} {
		t.Run(s, func(t *testing.T) {
			assert.Equal(t, strconv.Quote(s), string(appendQuote(nil, s)), "quoting %q", s)
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
			assert.Equal(t, tc.want, tc.s.text(), "subject %+v", tc.s)
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
			assert.Equal(t, tc.want, got[0].Line(), "problem of %q", tc.doc)
		})
	}
}
