package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

// TestResultCache holds the result cache to a Go map over random
// operations on keys from several slabs (values in order, as a document's,
// and scattered ones), nil results among them, from an empty table and a
// sized one, so that it grows and wraps around.
func TestResultCache(t *testing.T) {
	for _, hint := range []int{0, 5, 3000} {
		rng := rand.New(rand.NewPCG(uint64(hint), 7))
		var keys []*yamlsrc.Value
		for range 4 {
			slab := make([]yamlsrc.Value, 1500)
			for i := range slab {
				keys = append(keys, &slab[i])
			}
		}
		for range 500 {
			keys = append(keys, yamlsrc.NewBool(true))
		}
		results := []*yamlsrc.Value{nil, yamlsrc.NewBool(true), yamlsrc.NewBool(false)}
		c := newResultCache(hint)
		want := map[*yamlsrc.Value]*yamlsrc.Value{}
		for i := range 40000 {
			k := keys[rng.IntN(len(keys))]
			if i < 3000 {
				k = keys[i] // in document order first
			}
			if rng.IntN(3) == 0 {
				got, ok := c.get(k)
				w, wok := want[k]
				require.Equal(t, wok, ok, "op %d: present", i)
				require.Same(t, w, got, "op %d: result", i)
				continue
			}
			v := results[rng.IntN(len(results))]
			c.set(k, v)
			want[k] = v
			require.Equal(t, len(want), c.n, "op %d: count", i)
			require.LessOrEqual(t, 2*c.n, len(c.slots), "at most half full")
		}
		for _, k := range keys {
			got, ok := c.get(k)
			w, wok := want[k]
			require.Equal(t, wok, ok)
			require.Same(t, w, got)
		}
	}
	var none *resultCache
	_, ok := none.get(yamlsrc.NewBool(true))
	require.False(t, ok, "a nil cache holds nothing")
}
