package solver

import (
	"context"
	"errors"
)

// MinimalUnsat returns a minimal set of clause groups that is unsatisfiable
// together with the background clauses (solver.md §5.12): groups[i] is the
// group of clause i, 0 for background clauses that are always kept (such as
// Tseitin definitions). Dropping any returned group makes the rest
// satisfiable. It uses QuickXplain, so the number of satisfiability checks
// grows with the size of the answer times the logarithm of the number of
// groups, and every check is a fresh solve (no assumptions, solver.md §4.3).
//
// It fails if the whole problem is satisfiable.
func MinimalUnsat(ctx context.Context, cnf *CNF, groups []int) ([]int, error) {
	clauses := cnf.all()
	if len(groups) != len(clauses) {
		return nil, errors.New("solver: one group per clause required")
	}
	byGroup := map[int][]int{}
	var order []int
	for i, g := range groups {
		if _, ok := byGroup[g]; !ok && g != 0 {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], i)
	}
	sat := func(selected []int) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		sub := &CNF{NumVars: cnf.NumVars}
		for _, i := range byGroup[0] {
			sub.Clauses = append(sub.Clauses, clauses[i])
		}
		for _, g := range selected {
			for _, i := range byGroup[g] {
				sub.Clauses = append(sub.Clauses, clauses[i])
			}
		}
		res, err := Solve(ctx, sub, nil, nil)
		if err != nil {
			return false, err
		}
		return res.Sat, nil
	}
	ok, err := sat(order)
	if err != nil {
		return nil, err
	}
	if ok {
		return nil, errors.New("solver: the problem is satisfiable")
	}
	var qx func(base []int, changed bool, cands []int) ([]int, error)
	qx = func(base []int, changed bool, cands []int) ([]int, error) {
		if changed {
			ok, err := sat(base)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, nil
			}
		}
		if len(cands) == 1 {
			return cands, nil
		}
		mid := len(cands) / 2
		c1, c2 := cands[:mid], cands[mid:]
		d2, err := qx(append(append([]int(nil), base...), c1...), true, c2)
		if err != nil {
			return nil, err
		}
		d1, err := qx(append(append([]int(nil), base...), d2...), len(d2) > 0, c1)
		if err != nil {
			return nil, err
		}
		return append(d1, d2...), nil
	}
	return qx(nil, false, order)
}
