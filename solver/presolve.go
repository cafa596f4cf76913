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
	if err := validateCNF(cnf); err != nil {
		return nil, err
	}
	var st Stats
	r, ok := propagate(cnf.NumVars, nil, nil, cnf.Clauses, nil, &st)
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
	return propagate(r.nv, r.fixed, r.clauses, nil, units, st)
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
func propagate(nv int, fixed []int8, clean, raw [][]int, units []int, st *Stats) (residual, bool) {
	st.Presolves++
	p := unitQueue{val: make([]int8, nv+1), queue: make([]int, 0, len(units)+16)}
	copy(p.val, fixed)
	for _, l := range units {
		if !p.enqueue(l) {
			return residual{}, false
		}
	}
	clauses, ok := p.addRaw(clean, raw)
	if !ok {
		return residual{}, false
	}
	if len(p.queue) == 0 {
		return residual{nv: nv, fixed: p.val, clauses: clauses}, true
	}
	// Occurrence lists in one flat array (CSR), indexed by litIndex.
	start := make([]int32, 2*nv+3)
	occ := make([]int32, countOccurrences(clauses, start))
	fillOccurrences(clauses, start, occ)
	// count[ci] is the number of literals of clause ci not yet assigned
	// false, or -1 once the clause is satisfied.
	count := make([]int32, len(clauses))
	if !p.run(clauses, start, occ, count) {
		return residual{}, false
	}
	return residual{nv: nv, fixed: p.val, clauses: rebuild(clauses, count, p.val)}, true
}

// unitQueue is the state of unit propagation: the value of each variable
// (+1, -1, 0 for none) and the literals assigned true, in order.
type unitQueue struct {
	val   []int8
	queue []int
}

// enqueue assigns l true. It reports false where l is already false.
func (p *unitQueue) enqueue(l int) bool {
	fresh, ok := assign(p.val, l)
	if fresh {
		p.queue = append(p.queue, l)
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
func (p *unitQueue) addRaw(clean, raw [][]int) (clauses [][]int, ok bool) {
	if len(raw) == 0 {
		return clean, true
	}
	cleaned, rawUnits, ok := cleanClauses(raw, p.val)
	if !ok {
		return nil, false
	}
	for _, l := range rawUnits {
		if !p.enqueue(l) {
			return nil, false
		}
	}
	if len(clean) == 0 {
		return cleaned, true
	}
	clauses = make([][]int, 0, len(clean)+len(cleaned))
	clauses = append(clauses, clean...)
	clauses = append(clauses, cleaned...)
	return clauses, true
}

// countOccurrences sets start[litIndex(l)+1..] to the prefix sums of the
// number of occurrences of each literal in clauses, so that the
// occurrences of l will be occ[start[litIndex(l)]:start[litIndex(l)+1]],
// and returns the number of all occurrences.
func countOccurrences(clauses [][]int, start []int32) int {
	total := 0
	for _, c := range clauses {
		for _, l := range c {
			start[litIndex(l)+1]++
		}
		total += len(c)
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	return total
}

// fillOccurrences fills occ with the clauses in which each literal occurs
// (countOccurrences).
func fillOccurrences(clauses [][]int, start, occ []int32) {
	fill := slices.Clone(start)
	for ci, c := range clauses {
		for _, l := range c {
			li := litIndex(l)
			occ[fill[li]] = int32(ci)
			fill[li]++
		}
	}
}

// run propagates the queued literals through clauses, whose occurrence
// lists are start and occ, and leaves in count the number of literals of
// each clause not assigned false, or -1 for a satisfied clause. It reports
// false on a conflict.
func (p *unitQueue) run(clauses [][]int, start, occ, count []int32) bool {
	for ci, c := range clauses {
		count[ci] = int32(len(c))
	}
	for head := 0; head < len(p.queue); head++ {
		l := p.queue[head]
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
			for _, m := range clauses[ci] {
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
func rebuild(clauses [][]int, count []int32, val []int8) [][]int {
	kept, arenaSize := 0, 0
	for ci, c := range clauses {
		if n := int(count[ci]); n >= 0 {
			kept++
			if n != len(c) {
				arenaSize += n
			}
		}
	}
	out := make([][]int, 0, kept)
	arena := make([]int, arenaSize)
	for ci, c := range clauses {
		n := int(count[ci])
		if n < 0 {
			continue
		}
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

// cleanClauses copies raw clauses into one arena, evaluating them under val:
// satisfied clauses and tautologies are dropped, false literals removed,
// literals sorted by variable and deduplicated. Clauses left with one literal
// are returned as units; an empty clause makes ok false.
func cleanClauses(raw [][]int, val []int8) (cleaned [][]int, units []int, ok bool) {
	total := 0
	for _, c := range raw {
		total += len(c)
	}
	arena := make([]int, total)
	pos := 0
	cleaned = make([][]int, 0, len(raw))
outer:
	for _, c := range raw {
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

// litLess orders literals by variable, the negative literal first, so that
// duplicates and complementary pairs end up next to each other.
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
