package logic

import (
	"math/rand"
	"strconv"
	"testing"
)

// BenchmarkLarge builds and solves a problem of about 100k clauses (random
// 3-SAT well below the threshold), then minimises a count over 200 of its
// variables.
func BenchmarkLarge(b *testing.B) {
	for i := 0; i < b.N; i++ {
		rng := rand.New(rand.NewSource(1))
		s := NewSolver()
		const n = 30000
		lit := func() any {
			v := "v" + strconv.Itoa(rng.Intn(n))
			if rng.Intn(2) == 0 {
				return Not(v)
			}
			return v
		}
		for range 3 * n {
			if err := s.Require(Or(lit(), lit(), lit())); err != nil {
				b.Fatal(err)
			}
		}
		sol, err := s.Solve()
		if err != nil || sol == nil {
			b.Fatal(err, sol)
		}
		terms := make([]any, 200)
		weights := make([]int, 200)
		for j := range terms {
			terms[j] = "v" + strconv.Itoa(j)
			weights[j] = 1 + j%3
		}
		if _, err := s.MinimizeWeightedSum(sol, terms, weights); err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.ReportMetric(float64(len(s.clauses)), "clauses")
			b.ReportMetric(float64(s.Stats().Conflicts), "conflicts")
		}
	}
}
