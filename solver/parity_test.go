package solver

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// parityChain is t_1 = a_1, t_i = t_{i-1} xor a_i, t_n: an odd number of
// a_1..a_n is true. Variables a are 1..n, t are n+1..2n.
func parityChain(n int) *CNF {
	cnf := &CNF{NumVars: 2 * n}
	t := func(i int) int { return n + i }
	cnf.Clauses = append(cnf.Clauses, []int{-t(1), 1}, []int{t(1), -1})
	for i := 2; i <= n; i++ {
		x, y, z := t(i-1), i, t(i)
		cnf.Clauses = append(cnf.Clauses, []int{-z, x, y}, []int{-z, -x, -y}, []int{z, -x, y}, []int{z, x, -y})
	}
	cnf.Clauses = append(cnf.Clauses, []int{t(n)})
	return cnf
}

// TestParityDescent: maximising the true a's of an even parity chain
// (optimum: one false) from a model with most of them false. A descent by
// native pseudo-Boolean bounds one step at a time took minutes from 1,600
// variables on; bisecting takes about a dozen solves. The configuration
// makes the totalizer too large up to n/4 here, as it is at 1,600 in
// production.
func TestParityDescent(t *testing.T) {
	const n = 400
	obj := &Objective{}
	for v := 1; v <= n; v++ {
		obj.Lits = append(obj.Lits, -v)
		obj.Weights = append(obj.Weights, 1)
	}
	cfg := defaultConfig()
	cfg.maxCounterClauses = n * n / 16
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := solve(ctx, parityChain(n), []Step{{Objective: obj}}, nil, cfg)
	require.NoError(t, err)
	require.True(t, res.Sat)
	require.Equal(t, []int64{1}, res.Optima)
	require.Positive(t, res.Stats.PBBounds, "native bounds were used")
	require.Positive(t, res.Stats.CounterClauses, "and a totalizer once the bound was small")
}
