package solver

import (
	"context"
	"math/big"
)

// Count returns the exact number of distinct assignments of the projection
// variables over all models of cnf (spaces.md §1–2). It compiles the
// formula (Compile) and counts the circuit's models; a repeated projection
// variable counts once.
func Count(ctx context.Context, cnf *CNF, projection []int) (*big.Int, error) {
	c, err := Compile(ctx, cnf, dedupe(projection), CompileOptions{})
	if err != nil {
		return nil, err
	}
	return c.Count(), nil
}

// dedupe returns vars without repetitions, keeping the first of each.
func dedupe(vars []int) []int {
	seen := make(map[int]bool, len(vars))
	out := make([]int, 0, len(vars))
	for _, v := range vars {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
