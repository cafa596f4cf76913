package solver

import "context"

// Enumerate lists the distinct assignments of the projection variables over
// all models of cnf with the projected blocking-clause loop of solver.md
// §5.10: solve, report the projection, block it, repeat until UNSAT. Only
// projection variables that propagation leaves unfixed go into the blocking
// clauses; auxiliary and input variables are never blocked.
//
// fn receives the projected values in projection order (the slice is reused
// between calls) and returns false to stop. limit ≤ 0 means no limit.
// complete reports whether the space was exhausted; when the limit is
// reached, one more query decides it. The order of the variants is the
// solver's, deterministic but not canonical: callers sort them for output.
// The cost grows roughly quadratically with the number of variants.
func Enumerate(ctx context.Context, cnf *CNF, projection []int, limit int, fn func(values []bool) bool) (count int, complete bool, err error) {
	return enumerate(ctx, cnf, projection, limit, fn, defaultConfig())
}

func enumerate(ctx context.Context, cnf *CNF, projection []int, limit int, fn func(values []bool) bool, cfg *config) (count int, complete bool, err error) {
	set, err := checkedSet(cnf)
	if err != nil {
		return 0, false, err
	}
	nv := cnf.NumVars
	if err := validateVars("projection", nv, projection); err != nil {
		return 0, false, err
	}
	var st Stats
	r, ok := propagate(nv, nil, nil, set, nil, &st)
	if !ok {
		return 0, true, nil
	}
	seen := make([]bool, nv+1)
	var free []int
	for _, v := range projection {
		if r.fixed[v] == 0 && !seen[v] {
			seen[v] = true
			free = append(free, v)
		}
	}
	parts, local := split(nv, r.clauses, nil, free, true)
	var sp *sub
	if len(parts) > 0 {
		sp = localize(parts[0], r.clauses, nil, local, nil)
	} else {
		sp = &sub{vars: []int{0}, flip: []bool{false}}
	}
	block := make([]int, len(free))
	for i, v := range free {
		block[i] = int(local[v])
	}
	values := make([]bool, len(projection))
	err = withBackend(residual{nv: sp.nv, fixed: make([]int8, sp.nv+1), clauses: sp.clauses}, nil, cfg, &st, func(b *backend) error {
		for {
			sat, err := b.solve(ctx)
			if err != nil {
				return err
			}
			if !sat {
				complete = true
				return nil
			}
			if limit > 0 && count >= limit {
				return nil
			}
			m := b.model()
			for i, v := range projection {
				if f := r.fixed[v]; f != 0 {
					values[i] = f > 0
				} else {
					values[i] = m[local[v]]
				}
			}
			count++
			// The lock is not held here, so fn may resolve something
			// itself.
			more := fn(values)
			if !more {
				return nil
			}
			if len(block) == 0 {
				complete = true
				return nil
			}
			b.addClause(blockingClause(m, block))
		}
	})
	return count, complete, err
}
