package expr

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

// TestOpenInputs checks Env.Open: an open input without a value fails with
// an *OpenInputError naming it, a known one has its value, and results
// that depend on open inputs are neither cached nor remembered, while the
// others are.
func TestOpenInputs(t *testing.T) {
	doc, err := yamlsrc.Parse([]byte(`
inputs:
    mode: {type: string}
    size: {default: 2}
    strict: {default_expression: {equal: [{variability_input: mode}, prod]}}
    fixed: {default_expression: {add: [{variability_input: size}, 1]}}
expr: {equal: [{variability_input: mode}, prod]}
constant: {add: [{variability_input: size}, 1]}
`), "")
	require.NoError(t, err)
	cur := map[string]*yamlsrc.Value{}
	assigned := yamlsrc.NewMap()
	e := New(Env{Inputs: doc.Get("inputs"), Assigned: assigned, Open: func(name string) (*yamlsrc.Value, bool) {
		if name != "mode" {
			return nil, false
		}
		return cur["mode"], true
	}})
	x := doc.Get("expr")

	_, err = e.Eval(x)
	var oe *OpenInputError
	require.True(t, errors.As(err, &oe), "reading mode unassigned fails with an OpenInputError, got %v", err)
	require.Equal(t, "mode", oe.Name)

	for _, tc := range []struct {
		mode string
		want bool
	}{{"prod", true}, {"dev", false}, {"prod", true}} {
		cur["mode"] = yamlsrc.NewString(tc.mode)
		v, err := e.Eval(x)
		require.NoError(t, err, "mode=%s", tc.mode)
		require.Equal(t, tc.want, v.Bool, "mode=%s", tc.mode)
		v, err = e.InputValue("strict")
		require.NoError(t, err, "strict with mode=%s", tc.mode)
		require.Equal(t, tc.want, v.Bool, "strict with mode=%s", tc.mode)
	}
	_, ok := e.Cached(x)
	require.False(t, ok, "a result over open inputs is not cached")
	require.False(t, assigned.Has("mode"), "an open input is not remembered")
	require.False(t, assigned.Has("strict"), "a default_expression over open inputs is not remembered")

	v, err := e.Eval(doc.Get("constant"))
	require.NoError(t, err)
	require.Equal(t, 3.0, v.Num())
	_, ok = e.Cached(doc.Get("constant"))
	require.True(t, ok, "a result without open inputs is cached")
	v, err = e.InputValue("fixed")
	require.NoError(t, err)
	require.Equal(t, 3.0, v.Num())
	require.True(t, assigned.Has("size"), "a default is remembered")
	require.True(t, assigned.Has("fixed"), "a default_expression without open inputs is remembered")
}
