package solver

import (
	"context"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMinimalUnsat(t *testing.T) {
	// Groups: 1: x1, 2: -x1 or x2, 3: -x2, 4: x3 (irrelevant), 5: x4 or x1.
	cnf := &CNF{NumVars: 4, Clauses: [][]int{{1}, {-1, 2}, {-2}, {3}, {4, 1}}}
	got, err := MinimalUnsat(context.Background(), cnf, []int{1, 2, 3, 4, 5})
	require.NoError(t, err)
	sort.Ints(got)
	require.Equal(t, []int{1, 2, 3}, got)

	// Background clauses are always kept.
	got, err = MinimalUnsat(context.Background(), cnf, []int{0, 2, 3, 4, 5})
	require.NoError(t, err)
	sort.Ints(got)
	require.Equal(t, []int{2, 3}, got)

	_, err = MinimalUnsat(context.Background(), &CNF{NumVars: 1, Clauses: [][]int{{1}}}, []int{1})
	require.Error(t, err)
}
