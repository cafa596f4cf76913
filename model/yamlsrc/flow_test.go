package yamlsrc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteFlow(t *testing.T) {
	v, err := Parse([]byte("{a b: [1, x, null, {}], c: {d: 'y z'}, e: []}"), "t.yaml")
	require.NoError(t, err)
	flow := func(limit int, key func(*strings.Builder, string), scalar func(*strings.Builder, *Value)) string {
		var b strings.Builder
		WriteFlow(&b, v, limit, key, scalar)
		return b.String()
	}
	require.Equal(t, `{a b: [1, "x", null, {}], c: {d: "y z"}, e: []}`, flow(0, nil, nil), "keys as they are, scalars as JSON")
	upper := func(b *strings.Builder, k string) { b.WriteString(strings.ToUpper(k)) }
	star := func(b *strings.Builder, _ *Value) { b.WriteByte('*') }
	require.Equal(t, `{A B: [*, *, *, {}], C: {D: *}, E: []}`, flow(0, upper, star), "key and scalar")
	require.Equal(t, `{a b: [1, "x", , ], c: , e: }`, flow(10, nil, nil), "past 10 bytes, keys and separators but no more values")
}
