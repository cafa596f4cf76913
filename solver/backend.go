package solver

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	gs "github.com/crillab/gophersat/solver"
)

// gophersatMu serialises gophersat's searches. Its clause learning
// (learnClause, reached only from Solve's search) works in a package-level
// buffer shared by all solvers (bufLits in solver/learn.go of v1.4.0, its
// only package-level mutable state), so two searches running at the same
// time corrupt each other (solver.md §4.2). Parsing, New, AppendClause and
// Model touch only their own solver, so they run outside the lock: in a
// batch they were 95% of the time it was held. It is the only package-level
// mutable state the project allows.
var gophersatMu sync.Mutex

// config holds the tuning knobs of the pipeline. Solve and Enumerate use
// defaultConfig; tests change them to force the other code paths.
type config struct {
	// maxCounterClauses is the largest totalizer we build; beyond it a cost
	// bound becomes a native pseudo-Boolean constraint (solver.md §5.7).
	maxCounterClauses int64
	// longClause is the length above which a clause is added with
	// AppendClause after New instead of through the parser, whose duplicate
	// check is quadratic in the clause length (solver.md §4.7).
	longClause int
	// noSplit solves the residual as one problem instead of splitting it
	// into independent components.
	noSplit bool
	// ownSearch optimises small parts by our own search (small.go).
	ownSearch bool
}

// defaultConfig returns the production settings. It is a function, not a
// variable, because the mutex is the only package-level mutable state.
func defaultConfig() *config {
	return &config{
		// About 1M clauses of at most three literals: a few hundred MB at
		// most, together with gophersat's own copy.
		maxCounterClauses: 1 << 20,
		// Below the length where the parser's pairwise duplicate check costs
		// more than AppendClause's per-call overhead; not measured closely.
		longClause: 64,
		ownSearch:  true,
	}
}

// backend is one gophersat solver. It only lives inside withBackend, and is
// spent after its first UNSAT answer (solver.md §4.3). Only its searches
// (solve) take the lock.
type backend struct {
	s     *gs.Solver
	nv    int
	st    *Stats
	spent bool
	// conflicts and decisions are the solver's counters at the last read,
	// so that Stats gets the increments.
	conflicts, decisions int
}

// withBackend builds a solver for r — its clauses plus one unit per fixed
// variable, with every variable 1..r.nv reserved — adds the pseudo-Boolean
// constraints pbs, and runs fn with it.
func withBackend(r residual, pbs []pbConstraint, cfg *config, st *Stats, fn func(b *backend) error) error {
	st.Builds++
	nUnits := 0
	for _, f := range r.fixed {
		if f != 0 {
			nUnits++
		}
	}
	parse := make([][]int, 0, len(r.clauses)+nUnits)
	var long [][]int
	for _, c := range r.clauses {
		if len(c) > cfg.longClause {
			long = append(long, c)
			continue
		}
		parse = append(parse, c)
	}
	parse = appendUnits(parse, r.fixed)
	b := &backend{nv: r.nv, st: st}
	pb := gs.ParseSliceNb(parse, r.nv)
	// A problem found UNSAT by the parser must not reach New: the solver it
	// returns is hollow, and appending to it degenerates (solver.md §4.7).
	if pb.Status == gs.Unsat {
		b.spent = true
		return fn(b)
	}
	b.s = gs.New(pb)
	for _, c := range long {
		b.addClause(c)
	}
	for i := range pbs {
		b.addPB(&pbs[i])
	}
	return fn(b)
}

// addClause appends a clause. Literals fixed at the top level are handled by
// gophersat; no literal may name a variable above nv.
func (b *backend) addClause(lits []int) {
	if b.spent {
		return
	}
	gl := make([]gs.Lit, len(lits))
	for i, l := range lits {
		gl[i] = gs.IntToLit(int32(l))
	}
	if len(gl) == 0 {
		// AppendClause of an empty clause makes the solver UNSAT, which is
		// what an empty clause means.
		b.spent = true
		return
	}
	b.s.AppendClause(gs.NewClause(gl))
}

// addPB appends Σ w·[l] ≥ k. gophersat's constructors keep and reorder the
// slices they get, so they receive fresh ones (solver.md §4.4).
func (b *backend) addPB(c *pbConstraint) {
	if b.spent || c.atLeast <= 0 {
		return
	}
	b.st.PBBounds++
	lits := make([]gs.Lit, len(c.lits))
	weights := make([]int, len(c.lits))
	var sum int64
	for i, l := range c.lits {
		lits[i] = gs.IntToLit(int32(l))
		weights[i] = int(c.weights[i])
		sum += c.weights[i]
	}
	if sum < c.atLeast {
		b.spent = true
		return
	}
	b.s.AppendClause(gs.NewPBClause(lits, weights, int(c.atLeast)))
}

// solve runs the solver. sat is false when the problem is UNSAT; the backend
// is spent from then on.
func (b *backend) solve(ctx context.Context) (sat bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if b.spent {
		return false, nil
	}
	b.st.Solves++
	status := b.search()
	b.st.Conflicts += int64(b.s.Stats.NbConflicts - b.conflicts)
	b.st.Decisions += int64(b.s.Stats.NbDecisions - b.decisions)
	b.conflicts, b.decisions = b.s.Stats.NbConflicts, b.s.Stats.NbDecisions
	switch status {
	case gs.Sat:
		return true, nil
	case gs.Unsat:
		b.spent = true
		return false, nil
	}
	return false, fmt.Errorf("solver: internal error: SAT backend answered %v", status)
}

// search runs gophersat's Solve under the lock. The deferred unlock keeps
// the lock usable after a panic in gophersat, which the resolver recovers
// from (a batch goes on with its other runs).
func (b *backend) search() gs.Status {
	lockSearch()
	defer gophersatMu.Unlock()
	return b.s.Solve()
}

// searchSpins is how many times lockSearch tries the lock, yielding its
// thread in between, before it parks.
const searchSpins = 64

// lockSearch takes gophersatMu, trying for a while before it parks. The
// solver-heavy runs of a batch hold the lock for many short searches (the
// choice run at k = 500 made 857 searches of about 14 µs before its small
// parts went to our own search, small.go; parts over 32 variables still
// make such series), and handing the lock to a parked waiter costs a
// futex wake and a thread switch, as long as a search or longer;
// sync.Mutex hands it over that way, in turn, once
// a waiter has waited a millisecond. A waiter that yields instead takes
// the lock as soon as it is free, and the thread it yields serves other
// goroutines (the collector's workers) meanwhile. On 16 cores, a 256-run
// space of the benchmark families at -j 16 went from 1.15 s to 1.04 s
// (whole process, median of 7, alternating with the build without it).
func lockSearch() {
	for range searchSpins {
		if gophersatMu.TryLock() {
			return
		}
		runtime.Gosched()
	}
	gophersatMu.Lock()
}

// model returns the last model, indexed by variable (index 0 unused). Call it
// only after solve reported sat: gophersat panics otherwise (solver.md §4.10).
func (b *backend) model() []bool {
	m := b.s.Model()
	out := make([]bool, b.nv+1)
	copy(out[1:], m)
	return out
}
