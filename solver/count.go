package solver

import (
	"context"
	"math/big"
)

// Count returns the exact number of distinct assignments of the projection
// variables over all models of cnf. The residual after propagation is split
// into independent components (clauses that share no variable); each
// component is enumerated on its own and the counts are multiplied, so k
// independent choices cost k small enumerations instead of 2^k models
// (solver.md §5.10).
func Count(ctx context.Context, cnf *CNF, projection []int) (*big.Int, error) {
	p, err := Presolve(cnf)
	if err != nil {
		return nil, err
	}
	if p.Unsat {
		return big.NewInt(0), nil
	}
	// Union-find over variables of the residual clauses.
	parent := make([]int, cnf.NumVars+1)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	used := make([]bool, cnf.NumVars+1)
	for _, c := range p.Clauses {
		first := abs(c[0])
		used[first] = true
		for _, l := range c[1:] {
			v := abs(l)
			used[v] = true
			if a, b := find(first), find(v); a != b {
				parent[a] = b
			}
		}
	}
	total := big.NewInt(1)
	two := big.NewInt(2)
	seen := make(map[int]bool, len(projection))
	byComponent := map[int][]int{}
	var roots []int
	for _, v := range projection {
		if seen[v] || p.Fixed[v] != 0 {
			continue
		}
		seen[v] = true
		if !used[v] {
			total.Mul(total, two)
			continue
		}
		r := find(v)
		if _, ok := byComponent[r]; !ok {
			roots = append(roots, r)
		}
		byComponent[r] = append(byComponent[r], v)
	}
	if len(roots) == 0 {
		return total, nil
	}
	clausesOf := map[int][][]int{}
	for _, c := range p.Clauses {
		r := find(abs(c[0]))
		if _, ok := byComponent[r]; ok {
			clausesOf[r] = append(clausesOf[r], c)
		}
	}
	for _, r := range roots {
		sub := &CNF{NumVars: cnf.NumVars, Clauses: clausesOf[r]}
		n, _, err := Enumerate(ctx, sub, byComponent[r], 0, func([]bool) bool { return true })
		if err != nil {
			return nil, err
		}
		total.Mul(total, big.NewInt(int64(n)))
	}
	return total, nil
}
