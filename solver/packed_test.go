package solver

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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

// TestCheckedSetSorted: checkedSet marks a clause list sorted exactly
// where every clause is in residual form under no assignment, as
// allInResidualForm finds it, listed or packed, with empty, unsorted,
// repeated and complementary literals among the clauses.
func TestCheckedSetSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	sortedSeen, unsortedSeen := 0, 0
	for i := range 2000 {
		clauses := make([][]int, 1+rng.IntN(6))
		for j := range clauses {
			clauses[j] = make([]int, rng.IntN(4))
			for k := range clauses[j] {
				clauses[j][k] = (1 + rng.IntN(5)) * (1 - 2*rng.IntN(2))
			}
			if rng.IntN(3) > 0 {
				slices.SortFunc(clauses[j], cmpLit)
				clauses[j] = slices.CompactFunc(clauses[j], func(a, b int) bool { return abs(a) == abs(b) })
			}
		}
		cnf := &CNF{NumVars: 5, Clauses: clauses}
		if rng.IntN(2) == 0 {
			cnf = pack(cnf, rng.IntN(len(clauses)+1), 1+rng.IntN(6))
		}
		set, err := checkedSet(cnf)
		require.NoError(t, err, "case %d", i)
		want := allInResidualForm(cnf.set(), make([]int8, cnf.NumVars+1))
		require.Equal(t, want, set.sorted, "case %d: %v", i, clauses)
		if want {
			sortedSeen++
		} else {
			unsortedSeen++
		}
	}
	require.NotZero(t, sortedSeen, "some lists are sorted")
	require.NotZero(t, unsortedSeen, "some are not")
}

// TestPackedSortedWord: a packed list whose producer says it is sorted
// (Packed.Sorted) gives the same clause set as one read literal by
// literal; a false word is an error in test binaries, and a MaxVar beyond
// the CNF's variables is not taken at its word.
func TestPackedSortedWord(t *testing.T) {
	sorted := [][]int{{-1, 2}, {3}, {-2, -3, 4}}
	cases := []struct {
		name    string
		clauses [][]int
		nv      int
		maxVar  int
		sorted  bool   // set.sorted
		err     string // checkedSet's error, "" for none
	}{
		{name: "true word", clauses: sorted, nv: 4, maxVar: 4, sorted: true},
		{name: "fewer variables than the CNF's", clauses: sorted, nv: 9, maxVar: 4, sorted: true},
		{name: "repeated variable", clauses: [][]int{{-1, 1}, {2}}, nv: 2, maxVar: 2, err: "said to be sorted"},
		{name: "descending", clauses: [][]int{{2, 1}}, nv: 2, maxVar: 2, err: "said to be sorted"},
		{name: "empty clause", clauses: [][]int{{1}, {}}, nv: 1, maxVar: 1, err: "said to be sorted"},
		{name: "MaxVar beyond the CNF", clauses: sorted, nv: 3, maxVar: 4, err: "out of range"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cnf := pack(&CNF{NumVars: tc.nv, Clauses: tc.clauses}, 0, 2)
			cnf.Packed.Sorted, cnf.Packed.MaxVar = true, tc.maxVar
			set, err := checkedSet(cnf)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.sorted, set.sorted)
			require.Equal(t, tc.clauses, set.slices())
		})
	}
}

