package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gs "github.com/crillab/gophersat/solver"
	"github.com/stretchr/testify/require"
)

// The brute-force oracle (solver.md §5.14, style.md §5.7): random formulas
// over at most 12 variables, solved by exhaustive enumeration and by the
// pipeline, under every configuration that selects a different code path.

// allModels returns every model of cnf, each indexed by variable.
func allModels(cnf *CNF) [][]bool {
	var out [][]bool
	n := cnf.NumVars
	for bits := 0; bits < 1<<n; bits++ {
		m := make([]bool, n+1)
		for v := 1; v <= n; v++ {
			m[v] = bits&(1<<(v-1)) != 0
		}
		if satisfies(cnf, m) {
			out = append(out, m)
		}
	}
	return out
}

func satisfies(cnf *CNF, m []bool) bool {
	for _, c := range cnf.Clauses {
		ok := false
		for _, l := range c {
			if litTrue(m, l) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// oracleCases is the number of random cases an oracle test checks: full,
// or short under -short.
func oracleCases(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

func projectKey(m []bool, vars []int) string {
	var b strings.Builder
	for _, v := range vars {
		if m[v] {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// expected is what the oracle computes for Solve.
type expected struct {
	sat       bool
	ambiguous int
	optima    []int64
	faces     [][][]bool // faces[i]: the models after step i's optimisation
	final     [][]bool   // the models after the tie-break (not ambiguous)
}

func bruteSolve(cnf *CNF, steps []Step, tieBreak []int) expected {
	face := allModels(cnf)
	e := expected{sat: len(face) > 0, ambiguous: -1, optima: make([]int64, len(steps))}
	if !e.sat {
		return e
	}
	for i, st := range steps {
		if o := st.Objective; o != nil {
			best := o.value(face[0])
			for _, m := range face {
				v := o.value(m)
				if (o.Maximize && v > best) || (!o.Maximize && v < best) {
					best = v
				}
			}
			var next [][]bool
			for _, m := range face {
				if o.value(m) == best {
					next = append(next, m)
				}
			}
			face = next
			e.optima[i] = best
		}
		e.faces = append(e.faces, face)
		if st.Unique {
			keys := map[string]bool{}
			for _, m := range face {
				keys[projectKey(m, st.Projection)] = true
			}
			if len(keys) > 1 {
				e.ambiguous = i
				return e
			}
		}
	}
	for _, v := range tieBreak {
		var falses, trues [][]bool
		for _, m := range face {
			if m[v] {
				trues = append(trues, m)
			} else {
				falses = append(falses, m)
			}
		}
		if len(falses) > 0 {
			face = falses
		} else {
			face = trues
		}
	}
	e.final = face
	return e
}

func containsModel(models [][]bool, m []bool) bool {
	for _, x := range models {
		if slices.Equal(x, m) {
			return true
		}
	}
	return false
}

// randomLit is a literal of one of the variables 1..n, either sign.
func randomLit(rng *rand.Rand, n int) int {
	v := 1 + rng.IntN(n)
	if rng.IntN(2) == 0 {
		return -v
	}
	return v
}

// randomCNF draws one of several shapes, so that propagation-only,
// component-split and genuinely searched instances all occur.
func randomCNF(rng *rand.Rand) *CNF {
	n := 1 + rng.IntN(12)
	cnf := &CNF{NumVars: n}
	lit := func() int { return randomLit(rng, n) }
	switch rng.IntN(6) {
	case 5: // a random gate DAG in two-sided Tseitin form, as the encoder emits
		inputs := 1 + rng.IntN(min(n, 6))
		pick := func(below int) int {
			v := 1 + rng.IntN(below-1)
			if rng.IntN(3) == 0 {
				return -v
			}
			return v
		}
		for g := inputs + 1; g <= n; g++ {
			a, b := pick(g), pick(g)
			switch rng.IntN(3) {
			case 0: // g ↔ a ∧ b
				cnf.Clauses = append(cnf.Clauses, []int{-g, a}, []int{-g, b}, []int{g, -a, -b})
			case 1: // g ↔ a ∨ b
				cnf.Clauses = append(cnf.Clauses, []int{g, -a}, []int{g, -b}, []int{-g, a, b})
			default: // g ↔ a ⊕ b
				cnf.Clauses = append(cnf.Clauses, []int{-g, a, b}, []int{-g, -a, -b}, []int{g, -a, b}, []int{g, a, -b})
			}
		}
		for range rng.IntN(3) {
			cnf.Clauses = append(cnf.Clauses, []int{lit()})
		}
	case 0: // random 3-SAT-ish, sometimes over the threshold
		m := rng.IntN(5 * n)
		for range m {
			c := make([]int, 1+rng.IntN(3))
			for j := range c {
				c[j] = lit()
			}
			cnf.Clauses = append(cnf.Clauses, c)
		}
	case 1: // implication chains and units: mostly decided by propagation
		for range 2 * n {
			cnf.Clauses = append(cnf.Clauses, []int{lit(), lit()})
		}
		for range rng.IntN(3) {
			cnf.Clauses = append(cnf.Clauses, []int{lit()})
		}
	case 2: // independent choices ("pairs"), some with at-most-one
		for v := 1; v+1 <= n; v += 2 {
			cnf.Clauses = append(cnf.Clauses, []int{v, v + 1})
			if rng.IntN(2) == 0 {
				cnf.Clauses = append(cnf.Clauses, []int{-v, -(v + 1)})
			}
		}
	case 3: // sparse, with long clauses, duplicates and tautologies
		for range rng.IntN(n + 1) {
			c := make([]int, rng.IntN(7))
			for j := range c {
				c[j] = lit()
			}
			if len(c) == 0 && rng.IntN(4) != 0 {
				continue
			}
			cnf.Clauses = append(cnf.Clauses, c)
		}
	default: // exactly-one groups
		for start := 1; start <= n; start += 3 {
			end := min(start+3, n+1)
			var group []int
			for v := start; v < end; v++ {
				group = append(group, v)
			}
			cnf.Clauses = append(cnf.Clauses, group)
			for i := range group {
				for j := i + 1; j < len(group); j++ {
					cnf.Clauses = append(cnf.Clauses, []int{-group[i], -group[j]})
				}
			}
		}
		for range rng.IntN(3) {
			cnf.Clauses = append(cnf.Clauses, []int{lit(), lit(), lit()})
		}
	}
	return cnf
}

func randomObjective(rng *rand.Rand, n int) *Objective {
	o := &Objective{Maximize: rng.IntN(3) == 0}
	weights := [][]int64{
		{1},
		{0, 1, 2, 3},
		{100, 200, 300},
		{1, 5, 7, 100},
		{1_000_003, 2_000_011, 999_983, 1}, // large and heterogeneous
	}[rng.IntN(5)]
	for range rng.IntN(2*n + 1) {
		v := 1 + rng.IntN(n)
		if rng.IntN(3) == 0 {
			v = -v
		}
		o.Lits = append(o.Lits, v)
		o.Weights = append(o.Weights, weights[rng.IntN(len(weights))])
	}
	return o
}

func randomVars(rng *rand.Rand, n int) []int {
	var vs []int
	for v := 1; v <= n; v++ {
		if rng.IntN(2) == 0 {
			vs = append(vs, v)
		}
	}
	rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	return vs
}

func randomSteps(rng *rand.Rand, n int) []Step {
	steps := make([]Step, rng.IntN(4))
	for i := range steps {
		if rng.IntN(10) < 7 {
			steps[i].Objective = randomObjective(rng, n)
		}
		if rng.IntN(2) == 0 {
			steps[i].Unique = true
			steps[i].Projection = randomVars(rng, n)
		}
	}
	return steps
}

// configs are the code paths every oracle case runs through.
var oracleConfigs = []struct {
	name string
	cfg  config
}{
	{"default", *defaultConfig()},
	// Our own search on whole residuals, which are larger than parts.
	{"whole-own", config{maxCounterClauses: defaultConfig().maxCounterClauses, longClause: defaultConfig().longClause, noSplit: true, ownSearch: true}},
	{"whole", config{maxCounterClauses: defaultConfig().maxCounterClauses, longClause: defaultConfig().longClause, noSplit: true}},
	{"native-pb", config{maxCounterClauses: 0, longClause: defaultConfig().longClause}},
	{"appended-clauses", config{maxCounterClauses: defaultConfig().maxCounterClauses, longClause: 2, noSplit: true}},
	// Totalizers only for small bounds: the descent bisects with native
	// bounds until the bound is small enough for one (solve.go, bisect).
	{"bisect", config{maxCounterClauses: 12, longClause: defaultConfig().longClause}},
}

func checkSolve(t *testing.T, what string, cnf *CNF, steps []Step, tieBreak []int, cfg *config) Stats {
	t.Helper()
	want := bruteSolve(cnf, steps, tieBreak)
	got, err := solve(context.Background(), cnf, steps, tieBreak, cfg)
	require.NoError(t, err, what)
	require.Equal(t, want.sat, got.Sat, "satisfiability: %s", what)
	if !want.sat {
		return got.Stats
	}
	require.Equal(t, want.ambiguous, got.Ambiguous, "ambiguity verdict: %s", what)
	last := len(steps)
	if want.ambiguous >= 0 {
		last = want.ambiguous + 1
	}
	for i := 0; i < last; i++ {
		require.Equal(t, want.optima[i], got.Optima[i], "optimum of step %d: %s", i, what)
	}
	require.Len(t, got.Model, cnf.NumVars+1, what)
	if want.ambiguous >= 0 {
		face := want.faces[want.ambiguous]
		require.True(t, containsModel(face, got.Model), "witness on the optimal face: %s", what)
		require.True(t, containsModel(face, got.Alternative), "second witness on the optimal face: %s", what)
		proj := steps[want.ambiguous].Projection
		require.NotEqual(t, projectKey(got.Model, proj), projectKey(got.Alternative, proj), "witnesses differ on the projection: %s", what)
		return got.Stats
	}
	require.True(t, containsModel(want.final, got.Model), "greedy-false model %v: %s", got.Model, what)
	return got.Stats
}

func describe(cnf *CNF, steps []Step, tieBreak []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cnf=%+v", *cnf)
	for i, s := range steps {
		fmt.Fprintf(&b, " step%d={", i)
		if s.Objective != nil {
			fmt.Fprintf(&b, "obj=%+v ", *s.Objective)
		}
		fmt.Fprintf(&b, "unique=%v proj=%v}", s.Unique, s.Projection)
	}
	fmt.Fprintf(&b, " tie=%v", tieBreak)
	return b.String()
}

func TestSolveOracle(t *testing.T) {
	n := oracleCases(1500, 300)
	for _, c := range oracleConfigs {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(c.name))))
			var total Stats
			for i := range n {
				cnf := randomCNF(rng)
				steps := randomSteps(rng, cnf.NumVars)
				tieBreak := randomVars(rng, cnf.NumVars)
				what := fmt.Sprintf("case %d: %s", i, describe(cnf, steps, tieBreak))
				st := checkSolve(t, what, cnf, steps, tieBreak, &c.cfg)
				total.Builds += st.Builds
				total.TrivialSolutions += st.TrivialSolutions
				total.CounterClauses += st.CounterClauses
				total.PBBounds += st.PBBounds
				total.Components += st.Components
				total.TieBreakQueries += st.TieBreakQueries
				total.OwnSearches += st.OwnSearches
			}
			// The paths this configuration is meant to exercise were taken.
			require.Positive(t, total.Builds, "SAT solvers")
			require.Positive(t, total.TrivialSolutions, "answers without a SAT call")
			require.Positive(t, total.TieBreakQueries, "tie-break queries")
			require.Positive(t, total.Components, "parts")
			if c.cfg.ownSearch {
				require.Positive(t, total.OwnSearches, "parts optimised by our own search")
			} else {
				require.Zero(t, total.OwnSearches, "parts optimised by our own search")
			}
			if c.cfg.maxCounterClauses < 64 {
				require.Positive(t, total.PBBounds, "native pseudo-Boolean bounds")
			}
			if c.cfg.maxCounterClauses > 0 {
				require.Positive(t, total.CounterClauses, "totalizer clauses")
			}
		})
	}
}

// FuzzSolveOracle checks the oracle's random cases from fuzzed seeds on
// every configuration, for longer runs than TestSolveOracle's fixed ones:
// go test -run '^$' -fuzz FuzzSolveOracle ./solver
func FuzzSolveOracle(f *testing.F) {
	for seed := range uint64(4) {
		f.Add(seed, seed*7+1)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		rng := rand.New(rand.NewPCG(a, b))
		cnf := randomCNF(rng)
		steps := randomSteps(rng, cnf.NumVars)
		tieBreak := randomVars(rng, cnf.NumVars)
		what := describe(cnf, steps, tieBreak)
		for _, c := range oracleConfigs {
			checkSolve(t, c.name+": "+what, cnf, steps, tieBreak, &c.cfg)
		}
	})
}

func TestEnumerateOracle(t *testing.T) {
	n := oracleCases(800, 200)
	for _, c := range oracleConfigs {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2, uint64(len(c.name))))
			for i := range n {
				cnf := randomCNF(rng)
				proj := randomVars(rng, cnf.NumVars)
				if rng.IntN(4) == 0 && len(proj) > 0 {
					proj = append(proj, proj[0]) // repeated projection variable
				}
				what := fmt.Sprintf("case %d: cnf=%+v proj=%v", i, *cnf, proj)
				want := map[string]bool{}
				for _, m := range allModels(cnf) {
					want[projectKey(m, proj)] = true
				}
				got := map[string]bool{}
				count, complete, err := enumerate(context.Background(), cnf, proj, 0, func(values []bool) bool {
					key := bitString(values)
					require.False(t, got[key], "variant reported twice: %s", what)
					got[key] = true
					return true
				}, &c.cfg)
				require.NoError(t, err, what)
				require.True(t, complete, what)
				require.Equal(t, len(want), count, what)
				require.Equal(t, want, got, what)

				limit := 1 + rng.IntN(4)
				count, complete, err = enumerate(context.Background(), cnf, proj, limit, func([]bool) bool { return true }, &c.cfg)
				require.NoError(t, err, what)
				require.Equal(t, min(limit, len(want)), count, "count with limit %d: %s", limit, what)
				require.Equal(t, len(want) <= limit, complete, "completeness with limit %d: %s", limit, what)
			}
		})
	}
}

