package solver

// A small part is optimised by an exhaustive search of our own instead of a
// gophersat solver. Templates of many independent choices (the choice
// family; in real templates, alternatives that do not interact) split into
// hundreds of parts of a dozen variables, and for each of them building a
// solver took longer than the few searches it answered, and every search
// took gophersat's process-wide lock (solver.md §4.2), which parallel runs of
// a batch queued on. The search gives the same verdicts as the solver
// paths: the optimum, the optimal face and its uniqueness do not depend on
// how they are found (the oracle tests hold both to brute force).

// smallSearch is the depth-first search over a part's variables in order,
// values as bits (bit v-1 is variable v). A clause or carried bound is
// checked when its last variable is set; the cost so far prunes branches
// that cannot reach the best cost found.
type smallSearch struct {
	nv int
	// clauses[v] and bounds[v] are checked once variable v is set.
	clauses [][]maskClause
	bounds  [][]maskBound
	// gain[v][b] is the cost variable v adds with value b.
	gain   [][2]int64
	proj   uint32
	unique bool
	nodes  int
	// The search's results.
	found     bool
	best      int64
	model     uint32
	ambiguous bool
	alt       uint32
}

// maskClause holds when a variable of pos is true or one of neg false.
type maskClause struct{ pos, neg uint32 }

// maskBound holds when the weights of its true literals sum to at most k.
type maskBound struct {
	lits []maskLit
	k    int64
}

type maskLit struct {
	bit uint32
	neg bool
	w   int64
}

// smallVars is the largest part searched, and smallNodes the search nodes
// after which a part goes to gophersat after all. Over the corpora, the
// testdata and the scaling spaces, parts of up to 32 variables took at most
// 489 nodes; parts of 50 to 54 variables took 1,669 to 6,235 nodes or went
// over the budget, where gophersat is quicker.
const (
	smallVars  = 32
	smallNodes = 1 << 14
)

// optimiseSmall runs the step of optimise on a part of at most smallVars
// variables by search; ok is false when the part is larger, a weight is
// not positive, or the search needs more than smallNodes nodes.
func optimiseSmall(sp *sub, f linear, proj []int, unique bool, buf *smallBuf) (out outcome, ok bool) {
	q, ok := newSmallSearch(sp, f, proj, unique, buf)
	if !ok || !q.search(1, 0, 0) || !q.found {
		// Over budget, or no model: the carried model satisfies the part,
		// so the second is an internal error that gophersat's path reports.
		return outcome{}, false
	}
	out = outcome{model: q.bools(q.model), cost: q.best, ambiguous: q.ambiguous}
	if q.ambiguous {
		out.alt = q.bools(q.alt)
	}
	return out, true
}

// smallModel finds a model of a part of at most smallVars variables,
// trying false before true for each variable; ok is false when the part is
// larger or the search over budget.
func smallModel(sp *sub, buf *smallBuf) (model []bool, sat, ok bool) {
	q, ok := newSmallSearch(sp, linear{}, nil, false, buf)
	if !ok || !q.search(1, 0, 0) {
		return nil, false, false
	}
	if !q.found {
		return nil, false, true
	}
	return q.bools(q.model), true, true
}

// smallBuf holds the arrays of one search at a time (newSmallSearch),
// which each small part made anew (subBuf).
type smallBuf struct {
	q    smallSearch
	lits []maskLit
}

