package solver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// exo returns the clauses "exactly one of vars".
func exo(vars ...int) [][]int {
	cls := [][]int{append([]int(nil), vars...)}
	for i := range vars {
		for j := i + 1; j < len(vars); j++ {
			cls = append(cls, []int{-vars[i], -vars[j]})
		}
	}
	return cls
}

func count(vars ...int) *Objective {
	o := &Objective{}
	for _, v := range vars {
		o.Lits = append(o.Lits, v)
		o.Weights = append(o.Weights, 1)
	}
	return o
}

func trueVars(m []bool) []int {
	vs := []int{}
	for v := 1; v < len(m); v++ {
		if m[v] {
			vs = append(vs, v)
		}
	}
	return vs
}

// solveCase is a problem for Solve and what its result must say.
type solveCase struct {
	name      string
	cnf       *CNF
	steps     []Step
	tieBreak  []int
	sat       bool
	ambiguous int
	optima    []int64
	trueVars  []int // of the final model; nil: not checked
	noBuilds  bool  // decided without any SAT solver
}

var solveCases = []solveCase{
	{
		name:     "unsat by propagation",
		cnf:      &CNF{NumVars: 2, Clauses: [][]int{{1}, {-1, 2}, {-2}}},
		noBuilds: true,
	},
	{
		name: "unsat by search: three pigeons, two holes",
		cnf: &CNF{NumVars: 6, Clauses: [][]int{
			{1, 2}, {3, 4}, {5, 6},
			{-1, -3}, {-1, -5}, {-3, -5},
			{-2, -4}, {-2, -6}, {-4, -6},
		}},
	},
	{
		name:      "empty formula",
		cnf:       &CNF{},
		sat:       true,
		ambiguous: -1,
		trueVars:  []int{},
		noBuilds:  true,
	},
	{
		name:      "free variables default to false",
		cnf:       &CNF{NumVars: 3},
		tieBreak:  []int{3, 1},
		sat:       true,
		ambiguous: -1,
		trueVars:  []int{},
		noBuilds:  true,
	},
	{
		name:      "propagation decides every step",
		cnf:       &CNF{NumVars: 3, Clauses: [][]int{{1}, {-1, 2}, {-2, -3}}},
		steps:     []Step{{Objective: count(1, 2, 3), Unique: true, Projection: []int{1, 2, 3}}},
		tieBreak:  []int{1, 2, 3},
		sat:       true,
		ambiguous: -1,
		optima:    []int64{2},
		trueVars:  []int{1, 2},
		noBuilds:  true,
	},
	{
		name:      "independent choices are ambiguous",
		cnf:       &CNF{NumVars: 6, Clauses: [][]int{{1, 2}, {3, 4}, {5, 6}}},
		steps:     []Step{{Objective: count(1, 2, 3, 4, 5, 6), Unique: true, Projection: []int{1, 2, 3, 4, 5, 6}}},
		sat:       true,
		ambiguous: 0,
		optima:    []int64{3},
	},
	{
		name: "odd path cover is unique",
		// x1..x5 with edges (x_i ∨ x_{i+1}): the minimum cover is {x2, x4}.
		cnf:       &CNF{NumVars: 5, Clauses: [][]int{{1, 2}, {2, 3}, {3, 4}, {4, 5}}},
		steps:     []Step{{Objective: count(1, 2, 3, 4, 5), Unique: true, Projection: []int{1, 2, 3, 4, 5}}},
		sat:       true,
		ambiguous: -1,
		optima:    []int64{2},
		trueVars:  []int{2, 4},
	},
	{
		name:      "even path cover is ambiguous",
		cnf:       &CNF{NumVars: 4, Clauses: [][]int{{1, 2}, {2, 3}, {3, 4}}},
		steps:     []Step{{Objective: count(1, 2, 3, 4), Unique: true, Projection: []int{1, 2, 3, 4}}},
		sat:       true,
		ambiguous: 0,
		optima:    []int64{2},
	},
	{
		name: "greedy-false keeps the last of interchangeable alternatives",
		// variability.md §10.4: exo over three free nodes, minimised,
		// uniqueness off; the reference's MiniSat keeps the first one.
		cnf:       &CNF{NumVars: 3, Clauses: exo(1, 2, 3)},
		steps:     []Step{{Objective: count(1, 2, 3)}},
		tieBreak:  []int{1, 2, 3},
		sat:       true,
		ambiguous: -1,
		optima:    []int64{1},
		trueVars:  []int{3},
	},
	{
		name:      "uniqueness without optimisation",
		cnf:       &CNF{NumVars: 3, Clauses: exo(1, 2, 3)},
		steps:     []Step{{Unique: true, Projection: []int{1, 2, 3}}},
		sat:       true,
		ambiguous: 0,
		optima:    []int64{0},
	},
	{
		name:      "an unconstrained projection variable is ambiguous",
		cnf:       &CNF{NumVars: 2, Clauses: [][]int{{1}}},
		steps:     []Step{{Unique: true, Projection: []int{1, 2}}},
		sat:       true,
		ambiguous: 0,
		optima:    []int64{0},
	},
	{
		name: "maximisation with weights ×100",
		cnf:  &CNF{NumVars: 3, Clauses: exo(1, 2, 3)},
		steps: []Step{{
			Objective: &Objective{Lits: []int{1, 2, 3}, Weights: []int64{100, 300, 200}, Maximize: true},
			Unique:    true, Projection: []int{1, 2, 3},
		}},
		sat:       true,
		ambiguous: -1,
		optima:    []int64{300},
		trueVars:  []int{2},
	},
	{
		name: "later steps work on the optimal face of earlier ones",
		// Two choices {1,2} and {3,4}; 2 and 3 exclude each other.
		// Step 0 minimises 1+4 (optimum 0: 2 and 3, impossible, so 1);
		// step 1 then maximises 3 on that face.
		cnf: &CNF{NumVars: 4, Clauses: [][]int{{1, 2}, {3, 4}, {-2, -3}}},
		steps: []Step{
			{Objective: count(1, 4)},
			{Objective: &Objective{Lits: []int{3}, Weights: []int64{5}, Maximize: true}, Unique: true, Projection: []int{1, 2, 3, 4}},
		},
		tieBreak:  []int{1, 2, 3, 4},
		sat:       true,
		ambiguous: -1,
		optima:    []int64{1, 5},
		trueVars:  []int{1, 3},
	},
	{
		name: "an ambiguous later step",
		cnf:  &CNF{NumVars: 4, Clauses: [][]int{{1, 2}, {3, 4}}},
		steps: []Step{
			{Objective: count(1, 2), Unique: true, Projection: []int{1, 2}},
			{Objective: count(3, 4), Unique: true, Projection: []int{3, 4}},
		},
		sat:       true,
		ambiguous: 0,
		optima:    []int64{1, 0},
	},
	{
		name: "complementary cost literals cancel",
		// [x] + [¬x] is the constant 1.
		cnf:       &CNF{NumVars: 1},
		steps:     []Step{{Objective: &Objective{Lits: []int{1, -1}, Weights: []int64{1, 1}}, Unique: true, Projection: []int{1}}},
		sat:       true,
		ambiguous: 0,
		optima:    []int64{1},
	},
}

