package solver

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// pack moves the clauses of cnf from its k-th on into Packed, in chunks of
// at most size words, a chunk starting where a clause does not fit, as the
// encoder's clause store lays them out.
func pack(cnf *CNF, k, size int) *CNF {
	out := &CNF{NumVars: cnf.NumVars, Clauses: cnf.Clauses[:k:k]}
	var cur []int
	for _, c := range cnf.Clauses[k:] {
		if len(cur)+len(c) > size && len(cur) > 0 {
			out.Packed.Chunks = append(out.Packed.Chunks, cur)
			cur = nil
		}
		out.Packed.Refs = append(out.Packed.Refs, uint32(len(out.Packed.Chunks))<<16|uint32(len(cur)))
		cur = append(cur, c...)
	}
	// An empty clause at a chunk's end has no words: the chunk still holds
	// its start.
	out.Packed.Chunks = append(out.Packed.Chunks, cur)
	return out
}

// TestPackedSameAsList: every entry point gives the same answer for a CNF
// whose clauses are partly or wholly packed as for the plain list.
func TestPackedSameAsList(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	ctx := context.Background()
	for i := range oracleCases(600, 150) {
		cnf := randomCNF(rng)
		k := rng.IntN(len(cnf.Clauses) + 1)
		packed := pack(cnf, k, 1+rng.IntN(8))
		what := fmt.Sprintf("case %d, %d listed: %s", i, k, describe(cnf, nil, nil))
		for j, c := range cnf.Clauses[k:] {
			require.Equal(t, append([]int{}, c...), append([]int{}, packed.Packed.At(j)...), what)
		}

		steps := randomSteps(rng, cnf.NumVars)
		want, err := Solve(ctx, cnf, steps, nil)
		require.NoError(t, err, what)
		got, err := Solve(ctx, packed, steps, nil)
		require.NoError(t, err, what)
		require.Equal(t, want, got, what)

		wantPre, err := Presolve(cnf)
		require.NoError(t, err, what)
		gotPre, err := Presolve(packed)
		require.NoError(t, err, what)
		require.Equal(t, wantPre, gotPre, what)

		var wantModels, gotModels [][]bool
		_, _, err = Enumerate(ctx, cnf, nil, 64, func(m []bool) bool { wantModels = append(wantModels, m); return true })
		require.NoError(t, err, what)
		_, _, err = Enumerate(ctx, packed, nil, 64, func(m []bool) bool { gotModels = append(gotModels, m); return true })
		require.NoError(t, err, what)
		require.Equal(t, wantModels, gotModels, what)

		wantCount, err := Count(ctx, cnf, nil)
		require.NoError(t, err, what)
		gotCount, err := Count(ctx, packed, nil)
		require.NoError(t, err, what)
		require.Equal(t, wantCount.String(), gotCount.String(), what)

		var a, b bytes.Buffer
		require.NoError(t, WriteDIMACS(&a, cnf, nil))
		require.NoError(t, WriteDIMACS(&b, packed, nil))
		require.Equal(t, a.String(), b.String(), what)
		a.Reset()
		b.Reset()
		obj := randomObjective(rng, cnf.NumVars)
		require.NoError(t, WriteOPB(&a, cnf, obj, nil))
		require.NoError(t, WriteOPB(&b, packed, obj, nil))
		require.Equal(t, a.String(), b.String(), what)

		if !want.Sat {
			groups := make([]int, len(cnf.Clauses))
			for j := range groups {
				groups[j] = 1 + j%3
			}
			wantCore, err := MinimalUnsat(ctx, cnf, groups)
			require.NoError(t, err, what)
			gotCore, err := MinimalUnsat(ctx, packed, groups)
			require.NoError(t, err, what)
			require.Equal(t, wantCore, gotCore, what)
		}
	}
	bad := pack(&CNF{NumVars: 2, Clauses: [][]int{{1, 2}, {-3}}}, 1, 4)
	_, err := Solve(ctx, bad, nil, nil)
	require.EqualError(t, err, "solver: clause 1: literal -3 out of range ±1..2")
}

// TestValidatePacked: a literal out of range is reported with the same
// clause index whether the clauses are listed or packed, empty clauses and
// chunk boundaries included.
func TestValidatePacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 7))
	for i := range 500 {
		clauses := make([][]int, 1+rng.IntN(10))
		for j := range clauses {
			clauses[j] = make([]int, rng.IntN(4))
			for k := range clauses[j] {
				clauses[j][k] = 1 + rng.IntN(3)
			}
		}
		if j := rng.IntN(len(clauses)); len(clauses[j]) > 0 && rng.IntN(4) > 0 {
			clauses[j][rng.IntN(len(clauses[j]))] = []int{0, 4, -4, 9}[rng.IntN(4)]
		}
		cnf := &CNF{NumVars: 3, Clauses: clauses}
		want := validateCNF(cnf)
		got := validateCNF(pack(cnf, rng.IntN(len(clauses)+1), 1+rng.IntN(5)))
		require.Equal(t, fmt.Sprint(want), fmt.Sprint(got), "case %d", i)
	}
}

// TestClauseSetWalks: all yields every clause of a partly packed set with
// its index, as at gives it, in order, and stops where its function says;
// lengths gives their lengths. Empty clauses and clauses longer than a
// chunk are among them.
func TestClauseSetWalks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for i := range 300 {
		var clauses [][]int
		for range rng.IntN(12) {
			c := make([]int, rng.IntN(6))
			for j := range c {
				c[j] = 1 + rng.IntN(4)
			}
			clauses = append(clauses, c)
		}
		cnf := pack(&CNF{NumVars: 4, Clauses: clauses}, rng.IntN(len(clauses)+1), 1+rng.IntN(5))
		set := cnf.set()
		var want, got [][]int
		for j := range set.len() {
			want = append(want, set.at(j))
		}
		require.True(t, set.all(func(j int, c []int) bool {
			require.Equal(t, len(got), j, "case %d", i)
			got = append(got, c)
			return true
		}))
		require.Equal(t, want, got, "case %d", i)
		n := make([]int32, cnf.Packed.Len())
		cnf.Packed.lengths(n)
		for j := range n {
			require.Equal(t, len(clauses[len(cnf.Clauses)+j]), int(n[j]), "case %d", i)
		}
		if len(want) > 0 {
			stop, seen := rng.IntN(len(want)), 0
			require.False(t, set.all(func(j int, _ []int) bool { seen++; return j != stop }))
			require.Equal(t, stop+1, seen, "case %d", i)
		}
	}
}
