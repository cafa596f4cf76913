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
	units := make([]int, 0, len(p.Fixed))
	for v, f := range p.Fixed {
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
	val := make([]int8, nv+1)
	copy(val, fixed)

	queue := make([]int, 0, len(units)+16)
	enqueue := func(l int) bool {
		v, want := abs(l), int8(1)
		if l < 0 {
			want = -1
		}
		switch val[v] {
		case 0:
			val[v] = want
			queue = append(queue, l)
		case -want:
			return false
		}
		return true
	}
	for _, l := range units {
		if !enqueue(l) {
			return residual{}, false
		}
	}

	clauses := clean
	if len(raw) > 0 {
		cleaned, rawUnits, ok := cleanClauses(raw, val)
		if !ok {
			return residual{}, false
		}
		for _, l := range rawUnits {
			if !enqueue(l) {
				return residual{}, false
			}
		}
		if len(clean) == 0 {
			clauses = cleaned
		} else {
			clauses = make([][]int, 0, len(clean)+len(cleaned))
			clauses = append(clauses, clean...)
			clauses = append(clauses, cleaned...)
		}
	}
	if len(queue) == 0 {
		return residual{nv: nv, fixed: val, clauses: clauses}, true
	}

	// Occurrence lists in one flat array (CSR), indexed by litIndex.
	start := make([]int32, 2*nv+3)
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
	occ := make([]int32, total)
	fill := slices.Clone(start)
	for ci, c := range clauses {
		for _, l := range c {
			li := litIndex(l)
			occ[fill[li]] = int32(ci)
			fill[li]++
		}
	}

	// count[ci] is the number of literals of clause ci not yet assigned
	// false, or -1 once the clause is satisfied.
	count := make([]int32, len(clauses))
	for ci, c := range clauses {
		count[ci] = int32(len(c))
	}
	for head := 0; head < len(queue); head++ {
		l := queue[head]
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
				switch f := val[abs(m)]; {
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
				return residual{}, false
			}
			count[ci] = -1
			if !enqueue(unit) {
				return residual{}, false
			}
		}
	}

	// Rebuild the clause list: satisfied clauses go, clauses that lost
	// literals are copied into one arena, untouched ones are shared.
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
	return residual{nv: nv, fixed: val, clauses: out}, true
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
