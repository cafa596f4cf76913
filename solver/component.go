package solver

import "slices"

// part is one independent piece of a residual: variables that are connected
// through clauses or carried bounds, with those clauses and bounds. Models of
// the whole residual are exactly the combinations of models of its parts, so
// an optimum is the sum of the parts' optima, the optimal face is the product
// of theirs, and a projection is unique iff it is unique in every part
// (solver.md §5.7, rule 4). That makes many independent choices ("pairs")
// cheap instead of one large counter.
type part struct {
	vars    []int // ascending
	clauses []int // indices into the residual's clauses
	bounds  []int // indices into the carried bounds
}

// split returns the parts that contain a relevant variable, ordered by their
// smallest variable. A relevant variable that occurs in no clause and no bound
// is a part of its own. With whole set, everything goes into one part.
// local[v] is v's 1-based position in its part.
func split(nv int, clauses [][]int, bounds []bound, relevant []int, whole bool) (parts []part, local []int32) {
	local = make([]int32, nv+1)
	// The working arrays come from the pool (temps): split runs for every
	// step of every solve, over all the residual's variables.
	t := takeTemps()
	defer t.give()
	marks := t.marks.take(nv + 1)
	for _, c := range clauses {
		for _, l := range c {
			marks[abs(l)] |= markPresent
		}
	}
	for _, b := range bounds {
		for _, l := range b.f.lits {
			marks[abs(l)] |= markPresent
		}
	}
	for _, v := range relevant {
		marks[v] |= markRelevant
	}

	if whole {
		var p part
		for v := 1; v <= nv; v++ {
			if marks[v]&(markPresent|markRelevant) != 0 {
				p.vars = append(p.vars, v)
				local[v] = int32(len(p.vars))
			}
		}
		if len(p.vars) == 0 {
			return nil, local
		}
		p.clauses = make([]int, len(clauses))
		for i := range p.clauses {
			p.clauses[i] = i
		}
		p.bounds = make([]int, len(bounds))
		for i := range p.bounds {
			p.bounds[i] = i
		}
		return []part{p}, local
	}

	// Union-find with path halving; parent[v] == 0 means v is a root.
	parent := t.count.take(nv + 1)
	find := func(v int32) int32 {
		for parent[v] != 0 {
			if gp := parent[parent[v]]; gp != 0 {
				parent[v] = gp
			}
			v = parent[v]
		}
		return v
	}
	union := func(a, b int32) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		if ra < rb {
			ra, rb = rb, ra
		}
		parent[ra] = rb
	}
	join := func(lits []int) {
		if len(lits) == 0 {
			return
		}
		first := int32(abs(lits[0]))
		for _, l := range lits[1:] {
			union(first, int32(abs(l)))
		}
	}
	for _, c := range clauses {
		join(c)
	}
	for _, b := range bounds {
		join(b.f.lits)
	}
	for _, v := range relevant {
		if marks[v]&markPresent != 0 {
			marks[find(int32(v))] |= markWanted
		}
	}
	// id[root] is 1 + the index of the root's part; a relevant variable in
	// no clause and no bound is the root of a part of its own.
	id := t.start.take(nv + 1)
	partOf := func(v int) int32 {
		if marks[v]&markPresent != 0 {
			return id[find(int32(v))]
		}
		return id[v]
	}
	// The parts' lists are cut from one array each, their lengths counted
	// first: a residual splits into thousands of parts of a few variables
	// (the pruning family), and growing every list by appending was three
	// quarters of what split allocated. n holds each part's counts.
	var n [][3]int32
	for v := 1; v <= nv; v++ {
		switch {
		case marks[v]&markPresent != 0:
			r := find(int32(v))
			if marks[r]&markWanted == 0 {
				continue
			}
			if id[r] == 0 {
				n = append(n, [3]int32{})
				id[r] = int32(len(n))
			}
		case marks[v]&markRelevant != 0:
			n = append(n, [3]int32{})
			id[v] = int32(len(n))
		default:
			continue
		}
		n[partOf(v)-1][0]++
	}
	for _, c := range clauses {
		if k := id[find(int32(abs(c[0])))]; k != 0 {
			n[k-1][1]++
		}
	}
	for _, b := range bounds {
		if len(b.f.lits) > 0 {
			if k := id[find(int32(abs(b.f.lits[0])))]; k != 0 {
				n[k-1][2]++
			}
		}
	}
	parts = make([]part, len(n))
	var total [3]int
	for _, c := range n {
		for j := range total {
			total[j] += int(c[j])
		}
	}
	vars, cls, bds := make([]int, total[0]), make([]int, total[1]), make([]int, total[2])
	cut := func(arena *[]int, k int32) []int {
		if k == 0 {
			return nil
		}
		a := *arena
		*arena = a[k:]
		return a[:0:k]
	}
	for i, c := range n {
		parts[i] = part{vars: cut(&vars, c[0]), clauses: cut(&cls, c[1]), bounds: cut(&bds, c[2])}
	}
	for v := 1; v <= nv; v++ {
		if marks[v]&(markPresent|markRelevant) == 0 {
			continue
		}
		k := partOf(v)
		if k == 0 {
			continue
		}
		p := &parts[k-1]
		p.vars = append(p.vars, v)
		local[v] = int32(len(p.vars))
	}
	for i, c := range clauses {
		if k := id[find(int32(abs(c[0])))]; k != 0 {
			p := &parts[k-1]
			p.clauses = append(p.clauses, i)
		}
	}
	for i, b := range bounds {
		if len(b.f.lits) == 0 {
			continue
		}
		if k := id[find(int32(abs(b.f.lits[0])))]; k != 0 {
			p := &parts[k-1]
			p.bounds = append(p.bounds, i)
		}
	}
	return parts, local
}

