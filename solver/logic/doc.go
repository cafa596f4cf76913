// Package logic is a bit-exact Go port of the npm package logic-solver
// 2.0.1 (Meteor's Logic Solver) together with the MiniSat build it embeds.
//
// The reference implementation of Variability4TOSCA (OpenTOSCA Vintner)
// resolves variability with logic-solver. When a template has several
// optimal models, the reference reports whichever model MiniSat happens to
// return, so reproducing its choice needs more than an optimum: the same
// variable numbering (by first mention), the same clauses in the same order
// with the same literal order (logic-solver's Tseitin generation with
// polarity, its hash-consing of formula objects per solver, its adders for
// weighted sums), the same calls into MiniSat (one addClause per clause,
// solveAssuming through a fresh assumption variable that is retired
// afterwards, state kept between calls) and the same MiniSat search
// (decision heap, phase saving, restarts, learnt clause reduction and
// simplification). This package owns all of that; given the same sequence
// of API calls it returns the same models as the reference.
//
// Of the project the package imports only model/js, the leaf package that
// owns JavaScript's value semantics: its error messages print operands as
// logic-solver does (terms.go: jsString, String(x) of an operand, and
// display, JSON.stringify of a string), with model/js's number formatting
// and JSON quoting rather than copies of them.
//
// The package is verified against the reference by replaying thousands of
// random API programs recorded from logic-solver under Node
// (testdata/oracle.js, oracle_test.go): same models, same clauses, and the
// same MiniSat decision, conflict, propagation and restart counts.
//
// Operands are Formula objects, NameTerms (strings, "-x" negates x) or
// NumTerms (non-zero ints); see Formula. Constructors panic with an *Error
// where logic-solver throws on invalid operands, Solver and Solution
// methods return it.
package logic
