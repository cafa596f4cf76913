package encode

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// expr is a random formula for the oracle: op over children, or a variable
// (op "var") or a constant.
type rexpr struct {
	op   string
	v    int
	kids []*rexpr
}

func (x *rexpr) String() string {
	switch x.op {
	case "var":
		return fmt.Sprintf("x%d", x.v)
	case "true", "false":
		return x.op
	}
	return fmt.Sprintf("%s%v", x.op, x.kids)
}

func (x *rexpr) eval(assign []bool) bool {
	switch x.op {
	case "var":
		return assign[x.v]
	case "true":
		return true
	case "false":
		return false
	case "not":
		return !x.kids[0].eval(assign)
	}
	n := 0
	for _, k := range x.kids {
		if k.eval(assign) {
			n++
		}
	}
	switch x.op {
	case "and":
		return n == len(x.kids)
	case "or":
		return n > 0
	case "xor":
		return n%2 == 1
	case "amo":
		return n <= 1
	case "exo":
		return n == 1
	case "implies":
		return !x.kids[0].eval(assign) || x.kids[1].eval(assign)
	}
	panic(x.op)
}

func (x *rexpr) build(b *Builder, vars []Lit) Lit {
	switch x.op {
	case "var":
		return vars[x.v]
	case "true":
		return True
	case "false":
		return False
	case "not":
		return Not(x.kids[0].build(b, vars))
	}
	ls := make([]Lit, len(x.kids))
	for i, k := range x.kids {
		ls[i] = k.build(b, vars)
	}
	switch x.op {
	case "and":
		return b.And(ls...)
	case "or":
		return b.Or(ls...)
	case "xor":
		return b.Xor(ls...)
	case "amo":
		return b.Amo(ls...)
	case "exo":
		return b.Exo(ls...)
	}
	return b.Implies(ls[0], ls[1])
}

func randExpr(r *rand.Rand, nvars, depth int) *rexpr {
	if depth == 0 || r.Intn(4) == 0 {
		switch r.Intn(12) {
		case 0:
			return &rexpr{op: "true"}
		case 1:
			return &rexpr{op: "false"}
		}
		return &rexpr{op: "var", v: r.Intn(nvars)}
	}
	ops := []string{"and", "or", "xor", "amo", "exo", "not", "implies"}
	op := ops[r.Intn(len(ops))]
	n := r.Intn(8)
	switch op {
	case "not":
		n = 1
	case "implies":
		n = 2
	}
	x := &rexpr{op: op}
	for i := 0; i < n; i++ {
		x.kids = append(x.kids, randExpr(r, nvars, depth-1))
	}
	return x
}