func TestSolve(t *testing.T) {
	for _, tc := range solveCases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Solve(context.Background(), tc.cnf, tc.steps, tc.tieBreak)
			require.NoError(t, err)
			require.Equal(t, tc.sat, res.Sat, "satisfiability")
			if tc.noBuilds {
				require.Zero(t, res.Stats.Builds, "SAT solvers built")
			}
			if !tc.sat {
				require.Nil(t, res.Model)
				return
			}
			require.Equal(t, tc.ambiguous, res.Ambiguous, "ambiguity verdict")
			if tc.optima != nil {
				require.Equal(t, tc.optima, res.Optima, "optima")
			}
			require.True(t, satisfies(tc.cnf, res.Model), "model %v satisfies the CNF", res.Model)
			if tc.ambiguous >= 0 {
				require.True(t, satisfies(tc.cnf, res.Alternative), "alternative %v satisfies the CNF", res.Alternative)
			}
			if tc.trueVars != nil {
				require.Equal(t, tc.trueVars, trueVars(res.Model), "true variables of the final model")
			}
		})
	}
}

func TestSolveRejectsInvalidInput(t *testing.T) {
	cases := []struct {
		name     string
		want     string
		cnf      *CNF
		steps    []Step
		tieBreak []int
	}{
		{name: "nil CNF", want: "solver: nil CNF"},
		{name: "literal out of range", want: "solver: clause 0: literal 2 out of range ±1..1", cnf: &CNF{NumVars: 1, Clauses: [][]int{{2}}}},
		{name: "zero literal", want: "solver: clause 0: literal 0 out of range ±1..1", cnf: &CNF{NumVars: 1, Clauses: [][]int{{0}}}},
		{name: "negative weight", want: "solver: step 0: negative weight -1",
			cnf: &CNF{NumVars: 1}, steps: []Step{{Objective: &Objective{Lits: []int{1}, Weights: []int64{-1}}}}},
		{name: "weights without literals", want: "solver: step 0: 0 literals but 1 weights",
			cnf: &CNF{NumVars: 1}, steps: []Step{{Objective: &Objective{Weights: []int64{1}}}}},
		{name: "projection out of range", want: "solver: step 0 projection: variable -1 out of range 1..1",
			cnf: &CNF{NumVars: 1}, steps: []Step{{Unique: true, Projection: []int{-1}}}},
		{name: "tie-break out of range", want: "solver: tie-break: variable 2 out of range 1..1", cnf: &CNF{NumVars: 1}, tieBreak: []int{2}},
		{name: "weights that overflow", want: "solver: step 0: weights too large",
			cnf: &CNF{NumVars: 1}, steps: []Step{{Objective: &Objective{Lits: []int{1, 1}, Weights: []int64{1 << 62, 1 << 62}}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Solve(context.Background(), tc.cnf, tc.steps, tc.tieBreak)
			require.EqualError(t, err, tc.want)
		})
	}
}

func TestSolveStopsOnCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cnf := &CNF{NumVars: 4, Clauses: [][]int{{1, 2}, {3, 4}}}
	_, err := Solve(ctx, cnf, []Step{{Objective: count(1, 2, 3, 4)}}, []int{1, 2, 3, 4})
	require.ErrorIs(t, err, context.Canceled)
	_, _, err = Enumerate(ctx, cnf, []int{1, 2}, 0, func([]bool) bool { return true })
	require.ErrorIs(t, err, context.Canceled)
}

