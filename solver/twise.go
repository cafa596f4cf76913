package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
)

// t-wise covering samples (spaces.md §3, after YASA, IncLing and AETG). An
// interaction is a set of t feature literals over distinct variables; a
// sample covers it when one of its models sets all of them. The sample is
// built greedily, one model at a time: seed the model with the first
// interaction not yet covered (skipping those no model has), then fix the
// other variables one by one, each to the feasible value that covers the
// most uncovered interactions with the values fixed so far; of several
// such candidate models (random variable orders from the seed), keep the
// one that covers the most. Feasibility is exact: the circuit says which
// values every variable can still take under the values fixed so far.

// MaxInteractions bounds the interactions a covering sample tracks (one
// bit each).
const MaxInteractions = 1 << 28

// CoveringOptions tune CoveringSample.
type CoveringOptions struct {
	// T is the strength: 1, 2 or 3.
	T int
	// Features are the literals to cover, as projection indices: +(i+1)
	// for "variable i true", -(i+1) for "false".
	Features []int
	// Seed drives the variable orders; the same seed gives the same sample.
	Seed uint64
	// Candidates is the number of candidate models per sample model, and
	// Restarts the number of whole samples built to keep the smallest (0:
	// chosen from the problem size).
	Candidates, Restarts int
}

// CoveringSample returns models (projection order) that cover every
// interaction of T feature literals that some model has.
func (c *Circuit) CoveringSample(ctx context.Context, o CoveringOptions) ([][]bool, error) {
	if o.T < 1 || o.T > 3 {
		return nil, fmt.Errorf("solver: covering strength %d: expected 1, 2 or 3", o.T)
	}
	if c.root < 0 {
		return nil, nil
	}
	c.ensureCounts()
	total := c.bcounts[c.root]
	marg := c.Marginals()
	// Features on the variables the circuit decides, without the literals
	// every model has (covered by any model) or none has (never covered).
	var lits []int32
	seen := map[int32]bool{}
	for _, f := range o.Features {
		i, neg := f-1, false
		if f < 0 {
			i, neg = -f-1, true
		}
		if i < 0 || i >= len(c.proj) {
			return nil, fmt.Errorf("solver: covering feature %d out of range", f)
		}
		if a := c.alias[i]; a != 0 {
			if a < 0 {
				neg = !neg
			}
			i = int(abs32(a)) - 1
		}
		if m := marg[i]; m.Sign() == 0 || m.Cmp(total) == 0 {
			continue
		}
		l := int32(i + 1)
		if neg {
			l = -l
		}
		if !seen[l] {
			seen[l] = true
			lits = append(lits, l)
		}
	}
	slices.SortFunc(lits, func(a, b int32) int {
		if d := abs32(a) - abs32(b); d != 0 {
			return int(d)
		}
		return int(a - b)
	})
	// Greedy samples vary with the variable orders: build several from
	// seeds derived from the caller's, within a work budget, and keep the
	// smallest (the first among equals).
	restarts := o.Restarts
	if restarts <= 0 {
		work := max(len(lits), 1)
		for i := 1; i < o.T; i++ {
			work *= max(len(lits), 1)
		}
		restarts = max(1, min(16, 200_000/work))
	}
	var best [][]bool
	for r := range restarts {
		ro := o
		ro.Seed = o.Seed + uint64(r)*0x9e3779b97f4a7c15
		rows, err := c.coveringOnce(ctx, lits, ro)
		if err != nil {
			return nil, err
		}
		if best == nil || len(rows) < len(best) {
			best = rows
		}
	}
	return best, nil
}

func (c *Circuit) coveringOnce(ctx context.Context, lits []int32, o CoveringOptions) ([][]bool, error) {
	// An interaction with literals every model has is one of lower
	// strength over the others, so every strength up to T is covered; the
	// lower ones almost always are already.
	var rows [][]bool
	for t := o.T; t >= 1; t-- {
		ot := o
		ot.T = t
		g := newCoverer(c, lits, ot)
		if g == nil {
			return nil, fmt.Errorf("solver: a %d-wise sample over %d feature literals tracks more than %d interactions", t, len(lits), MaxInteractions)
		}
		for _, r := range rows {
			g.coverRow(g.assumptions(r))
		}
		more, err := g.run(ctx)
		if err != nil {
			return nil, err
		}
		rows = append(rows, more...)
	}
	rows = dropRedundant(c, lits, o.T, rows)
	if len(rows) == 0 {
		// Nothing to cover: one model still stands for the space.
		rows = append(rows, c.ModelUnder(make([]int8, len(c.proj))))
	}
	return rows, nil
}

// assumptions turns a model into assumptions on the feature variables.
func (g *coverer) assumptions(model []bool) []int8 {
	row := make([]int8, len(g.c.proj))
	for _, v := range g.vars {
		row[v] = -1
		if model[v] {
			row[v] = 1
		}
	}
	return row
}

