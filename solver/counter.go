package solver

import (
	"slices"
)

// counter enforces upper bounds f ≤ k on a linear function inside one SAT
// solver (solver.md §5.7). It is a totalizer when the counting tree fits
// within the configured size, otherwise a native pseudo-Boolean constraint
// per bound.
type counter struct {
	f      linear
	total  int64
	native bool
	// sums are the values the totalizer root can report, ascending, and
	// outs[i] is a literal that is forced true whenever f ≥ sums[i].
	sums []int64
	outs []int
}

// pbConstraint is Σ weights·[lits] ≥ atLeast, the fallback bound.
type pbConstraint struct {
	lits    []int
	weights []int64
	atLeast int64
}

// newCounter prepares bounds f ≤ k for every k ≤ kmax. Totalizer variables are
// numbered from nextVar on; the returned clauses define them and nv is the
// next free variable afterwards.
//
// The totalizer is a balanced tree. Each node has one output per distinct
// partial sum s of the weights below it, capped at kmax+1, and the upward
// clauses a ∧ b → o_{a+b} force the output of the exact sum below the node
// (solver.md §5.7, in the generalised form that keeps weighted terms as single
// leaves instead of expanding them into copies). With unit weights the
// outputs are the usual "at least j". At the root, a chain o_{s'} → o_s for
// consecutive sums s < s' makes each output mean "f ≥ s", so one literal
// expresses a bound. Only the upward direction is needed for upper bounds.
// Weights are divided by their GCD beforehand, so the reference's ×100
// weights cost nothing.
func newCounter(f linear, kmax int64, nextVar int, maxClauses int64) (c *counter, clauses [][]int, nv int) {
	c = &counter{f: f, total: f.total()}
	capSum := min(kmax+1, c.total)
	if capSum <= 0 || len(f.lits) == 0 {
		return c, nil, nextVar
	}
	b := totBuilder{cap: capSum, next: nextVar, limit: maxClauses}
	root, ok := b.node(f.lits, f.weights)
	if !ok {
		c.native = true
		return c, nil, nextVar
	}
	c.sums, c.outs = root.sums, root.outs
	for i := 1; i < len(c.outs); i++ {
		b.clause(-c.outs[i], c.outs[i-1])
	}
	return c, b.clauses, b.next
}

// geq returns the literal meaning f ≥ v for 0 < v ≤ total: the output of the
// smallest root sum ≥ v. ok is false when the root has no such sum.
func (c *counter) geq(v int64) (lit int, ok bool) {
	i, _ := slices.BinarySearch(c.sums, v)
	if i == len(c.sums) {
		return 0, false
	}
	return c.outs[i], true
}

// bound returns the constraint for f ≤ k: a unit literal for the totalizer, or
// a pseudo-Boolean constraint. trivial means nothing needs adding;
// infeasible means no assignment meets it.
func (c *counter) bound(k int64) (unit int, pb *pbConstraint, trivial, infeasible bool) {
	switch {
	case k < 0:
		return 0, nil, false, true
	case k >= c.total:
		return 0, nil, true, false
	case !c.native:
		lit, ok := c.geq(k + 1)
		if !ok {
			return 0, nil, true, false
		}
		return -lit, nil, false, false
	}
	// Σ w·[l] ≤ k  ⇔  Σ w·[¬l] ≥ W − k.
	pb = &pbConstraint{atLeast: c.total - k}
	for i, l := range c.f.lits {
		pb.lits = append(pb.lits, -l)
		pb.weights = append(pb.weights, c.f.weights[i])
	}
	return 0, pb, false, false
}

// totNode is a totalizer node: its possible partial sums (ascending, capped)
// and the output literal of each.
type totNode struct {
	sums []int64
	outs []int
}

type totBuilder struct {
	cap     int64
	next    int
	limit   int64
	clauses [][]int
	arena   []int
}

func (b *totBuilder) clause(lits ...int) {
	if len(b.arena)+len(lits) > cap(b.arena) {
		// Grow geometrically: most counters are tiny (one per small part).
		b.arena = make([]int, 0, max(16, min(2*cap(b.arena), 1<<16)))
	}
	start := len(b.arena)
	b.arena = append(b.arena, lits...)
	b.clauses = append(b.clauses, b.arena[start:len(b.arena):len(b.arena)])
}

// node builds the subtree over lits; ok is false once the clauses exceed the
// limit, so that the size is bounded before anything large is allocated.
func (b *totBuilder) node(lits []int, weights []int64) (totNode, bool) {
	if len(lits) == 1 {
		return totNode{sums: []int64{min(weights[0], b.cap)}, outs: []int{lits[0]}}, true
	}
	mid := len(lits) / 2
	x, ok := b.node(lits[:mid], weights[:mid])
	if !ok {
		return totNode{}, false
	}
	y, ok := b.node(lits[mid:], weights[mid:])
	if !ok {
		return totNode{}, false
	}
	pairs := int64(len(x.sums)+1)*int64(len(y.sums)+1) - 1
	if int64(len(b.clauses))+pairs+int64(len(x.sums)+len(y.sums)) > b.limit {
		return totNode{}, false
	}
	// The node's sums, then one fresh output variable per sum.
	index := make(map[int64]int, len(x.sums)+len(y.sums))
	var n totNode
	for i := -1; i < len(x.sums); i++ {
		for j := -1; j < len(y.sums); j++ {
			if i < 0 && j < 0 {
				continue
			}
			s := int64(0)
			if i >= 0 {
				s += x.sums[i]
			}
			if j >= 0 {
				s += y.sums[j]
			}
			s = min(s, b.cap)
			if _, seen := index[s]; !seen {
				index[s] = 0
				n.sums = append(n.sums, s)
			}
		}
	}
	slices.Sort(n.sums)
	n.outs = make([]int, len(n.sums))
	for i, s := range n.sums {
		n.outs[i] = b.next
		index[s] = b.next
		b.next++
	}
	for i := -1; i < len(x.sums); i++ {
		for j := -1; j < len(y.sums); j++ {
			switch {
			case i < 0 && j < 0:
			case i < 0:
				b.clause(-y.outs[j], index[min(y.sums[j], b.cap)])
			case j < 0:
				b.clause(-x.outs[i], index[min(x.sums[i], b.cap)])
			default:
				b.clause(-x.outs[i], -y.outs[j], index[min(x.sums[i]+y.sums[j], b.cap)])
			}
		}
	}
	return n, true
}
