package validate

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
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
