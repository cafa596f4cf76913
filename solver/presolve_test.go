package solver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// copyingClean is cleanClauses without sharing: every clause is copied,
// cleaned and sorted, and units are taken out of the list.
func copyingClean(raw [][]int, val []int8) (cleaned [][]int, units []int, ok bool) {
outer:
	for _, c := range raw {
		var seg []int
		for _, l := range c {
			switch f := val[abs(l)]; {
			case f == 0:
				seg = append(seg, l)
			case (f > 0) == (l > 0):
				continue outer
			}
		}
		sortLits(seg)
		seg = slices.Compact(seg)
		for i := 1; i < len(seg); i++ {
			if seg[i-1] == -seg[i] {
				continue outer
			}
		}
		switch len(seg) {
		case 0:
			return nil, nil, false
		case 1:
			units = append(units, seg[0])
		default:
			cleaned = append(cleaned, seg)
		}
	}
	return cleaned, units, true
}

// assignAll assigns every literal of ls; false on a conflict.
func assignAll(val []int8, ls []int) bool {
	for _, l := range ls {
		if _, ok := assign(val, l); !ok {
			return false
		}
	}
	return true
}

// copyingPropagate is propagate on top of copyingClean, with a plain
// fixpoint loop instead of occurrence lists.
func copyingPropagate(nv int, raw [][]int, units []int) (residual, bool) {
	val := make([]int8, nv+1)
	if !assignAll(val, units) {
		return residual{}, false
	}
	clauses, rawUnits, ok := copyingClean(raw, val)
	if !ok || !assignAll(val, rawUnits) {
		return residual{}, false
	}
	for changed := true; changed; {
		next, newUnits, ok := copyingClean(clauses, val)
		if !ok || !assignAll(val, newUnits) {
			return residual{}, false
		}
		changed = len(newUnits) > 0
		clauses = next
	}
	return residual{nv: nv, fixed: val, clauses: clauses}, true
}

// TestPropagateSharesCleanClauses checks that sharing clauses already in
// residual form, and the whole clause list when every clause is, gives the
// residual a full copy gives: the same fixed values and the same clauses in
// the same order.
func TestPropagateSharesCleanClauses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 3000 {
		cnf := randomCNF(rng)
		switch i % 3 {
		case 1: // every clause in residual form, units included
			var clean [][]int
			for _, c := range cnf.Clauses {
				if s, _, ok := copyingClean([][]int{c}, make([]int8, cnf.NumVars+1)); ok && len(s) == 1 {
					clean = append(clean, s[0])
				}
			}
			if rng.IntN(2) == 0 {
				clean = append(clean, []int{1 + rng.IntN(cnf.NumVars)})
			}
			cnf.Clauses = clean
		case 2: // some clauses in residual form, some not
			sortSome(rng, cnf.Clauses)
		}
		var units []int
		if rng.IntN(4) == 0 {
			units = []int{1 + rng.IntN(cnf.NumVars)}
		}
		what := fmt.Sprintf("case %d: units=%v cnf=%+v", i, units, *cnf)
		var before [][]int
		for _, c := range cnf.Clauses {
			before = append(before, slices.Clone(c))
		}
		var st Stats
		got, ok := propagate(cnf.NumVars, nil, nil, cnf.set(), units, &st)
		want, wantOK := copyingPropagate(cnf.NumVars, cnf.Clauses, units)
		require.Equal(t, before, cnf.Clauses, "the input changed: %s", what)
		requireSameResidual(t, want, wantOK, got, ok, what)
	}
}

// sortSome sorts about half of the clauses into residual form, each a copy.
func sortSome(rng *rand.Rand, clauses [][]int) {
	for j, c := range clauses {
		if rng.IntN(2) == 0 {
			c = slices.Clone(c)
			sortLits(c)
			clauses[j] = c
		}
	}
}

// requireSameResidual requires propagate's outcome to be copyingPropagate's.
func requireSameResidual(t *testing.T, want residual, wantOK bool, got residual, ok bool, what string) {
	t.Helper()
	require.Equal(t, wantOK, ok, what)
	if !ok {
		return
	}
	require.Equal(t, want.fixed, got.fixed, what)
	if len(want.clauses) == 0 {
		require.Empty(t, got.clauses, what)
		return
	}
	require.Equal(t, want.clauses, got.clauses, what)
}

// TestPropagateImplications checks propagation on formulas that are mostly
// clauses of two literals, as encodings are: long implication chains in
// reverse order, with clauses of one and three literals among them, listed
// or packed, against the plain fixpoint of copyingPropagate.
func TestPropagateImplications(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	for i := range 2000 {
		n := 2 + rng.IntN(60)
		cnf := &CNF{NumVars: n}
		lit := func() int { return randomLit(rng, n) }
		for range rng.IntN(3 * n) {
			switch r := rng.IntN(20); {
			case r == 0:
				cnf.Clauses = append(cnf.Clauses, []int{lit()})
			case r < 4:
				cnf.Clauses = append(cnf.Clauses, []int{lit(), lit(), lit()})
			default:
				cnf.Clauses = append(cnf.Clauses, []int{lit(), lit()})
			}
		}
		if i%2 == 0 {
			// A chain v → v+1 → ..., in reverse order, set off by its end.
			for v := n - 1; v >= 1; v-- {
				cnf.Clauses = append(cnf.Clauses, []int{-v, v + 1})
			}
			cnf.Clauses = append(cnf.Clauses, []int{1})
		}
		sortSome(rng, cnf.Clauses)
		var units []int
		if rng.IntN(3) == 0 {
			units = []int{lit()}
		}
		what := fmt.Sprintf("case %d: units=%v cnf=%+v", i, units, *cnf)
		want, wantOK := copyingPropagate(cnf.NumVars, cnf.Clauses, units)
		for _, in := range []*CNF{cnf, pack(cnf, rng.IntN(len(cnf.Clauses)+1), 1+rng.IntN(8))} {
			var st Stats
			got, ok := propagate(in.NumVars, nil, nil, in.set(), units, &st)
			requireSameResidual(t, want, wantOK, got, ok, what)
		}
	}
}
