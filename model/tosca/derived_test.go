package tosca

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAncestors walks parent maps: a chain ends at a root or where parent
// says so, and a loop is the part of the chain that comes back, however
// long the chain before it (long chains are indexed, short ones searched).
func TestAncestors(t *testing.T) {
	walk := func(parents map[string]string, start string) ([]string, []string) {
		return Ancestors(start, func(n string) (string, bool) {
			p, ok := parents[n]
			return p, ok
		})
	}
	chain, loop := walk(map[string]string{"a": "b", "b": "c"}, "a")
	require.Equal(t, []string{"a", "b", "c"}, chain)
	require.Nil(t, loop)

	chain, loop = walk(map[string]string{"a": "a"}, "a")
	require.Equal(t, []string{"a"}, chain)
	require.Equal(t, []string{"a"}, loop, "a type deriving from itself")

	chain, loop = walk(map[string]string{"x": "a", "a": "b", "b": "c", "c": "a"}, "x")
	require.Equal(t, []string{"x", "a", "b", "c"}, chain)
	require.Equal(t, []string{"a", "b", "c"}, loop, "the loop starts at the type met again")

	for _, n := range []int{linearChain - 1, linearChain, linearChain + 1, 3 * linearChain} {
		parents := map[string]string{}
		for i := range n {
			parents["t"+strconv.Itoa(i)] = "t" + strconv.Itoa(i+1)
		}
		chain, loop = walk(parents, "t0")
		require.Len(t, chain, n+1, "a chain of %d", n)
		require.Nil(t, loop)
		parents["t"+strconv.Itoa(n)] = "t1"
		chain, loop = walk(parents, "t0")
		require.Len(t, chain, n+1, "a chain of %d closed into a loop", n)
		require.Len(t, loop, n, "a chain of %d closed into a loop", n)
		require.Equal(t, "t1", loop[0])
	}

	calls := 0
	ints, _ := Ancestors(1, func(i int) (int, bool) {
		calls++
		return i + 1, i < 5
	})
	require.Equal(t, []int{1, 2, 3, 4, 5}, ints)
	require.Equal(t, len(ints), calls, "parent is called once per type of the chain")
}
