package solver

import (
	"slices"
)

// Presolved is the outcome of our own unit propagation (solver.md §5.3).
type Presolved struct {
	// Unsat reports that propagation derived a conflict: the CNF has no model.
	Unsat bool
	// Fixed[v] is +1 when propagation fixed v to true, -1 for false and 0 when
	// v is not fixed; index 0 is unused.
	Fixed []int8
	// Clauses is the residual without the units: satisfied clauses dropped,
	// false literals removed, literals sorted by variable and deduplicated,
	// tautologies dropped. Every clause has at least two literals, all on
	// unfixed variables. The slices must not be modified.
	Clauses [][]int
}

// Residual returns the residual clauses followed by one unit clause per fixed
// variable: the form in which a formula is handed to the SAT backend. It is
// equisatisfiable with the original CNF and has the same models.
func (p *Presolved) Residual() [][]int {
	out := make([][]int, 0, len(p.Clauses)+len(p.Fixed))
	out = append(out, p.Clauses...)
	return appendUnits(out, p.Fixed)
}

// appendUnits appends to out a unit clause per variable that fixed sets
// (+1 true, -1 false), in the order of the variables.
func appendUnits(out [][]int, fixed []int8) [][]int {
	n := 0
	for _, f := range fixed {
		if f != 0 {
			n++
		}
	}
	units := make([]int, 0, n)
	for v, f := range fixed {
		switch f {
		case 1:
			units = append(units, v)
		case -1:
			units = append(units, -v)
		}
	}
	for i := range units {
		out = append(out, units[i:i+1:i+1])
	}
	return out
}

// Presolve runs unit propagation on cnf in time linear in its size.
func Presolve(cnf *CNF) (*Presolved, error) {
	set, err := checkedSet(cnf)
	if err != nil {
		return nil, err
	}
	var st Stats
	r, ok := propagate(cnf.NumVars, nil, nil, set, nil, &st)
	if !ok {
		return &Presolved{Unsat: true}, nil
	}
	return &Presolved{Fixed: r.fixed, Clauses: r.clauses}, nil
}

// residual is a propagated formula over variables 1..nv: the values fixed by
// unit propagation and the clauses that are left, in the form described at
// Presolved.Clauses. Clause slices are shared between residuals and never
// modified, so deriving a residual from another one copies only the clauses
// that lose literals.
type residual struct {
	nv      int
	fixed   []int8
	clauses [][]int
}

// assign propagates units on top of r. ok is false on a conflict.
func (r residual) assign(units []int, st *Stats) (residual, bool) {
	return propagate(r.nv, r.fixed, r.clauses, clauseSet{}, units, st)
}

// value returns the model that sets every fixed variable to its value and
// every free variable to false. It is a model of r when r has no clauses left.
func (r residual) value() []bool {
	m := make([]bool, r.nv+1)
	for v, f := range r.fixed {
		m[v] = f > 0
	}
	return m
}

// litIndex maps a literal to a dense index: 2v for v, 2v+1 for ¬v.
func litIndex(l int) int {
	if l > 0 {
		return 2 * l
	}
	return -2*l + 1
}