func TestEnumerate(t *testing.T) {
	cases := []struct {
		name     string
		cnf      *CNF
		proj     []int
		limit    int
		variants [][]bool
		complete bool
	}{
		{
			name:     "unsatisfiable",
			cnf:      &CNF{NumVars: 1, Clauses: [][]int{{1}, {-1}}},
			proj:     []int{1},
			complete: true,
		},
		{
			name:     "fixed projection is one variant",
			cnf:      &CNF{NumVars: 2, Clauses: [][]int{{1}, {2, -1}}},
			proj:     []int{2, 1},
			variants: [][]bool{{true, true}},
			complete: true,
		},
		{
			name:     "auxiliary variables are not blocked",
			cnf:      &CNF{NumVars: 3, Clauses: [][]int{{1, 2, 3}}},
			proj:     []int{1},
			variants: [][]bool{{false}, {true}},
			complete: true,
		},
		{
			name:     "limit reached",
			cnf:      &CNF{NumVars: 2},
			proj:     []int{1, 2},
			limit:    2,
			variants: [][]bool{{false, false}, {false, true}},
		},
		{
			name:     "limit equal to the number of variants",
			cnf:      &CNF{NumVars: 1},
			proj:     []int{1},
			limit:    2,
			variants: [][]bool{{false}, {true}},
			complete: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got [][]bool
			n, complete, err := Enumerate(context.Background(), tc.cnf, tc.proj, tc.limit, func(values []bool) bool {
				got = append(got, append([]bool(nil), values...))
				return true
			})
			require.NoError(t, err)
			require.Equal(t, len(tc.variants), n, "count")
			require.Equal(t, tc.complete, complete, "complete")
			require.ElementsMatch(t, tc.variants, got, "variants")
		})
	}
}

func TestEnumerateCallbackMaySolve(t *testing.T) {
	// The callback runs outside the lock, so resolving a variant from inside
	// it does not deadlock.
	cnf := &CNF{NumVars: 2, Clauses: [][]int{{1, 2}}}
	n, complete, err := Enumerate(context.Background(), cnf, []int{1, 2}, 0, func(values []bool) bool {
		res, err := Solve(context.Background(), cnf, nil, nil)
		require.NoError(t, err)
		require.True(t, res.Sat)
		return true
	})
	require.NoError(t, err)
	require.True(t, complete)
	require.Equal(t, 3, n)
}

// TestDeterminism solves the same inputs twice and compares the models and
// the work done (solver.md §5.14, style.md §5.9).
func TestDeterminism(t *testing.T) {
	cases := []struct {
		name  string
		shape shape
	}{
		{"cover", coverShape(41, false)},
		{"weighted cover", coverShape(40, true)},
		{"pairs", pairsShape(50)},
		{"chain/free", chainShape(200, "free")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := func() *Result {
				res, err := Solve(context.Background(), tc.shape.cnf, tc.shape.steps, tc.shape.tieBreak)
				require.NoError(t, err)
				return res
			}
			a, b := run(), run()
			require.Equal(t, a.Model, b.Model, "model")
			require.Equal(t, a.Alternative, b.Alternative, "alternative")
			require.Equal(t, a.Optima, b.Optima, "optima")
			require.Equal(t, a.Stats, b.Stats, "stats")
		})
	}
}

