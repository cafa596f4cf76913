package solver

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkCovering checks that every row is a model and that every
// interaction of t features that some model has is in some row.
func checkCovering(t *testing.T, name string, cnf *CNF, proj []int, features []int, strength int, rows [][]bool) {
	t.Helper()
	models := bruteProjections(cnf, proj)
	isModel := map[string]bool{}
	for _, m := range models {
		isModel[m] = true
	}
	for _, r := range rows {
		require.True(t, isModel[bitString(r)], "%s: row %s is no model", name, bitString(r))
	}
	holds := func(s string, f int) bool {
		if f > 0 {
			return s[f-1] == '1'
		}
		return s[-f-1] == '0'
	}
	var rec func(from int, chosen []int)
	rec = func(from int, chosen []int) {
		if len(chosen) == strength {
			has := func(s string) bool {
				for _, f := range chosen {
					if !holds(s, f) {
						return false
					}
				}
				return true
			}
			feasible := slices.ContainsFunc(models, has)
			if !feasible {
				return
			}
			for _, r := range rows {
				if has(bitString(r)) {
					return
				}
			}
			t.Fatalf("%s: interaction %v is not covered by %d rows", name, chosen, len(rows))
		}
		for i := from; i < len(features); i++ {
			rec(i+1, append(chosen, features[i]))
		}
	}
	rec(0, nil)
}

func allFeatures(n int) []int {
	var fs []int
	for i := 1; i <= n; i++ {
		fs = append(fs, i, -i)
	}
	return fs
}

func TestCoveringOracle(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for iter := range oracleCases(400, 100) {
		cnf := randomSpaceCNF(r)
		proj := randomProjection(r, cnf.NumVars, 4)
		c, err := Compile(context.Background(), cnf, proj, CompileOptions{})
		require.NoError(t, err)
		strength := 1 + iter%3
		rows, err := c.CoveringSample(context.Background(), CoveringOptions{T: strength, Features: allFeatures(len(proj)), Seed: uint64(iter), Candidates: 3, Restarts: 2})
		require.NoError(t, err)
		name := fmt.Sprintf("iter %d t=%d cnf %v proj %v", iter, strength, cnf.Clauses, proj)
		if !c.Satisfiable() {
			require.Empty(t, rows, name)
			continue
		}
		require.NotEmpty(t, rows, name)
		checkCovering(t, name, cnf, proj, allFeatures(len(proj)), strength, rows)
	}
}

// TestPairwiseFreeChoices: 20 independent choices need 8 rows at best
// (CAN(2,20,2)); the greedy sample must stay near that.
func TestPairwiseFreeChoices(t *testing.T) {
	for _, k := range []int{2, 5, 10, 20} {
		cnf := &CNF{NumVars: 2 * k}
		var proj []int
		for i := range k {
			a, b := 2*i+1, 2*i+2
			cnf.Clauses = append(cnf.Clauses, []int{a, b}, []int{-a, -b})
			proj = append(proj, a, b)
		}
		c, err := Compile(context.Background(), cnf, proj, CompileOptions{})
		require.NoError(t, err)
		rows, err := c.CoveringSample(context.Background(), CoveringOptions{T: 2, Features: allFeatures(len(proj)), Seed: 1})
		require.NoError(t, err)
		t.Logf("k=%d: %d rows", k, len(rows))
		require.LessOrEqual(t, len(rows), 12, "k=%d", k)
		if k <= 10 {
			checkCovering(t, fmt.Sprint(k), cnf, proj, allFeatures(len(proj)), 2, rows)
		}
	}
}
