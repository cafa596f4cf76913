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
	for name := range logicOpsByKey[Lit]() {
		names = append(names, name)
	}
	sort.Strings(names)
	keys := append([]string(nil), logicKeys...)
	sort.Strings(keys)
	require.Equal(t, keys, names, "the operators of logicOpsByKey and logicKeys")
	// The table by rank has them all, each at its key's rank.
	byRank := logicOps[Lit]()
	require.Len(t, byRank, len(logicKeys))
	for r, op := range byRank {
		require.NotNil(t, op, "the operator of rank %d (%s)", r, logicKeys[r])
		require.Equal(t, r, logicRank.Rank(logicKeys[r]))
	}
}
