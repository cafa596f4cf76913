package solver

import (
	"strings"
	"testing"

	"github.com/crillab/gophersat/bf"
	gs "github.com/crillab/gophersat/solver"
	"github.com/stretchr/testify/require"
)

// Canary tests pin the known bugs of gophersat v1.4.0 that shape this
// package (solver.md §4). They assert today's broken behaviour: if an upgrade
// fixes a bug, its canary fails, and solver.md should be re-read before
// relaxing any workaround.

func TestCanaryAssumeDropsUnits(t *testing.T) {
	gophersatMu.Lock()
	defer gophersatMu.Unlock()
	// {x1} ∧ {¬x1 ∨ x2} under the assumption ¬x1 is UNSAT, but Assume resets
	// the trail to the assumptions and forgets the problem's own units
	// (solver.md §4.3).
	s := gs.New(gs.ParseSlice([][]int{{1}, {-1, 2}}))
	s.Assume([]gs.Lit{gs.IntToLit(-1)})
	require.Equal(t, gs.Sat, s.Solve(), "bug fixed upstream? Assume now keeps the problem's units")
}

func TestCanaryMinimizeLeavesSolverUnsat(t *testing.T) {
	gophersatMu.Lock()
	defer gophersatMu.Unlock()
	// Minimise x1 + x2 subject to x1 ∨ x2: optimum 1. Afterwards the solver
	// stays UNSAT because of its last bound, so it cannot serve a uniqueness
	// check (solver.md §4.5).
	pb := gs.ParseSliceNb([][]int{{1, 2}}, 3)
	pb.SetCostFunc(gs.IntsToLits(1, 2), []int{1, 1})
	s := gs.New(pb)
	require.Equal(t, 1, s.Minimize())
	s.AppendClause(gs.NewClause(gs.IntsToLits(1, 3)))
	require.Equal(t, gs.Unsat, s.Solve(), "bug fixed upstream? the solver is usable after Minimize")
}

func TestCanaryBfUnsoundNestedAndInOr(t *testing.T) {
	gophersatMu.Lock()
	defer gophersatMu.Unlock()
	// The defect of PR #34: when bf replaces an "and" inside an "or" by a
	// dummy variable, it guards only the first clause of each conjunct.
	// Here the unguarded clauses force y ∨ z although w alone satisfies the
	// disjunction (solver.md §4.1).
	x, y, z, q, w := bf.Var("x"), bf.Var("y"), bf.Var("z"), bf.Var("q"), bf.Var("w")
	f := bf.And(
		bf.Or(bf.And(bf.Or(bf.And(x, y), z), q), w),
		bf.Not(y),
		bf.Not(z),
	)
	require.True(t, f.Eval(map[string]bool{"x": false, "y": false, "z": false, "q": false, "w": true}), "the formula is satisfiable")
	require.Nil(t, bf.Solve(f), "bug fixed upstream? bf.Solve now finds a model")
}

// TestCanaryRepeatedCostLiteralsPanicMinimize pins a crash found by the
// Minimize oracle: repeated or complementary cost literals reach clause
// learning through Minimize's bound, which then indexes its trail at -1.
// Our normalised objectives never contain either (solver.md §5.5).
func TestCanaryRepeatedCostLiteralsPanicMinimize(t *testing.T) {
	gophersatMu.Lock()
	defer gophersatMu.Unlock()
	pb := gs.ParseSliceNb([][]int{{1, 2}, {-1, -2}, {3, 4}, {5, 6}, {7, 8}, {-7, -8}}, 8)
	lits := gs.IntsToLits(-1, 7, 4, -8, -5, 7, -6, 6, -8, -7, -3, -6)
	weights := make([]int, len(lits))
	for i := range weights {
		weights[i] = 1
	}
	pb.SetCostFunc(lits, weights)
	s := gs.New(pb)
	require.Panics(t, func() { s.Minimize() }, "bug fixed upstream? Minimize accepts repeated cost literals")
}

// TestCanaryParseOPBMissesContradictoryUnits pins why the OPB round trip test
// avoids unit clauses: ParseOPB records x1 ≥ 1 and ~x1 ≥ 1 as units without
// checking them against each other, and the problem then looks satisfiable.
func TestCanaryParseOPBMissesContradictoryUnits(t *testing.T) {
	gophersatMu.Lock()
	defer gophersatMu.Unlock()
	pb, err := gs.ParseOPB(strings.NewReader("+1 x1 >= 1 ;\n+1 ~x1 >= 1 ;\n"))
	require.NoError(t, err)
	require.NotEqual(t, gs.Unsat, pb.Status)
	require.Equal(t, gs.Sat, gs.New(pb).Solve(), "bug fixed upstream? ParseOPB now sees the contradiction")
}
