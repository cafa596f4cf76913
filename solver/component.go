package solver

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
	present := make([]bool, nv+1)
	for _, c := range clauses {
		for _, l := range c {
			present[abs(l)] = true
		}
	}
	for _, b := range bounds {
		for _, l := range b.f.lits {
			present[abs(l)] = true
		}
	}
	isRelevant := make([]bool, nv+1)
	for _, v := range relevant {
		isRelevant[v] = true
	}

	if whole {
		var p part
		for v := 1; v <= nv; v++ {
			if present[v] || isRelevant[v] {
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
	parent := make([]int32, nv+1)
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
	wanted := make([]bool, nv+1)
	for _, v := range relevant {
		if present[v] {
			wanted[find(int32(v))] = true
		}
	}
	// id[root] is 1 + the index of the root's part.
	id := make([]int32, nv+1)
	for v := 1; v <= nv; v++ {
		switch {
		case present[v]:
			r := find(int32(v))
			if !wanted[r] {
				continue
			}
			if id[r] == 0 {
				parts = append(parts, part{})
				id[r] = int32(len(parts))
			}
			p := &parts[id[r]-1]
			p.vars = append(p.vars, v)
			local[v] = int32(len(p.vars))
		case isRelevant[v]:
			parts = append(parts, part{vars: []int{v}})
			local[v] = 1
		}
	}
	for i, c := range clauses {
		if r := find(int32(abs(c[0]))); id[r] != 0 {
			p := &parts[id[r]-1]
			p.clauses = append(p.clauses, i)
		}
	}
	for i, b := range bounds {
		if len(b.f.lits) == 0 {
			continue
		}
		if r := find(int32(abs(b.f.lits[0]))); id[r] != 0 {
			p := &parts[id[r]-1]
			p.bounds = append(p.bounds, i)
		}
	}
	return parts, local
}

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
	s := &sub{nv: len(p.vars), vars: make([]int, len(p.vars)+1), flip: make([]bool, len(p.vars)+1)}
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
	total := 0
	for _, ci := range p.clauses {
		total += len(clauses[ci])
	}
	arena := make([]int, total)
	s.clauses = make([][]int, len(p.clauses))
	for i, ci := range p.clauses {
		c := clauses[ci]
		seg := arena[:len(c):len(c)]
		arena = arena[len(c):]
		for j, g := range c {
			seg[j] = lit(g)
		}
		// Flipping changes the sign, not the variable order, so the clause
		// stays sorted by variable as residual clauses must be.
		s.clauses[i] = seg
	}
	for _, bi := range p.bounds {
		b := bounds[bi]
		lb := bound{k: b.k, f: linear{lits: make([]int, len(b.f.lits)), weights: b.f.weights}}
		for j, g := range b.f.lits {
			lb.f.lits[j] = lit(g)
		}
		s.bounds = append(s.bounds, lb)
	}
	return s
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
