package solver

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuffersMatchFresh localizes and searches the parts of random
// residuals through one subBuf and one smallBuf, as the solve loops do,
// and holds each part to a fresh localize and search: the buffers' arrays,
// reused from part to part and residual to residual, carry nothing of one
// part into the next, and a detached sub keeps its variables after the
// buffer moved on.
func TestBuffersMatchFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	var subs subBuf
	var small smallBuf
	parts := 0
	for round := range 1000 {
		cnf := randomCNF(rng)
		nv := cnf.NumVars
		var clauses [][]int
		for _, c := range cnf.Clauses {
			if len(c) > 0 { // a residual has no empty clause
				clauses = append(clauses, c)
			}
		}
		var bounds []bound
		for range rng.IntN(3) {
			var b bound
			for range 1 + rng.IntN(4) {
				b.f.lits = append(b.f.lits, randomLit(rng, nv))
				b.f.weights = append(b.f.weights, 1+rng.Int64N(5))
			}
			b.k = rng.Int64N(8) - 1
			bounds = append(bounds, b)
		}
		var flip []bool
		if rng.IntN(2) == 0 {
			flip = make([]bool, nv+1)
			for v := range flip {
				flip[v] = rng.IntN(2) == 0
			}
		}
		ps, local := split(nv, clauses, bounds, randomVars(rng, nv), false)
		var kept, want []*sub
		for i, p := range ps {
			parts++
			fresh := localize(p, clauses, bounds, local, flip)
			got := subs.localize(p, clauses, bounds, local, flip)
			requireSameSub(t, fresh, got, "round %d part %d", round, i)
			if rng.IntN(3) == 0 {
				kept, want = append(kept, got.detach()), append(want, fresh)
			}

			var f linear
			var proj []int
			for v := 1; v <= fresh.nv; v++ {
				if rng.IntN(2) == 0 {
					f.lits = append(f.lits, randomLit(rng, fresh.nv))
					f.weights = append(f.weights, 1+rng.Int64N(4))
				}
				if rng.IntN(2) == 0 {
					proj = append(proj, v)
				}
			}
			unique := rng.IntN(2) == 0
			q1, ok1 := newSmallSearch(fresh, f, proj, unique, nil)
			q2, ok2 := newSmallSearch(got, f, proj, unique, &small)
			require.Equal(t, ok1, ok2, "round %d part %d", round, i)
			if !ok1 {
				continue
			}
			require.Equal(t, q1.search(1, 0, 0), q2.search(1, 0, 0))
			require.Equal(t, [5]any{q1.found, q1.best, q1.model, q1.ambiguous, q1.alt}, [5]any{q2.found, q2.best, q2.model, q2.ambiguous, q2.alt},
				"round %d part %d: the search's results", round, i)
			require.Equal(t, q1.nodes, q2.nodes)
		}
		for i := range kept {
			require.Equal(t, want[i].vars, kept[i].vars, "round %d: a detached sub", round)
			require.Equal(t, want[i].flip, kept[i].flip, "round %d: a detached sub", round)
		}
	}
	require.Greater(t, parts, 1000, "the rounds split into many parts")
}

// requireSameSub holds a sub from a buffer to a freshly allocated one,
// empty lists and nil alike.
func requireSameSub(t *testing.T, want, got *sub, msg string, args ...any) {
	t.Helper()
	require.Equal(t, want.nv, got.nv, append([]any{msg}, args...)...)
	require.Equal(t, want.vars, got.vars, append([]any{msg}, args...)...)
	require.Equal(t, want.flip, got.flip, append([]any{msg}, args...)...)
	require.Equal(t, len(want.clauses), len(got.clauses), append([]any{msg}, args...)...)
	for i := range want.clauses {
		require.Equal(t, want.clauses[i], got.clauses[i], append([]any{msg}, args...)...)
	}
	require.Equal(t, len(want.bounds), len(got.bounds), append([]any{msg}, args...)...)
	for i := range want.bounds {
		require.Equal(t, want.bounds[i], got.bounds[i], append([]any{msg}, args...)...)
	}
}
