package solver

import (
	"fmt"
	"math"
	"testing"
)

// CNF is a formula over variables 1..NumVars in DIMACS integers: each clause
// is a disjunction of literals ±v, and the formula is their conjunction. An
// empty clause is false. Clauses may contain repeated or complementary
// literals; the presolver cleans them up.
//
// Packed, where it is not empty, holds more clauses after Clauses, without
// a slice header each (encoded templates); the solver's entry points read
// both.
type CNF struct {
	NumVars int
	Clauses [][]int
	Packed  Packed
}

// Objective is the linear function Σ Weights[i]·[Lits[i] is true], to be
// minimised, or maximised when Maximize is set. Lits are DIMACS literals and
// may be negative or repeat; weights are ≥ 0.
type Objective struct {
	Lits     []int
	Weights  []int64
	Maximize bool
}

// Step is one lexicographic step (variability.md §10.2). Steps run in order:
//   - if Objective is set, its optimum is computed under everything the
//     earlier steps established, and later steps are restricted to the optimal
//     face (objective = optimum);
//   - if Unique is set, the step then checks that all models on the current
//     face agree on the exact set of true variables of Projection, and stops
//     the run with an ambiguity verdict if they do not. The check only
//     queries; it adds nothing.
type Step struct {
	Objective  *Objective
	Unique     bool
	Projection []int
}

// Result is the outcome of Solve.
type Result struct {
	// Sat is false when the CNF is unsatisfiable ("Could not solve").
	Sat bool
	// Ambiguous is the index of the step whose uniqueness check failed, or -1.
	Ambiguous int
	// Model is the final model: Model[v] is the value of variable v, index 0
	// is unused. It satisfies the CNF and the restrictions of every completed
	// step. When Ambiguous ≥ 0 it is one optimal witness of the ambiguous step
	// (tie-break not applied) and Alternative is a second one that differs on
	// the step's projection. Model is nil when Sat is false.
	Model       []bool
	Alternative []bool
	// Optima holds, per step, the optimum of its objective in the caller's
	// scale (the value of Σ Weights·[Lits] on the optimal face); 0 for steps
	// without objective and for steps that did not run.
	Optima []int64
	Stats  Stats
}

// Stats counts the work done by Solve or Enumerate, for --debug output and
// benchmark metrics.
type Stats struct {
	Presolves        int   // runs of our own unit propagation
	FixedVars        int   // variables fixed by the first propagation
	ResidualClauses  int   // clauses left after the first propagation
	Components       int   // independent subproblems optimised or checked separately
	Builds           int   // SAT solvers built (each one is used until spent)
	Solves           int   // SAT calls
	Conflicts        int64 // conflicts over all SAT calls
	Decisions        int64 // decisions over all SAT calls
	CounterClauses   int   // clauses of totalizer cost counters
	PBBounds         int   // native pseudo-Boolean bounds (the fallback of solver.md §5.7)
	TieBreakQueries  int   // satisfiability queries of the tie-break walk
	BlockingClauses  int   // blocking clauses appended (uniqueness, tie-break, enumeration)
	TrivialSolutions int   // queries answered by propagation alone, without a SAT call
	OwnSearches      int   // parts optimised by our own search, without a SAT solver
}

// Add adds the counts of o to s: the work of several calls.
func (s *Stats) Add(o Stats) {
	s.Presolves += o.Presolves
	s.FixedVars += o.FixedVars
	s.ResidualClauses += o.ResidualClauses
	s.Components += o.Components
	s.Builds += o.Builds
	s.Solves += o.Solves
	s.Conflicts += o.Conflicts
	s.Decisions += o.Decisions
	s.CounterClauses += o.CounterClauses
	s.PBBounds += o.PBBounds
	s.TieBreakQueries += o.TieBreakQueries
	s.BlockingClauses += o.BlockingClauses
	s.TrivialSolutions += o.TrivialSolutions
	s.OwnSearches += o.OwnSearches
}

// maxVars keeps variable numbers inside gophersat's int32 literals, including
// the counter variables we add on top.
const maxVars = math.MaxInt32 / 4

func validateCNF(cnf *CNF) error {
	_, err := checkedSet(cnf)
	return err
}

