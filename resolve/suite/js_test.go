package suite

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

func TestJSReplaceAll(t *testing.T) {
	tests := []struct {
		s, find, repl, want string
	}{
		{"aXbXc", "X", "-", "a-b-c"},
		{"aaaa", "aa", "b", "bb"},
		{"abc", "", "-", "-a-b-c-"},
		{"abc", "z", "-", "abc"},
		{"a.b", ".", "[$&]", "a[.]b"},
		{"a.b", ".", "$$", "a$b"},
		{"a.b", ".", "$`|$'", "aa|bb"},
		{"a.b", ".", "$1$", "a$1$b"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, jsReplaceAll(tc.s, tc.find, tc.repl), "%q.replaceAll(%q, %q)", tc.s, tc.find, tc.repl)
	}
}

func TestLodashMerge(t *testing.T) {
	tests := []struct {
		name, dst, src, want string
	}{
		{"maps merge recursively", "{a: {b: 1, c: 2}, d: 3}", "{a: {b: 9, e: 5}}", "{a: {b: 9, c: 2, e: 5}, d: 3}"},
		{"lists merge by index", "{l: [1, 2, 3]}", "{l: [9]}", "{l: [9, 2, 3]}"},
		{"lists grow", "{l: [1]}", "{l: [7, 8]}", "{l: [7, 8]}"},
		{"null overwrites", "{a: 1}", "{a: null}", "{a: null}"},
		{"a map replaces a scalar", "{a: 1}", "{a: {b: 2}}", "{a: {b: 2}}"},
		{"a list replaces a map", "{a: {x: 1}}", "{a: [1]}", "{a: [1]}"},
		{"a map merges into a list by index keys", "{a: [1, 2]}", "{a: {'1': 5, x: 3}}", "{a: [1, 5]}"},
		{"lists of maps", "[{a: 1}, {b: 2}]", "[{c: 3}]", "[{a: 1, c: 3}, {b: 2}]"},
		{"a scalar source does nothing", "{a: 1}", "7", "{a: 1}"},
		{"a scalar destination stays", "5", "{a: 1}", "5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := parse(t, tc.dst)
			lodashMerge(dst, parse(t, tc.src))
			want := parse(t, tc.want)
			require.True(t, yamlsrc.DeepEqual(want, dst), "merge %s into %s: got %s, want %s", tc.src, tc.dst, yamlsrc.JSON(dst), yamlsrc.JSON(want))
		})
	}
}

func parse(t *testing.T, s string) *yamlsrc.Value {
	t.Helper()
	v, err := yamlsrc.Parse([]byte(s), "test")
	require.NoError(t, err, "parse %q", s)
	return v
}