// propagate runs unit propagation over nv variables. fixed (nil: nothing
// fixed) holds the values known beforehand and is not modified. clean
// clauses must already be in residual form with respect to fixed; raw clauses
// may be anything and are cleaned first. units are extra literals to assert.
//
// The work is linear in the size of the clauses plus nv: occurrence lists
// with a counter of non-false literals per clause, and a queue. That is what
// keeps long implication chains, even in reverse clause order, away from
// gophersat's quadratic parse-time simplifier (solver.md §4.7).
func propagate(nv int, fixed []int8, clean [][]int, raw clauseSet, units []int, st *Stats) (residual, bool) {
	st.Presolves++
	// Every variable is queued at most once, and besides the units every
	// queued literal comes from a clause that became unit, which happens at
	// most once per clause: the queue never outgrows this, so it is
	// allocated once, at the first literal (a growing queue allocated five
	// times its final size on the ring).
	t := takeTemps()
	defer t.give()
	p := unitQueue{val: make([]int8, nv+1), limit: min(nv, len(units)+len(clean)+raw.len()), temps: t}
	copy(p.val, fixed)
	for _, l := range units {
		if !p.enqueue(l) {
			return residual{}, false
		}
	}
	clauses, ok := p.addRaw(clean, raw, fixed == nil && len(units) == 0)
	if !ok {
		return residual{}, false
	}
	if len(p.queue) == 0 {
		return residual{nv: nv, fixed: p.val, clauses: clauses.slices()}, true
	}
	// count[ci] is the number of literals of clause ci not yet assigned
	// false, or -1 once the clause is satisfied; occurrences sets every
	// entry first.
	count := t.count.filled(clauses.len())
	start, occ := occurrences(nv, clauses, count, t)
	if !p.run(clauses, start, occ, count) {
		return residual{}, false
	}
	return residual{nv: nv, fixed: p.val, clauses: rebuild(clauses, count, p.val)}, true
}

// unitQueue is the state of unit propagation: the value of each variable
// (+1, -1, 0 for none) and the literals assigned true, in order. limit is
// the most literals the queue can hold.
type unitQueue struct {
	val   []int8
	queue []int32
	limit int
	// temps holds the queue's array (nil: allocated).
	temps *temps
}

// enqueue assigns l true. It reports false where l is already false.
func (p *unitQueue) enqueue(l int) bool {
	fresh, ok := assign(p.val, l)
	if fresh {
		if p.queue == nil && p.temps != nil {
			p.queue = p.temps.queue.room(p.limit)
		} else if p.queue == nil {
			p.queue = make([]int32, 0, p.limit)
		}
		p.queue = append(p.queue, int32(l))
	}
	return ok
}

// assign makes literal l true in val (+1 true, -1 false per variable):
// fresh reports that its variable had no value, ok is false where l is
// already false.
func assign(val []int8, l int) (fresh, ok bool) {
	v, want := abs(l), int8(1)
	if l < 0 {
		want = -1
	}
	switch val[v] {
	case 0:
		val[v] = want
		return true, true
	case -want:
		return false, false
	}
	return false, true
}

// addRaw cleans the raw clauses under the values so far, enqueues their
// units and returns the clean clauses followed by the cleaned ones. ok is
// false on a conflict.
//
// When every raw clause is already in residual form, as the encoder's
// clauses usually are, raw itself is used (its capacity clipped) with its
// unit clauses still in it, and no clause is copied and no clause list
// allocated: the units' literals are queued, so propagation satisfies those
// clauses and drops them. On the ring at seed 10,000 the copy was 13 MB per
// solve. A packed raw list stays packed.
//
// unassigned says that nothing is assigned yet, so that a raw list known
// to be sorted is in residual form without another look.
func (p *unitQueue) addRaw(clean [][]int, raw clauseSet, unassigned bool) (clauses clauseSet, ok bool) {
	if raw.len() == 0 {
		return clauseSet{list: clean}, true
	}
	var cleaned clauseSet
	if raw.sorted && unassigned || allInResidualForm(raw, p.val) {
		for _, c := range raw.list {
			if len(c) == 1 && !p.enqueue(c[0]) {
				return clauseSet{}, false
			}
		}
		for i := range raw.packed.Refs {
			if c := clauseOf(raw.packed.Chunks, raw.packed.Refs, i); len(c) == 1 && !p.enqueue(c[0]) {
				return clauseSet{}, false
			}
		}
		cleaned = clauseSet{list: raw.list[:len(raw.list):len(raw.list)], packed: raw.packed}
	} else {
		var rawUnits []int
		cleaned.list, rawUnits, ok = cleanClauses(raw, p.val)
		if !ok {
			return clauseSet{}, false
		}
		for _, l := range rawUnits {
			if !p.enqueue(l) {
				return clauseSet{}, false
			}
		}
	}
	if len(clean) == 0 {
		return cleaned, true
	}
	list := make([][]int, 0, len(clean)+len(cleaned.list))
	list = append(list, clean...)
	return clauseSet{list: append(list, cleaned.list...), packed: cleaned.packed}, true
}