// checkedSet validates cnf and returns its clauses, marked sorted where
// every clause is in residual form under no assignment (inResidualForm:
// non-empty, its variables strictly ascending), as the encoder's clauses
// are. The check reads each literal where the validation reads it anyway,
// so that propagate need not read them all a second time to find that
// out (addRaw): on the pruning family a third of the solver's passes over
// the literals.
func checkedSet(cnf *CNF) (clauseSet, error) {
	if cnf == nil {
		return clauseSet{}, fmt.Errorf("solver: nil CNF")
	}
	if cnf.NumVars < 0 || cnf.NumVars > maxVars {
		return clauseSet{}, fmt.Errorf("solver: number of variables %d out of range", cnf.NumVars)
	}
	if err := cnf.Packed.check(); err != nil {
		return clauseSet{}, err
	}
	nv := cnf.NumVars
	bad := func(i, l int) error {
		return fmt.Errorf("solver: clause %d: literal %d out of range ±1..%d", i, l, nv)
	}
	// A clause is sorted where it is not empty and its variables ascend
	// strictly; the loops are spelt out twice, since a call per clause
	// cost more than the pass it saves.
	unsorted := false
	for i, c := range cnf.Clauses {
		prev := 0
		for _, l := range c {
			if l == 0 || l > nv || -l > nv {
				return clauseSet{}, bad(i, l)
			}
			v := abs(l)
			if v <= prev {
				unsorted = true
			}
			prev = v
		}
		if len(c) == 0 {
			unsorted = true
		}
	}
	// The packed clauses chunk by chunk, each ending where the next one
	// of its chunk starts (Packed's shape, checked above), unless their
	// producer says what the pass would find (Packed.Sorted).
	base, refs, chunks := len(cnf.Clauses), cnf.Packed.Refs, cnf.Packed.Chunks
	trusted := cnf.Packed.Sorted && cnf.Packed.MaxVar <= nv
	if trusted && !testing.Testing() {
		refs = nil
	}
	packedUnsorted := false
	for i := 0; i < len(refs); {
		k := refs[i] >> 16
		ch := chunks[k]
		for ; i < len(refs) && refs[i]>>16 == k; i++ {
			from, end := int(refs[i]&0xffff), len(ch)
			if i+1 < len(refs) && refs[i+1]>>16 == k {
				end = int(refs[i+1] & 0xffff)
			}
			if from == end {
				packedUnsorted = true
			}
			prev := 0
			for _, l := range ch[from:end] {
				if l == 0 || l > nv || -l > nv {
					return clauseSet{}, bad(base+i, l)
				}
				v := abs(l)
				if v <= prev {
					packedUnsorted = true
				}
				prev = v
			}
		}
	}
	if trusted && packedUnsorted {
		return clauseSet{}, fmt.Errorf("solver: packed clauses said to be sorted within %d variables, and they are not", cnf.Packed.MaxVar)
	}
	unsorted = unsorted || packedUnsorted
	set := cnf.set()
	set.sorted = !unsorted
	return set, nil
}

func validateVars(what string, nv int, vars []int) error {
	for _, v := range vars {
		if v < 1 || v > nv {
			return fmt.Errorf("solver: %s: variable %d out of range 1..%d", what, v, nv)
		}
	}
	return nil
}

func validateObjective(what string, nv int, o *Objective) error {
	if o == nil {
		return nil
	}
	if len(o.Lits) != len(o.Weights) {
		return fmt.Errorf("solver: %s: %d literals but %d weights", what, len(o.Lits), len(o.Weights))
	}
	var sum int64
	for i, l := range o.Lits {
		if l == 0 || l > nv || -l > nv {
			return fmt.Errorf("solver: %s: literal %d out of range ±1..%d", what, l, nv)
		}
		w := o.Weights[i]
		if w < 0 {
			return fmt.Errorf("solver: %s: negative weight %d", what, w)
		}
		// Every later sum (offsets, bounds, counters) stays below this one,
		// so checking it once rules out overflow everywhere.
		if sum > math.MaxInt64/2-w {
			return fmt.Errorf("solver: %s: weights too large", what)
		}
		sum += w
	}
	return nil
}

// value reports the caller-scale value Σ w·[l] of o on model m.
func (o *Objective) value(m []bool) int64 {
	var sum int64
	for i, l := range o.Lits {
		if litTrue(m, l) {
			sum += o.Weights[i]
		}
	}
	return sum
}

func litTrue(m []bool, l int) bool {
	if l > 0 {
		return m[l]
	}
	return !m[-l]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
