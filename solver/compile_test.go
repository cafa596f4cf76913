package solver

import (
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// bruteProjections returns the distinct projected assignments of all models
// of cnf, as strings of 0/1 in projection order, sorted.
func bruteProjections(cnf *CNF, proj []int) []string {
	seen := map[string]bool{}
	for _, m := range allModels(cnf) {
		seen[projectKey(m, proj)] = true
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func bitString(values []bool) string {
	b := make([]byte, len(values))
	for i, v := range values {
		b[i] = '0'
		if v {
			b[i] = '1'
		}
	}
	return string(b)
}

// countOnes counts the bit strings with a 1 at position i.
func countOnes(bits []string, i int) int {
	n := 0
	for _, s := range bits {
		if s[i] == '1' {
			n++
		}
	}
	return n
}

// randomProjection draws a projection over variables 1..numVars in random
// order, keeping each variable unless r.Intn(oneIn) is 0.
func randomProjection(r *rand.Rand, numVars, oneIn int) []int {
	var proj []int
	for _, v := range r.Perm(numVars) {
		if r.Intn(oneIn) > 0 {
			proj = append(proj, v+1)
		}
	}
	return proj
}

// randomSpaceCNF draws a formula in one of three shapes: plain random clauses,
// random clauses over Tseitin-defined gates (as package encode writes
// them), and chains of exclusive choices.
func randomSpaceCNF(r *rand.Rand) *CNF {
	nv := 1 + r.Intn(12)
	cnf := &CNF{NumVars: nv}
	lit := func(n int) int {
		v := 1 + r.Intn(n)
		if r.Intn(2) == 0 {
			return -v
		}
		return v
	}
	switch r.Intn(3) {
	case 0:
		for c := r.Intn(3 * nv); c > 0; c-- {
			cl := make([]int, 0, 3)
			for l := 1 + r.Intn(4); l > 0; l-- {
				cl = append(cl, lit(nv))
			}
			cnf.Clauses = append(cnf.Clauses, cl)
		}
	case 1:
		// Gates g = a AND b over earlier variables, then a few clauses.
		base := 1 + r.Intn(nv)
		for g := base + 1; g <= nv; g++ {
			a, b := lit(g-1), lit(g-1)
			cnf.Clauses = append(cnf.Clauses, []int{-g, a}, []int{-g, b}, []int{g, -a, -b})
		}
		for c := r.Intn(4); c > 0; c-- {
			cnf.Clauses = append(cnf.Clauses, []int{lit(nv), lit(nv)})
		}
	default:
		// Pairs (a_i, b_i) with exactly one, neighbours coupled.
		k := nv / 2
		for i := range k {
			a, b := 2*i+1, 2*i+2
			cnf.Clauses = append(cnf.Clauses, []int{a, b}, []int{-a, -b})
			if i > 0 && r.Intn(3) > 0 {
				cnf.Clauses = append(cnf.Clauses, []int{-b, -(2*i - 0)})
			}
		}
	}
	return cnf
}

// TestCompileOracle checks every query of the circuit against brute force
// on thousands of small random formulas (a property test with a fixed
// seed), and its satisfiability verdicts against gophersat.
func TestCompileOracle(t *testing.T) {
	r := rand.New(rand.NewSource(15))
	ctx := context.Background()
	for iter := range oracleCases(3000, 500) {
		cnf := randomSpaceCNF(r)
		proj := randomProjection(r, cnf.NumVars, 3)
		name := fmt.Sprintf("iter %d: cnf %v projection %v", iter, cnf.Clauses, proj)
		want := bruteProjections(cnf, proj)
		c, err := Compile(ctx, cnf, proj, CompileOptions{})
		require.NoError(t, err, name)
		require.Equal(t, int64(len(want)), c.Count().Int64(), name)
		require.Equal(t, len(want) > 0, c.Satisfiable(), name)

		// Satisfiability against gophersat.
		res, err := Solve(ctx, cnf, nil, nil)
		require.NoError(t, err, name)
		require.Equal(t, res.Sat, c.Satisfiable(), name)

		// Enumerate gives each projection once.
		var got []string
		c.Enumerate(func(v []bool) bool { got = append(got, bitString(v)); return true })
		slices.Sort(got)
		require.Equal(t, want, append([]string{}, got...), name)

		// Unrank is a bijection onto the models.
		var ranked []string
		values := make([]bool, len(proj))
		for i := range len(want) {
			c.Unrank(big.NewInt(int64(i)), values)
			ranked = append(ranked, bitString(values))
		}
		slices.Sort(ranked)
		require.Equal(t, want, append([]string{}, ranked...), name)

		// Marginals.
		marg := c.Marginals()
		for i := range proj {
			require.Equal(t, int64(countOnes(want, i)), marg[i].Int64(), "%s: variable %d", name, proj[i])
		}

		// Satisfiability under random assumptions.
		assume := make([]int8, len(proj))
		for range 4 {
			for i := range assume {
				assume[i] = int8(r.Intn(5)/2) - 1 // mostly free
				if r.Intn(3) > 0 {
					assume[i] = 0
				}
			}
			wantSat := false
			for _, s := range want {
				ok := true
				for i, a := range assume {
					if a > 0 && s[i] != '1' || a < 0 && s[i] != '0' {
						ok = false
						break
					}
				}
				if ok {
					wantSat = true
					break
				}
			}
			require.Equal(t, wantSat, c.SatisfiableUnder(assume), "%s: assumptions %v", name, assume)
		}
	}
}

// TestCompileChain counts a long chain of coupled exclusive choices: the
// count is a Fibonacci number, and the cache keeps it linear.
func TestCompileChain(t *testing.T) {
	const k = 2000
	cnf := &CNF{NumVars: 2 * k}
	var proj []int
	for i := range k {
		a, b := 2*i+1, 2*i+2
		cnf.Clauses = append(cnf.Clauses, []int{a, b}, []int{-a, -b})
		if i > 0 {
			cnf.Clauses = append(cnf.Clauses, []int{-b, -(2 * i)})
		}
		proj = append(proj, a, b)
	}
	// Choice i is a or b, and b never follows b: F(k+2) models.
	f0, f1 := big.NewInt(1), big.NewInt(1)
	for range k {
		f0, f1 = f1, new(big.Int).Add(f0, f1)
	}
	c, err := Compile(context.Background(), cnf, proj, CompileOptions{})
	require.NoError(t, err)
	require.Equal(t, f1.String(), c.Count().String())
}

func TestRandBelowUniform(t *testing.T) {
	c, err := Compile(context.Background(), &CNF{NumVars: 3}, []int{1, 2, 3}, CompileOptions{})
	require.NoError(t, err)
	require.Equal(t, int64(8), c.Count().Int64())
	s := c.NewSampler(7)
	hist := map[string]int{}
	v := make([]bool, 3)
	for range 8000 {
		require.True(t, s.Next(v))
		hist[bitString(v)]++
	}
	require.Len(t, hist, 8)
	for k, n := range hist {
		require.InDelta(t, 1000, n, 150, k)
	}
}
