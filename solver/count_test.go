package solver

import (
	"context"
	"math/big"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCountIndependentChoices(t *testing.T) {
	// k independent optional variables x_i, each with a defined copy y_i <-> x_i.
	const k = 40
	cnf := &CNF{NumVars: 2 * k}
	var proj []int
	for i := 1; i <= k; i++ {
		cnf.Clauses = append(cnf.Clauses, []int{-i, k + i}, []int{i, -(k + i)})
		proj = append(proj, i, k+i)
	}
	n, err := Count(context.Background(), cnf, proj)
	require.NoError(t, err)
	require.Equal(t, new(big.Int).Lsh(big.NewInt(1), k).String(), n.String())
}

// TestCountMatchesEnumerate cross-checks Count against Enumerate on random
// small CNFs.
func TestCountMatchesEnumerate(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 300 {
		nv := 2 + r.Intn(9)
		cnf := &CNF{NumVars: nv}
		for c := 0; c < r.Intn(12); c++ {
			var cl []int
			for l := 0; l < 1+r.Intn(3); l++ {
				v := 1 + r.Intn(nv)
				if r.Intn(2) == 0 {
					v = -v
				}
				cl = append(cl, v)
			}
			cnf.Clauses = append(cnf.Clauses, cl)
		}
		var proj []int
		for v := 1; v <= nv; v++ {
			if r.Intn(2) == 0 {
				proj = append(proj, v)
			}
		}
		want, _, err := Enumerate(context.Background(), cnf, proj, 0, func([]bool) bool { return true })
		require.NoError(t, err)
		got, err := Count(context.Background(), cnf, proj)
		require.NoError(t, err)
		require.Equal(t, int64(want), got.Int64(), "cnf %v projection %v", cnf.Clauses, proj)
	}
}
