package logic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The reference's tie example: two technologies with mutually exclusive
// conditions. logic-solver 2.0.1 under Node returns ta (checked with
// testdata/oracle.js), because MiniSat decides var 0, then the highest
// index downwards, negatively.
func TestTieExample(t *testing.T) {
	s := NewSolver()
	require.NoError(t, s.Require(Equiv("ta", And("c", Not("tb")))))
	require.NoError(t, s.Require(Equiv("tb", And("c", Not("ta")))))
	require.NoError(t, s.Require("c"))
	sol, err := s.Solve()
	require.NoError(t, err)
	require.NotNil(t, sol)
	require.Equal(t, []string{"c", "ta"}, sol.GetTrueVars())
	require.Equal(t, [][]int{{-1}, {2}, {-5, 6, 4}, {3, -4}, {5, -4}, {-6, -4}, {-3, 4}, {-5, 3, 7}, {6, -7}, {5, -7}, {-3, -7}, {-6, 7}, {5}}, s.Clauses())
	names := []string{}
	for i := 1; i <= s.NumVars(); i++ {
		n, err := s.GetVarName(i)
		require.NoError(t, err)
		names = append(names, n)
	}
	require.Equal(t, []string{"$F", "$T", "ta", "$and1", "c", "tb", "$and2"}, names)
}
