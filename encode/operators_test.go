package encode

import (
	"github.com/stretchr/testify/require"
	"sort"
	"testing"
)

// TestLogicOpsCoverLogicKeys keeps the operator table and the dispatch
// order naming the same operators: a key without a handler would translate
// to "Unexpected error", a handler without a key would never run.
func TestLogicOpsCoverLogicKeys(t *testing.T) {
	var names []string
	for name := range logicOps[Lit]() {
		names = append(names, name)
	}
	sort.Strings(names)
	keys := append([]string(nil), logicKeys...)
	sort.Strings(keys)
	require.Equal(t, keys, names, "the operators of logicOps and logicKeys")
}