// pigeonhole returns the UNSAT formula "p pigeons in h < p holes".
func pigeonhole(p, h int) *CNF {
	x := func(i, j int) int { return i*h + j + 1 }
	cnf := &CNF{NumVars: p * h}
	for i := range p {
		c := make([]int, h)
		for j := range h {
			c[j] = x(i, j)
		}
		cnf.Clauses = append(cnf.Clauses, c)
	}
	for j := range h {
		for i := range p {
			for k := i + 1; k < p; k++ {
				cnf.Clauses = append(cnf.Clauses, []int{-x(i, j), -x(k, j)})
			}
		}
	}
	return cnf
}

// TestConcurrentSolvesAreSerialised runs solves from several goroutines.
// Without the package mutex, gophersat's shared learning buffer gives panics
// and wrong SAT answers on exactly this instance family (solver.md §4.2);
// -race reports any path that bypasses the lock.
func TestConcurrentSolvesAreSerialised(t *testing.T) {
	cnf := pigeonhole(7, 6)
	errs := make(chan error, 4)
	sats := make(chan bool, 4)
	for range 4 {
		go func() {
			res, err := Solve(context.Background(), cnf, nil, nil)
			errs <- err
			sats <- err == nil && res.Sat
		}()
	}
	for range 4 {
		require.NoError(t, <-errs)
		require.False(t, <-sats, "pigeonhole 6/5 is unsatisfiable")
	}
}

// TestOwnSearch: parts of at most smallVars variables are solved by our own
// search, without a SAT solver; a larger part, or one whose search runs
// over smallNodes, goes to gophersat, with the same verdicts.
func TestOwnSearch(t *testing.T) {
	// choices: k independent choices between one node (x) and a pair (y, z)
	// that must come together; fewest nodes wins, uniquely.
	choices := func(k int) (*CNF, []Step) {
		cnf := &CNF{NumVars: 3 * k}
		var cost []int
		for i := range k {
			x, y, z := 3*i+1, 3*i+2, 3*i+3
			cnf.Clauses = append(cnf.Clauses, []int{x, y}, []int{-x, -y}, []int{-y, z}, []int{y, -z})
			cost = append(cost, x, y, z)
		}
		return cnf, []Step{{Objective: count(cost...), Unique: true, Projection: cost}}
	}
	// forced: x1 holds in every model without propagation showing it, and
	// the other variables are free but for one clause each, so the search
	// for a second projection of x1 has 2^(n-2) models to go through.
	forced := func(n int) (*CNF, []Step) {
		cnf := &CNF{NumVars: n, Clauses: [][]int{{1, 2}, {1, -2}}}
		for v := 3; v <= n; v++ {
			cnf.Clauses = append(cnf.Clauses, []int{1, v - 1, v})
		}
		return cnf, []Step{{Unique: true, Projection: []int{1}}}
	}
	// implications: x1 → x2 → … → xn, fewest true variables: all false,
	// uniquely, in one part.
	implications := func(n int) (*CNF, []Step) {
		cnf := &CNF{NumVars: n}
		var all []int
		for v := 1; v <= n; v++ {
			all = append(all, v)
			if v < n {
				cnf.Clauses = append(cnf.Clauses, []int{-v, v + 1})
			}
		}
		return cnf, []Step{{Objective: count(all...), Unique: true, Projection: all}}
	}
	small, smallSteps := choices(50)
	chain, chainSteps := implications(smallVars - 3)
	big, bigSteps := forced(smallVars)
	long, longSteps := forced(smallVars + 6)
	cases := []struct {
		name     string
		cnf      *CNF
		steps    []Step
		optimum  int64
		builds   bool // some part went to gophersat
		trueVars int
	}{
		{"independent small parts", small, smallSteps, 50, false, 50},
		{"one part of almost smallVars variables", chain, chainSteps, 0, false, 0},
		{"a part over the node budget", big, bigSteps, 0, true, -1},
		{"a part over smallVars variables", long, longSteps, 0, true, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Solve(context.Background(), tc.cnf, tc.steps, nil)
			require.NoError(t, err)
			require.True(t, res.Sat)
			require.Equal(t, -1, res.Ambiguous, "ambiguity verdict")
			require.True(t, satisfies(tc.cnf, res.Model))
			if tc.steps[0].Objective != nil {
				require.Equal(t, []int64{tc.optimum}, res.Optima)
			} else {
				require.True(t, res.Model[1], "x1 holds in every model")
			}
			if tc.trueVars >= 0 {
				require.Len(t, trueVars(res.Model), tc.trueVars)
			}
			require.Equal(t, tc.builds, res.Stats.Builds > 0, "SAT solvers built: %+v", res.Stats)
			require.Positive(t, res.Stats.OwnSearches+res.Stats.Builds)
		})
	}
}
