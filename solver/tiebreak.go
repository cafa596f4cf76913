package solver

import (
	"context"
	"fmt"
)

// tieBreak applies the greedy-false rule (variability.md §10.4) without
// assumptions (solver.md §5.9). Parts are independent, so fixing a variable in
// one part never changes what is satisfiable in another, and each part is
// walked on its own with solvers sized by the part.
func (s *state) tieBreak(ctx context.Context, order []int) error {
	nv := s.r.nv
	tb := s.unfixedOnce(order)
	if len(tb) == 0 {
		return nil
	}
	parts, local := split(nv, s.r.clauses, s.bounds, tb, s.cfg.noSplit)
	partOf := make([]int32, nv+1)
	for i, p := range parts {
		for _, v := range p.vars {
			partOf[v] = int32(i)
		}
	}
	// Each part's variables in tie-break order.
	orders := make([][]int, len(parts))
	for _, v := range tb {
		p := partOf[v]
		orders[p] = append(orders[p], int(local[v]))
	}
	for i, p := range parts {
		if err := ctx.Err(); err != nil {
			return err
		}
		sp := s.subs.localize(p, s.r.clauses, s.bounds, local, nil)
		m, err := s.greedy(ctx, sp, orders[i])
		if err != nil {
			return err
		}
		sp.store(m, s.model)
	}
	return nil
}

// greedy walks order on one part. It carries a model M that satisfies every
// literal fixed so far: a variable false in M is fixed false without a query,
// and only a variable true in M costs a query "fixed literals ∧ ¬v". The
// fixed literals live in an undoable propagator, so a query refuted by
// propagation costs only that propagation; otherwise a throwaway solver is
// built from the propagated residual, the fixed literals being units of its
// initial parse (no Assume, no units appended one at a time).
func (s *state) greedy(ctx context.Context, sp *sub, order []int) ([]bool, error) {
	m := sp.load(s.model)
	if sp.free() {
		for _, v := range order {
			m[v] = false
		}
		return m, nil
	}
	s.st.Components++
	r, pbs, _, ok := s.encode(sp, linear{}, 0)
	if !ok {
		return nil, fmt.Errorf("solver: internal error: the tie-break starts from an unsatisfiable part")
	}
	p := newPropagator(r)
	checkedRest := false
	for i, v := range order {
		if p.val[v] != 0 {
			continue
		}
		if !m[v] {
			// m proves ¬v consistent with everything fixed so far.
			if !p.assign(-v) {
				return nil, fmt.Errorf("solver: internal error: the tie-break model violates its own literals")
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.st.TieBreakQueries++
		mark := p.mark()
		if p.assign(-v) {
			if p.open == 0 && len(pbs) == 0 {
				// Every clause is satisfied: the fixed literals with all free
				// variables false form a model (solver.md §5.4).
				s.st.TrivialSolutions++
				for u := 1; u <= sp.nv; u++ {
					m[u] = p.val[u] > 0
				}
				continue
			}
			if !checkedRest {
				// Quick exit, at the first query that needs a solver: if no
				// model agrees with the literals fixed so far and differs
				// from m on the rest of the walk, m is the answer. Otherwise
				// carry whichever of the two models the walk prefers. In the
				// visible suite almost every walk ends here (variability.md
				// §10.4).
				checkedRest = true
				p.undo(mark)
				var rest []int
				for _, u := range order[i:] {
					if p.val[u] == 0 {
						rest = append(rest, u)
					}
				}
				var other []bool
				s.st.BlockingClauses++
				err := withBackend(p.residual(), pbs, s.cfg, s.st, func(b *backend) error {
					b.addClause(blockingClause(m, rest))
					sat, err := b.solve(ctx)
					if err == nil && sat {
						other = b.model()[:sp.nv+1]
					}
					return err
				})
				if err != nil || other == nil {
					return m, err
				}
				if greedyBetter(other, m, rest) {
					m = other
				}
				ok := p.assign(-v)
				if !ok {
					return nil, fmt.Errorf("solver: internal error: the tie-break lost a consistent literal")
				}
				if !m[v] {
					continue
				}
			}
			var found []bool
			if err := withBackend(p.residual(), pbs, s.cfg, s.st, func(b *backend) error {
				sat, err := b.solve(ctx)
				if err == nil && sat {
					found = b.model()[:sp.nv+1]
				}
				return err
			}); err != nil {
				return nil, err
			}
			if found != nil {
				m = found
				continue
			}
		}
		// ¬v is impossible together with the literals fixed so far.
		p.undo(mark)
		if !p.assign(v) {
			return nil, fmt.Errorf("solver: internal error: the tie-break lost its model")
		}
	}
	return m, nil
}

// greedyBetter reports whether a is preferable to b as the walk's carried
// model: at the first variable of order where they differ, a is false.
func greedyBetter(a, b []bool, order []int) bool {
	for _, v := range order {
		if a[v] != b[v] {
			return !a[v]
		}
	}
	return false
}