// satisfiable reports whether the clauses have a model extending the fixed
// values of the first n variables (a DPLL-free brute force over the rest).
func satisfiable(clauses [][]int, numVars int, fixed []bool) bool {
	assign := make([]bool, numVars+1)
	for i, v := range fixed {
		assign[i+1] = v
	}
	free := numVars - len(fixed)
	for m := 0; m < 1<<free; m++ {
		for i := range free {
			assign[len(fixed)+1+i] = m&(1<<i) != 0
		}
		ok := true
		for _, c := range clauses {
			sat := false
			for _, l := range c {
				if (l > 0) == assign[abs(l)] {
					sat = true
					break
				}
			}
			if !sat {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestBuilderOracle checks every operator, constant folding and hash-consing
// against direct evaluation: for every assignment of the inputs, the CNF with
// the formula required is satisfiable iff the formula is true, and so is the
// CNF with its negation required iff it is false (two-sided definitions).
func TestBuilderOracle(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	const nvars = 4
	checked := 0
	for iter := 0; iter < 3000 && checked < 600; iter++ {
		x := randExpr(r, nvars, 3)
		for _, negate := range []bool{false, true} {
			b := NewBuilder()
			vars := make([]Lit, nvars)
			for i := range vars {
				vars[i] = b.Var(fmt.Sprintf("x%d", i))
			}
			l := x.build(b, vars)
			if negate {
				l = Not(l)
			}
			b.Require(l)
			if b.NumVars()-nvars > 12 {
				continue
			}
			checked++
			for m := range 1 << nvars {
				assign := make([]bool, nvars)
				for i := range assign {
					assign[i] = m&(1<<i) != 0
				}
				want := x.eval(assign) != negate
				got := !b.Unsat() && satisfiable(b.Clauses(), b.NumVars(), assign)
				require.Equal(t, want, got, "formula %v (negated %v) under %v", x, negate, assign)
			}
		}
	}
	require.Greater(t, checked, 300, "too few formulas checked")
}

func TestEdgeCases(t *testing.T) {
	b := NewBuilder()
	a := b.Var("a")
	for _, tc := range []struct {
		name string
		got  Lit
		want Lit
	}{
		{"and()", b.And(), True},
		{"or()", b.Or(), False},
		{"xor()", b.Xor(), False},
		{"exo()", b.Exo(), False},
		{"amo()", b.Amo(), True},
		{"amo(a)", b.Amo(a), True},
		{"exo(a)", b.Exo(a), a},
		{"and(a)", b.And(a), a},
		{"and(a,-a)", b.And(a, Not(a)), False},
		{"or(a,-a)", b.Or(a, Not(a)), True},
		{"xor(a,a)", b.Xor(a, a), False},
		{"xor(true,a)", b.Xor(True, a), Not(a)},
	} {
		require.Equal(t, tc.want, tc.got, tc.name)
	}
	// Hash-consing: the same conjunction twice is one variable.
	c := b.Var("c")
	require.Equal(t, b.And(a, c), b.And(c, a))
}

func TestLazyVars(t *testing.T) {
	b := NewBuilder()
	x := b.Var("x")
	names := []string{"node.a", "node.b", "manual.node.a"}
	calls := 0
	first := b.LazyVars(len(names), func(i int) string { calls++; return names[i] }, func(s string) bool { return s != "x" && s != "y" })
	y := b.Var("y")
	require.Zero(t, calls, "names must not be computed before they are needed")
	require.Equal(t, first+1, b.Var("node.b"))
	require.Equal(t, first+2, b.Var("manual.node.a"))
	l, ok := b.Lookup("node.a")
	require.True(t, ok)
	require.Equal(t, first, l)
	require.NotEqual(t, x, y)
	require.Equal(t, []string{"", "x", "node.a", "node.b", "manual.node.a", "y"}, b.Names())
}

func TestMayBeElementVar(t *testing.T) {
	require.True(t, mayBeElementVar("manual.node.a"))
	require.True(t, mayBeElementVar("technology.t@0.node.a"))
	require.False(t, mayBeElementVar("expression.e"))
	require.False(t, mayBeElementVar("nodes"))
}

// unpack reads a packed list chunk by chunk: each clause runs to the
// start of the chunk's next one.
func unpack(p Packed) [][]int {
	var out [][]int
	for i := 0; i < len(p.Refs); {
		c := p.Refs[i] >> 16
		var starts []int
		for ; i < len(p.Refs) && p.Refs[i]>>16 == c; i++ {
			starts = append(starts, int(p.Refs[i]&0xffff))
		}
		starts = append(starts, len(p.Chunks[c]))
		for k := range len(starts) - 1 {
			out = append(out, p.Chunks[c][starts[k]:starts[k+1]])
		}
	}
	return out
}

// TestClausesAcrossChunks checks the clause list against the clauses as
// added, across chunk boundaries and start-bit words, with clauses longer
// than a chunk, and with Clauses and Packed called between additions.
func TestSortClause(t *testing.T) {
	for _, tc := range []struct{ in, want []int }{
		{[]int{5}, []int{5}},
		{[]int{2, -1}, []int{-1, 2}},
		{[]int{-1, 2}, []int{-1, 2}},
		{[]int{3, -3}, []int{-3, 3}},
		{[]int{-3, 3}, []int{-3, 3}},
		{[]int{4, 4}, []int{4, 4}},
		{[]int{3, -1, 2, -3, 1}, []int{-1, 1, 2, -3, 3}},
		{[]int{-2, 2, -2}, []int{-2, -2, 2}},
		{[]int{9, 8, 7, 6, 5, 4, 3, 2, 1, -9, -8, -7, -6, -5, -4, -3, -2, -1}, []int{-1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -7, 7, -8, 8, -9, 9}},
	} {
		got := slices.Clone(tc.in)
		sortClause(got)
		require.Equal(t, tc.want, got, "%v", tc.in)
	}
}

func TestClausesAcrossChunks(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	b := NewBuilder()
	var want [][]int
	var earlier [][][]int
	var earlierPacked []Packed
	for i := range 20000 {
		n := 1 + rng.Intn(4)
		switch {
		case i%5000 == 17:
			n = 70000 // longer than the largest chunk
		case i%97 == 0:
			n = 64 + rng.Intn(130)
		}
		c := make([]Lit, n)
		w := make([]int, n)
		for j := range c {
			c[j] = Lit(1 + rng.Intn(1000))
			if rng.Intn(2) == 0 {
				c[j] = -c[j]
			}
			w[j] = int(c[j])
		}
		b.add(c...)
		// Stored by variable, the negative literal first.
		sort.SliceStable(w, func(i, j int) bool {
			if vi, vj := abs(w[i]), abs(w[j]); vi != vj {
				return vi < vj
			}
			return w[i] < 0 && w[j] > 0
		})
		want = append(want, w)
		switch rng.Intn(3000) {
		case 0:
			got := b.Clauses()
			require.Equal(t, want, got)
			earlier = append(earlier, got)
		case 1:
			p := b.Packed()
			require.Equal(t, want, unpack(p), "packed")
			earlierPacked = append(earlierPacked, p)
		}
	}
	got := b.Clauses()
	require.Equal(t, want, got)
	require.Equal(t, want, unpack(b.Packed()), "packed")
	for _, e := range earlier {
		require.Equal(t, want[:len(e)], e, "an earlier list changed")
	}
	require.NotEmpty(t, earlierPacked)
	for _, e := range earlierPacked {
		require.Equal(t, want[:len(e.Refs)], unpack(e), "an earlier packed list changed")
	}
	require.Panics(t, func() { b.add() }, "an empty clause")
}

// TestAnd2: And and Or of two literals (and2) give what the general case
// gives for the same two literals with a constant that changes nothing
// added, constants, repeats and complements included: the same literal,
// the same new variables and the same clauses, and one gate per pair in
// either order.
func TestAnd2(t *testing.T) {
	lits := []Lit{True, False, 1, -1, 2, -2}
	for _, x := range lits {
		for _, y := range lits {
			fast, slow := NewBuilder(), NewBuilder()
			for _, b := range []*Builder{fast, slow} {
				b.Var("a")
				b.Var("b")
			}
			require.Equal(t, slow.And(x, y, True), fast.And(x, y), "and %d %d", x, y)
			require.Equal(t, slow.Or(x, y, False), fast.Or(x, y), "or %d %d", x, y)
			require.Equal(t, slow.NumVars(), fast.NumVars(), "%d %d", x, y)
			require.Equal(t, slow.Clauses(), fast.Clauses(), "%d %d", x, y)
		}
	}
	b := NewBuilder()
	x, y := b.Var("x"), b.Var("y")
	g := b.And(x, -y)
	require.Equal(t, g, b.And(-y, x), "one gate per pair")
	require.Equal(t, g, b.And(-y, x, True, -y), "the general case finds the same gate")
	require.Equal(t, 3, b.NumVars())
}

// TestLazyPairs: the second half of a LazyPairs block is found through the
// first, its names made only for Names; a prefixed name whose rest is a
// variable outside the block is a variable of its own.
func TestLazyPairs(t *testing.T) {
	b := NewBuilder()
	names := []string{"node.a", "node.b"}
	computed := 0
	first := b.LazyPairs(len(names), func(i int) string { computed++; return names[i] }, "manual.", mayBeElementVar)
	require.Equal(t, 4, b.NumVars())
	require.Equal(t, first+3, b.Var("manual.node.b"))
	require.Equal(t, 2, computed, "only the first half's names are made for the index")
	require.Equal(t, first, b.Var("node.a"))
	l, ok := b.Lookup("manual.node.a")
	require.True(t, ok)
	require.Equal(t, first+2, l)
	z := b.Var("node.z")
	require.Equal(t, Lit(5), z)
	mz := b.Var("manual.node.z")
	require.Equal(t, Lit(6), mz, "node.z is outside the block: manual.node.z is a new variable")
	_, ok = b.Lookup("manual.node.c")
	require.False(t, ok)
	_, ok = b.Lookup("manual.")
	require.False(t, ok)
	require.Equal(t, []string{"", "node.a", "node.b", "manual.node.a", "manual.node.b", "node.z", "manual.node.z"}, b.Names())
}

// TestClausesInArrays stores the clauses of builder after builder in one
// Arrays, with a Reset between them, as a batch worker's runs do: each
// builder's clauses read back as a fresh builder's, from the chunks of the
// builder before.
func TestClausesInArrays(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var arrays Arrays
	for round, count := range []int{3000, 200, 3000, 5000} {
		arrays.Reset()
		b, fresh := newBuilder(0, 0, &arrays), NewBuilder()
		for range count {
			c := make([]Lit, 1+rng.Intn(5))
			for j := range c {
				c[j] = Lit(1 + rng.Intn(500))
			}
			b.add(c...)
			fresh.add(c...)
		}
		require.Equal(t, fresh.Clauses(), b.Clauses(), "round %d", round)
		require.Equal(t, unpack(fresh.Packed()), unpack(b.Packed()), "round %d, packed", round)
	}
	require.NotZero(t, arrays.literals.Held())
}

// TestBuilderMapsReused builds the same formulas, and then others, with
// builders that take their name index and gate caches from one Arrays, a
// Reset between them: each gives a fresh builder's variables, names and
// clauses, so that nothing of a builder before leaks into the next.
func TestBuilderMapsReused(t *testing.T) {
	build := func(b *Builder, round int) {
		x, y, z := b.Var("x"), b.Var(fmt.Sprintf("y%d", round)), b.Var("z")
		b.Require(b.Or(b.And(x, y), b.And(x, y, z), b.Xor(y, z)))
		b.Require(b.And(-x, z))
		if round%2 == 1 {
			b.Require(b.And(x, -y, z))
		}
	}
	var arrays Arrays
	for round := range 4 {
		arrays.Reset()
		b, fresh := newBuilder(4, 4, &arrays), NewBuilderSize(4)
		require.NotNil(t, b.maps, "round %d takes the maps", round)
		require.Nil(t, newBuilder(4, 4, &arrays).maps, "a second builder in the same round makes its own")
		build(b, round)
		build(fresh, round)
		require.Equal(t, fresh.Names(), b.Names(), "round %d", round)
		require.Equal(t, fresh.Clauses(), b.Clauses(), "round %d", round)
	}
}

// TestTermOnce checks that TermOnce's unindexed variables are Var's: a
// lookup of a deferred name finds TermOnce's variable, a name made by Var
// first is TermOnce's too, names of other prefixes leave the deferring
// on, and Names lists every variable.
func TestTermOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(b *Builder) (got, want Lit)
	}{
		{"Var after TermOnce", func(b *Builder) (Lit, Lit) {
			a := b.TermOnce("expression.a")
			return b.Var("expression.a"), a
		}},
		{"Lookup after TermOnce", func(b *Builder) (Lit, Lit) {
			a := b.TermOnce("expression.a")
			l, _ := b.Lookup("expression.a")
			return l, a
		}},
		{"TermOnce after Var", func(b *Builder) (Lit, Lit) {
			a := b.Var("expression.a")
			return b.TermOnce("expression.a"), a
		}},
		{"TermOnce after the deferring ended", func(b *Builder) (Lit, Lit) {
			b.TermOnce("expression.a")
			a := b.Var("expression.b")
			return b.TermOnce("expression.b"), a
		}},
		{"other names leave it deferred", func(b *Builder) (Lit, Lit) {
			b.Var("input.x")
			a := b.TermOnce("expression.a")
			require.NotEmpty(t, b.onceIn, "still deferred")
			return b.Var("expression.a"), a
		}},
		{"a name of another prefix is Var's", func(b *Builder) (Lit, Lit) {
			a := b.TermOnce("input.x")
			require.Contains(t, b.byName, "input.x", "indexed as Var does")
			return b.Var("input.x"), a
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			b.DeferTerms("expression.")
			got, want := tc.run(b)
			require.Equal(t, want, got)
			seen := map[string]bool{}
			for _, n := range b.Names()[1:] {
				require.False(t, n != "" && seen[n], "%s named twice", n)
				seen[n] = true
			}
			require.True(t, seen[b.Names()[want]], "the variable is named")
		})
	}
	b := NewBuilder()
	b.DeferTerms("expression.")
	x, y := b.TermOnce("expression.x"), b.TermOnce("expression.y")
	require.Equal(t, []string{"", "expression.x", "expression.y"}, b.Names())
	require.Empty(t, b.byName, "not indexed")
	l, ok := b.Lookup("expression.y")
	require.True(t, ok)
	require.Equal(t, y, l)
	require.Equal(t, map[string]Lit{"expression.x": x, "expression.y": y}, b.byName)
}

// TestAndShares: a gate of three or more literals is made once
// for its set of literals, in whatever order and with whatever repeats
// they come, and gates of different sets (three against four literals
// with the same first three, four against five) are different.
func TestAndShares(t *testing.T) {
	b := NewBuilder()
	v := make([]Lit, 7)
	for i := range v {
		v[i] = b.Var(string(rune('a' + i)))
	}
	three := b.And(v[0], v[1], v[2])
	require.Equal(t, three, b.And(v[2], v[0], v[1], v[0]))
	four := b.And(v[0], v[1], v[2], v[3])
	require.NotEqual(t, three, four)
	require.Equal(t, four, b.And(v[3], v[2], v[1], v[0]))
	five := b.And(v[0], v[1], v[2], v[3], v[4])
	require.NotEqual(t, four, five)
	require.Equal(t, five, b.And(v[4], v[3], v[2], v[1], v[0], v[4]))
	neg := b.And(-v[0], v[1], v[2])
	require.NotEqual(t, three, neg)
	require.Equal(t, neg, b.And(v[2], -v[0], v[1]))
	require.Equal(t, -b.And(-v[4], -v[5], -v[6]), b.Or(v[4], v[5], v[6]))
}

// TestPackedSortedWord: the packed list says it is sorted (Sorted) exactly
// where no clause repeats a variable, and MaxVar is the largest variable
// stored, as the solver checks in its test binary.
func TestPackedSortedWord(t *testing.T) {
	cases := []struct {
		name    string
		clauses [][]Lit
		sorted  bool
		maxVar  int
	}{
		{name: "none", sorted: true},
		{name: "distinct variables in any order", clauses: [][]Lit{{3, -1}, {2}, {-5, 4, -2}}, sorted: true, maxVar: 5},
		{name: "a repeated literal", clauses: [][]Lit{{1, 2}, {3, 3}}, maxVar: 3},
		{name: "complementary literals", clauses: [][]Lit{{-4, 1, 4}}, maxVar: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s clauseStore
			for _, c := range tc.clauses {
				s.add(slices.Clone(c))
			}
			p := s.packed()
			require.Equal(t, tc.sorted, p.Sorted)
			require.Equal(t, tc.maxVar, p.MaxVar)
		})
	}
}