type coverer struct {
	c    *Circuit
	t    int
	lits []int32 // feature literals, sorted by variable
	// litOf[v][val] is the feature index of "v = val", or -1.
	litOf   [][2]int32
	vars    []int32 // the variables of the features, ascending
	covered []uint64
	n       int // len(lits)
	rng     *rand.Rand
	cands   int
}

func newCoverer(c *Circuit, lits []int32, o CoveringOptions) *coverer {
	n := len(lits)
	size := n
	for i := 1; i < o.T; i++ {
		if size > MaxInteractions/max(n, 1) {
			return nil
		}
		size *= n
	}
	g := &coverer{c: c, t: o.T, lits: lits, n: n, covered: make([]uint64, (size+63)/64),
		rng: rand.New(rand.NewPCG(o.Seed, 0x7477697365)), litOf: make([][2]int32, len(c.proj))}
	for i := range g.litOf {
		g.litOf[i] = [2]int32{-1, -1}
	}
	for k, l := range lits {
		v, val := abs32(l)-1, 1
		if l < 0 {
			val = 0
		}
		g.litOf[v][val] = int32(k)
		if len(g.vars) == 0 || g.vars[len(g.vars)-1] != v {
			g.vars = append(g.vars, v)
		}
	}
	g.cands = o.Candidates
	if g.cands <= 0 {
		// About two million steps of gain counting per sample model.
		work := len(g.vars)
		for i := 1; i < o.T; i++ {
			work *= max(len(g.vars), 1)
		}
		g.cands = max(1, min(40, 2_000_000/max(work, 1)))
	}
	return g
}

// key numbers an interaction of sorted feature indices.
func (g *coverer) key(ks []int32) int {
	k := 0
	for _, x := range ks {
		k = k*g.n + int(x)
	}
	return k
}

func (g *coverer) isCovered(ks []int32) bool {
	k := g.key(ks)
	return g.covered[k>>6]>>(k&63)&1 == 1
}

func (g *coverer) cover(ks []int32) {
	k := g.key(ks)
	g.covered[k>>6] |= 1 << (k & 63)
}

// advance moves ks (sorted feature indices) to the next t-subset in
// lexicographic order; false when there is none.
func (g *coverer) advance(ks []int32) bool {
	t := len(ks)
	for i := t - 1; i >= 0; i-- {
		if int(ks[i]) < g.n-t+i {
			ks[i]++
			for j := i + 1; j < t; j++ {
				ks[j] = ks[j-1] + 1
			}
			return true
		}
	}
	return false
}

// valid reports whether the features of ks are on distinct variables.
// Features are sorted by variable and a variable has at most two, so
// neighbours are enough.
func (g *coverer) valid(ks []int32) bool {
	for i := 1; i < len(ks); i++ {
		if abs32(g.lits[ks[i]]) == abs32(g.lits[ks[i-1]]) {
			return false
		}
	}
	return true
}

func (g *coverer) run(ctx context.Context) ([][]bool, error) {
	var rows [][]bool
	done := func() ([][]bool, error) { return rows, nil }
	if g.n < g.t {
		return done()
	}
	ks := make([]int32, g.t)
	for i := range ks {
		ks[i] = int32(i)
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !g.valid(ks) || g.isCovered(ks) {
			if !g.advance(ks) {
				return done()
			}
			continue
		}
		seed := make([]int8, len(g.c.proj))
		for _, k := range ks {
			l := g.lits[k]
			if l > 0 {
				seed[l-1] = 1
			} else {
				seed[-l-1] = -1
			}
		}
		if !g.c.SatisfiableUnder(seed) {
			g.cover(ks) // no model has it: nothing to cover
			continue
		}
		var best []int8
		bestGain := -1
		for range g.cands {
			row, gain := g.candidate(seed)
			if gain > bestGain {
				best, bestGain = row, gain
			}
		}
		g.coverRow(best)
		v := g.c.ModelUnder(best)
		if v == nil {
			panic("solver: a covering row has no model")
		}
		rows = append(rows, v)
	}
}