// newSmallSearch prepares the search of a part for optimiseSmall; ok is
// false when the part is too large or a weight is not positive. The
// search's arrays come from buf (nil: allocated) and are valid until its
// next search.
func newSmallSearch(sp *sub, f linear, proj []int, unique bool, buf *smallBuf) (*smallSearch, bool) {
	if sp.nv > smallVars {
		return nil, false
	}
	var q *smallSearch
	var lits []maskLit
	if buf == nil {
		q = &smallSearch{
			clauses: make([][]maskClause, sp.nv+1),
			bounds:  make([][]maskBound, sp.nv+1),
			gain:    make([][2]int64, sp.nv+1),
		}
	} else {
		// Sized for the largest part once; the lists of each variable
		// keep their room from part to part, and a search reads only its
		// own variables' entries.
		n := sp.nv + 1
		cl, bd := grown(buf.q.clauses, smallVars+1)[:n], grown(buf.q.bounds, smallVars+1)[:n]
		for i := range cl {
			cl[i], bd[i] = cl[i][:0], bd[i][:0]
		}
		gain := grown(buf.q.gain, smallVars+1)[:n]
		clear(gain)
		buf.q = smallSearch{clauses: cl, bounds: bd, gain: gain}
		q, lits = &buf.q, buf.lits[:0]
	}
	q.nv, q.unique = sp.nv, unique
	for _, c := range sp.clauses {
		var mc maskClause
		last := 0
		for _, l := range c {
			if l > 0 {
				mc.pos |= 1 << (l - 1)
			} else {
				mc.neg |= 1 << (-l - 1)
			}
			last = max(last, abs(l))
		}
		q.clauses[last] = append(q.clauses[last], mc)
	}
	for _, b := range sp.bounds {
		mb := maskBound{k: b.k}
		last, start := 0, len(lits)
		for i, l := range b.f.lits {
			lits = append(lits, maskLit{bit: 1 << (abs(l) - 1), neg: l < 0, w: b.f.weights[i]})
			last = max(last, abs(l))
		}
		// Capped: a later append to the arena must not reach into it.
		mb.lits = lits[start:len(lits):len(lits)]
		if last == 0 {
			if b.k < 0 {
				return nil, false // gophersat reports what the empty face is
			}
			continue
		}
		q.bounds[last] = append(q.bounds[last], mb)
	}
	for i, l := range f.lits {
		w := f.weights[i]
		if w <= 0 {
			return nil, false
		}
		if l > 0 {
			q.gain[l][1] += w
		} else {
			q.gain[-l][0] += w
		}
	}
	for _, v := range proj {
		q.proj |= 1 << (v - 1)
	}
	if buf != nil {
		buf.lits = lits
	}
	return q, true
}

// search sets variable v and the ones after it, given the values of the
// ones before and their cost; it returns false when over budget.
func (q *smallSearch) search(v int, val uint32, cost int64) bool {
	if q.nodes++; q.nodes > smallNodes {
		return false
	}
	if v > q.nv {
		q.leaf(val, cost)
		return true
	}
	// The cheaper value first.
	first := uint32(0)
	if q.gain[v][1] < q.gain[v][0] {
		first = 1
	}
	for _, b := range [2]uint32{first, 1 - first} {
		c := cost + q.gain[v][b]
		if q.found && (c > q.best || (c == q.best && (!q.unique || q.ambiguous))) {
			continue
		}
		nval := val | b<<(v-1)
		if !q.holds(v, nval) {
			continue
		}
		if !q.search(v+1, nval, c) {
			return false
		}
	}
	return true
}

// holds checks the clauses and bounds that variable v completes.
func (q *smallSearch) holds(v int, val uint32) bool {
	for _, c := range q.clauses[v] {
		if val&c.pos == 0 && ^val&c.neg == 0 {
			return false
		}
	}
	for _, b := range q.bounds[v] {
		var sum int64
		for _, l := range b.lits {
			if (val&l.bit != 0) != l.neg {
				sum += l.w
			}
		}
		if sum > b.k {
			return false
		}
	}
	return true
}

// leaf records a model.
func (q *smallSearch) leaf(val uint32, cost int64) {
	switch {
	case !q.found || cost < q.best:
		q.found, q.best, q.model, q.ambiguous = true, cost, val, false
	case cost == q.best && q.unique && !q.ambiguous && val&q.proj != q.model&q.proj:
		q.ambiguous, q.alt = true, val
	}
}

// bools spreads a model's bits over variables 1..nv.
func (q *smallSearch) bools(val uint32) []bool {
	m := make([]bool, q.nv+1)
	for v := 1; v <= q.nv; v++ {
		m[v] = val&(1<<(v-1)) != 0
	}
	return m
}
