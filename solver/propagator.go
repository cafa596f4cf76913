package solver

// propagator is unit propagation that can be undone: the tie-break walk asks
// "fixed literals ∧ ¬v" once per variable that is true in its carried model,
// and most answers come from propagation alone. Re-propagating the whole
// residual for each question would make the walk quadratic on templates with
// many free alternatives; with a trail, a question costs only the
// propagation it triggers.
//
// Per clause it counts the literals processed as false and as true. A literal
// is assigned when it is queued and processed when its occurrences are
// visited; undo reverts exactly the processed ones.
type propagator struct {
	nv      int
	clauses [][]int
	start   []int32 // occurrence lists (CSR) by litIndex
	occ     []int32
	falses  []int32 // per clause: literals processed as false
	trues   []int32 // per clause: literals processed as true
	val     []int8
	trail   []int
	head    int // trail[:head] is processed
	open    int // clauses without a processed true literal
}

// newPropagator starts from a residual: its fixed values are background
// facts, never undone, and its clauses are the ones watched.
func newPropagator(r residual) *propagator {
	p := &propagator{
		nv:      r.nv,
		clauses: r.clauses,
		start:   make([]int32, 2*r.nv+3),
		falses:  make([]int32, len(r.clauses)),
		trues:   make([]int32, len(r.clauses)),
		val:     make([]int8, r.nv+1),
		open:    len(r.clauses),
	}
	copy(p.val, r.fixed)
	total := 0
	for _, c := range r.clauses {
		for _, l := range c {
			p.start[litIndex(l)+1]++
		}
		total += len(c)
	}
	for i := 1; i < len(p.start); i++ {
		p.start[i] += p.start[i-1]
	}
	p.occ = make([]int32, total)
	fill := make([]int32, len(p.start))
	copy(fill, p.start)
	for ci, c := range r.clauses {
		for _, l := range c {
			li := litIndex(l)
			p.occ[fill[li]] = int32(ci)
			fill[li]++
		}
	}
	return p
}

// mark returns the trail position to undo to.
func (p *propagator) mark() int { return len(p.trail) }

// undo reverts every assignment made after mark m.
func (p *propagator) undo(m int) {
	for i := len(p.trail) - 1; i >= m; i-- {
		l := p.trail[i]
		if i < p.head {
			li, ni := litIndex(l), litIndex(-l)
			for _, ci := range p.occ[p.start[li]:p.start[li+1]] {
				p.trues[ci]--
				if p.trues[ci] == 0 {
					p.open++
				}
			}
			for _, ci := range p.occ[p.start[ni]:p.start[ni+1]] {
				p.falses[ci]--
			}
		}
		p.val[abs(l)] = 0
	}
	p.trail = p.trail[:m]
	p.head = min(p.head, m)
}

// assign asserts lits and propagates. ok is false on a conflict; the
// assignments made so far stay on the trail until undone.
func (p *propagator) assign(lits ...int) (ok bool) {
	for _, l := range lits {
		if !p.enqueue(l) {
			return false
		}
	}
	for p.head < len(p.trail) {
		l := p.trail[p.head]
		p.head++
		li, ni := litIndex(l), litIndex(-l)
		for _, ci := range p.occ[p.start[li]:p.start[li+1]] {
			if p.trues[ci] == 0 {
				p.open--
			}
			p.trues[ci]++
		}
		conflict := false
		// Visit every occurrence even after a conflict, so that undo finds
		// the counters of a fully processed literal.
		for _, ci := range p.occ[p.start[ni]:p.start[ni+1]] {
			p.falses[ci]++
			if conflict || p.trues[ci] > 0 {
				continue
			}
			c := p.clauses[ci]
			switch int(p.falses[ci]) {
			case len(c):
				conflict = true
			case len(c) - 1:
				// One literal is left unprocessed: true (satisfied soon),
				// unassigned (a unit), or false (a conflict soon).
				for _, m := range c {
					if f := p.val[abs(m)]; f == 0 {
						p.enqueue(m)
						break
					}
				}
			}
		}
		if conflict {
			return false
		}
	}
	return true
}

func (p *propagator) enqueue(l int) bool {
	fresh, ok := assign(p.val, l)
	if fresh {
		p.trail = append(p.trail, l)
	}
	return ok
}

// residual returns the current state as a residual: the values assigned so
// far and the clauses not yet satisfied, without their false literals. Call
// it only after a successful assign, when every assignment is processed.
func (p *propagator) residual() residual {
	r := residual{nv: p.nv, fixed: make([]int8, p.nv+1)}
	copy(r.fixed, p.val)
	r.clauses = make([][]int, 0, p.open)
	for ci, c := range p.clauses {
		if p.trues[ci] > 0 {
			continue
		}
		if p.falses[ci] == 0 {
			r.clauses = append(r.clauses, c)
			continue
		}
		seg := make([]int, 0, len(c)-int(p.falses[ci]))
		for _, l := range c {
			if p.val[abs(l)] == 0 {
				seg = append(seg, l)
			}
		}
		r.clauses = append(r.clauses, seg)
	}
	return r
}