// TestMinimizeOracle is the second optimum oracle: gophersat's own Minimize,
// used only here, under the lock.
func TestMinimizeOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range 300 {
		cnf := randomCNF(rng)
		obj := randomObjective(rng, cnf.NumVars)
		obj.Maximize = false
		for j := range obj.Weights {
			obj.Weights[j] %= 1000
		}
		what := fmt.Sprintf("case %d: cnf=%+v obj=%+v", i, *cnf, *obj)

		got, err := Solve(context.Background(), cnf, []Step{{Objective: obj}}, nil)
		require.NoError(t, err, what)

		// Minimize needs one term per variable: repeated or complementary
		// cost literals break its learning like repeated clause literals do.
		pos := make([]int64, cnf.NumVars+1)
		neg := make([]int64, cnf.NumVars+1)
		for j, l := range obj.Lits {
			if l > 0 {
				pos[l] += obj.Weights[j]
			} else {
				neg[-l] += obj.Weights[j]
			}
		}
		var offset int64
		var lits []gs.Lit
		var weights []int
		for v := 1; v <= cnf.NumVars; v++ {
			m := min(pos[v], neg[v])
			offset += m
			switch {
			case pos[v] > m:
				lits = append(lits, gs.IntToLit(int32(v)))
				weights = append(weights, int(pos[v]-m))
			case neg[v] > m:
				lits = append(lits, gs.IntToLit(int32(-v)))
				weights = append(weights, int(neg[v]-m))
			}
		}

		gophersatMu.Lock()
		pb := gs.ParseSliceNb(cnf.Clauses, cnf.NumVars)
		cost := -1
		if pb.Status != gs.Unsat {
			if len(lits) > 0 {
				pb.SetCostFunc(lits, weights)
			}
			cost = gs.New(pb).Minimize()
		}
		gophersatMu.Unlock()

		require.Equal(t, cost >= 0, got.Sat, "satisfiability: %s", what)
		if got.Sat {
			require.Equal(t, int64(cost)+offset, got.Optima[0], "optimum: %s", what)
		}
	}
}

// TestPresolveProperty checks that propagation keeps exactly the models of
// the formula: the residual plus its units has the same model set.
func TestPresolveProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 2000 {
		cnf := randomCNF(rng)
		what := fmt.Sprintf("case %d: cnf=%+v", i, *cnf)
		p, err := Presolve(cnf)
		require.NoError(t, err, what)
		want := allModels(cnf)
		if p.Unsat {
			require.Empty(t, want, what)
			continue
		}
		res := &CNF{NumVars: cnf.NumVars, Clauses: p.Residual()}
		require.Equal(t, want, allModels(res), what)
		for _, c := range p.Clauses {
			require.GreaterOrEqual(t, len(c), 2, what)
			for j, l := range c {
				require.Zero(t, p.Fixed[abs(l)], "literal %d of a residual clause is fixed: %s", l, what)
				if j > 0 {
					require.Less(t, abs(c[j-1]), abs(l), "clause %v not sorted by variable: %s", c, what)
				}
			}
		}
	}
}