// The marks of a variable in split.
const (
	markPresent  uint8 = 1 << iota // in a clause or a bound
	markRelevant                   // relevant
	markWanted                     // a root whose part holds a relevant variable
)

// sub is a part renumbered to variables 1..nv, so that the SAT solvers built
// for it are sized by the part and not by the whole formula. A flipped local
// variable stands for the negation of its global variable: gophersat decides
// every variable false first, so flipping the variables whose cost literal is
// negative makes first models cheap.
type sub struct {
	nv      int
	vars    []int  // local → global, index 0 unused
	flip    []bool // local → stands for the negated global variable
	clauses [][]int
	bounds  []bound
}

// localize renumbers p. flip (nil: none) says which global variables to flip.
func localize(p part, clauses [][]int, bounds []bound, local []int32, flip []bool) *sub {
	return (*subBuf)(nil).localize(p, clauses, bounds, local, flip)
}

// subBuf holds the arrays of one sub at a time, for the loops that
// localize a part, solve it, store its model and drop it: a residual of
// thousands of small parts (the pruning family) allocated each part's
// arrays anew, and those and the small searches' (smallBuf) were 37% of
// the bytes the solver allocated over the 256-run space of
// benchmarks/scaling.sh.
type subBuf struct {
	s      sub
	ints   []int
	flips  []bool
	heads  [][]int
	bounds []bound
}

// localize is localize with the sub's arrays taken from b (nil:
// allocated): the sub is valid until b's next localize, and a sub that
// is kept must be detached first (sub.detach).
func (b *subBuf) localize(p part, clauses [][]int, bounds []bound, local []int32, flip []bool) *sub {
	n := len(p.vars)
	total := n + 1
	for _, ci := range p.clauses {
		total += len(clauses[ci])
	}
	for _, bi := range p.bounds {
		total += len(bounds[bi].f.lits)
	}
	var s *sub
	var ints []int
	if b == nil {
		s = &sub{flip: make([]bool, n+1), clauses: make([][]int, len(p.clauses))}
		ints = make([]int, total)
	} else {
		s = &b.s
		b.ints = grown(b.ints, total)
		b.flips = grown(b.flips, n+1)
		b.heads = grown(b.heads, len(p.clauses))
		ints = b.ints
		// The arrays below are written in full, but for flip without a
		// flip set.
		*s = sub{flip: b.flips[:n+1], clauses: b.heads[:len(p.clauses)], bounds: b.bounds[:0]}
		clear(s.flip)
	}
	s.nv = n
	s.vars, ints = ints[:n+1:n+1], ints[n+1:]
	s.vars[0] = 0
	copy(s.vars[1:], p.vars)
	if flip != nil {
		for i, v := range p.vars {
			s.flip[i+1] = flip[v]
		}
	}
	lit := func(g int) int {
		v := abs(g)
		l := int(local[v])
		if flip != nil && flip[v] {
			l = -l
		}
		if g < 0 {
			return -l
		}
		return l
	}
	for i, ci := range p.clauses {
		c := clauses[ci]
		seg := ints[:len(c):len(c)]
		ints = ints[len(c):]
		for j, g := range c {
			seg[j] = lit(g)
		}
		// Flipping changes the sign, not the variable order, so the clause
		// stays sorted by variable as residual clauses must be.
		s.clauses[i] = seg
	}
	for _, bi := range p.bounds {
		bd := bounds[bi]
		lits := ints[:len(bd.f.lits):len(bd.f.lits)]
		ints = ints[len(bd.f.lits):]
		for j, g := range bd.f.lits {
			lits[j] = lit(g)
		}
		s.bounds = append(s.bounds, bound{k: bd.k, f: linear{lits: lits, weights: bd.f.weights}})
	}
	if b != nil {
		b.bounds = s.bounds
	}
	return s
}

// detach returns a copy of s that its buffer does not hold, for storing
// models: its variables and flips, without the clauses and bounds.
func (s *sub) detach() *sub {
	return &sub{nv: s.nv, vars: slices.Clone(s.vars), flip: slices.Clone(s.flip)}
}

// grown returns a with room for n entries, its contents kept only up to
// its length: a reallocation is sized by n alone.
func grown[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	return a[:n]
}

// localLit maps a global literal of this part to a local one.
func (s *sub) localLit(g int, local []int32) int {
	v := abs(g)
	l := int(local[v])
	if s.flip[l] {
		l = -l
	}
	if g < 0 {
		return -l
	}
	return l
}

// globalLit maps a local literal back to a global one.
func (s *sub) globalLit(l int) int {
	v := abs(l)
	g := s.vars[v]
	if s.flip[v] {
		g = -g
	}
	if l < 0 {
		return -g
	}
	return g
}

// load reads the part's values from a global model.
func (s *sub) load(global []bool) []bool {
	m := make([]bool, s.nv+1)
	for i := 1; i <= s.nv; i++ {
		m[i] = global[s.vars[i]] != s.flip[i]
	}
	return m
}

// store writes a local model (variables 1..nv; counter variables beyond are
// ignored) into a global model.
func (s *sub) store(m []bool, global []bool) {
	for i := 1; i <= s.nv; i++ {
		global[s.vars[i]] = m[i] != s.flip[i]
	}
}

// free reports whether the part has no constraints at all: its variables are
// then independent of each other.
func (s *sub) free() bool {
	return len(s.clauses) == 0 && len(s.bounds) == 0
}
