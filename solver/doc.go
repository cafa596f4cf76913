// Package solver owns everything that touches the SAT backend
// (github.com/crillab/gophersat v1.4.0): our own unit propagation (the
// presolver), the normalisation of objectives, the cost counters
// (totalizers), the lexicographic optimisation and uniqueness loop, the
// greedy-false tie-break, projected enumeration of variants, and the DIMACS
// and OPB writers.
//
// It implements solver.md §5.3–§5.11 and the solving half of variability.md
// §10 (optimisation, uniqueness and the tie-break of §10.4). The encoding of
// templates into clauses (variability.md §8) belongs to package encode; this
// package speaks plain DIMACS integers only (variable v ≥ 1, literal ±v) and
// imports nothing else of ours.
//
// No gophersat type leaves the package, and only backend.go imports it. In
// v1.4.0 its bf package and Solver.Assume are unsound and its optimisation
// helpers leave a solver unusable (solver.md §4), so the package only builds
// solvers from propagated clauses, adds constraints with AppendClause, and
// rebuilds instead of undoing.
//
// The residual splits into independent parts (component.go). A part of at
// most 32 variables is optimised, checked for uniqueness and given its
// first model by a depth-first search of our own (small.go), whose verdicts
// the oracle tests hold to brute force as they hold gophersat's paths:
// building a gophersat solver for a dozen variables cost more than its
// searches, and the searches took the lock below.
//
// Concurrency: gophersat shares a package-level buffer between all of its
// solvers, so every use of it is serialised by one package-level mutex
// (solver.md §4.2). Propagation, normalisation, our own search and the
// writers run outside the lock. A single SAT call cannot be interrupted; the context is checked
// between calls (solver.md §4.6, §5.13).
package solver