// rowLits lists the feature indices a row sets, ascending.
func (g *coverer) rowLits(row []int8) []int32 {
	var out []int32
	for _, v := range g.vars {
		switch row[v] {
		case 1:
			if k := g.litOf[v][1]; k >= 0 {
				out = append(out, k)
			}
		case -1:
			if k := g.litOf[v][0]; k >= 0 {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// forEach calls fn with every t-subset of ks (sorted).
func (g *coverer) forEach(ks []int32, fn func([]int32)) {
	sub := make([]int32, g.t)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == g.t {
			fn(sub)
			return
		}
		for i := from; i < len(ks); i++ {
			sub[pos] = ks[i]
			rec(pos+1, i+1)
		}
	}
	rec(0, 0)
}

func (g *coverer) coverRow(row []int8) int {
	gain := 0
	g.forEach(g.rowLits(row), func(s []int32) {
		if !g.isCovered(s) {
			gain++
			g.cover(s)
		}
	})
	return gain
}

// gain counts the uncovered interactions of feature k with t-1 of fixed.
func (g *coverer) gain(k int32, fixed []int32) int {
	n := 0
	sub := make([]int32, 0, g.t)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == g.t-1 {
			s := append(append(sub[:0:0], sub...), k)
			slices.Sort(s)
			if !g.isCovered(s) {
				n++
			}
			return
		}
		for i := from; i < len(fixed); i++ {
			sub = append(sub, fixed[i])
			rec(pos+1, i+1)
			sub = sub[:len(sub)-1]
		}
	}
	rec(0, 0)
	return n
}

// candidate completes a seeded row greedily over a random variable order
// and returns it with the number of uncovered interactions it covers.
func (g *coverer) candidate(seed []int8) ([]int8, int) {
	row := append([]int8(nil), seed...)
	order := append([]int32(nil), g.vars...)
	g.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	fixed := g.rowLits(row)
	for _, v := range order {
		if row[v] != 0 {
			continue
		}
		canF, canT := g.c.feasible(row, v)
		if !canF && !canT {
			panic("solver: a covering row lost its model")
		}
		val := int8(-1)
		switch {
		case canF && canT:
			gf, gt := 0, 0
			if k := g.litOf[v][0]; k >= 0 {
				gf = g.gain(k, fixed)
			}
			if k := g.litOf[v][1]; k >= 0 {
				gt = g.gain(k, fixed)
			}
			if gt > gf || gt == gf && g.rng.IntN(2) == 1 {
				val = 1
			}
		case canT:
			val = 1
		}
		row[v] = val
		idx := 0
		if val == 1 {
			idx = 1
		}
		if k := g.litOf[v][idx]; k >= 0 {
			fixed = append(fixed, k)
			slices.Sort(fixed)
		}
	}
	gain := 0
	g.forEach(g.rowLits(row), func(s []int32) {
		if !g.isCovered(s) {
			gain++
		}
	})
	return row, gain
}

// feasible reports whether variable v (a decided projection index) can be
// false and true in a model under the assumptions.
func (c *Circuit) feasible(assume []int8, v int32) (canFalse, canTrue bool) {
	a := assume[v]
	assume[v] = -1
	canFalse = c.SatisfiableUnder(assume)
	assume[v] = 1
	canTrue = c.SatisfiableUnder(assume)
	assume[v] = a
	return canFalse, canTrue
}

// ModelUnder returns a model that agrees with the assumptions (projection
// order), preferring false where the assumptions leave a choice, or nil
// when there is none.
func (c *Circuit) ModelUnder(assume []int8) []bool {
	u := c.under(assume)
	if u == nil || !u.branchOK(c.root) {
		return nil
	}
	folded, branchOK := u.assume, u.branchOK
	values := make([]bool, len(c.proj))
	var walk func(b int32)
	walk = func(b int32) {
		for _, l := range c.lits(b) {
			values[abs32(l)-1] = l > 0
		}
		for _, v := range c.free(b) {
			values[v] = folded[v] > 0
		}
		for _, k := range c.kids(b) {
			n := c.nodes[k]
			a := folded[n.v]
			if a <= 0 && branchOK(n.br[0]) {
				values[n.v] = false
				walk(n.br[0])
			} else {
				values[n.v] = true
				walk(n.br[1])
			}
		}
	}
	walk(c.root)
	c.fillAliases(values)
	return values
}

// dropRedundant removes, last first, the rows whose interactions of every
// strength up to t are all in other rows as well (greedy samples often
// end with a few).
func dropRedundant(c *Circuit, lits []int32, t int, rows [][]bool) [][]bool {
	type strength struct {
		g     *coverer
		count []uint16
	}
	var ss []strength
	for k := 1; k <= t; k++ {
		g := newCoverer(c, lits, CoveringOptions{T: k, Candidates: 1})
		if g == nil || len(g.covered)*64 > 1<<24 {
			return rows
		}
		ss = append(ss, strength{g: g, count: make([]uint16, len(g.covered)*64)})
	}
	each := func(r []bool, fn func(s strength, k int)) {
		for _, s := range ss {
			s.g.forEach(s.g.rowLits(s.g.assumptions(r)), func(sub []int32) { fn(s, s.g.key(sub)) })
		}
	}
	for _, r := range rows {
		each(r, func(s strength, k int) {
			if s.count[k] < 1<<15 {
				s.count[k]++
			}
		})
	}
	keep := make([]bool, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		needed := false
		each(rows[i], func(s strength, k int) {
			if s.count[k] == 1 {
				needed = true
			}
		})
		keep[i] = needed
		if !needed {
			each(rows[i], func(s strength, k int) { s.count[k]-- })
		}
	}
	out := rows[:0]
	for i, r := range rows {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out
}
