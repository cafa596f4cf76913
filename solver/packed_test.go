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