// occurrences returns the occurrence lists of the literals of clauses over
// nv variables in one flat array (CSR): the clauses in which l occurs, in
// ascending order, are occ[start[litIndex(l)]:start[litIndex(l)+1]].
// Counting into each list's slot and filling backwards from the lists'
// ends leaves start at the lists' beginnings, without a second cursor
// array. It also sets count[ci] to the length of clause ci. The counting
// reads the literals where they lie, the filling walks each chunk's
// clauses backwards: finding each clause anew (at) cost more than the
// work on its literals.
func occurrences(nv int, clauses clauseSet, count []int32, t *temps) (start, occ []int32) {
	start = t.start.take(2*nv + 3)
	total := 0
	for ci, c := range clauses.list {
		for _, l := range c {
			start[litIndex(l)]++
		}
		count[ci] = int32(len(c))
		total += len(c)
	}
	for _, ch := range clauses.packed.Chunks {
		for _, l := range ch {
			start[litIndex(l)]++
		}
		total += len(ch)
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	// Filled in full below, every entry once.
	occ = t.occ.filled(total)
	fill := func(ci int, c []int) {
		for _, l := range c {
			li := litIndex(l)
			start[li]--
			occ[start[li]] = int32(ci)
		}
	}
	// The packed clauses' lengths are set here, where the walk has them.
	base, refs, chunks := len(clauses.list), clauses.packed.Refs, clauses.packed.Chunks
	i := len(refs) - 1
	for k := len(chunks) - 1; k >= 0; k-- {
		ch := chunks[k]
		end := len(ch)
		for ; i >= 0 && int(refs[i]>>16) == k; i-- {
			from := int(refs[i] & 0xffff)
			count[base+i] = int32(end - from)
			fill(base+i, ch[from:end])
			end = from
		}
	}
	for ci := len(clauses.list) - 1; ci >= 0; ci-- {
		fill(ci, clauses.list[ci])
	}
	return start, occ
}

// run propagates the queued literals through clauses, whose occurrence
// lists are start and occ, and leaves in count, which holds each clause's
// length on entry (occurrences), the number of literals of each clause not
// assigned false, or -1 for a satisfied clause. It reports false on a
// conflict.
func (p *unitQueue) run(clauses clauseSet, start, occ, count []int32) bool {
	for head := 0; head < len(p.queue); head++ {
		l := int(p.queue[head])
		li := litIndex(l)
		for _, ci := range occ[start[li]:start[li+1]] {
			count[ci] = -1
		}
		ni := litIndex(-l)
		for _, ci := range occ[start[ni]:start[ni+1]] {
			if count[ci] < 0 {
				continue
			}
			count[ci]--
			if count[ci] > 1 {
				continue
			}
			// At most one literal is not false: find it. This scan happens
			// once per clause, because the clause is then satisfied or
			// conflicting.
			unit := 0
			for _, m := range clauses.at(int(ci)) {
				switch f := p.val[abs(m)]; {
				case f == 0:
					unit = m
				case (f > 0) == (m > 0):
					count[ci] = -1
				}
				if count[ci] < 0 {
					break
				}
			}
			if count[ci] < 0 {
				continue
			}
			if unit == 0 {
				return false
			}
			count[ci] = -1
			if !p.enqueue(unit) {
				return false
			}
		}
	}
	return true
}

// rebuild returns the clause list after propagation: satisfied clauses go,
// clauses that lost literals are copied into one arena, untouched ones are
// shared.
func rebuild(clauses clauseSet, count []int32, val []int8) [][]int {
	kept, arenaSize := 0, 0
	for ci := range clauses.len() {
		if n := int(count[ci]); n >= 0 {
			kept++
			if n != len(clauses.at(ci)) {
				arenaSize += n
			}
		}
	}
	out := make([][]int, 0, kept)
	arena := make([]int, arenaSize)
	for ci := range clauses.len() {
		n := int(count[ci])
		if n < 0 {
			continue
		}
		c := clauses.at(ci)
		if n == len(c) {
			out = append(out, c)
			continue
		}
		seg := arena[:0:n]
		arena = arena[n:]
		for _, l := range c {
			if val[abs(l)] == 0 {
				seg = append(seg, l)
			}
		}
		out = append(out, seg)
	}
	return out
}

// cleanClauses evaluates raw clauses under val: satisfied clauses and
// tautologies are dropped, false literals removed, literals sorted by
// variable and deduplicated. Clauses left with one literal are returned as
// units; an empty clause makes ok false. A clause already in that form
// (inResidualForm) is shared, the others are copied into one arena.
func cleanClauses(raw clauseSet, val []int8) (cleaned [][]int, units []int, ok bool) {
	copied, nUnits := 0, 0
	for i := range raw.len() {
		switch c := raw.at(i); {
		case !inResidualForm(c, val):
			copied += len(c)
		case len(c) == 1:
			nUnits++
		}
	}
	if nUnits > 0 {
		units = make([]int, 0, nUnits)
	}
	arena := make([]int, copied)
	pos := 0
	cleaned = make([][]int, 0, raw.len()-nUnits)
outer:
	for i := range raw.len() {
		c := raw.at(i)
		if inResidualForm(c, val) {
			if len(c) == 1 {
				units = append(units, c[0])
			} else {
				cleaned = append(cleaned, c[:len(c):len(c)])
			}
			continue
		}
		begin := pos
		for _, l := range c {
			switch f := val[abs(l)]; {
			case f == 0:
				arena[pos] = l
				pos++
			case (f > 0) == (l > 0):
				pos = begin
				continue outer
			}
		}
		seg := arena[begin:pos]
		sortLits(seg)
		n := 0
		for i, l := range seg {
			if i > 0 {
				prev := seg[n-1]
				if prev == l {
					continue
				}
				if prev == -l {
					pos = begin
					continue outer
				}
			}
			seg[n] = l
			n++
		}
		pos = begin + n
		switch n {
		case 0:
			return nil, nil, false
		case 1:
			units = append(units, seg[0])
			pos = begin
		default:
			cleaned = append(cleaned, arena[begin:pos:pos])
		}
	}
	return cleaned, units, true
}

// allInResidualForm reports whether every clause is inResidualForm.
func allInResidualForm(clauses clauseSet, val []int8) bool {
	for _, c := range clauses.list {
		if !inResidualForm(c, val) {
			return false
		}
	}
	for i := range clauses.packed.Refs {
		if !inResidualForm(clauseOf(clauses.packed.Chunks, clauses.packed.Refs, i), val) {
			return false
		}
	}
	return true
}

// inResidualForm reports whether c is non-empty, has no literal assigned in
// val, and has its literals in strictly ascending order of variable, which
// rules out repeated and complementary literals: cleaning would copy it
// unchanged.
func inResidualForm(c []int, val []int8) bool {
	prev := 0
	for _, l := range c {
		v := abs(l)
		if v <= prev || val[v] != 0 {
			return false
		}
		prev = v
	}
	return len(c) > 0
}

// litLess orders literals by variable, the negative literal first, so that
// duplicates and complementary pairs end up next to each other. The
// encoder stores its clauses in this order (encode's sortClause; the
// solver imports nothing of ours, so the order is spelt in both), which
// lets cleanClauses share them instead of copying: a change here must be
// made there too, or every unsorted clause is copied again.
func litLess(a, b int) bool {
	va, vb := abs(a), abs(b)
	if va != vb {
		return va < vb
	}
	return a < b
}

func sortLits(s []int) {
	if len(s) <= 16 {
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && litLess(s[j], s[j-1]); j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
		return
	}
	slices.SortFunc(s, func(a, b int) int {
		switch {
		case litLess(a, b):
			return -1
		case litLess(b, a):
			return 1
		}
		return 0
	})
}