// TestOccurrences: occurrences gives every clause's length, listed or
// packed, empty clauses and clauses longer than a chunk among them, and
// each literal's list of the clauses it occurs in, in ascending order,
// whatever its arrays held before.
func TestOccurrences(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for i := range 300 {
		var clauses [][]int
		for range rng.IntN(12) {
			c := make([]int, rng.IntN(6))
			for j := range c {
				c[j] = (1 + rng.IntN(4)) * (1 - 2*rng.IntN(2))
			}
			clauses = append(clauses, c)
		}
		cnf := pack(&CNF{NumVars: 4, Clauses: clauses}, rng.IntN(len(clauses)+1), 1+rng.IntN(5))
		set := cnf.set()
		// What a propagation before left in the arrays: occurrences
		// must write every entry it hands back.
		count := make([]int32, set.len())
		for ci := range count {
			count[ci] = -7
		}
		tmp := takeTemps()
		for j, d := 0, tmp.occ.filled(64); j < len(d); j++ {
			d[j] = -5
		}
		start, occ := occurrences(cnf.NumVars, set, count, tmp)
		for ci, c := range clauses {
			require.Equal(t, c, append([]int{}, set.at(ci)...), "case %d", i)
			require.Equal(t, len(c), int(count[ci]), "case %d: clause %d's length", i, ci)
		}
		for v := 1; v <= cnf.NumVars; v++ {
			for _, l := range []int{v, -v} {
				var want []int32
				for ci, c := range clauses {
					for _, x := range c {
						if x == l {
							want = append(want, int32(ci))
						}
					}
				}
				li := litIndex(l)
				require.Equal(t, want, append([]int32(nil), occ[start[li]:start[li+1]]...), "case %d: literal %d", i, l)
			}
		}
		tmp.give()
	}
}

// TestPackedResidualForm: clauses already in residual form, as the encoder
// packs them (literals by variable, units among them), propagate and
// solve the same packed as listed: the path that queues the packed units
// in place.
func TestPackedResidualForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	ctx := context.Background()
	for i := range 400 {
		cnf := randomCNF(rng)
		for j, c := range cnf.Clauses {
			c = slices.Clone(c)
			slices.SortFunc(c, func(a, b int) int { return cmpLit(a, b) })
			c = slices.CompactFunc(c, func(a, b int) bool { return abs(a) == abs(b) })
			cnf.Clauses[j] = c
		}
		packed := pack(cnf, rng.IntN(len(cnf.Clauses)+1), 1+rng.IntN(8))
		what := fmt.Sprintf("case %d: %s", i, describe(cnf, nil, nil))
		wantPre, err := Presolve(cnf)
		require.NoError(t, err, what)
		gotPre, err := Presolve(packed)
		require.NoError(t, err, what)
		require.Equal(t, wantPre, gotPre, what)
		want, err := Solve(ctx, cnf, nil, nil)
		require.NoError(t, err, what)
		got, err := Solve(ctx, packed, nil, nil)
		require.NoError(t, err, what)
		require.Equal(t, want, got, what)
	}
}

func cmpLit(a, b int) int {
	if litLess(a, b) {
		return -1
	}
	if litLess(b, a) {
		return 1
	}
	return 0
}

// TestPackedCheck: the entry points refuse a packed list whose words are
// not all in its clauses, in order.
func TestPackedCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Packed
		want string
	}{
		{"fine", Packed{Chunks: [][]int{{1, 2, 3}, {}, {-1}}, Refs: []uint32{0, 2, 2 << 16}}, ""},
		{"an empty clause at a chunk's end", Packed{Chunks: [][]int{{1}, {}}, Refs: []uint32{0, 1 << 16}}, ""},
		{"words before the first clause", Packed{Chunks: [][]int{{1, 2}}, Refs: []uint32{1}}, "solver: packed clause 0: not where the clause before it ends"},
		{"a chunk of no clause", Packed{Chunks: [][]int{{1}, {2}, {3}}, Refs: []uint32{0, 2 << 16}}, "solver: packed clause 1: not where the clause before it ends"},
		{"a last chunk of no clause", Packed{Chunks: [][]int{{1}, {2}}, Refs: []uint32{0}}, "solver: packed chunk 1 holds words of no clause"},
		{"out of order", Packed{Chunks: [][]int{{1, 2, 3}}, Refs: []uint32{0, 2, 1}}, "solver: packed clause 2: not where the clause before it ends"},
		{"out of range", Packed{Chunks: [][]int{{1}}, Refs: []uint32{0, 5}}, "solver: packed clause 1: reference 0x5 out of range"},
		{"no chunk", Packed{Refs: []uint32{0}}, "solver: packed clause 0: reference 0x0 out of range"},
	} {
		err := validateCNF(&CNF{NumVars: 3, Packed: tc.p})
		if tc.want == "" {
			require.NoError(t, err, tc.name)
		} else {
			require.EqualError(t, err, tc.want, tc.name)
		}
	}
}
