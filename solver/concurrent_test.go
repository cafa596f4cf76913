package solver

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConcurrentPipelinesMatchSequential runs the whole pipeline —
// optimisation with uniqueness (totalizer bounds and blocking clauses
// appended to live solvers), the native pseudo-Boolean fallback, long
// clauses appended after New, and the tie-break — from several goroutines
// at once, and checks that every result, statistics included (the same
// conflicts and decisions), equals the one computed alone.
// Only gophersat's searches are serialised (backend.search); building,
// appending and reading models run concurrently, so under -race this test
// shows any gophersat state shared between solvers outside the search.
func TestConcurrentPipelinesMatchSequential(t *testing.T) {
	// Five pigeons in five holes: 120 models, with costs that leave
	// ties, so that the steps need several solves and blocking clauses.
	cnf := &CNF{NumVars: 25}
	x := func(i, j int) int { return i*5 + j + 1 }
	for i := range 5 {
		c := make([]int, 5)
		for j := range 5 {
			c[j] = x(i, j)
		}
		cnf.Clauses = append(cnf.Clauses, c)
	}
	for j := range 5 {
		for i := range 5 {
			for k := i + 1; k < 5; k++ {
				cnf.Clauses = append(cnf.Clauses, []int{-x(i, j), -x(k, j)})
			}
		}
	}
	obj := &Objective{}
	var proj, tie []int
	for v := 1; v <= 25; v++ {
		obj.Lits = append(obj.Lits, v)
		obj.Weights = append(obj.Weights, int64((v*7)%5+1))
		proj = append(proj, v)
		tie = append(tie, 26-v)
	}
	steps := [][]Step{
		{{Objective: obj, Unique: true, Projection: proj}},
		{{Objective: obj}, {Unique: true, Projection: proj[:10]}},
		{{Objective: &Objective{Lits: obj.Lits, Weights: obj.Weights, Maximize: true}}},
	}
	cfgs := []config{
		*defaultConfig(),
		{maxCounterClauses: 0, longClause: defaultConfig().longClause},
		{maxCounterClauses: defaultConfig().maxCounterClauses, longClause: 2, noSplit: true},
	}
	type job struct{ steps, cfg int }
	var jobs []job
	want := map[job]string{}
	for si := range steps {
		for ci := range cfgs {
			j := job{si, ci}
			jobs = append(jobs, j)
			res, err := solve(context.Background(), cnf, steps[si], tie, &cfgs[ci])
			require.NoError(t, err)
			want[j] = fmt.Sprint(res.Sat, res.Ambiguous, res.Optima, res.Model, res.Stats)
		}
	}
	var wg sync.WaitGroup
	got := make([][]string, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, j := range jobs {
				res, err := solve(context.Background(), cnf, steps[j.steps], tie, &cfgs[j.cfg])
				if err != nil {
					got[g] = append(got[g], err.Error())
					continue
				}
				got[g] = append(got[g], fmt.Sprint(res.Sat, res.Ambiguous, res.Optima, res.Model, res.Stats))
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for i, j := range jobs {
			require.Equal(t, want[j], got[g][i], "goroutine %d, steps %d, config %d", g, j.steps, j.cfg)
		}
	}
}
