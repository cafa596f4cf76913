package logic

import "strconv"

type formulaInfo struct {
	varName          string
	varNum           int // 0: none yet
	occursPositively bool
	occursNegatively bool
	isRequired       bool
	isForbidden      bool
}

// termifier turns formulas and terms into NumTerms for clauses
// (Logic.Termifier). A Solution replaces term by evaluation.
type termifier struct {
	solver *Solver
	termFn func(f any) int
}

func (t *termifier) term(f any) int {
	if t.termFn != nil {
		return t.termFn(f)
	}
	return t.solver.formulaToTerm(f)
}

func (t *termifier) clause(args ...any) *clause {
	fs := flatten(args)
	assertArrayOfFormulaOrTerm(fs)
	terms := make([]int, len(fs))
	for i, f := range fs {
		terms[i] = t.term(f)
	}
	return &clause{terms: terms}
}

func (t *termifier) generate(isTrue bool, f any) []*clause {
	return t.solver.generateFormula(isTrue, f, t)
}

// Solver is logic-solver's Logic.Solver: it numbers variables by first
// mention (1 is $F, 2 is $T), turns formulas into clauses and hands them to
// its own MiniSat instance when solving.
//
// Methods return an *Error where logic-solver throws. As there, an error in
// the middle of an operation may leave the clauses generated so far in
// place. A Solver is not safe for concurrent use.
type Solver struct {
	clauses                  []*clause
	num2name                 []string
	name2num                 map[string]int
	fUsed, tUsed             bool
	formulaInfo              map[Formula]*formulaInfo
	nextFormulaNumByType     map[string]int
	ungeneratedFormulas      map[int]Formula
	numClausesAddedToMiniSat int
	unsat                    bool
	minisat                  *minisatWrapper
	termifier                *termifier
}

// NewSolver returns an empty solver.
func NewSolver() *Solver {
	s := &Solver{
		num2name:             []string{""},
		name2num:             map[string]int{},
		formulaInfo:          map[Formula]*formulaInfo{},
		nextFormulaNumByType: map[string]int{},
		ungeneratedFormulas:  map[int]Formula{},
		minisat:              newMinisatWrapper(),
	}
	s.getVarNum(NameFalse, false, true)
	s.getVarNum(NameTrue, false, true)
	s.clauses = append(s.clauses, &clause{terms: []int{-NumFalse}}, &clause{terms: []int{NumTrue}})
	s.termifier = &termifier{solver: s}
	return s
}

func (s *Solver) getVarNum(vname string, noCreate, createInternals bool) int {
	if n, ok := s.name2num[vname]; ok {
		return n
	}
	if noCreate {
		return 0
	}
	if len(vname) > 0 && vname[0] == '$' && !createInternals {
		throw("Only generated variable names can start with $")
	}
	n := len(s.num2name)
	s.name2num[vname] = n
	s.num2name = append(s.num2name, vname)
	return n
}

// GetVarNum returns the number of the named variable, creating it unless
// noCreate is set (then 0 means unknown). User names may not start with
// '$'.
func (s *Solver) GetVarNum(name string, noCreate bool) (n int, err error) {
	defer catch(&err)
	return s.getVarNum(name, noCreate, false), nil
}

func (s *Solver) getVarName(n int) string {
	if n < 1 || n >= len(s.num2name) {
		throw("Bad variable num: %d", n)
	}
	return s.num2name[n]
}

// GetVarName returns the name of variable number n.
func (s *Solver) GetVarName(n int) (name string, err error) {
	defer catch(&err)
	return s.getVarName(n), nil
}

// NumVars is the number of variables, generated ones included.
func (s *Solver) NumVars() int { return len(s.num2name) - 1 }

func (s *Solver) toNumTerm(t any, noCreate bool) int {
	assertTerm(t)
	if n, ok := t.(int); ok {
		return n
	}
	name := t.(string)
	not := false
	for len(name) > 0 && name[0] == '-' {
		name = name[1:]
		not = !not
	}
	n := s.getVarNum(name, noCreate, false)
	if n == 0 {
		return 0
	}
	if not {
		return -n
	}
	return n
}

// ToNumTerm converts a term to a NumTerm, creating the variable unless
// noCreate is set (then 0 means unknown).
func (s *Solver) ToNumTerm(t any, noCreate bool) (n int, err error) {
	defer catch(&err)
	return s.toNumTerm(t, noCreate), nil
}

// ToNameTerm converts a term to a NameTerm.
func (s *Solver) ToNameTerm(t any) (name string, err error) {
	defer catch(&err)
	assertTerm(t)
	if str, ok := t.(string); ok {
		for len(str) >= 2 && str[:2] == "--" {
			str = str[2:]
		}
		return str, nil
	}
	n := t.(int)
	not := n < 0
	if not {
		n = -n
	}
	name = s.getVarName(n)
	if not {
		name = "-" + name
	}
	return name, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func (s *Solver) addClause(cls *clause, extraTerms []int, useTermOverride func(int)) {
	usedF, usedT := false, false
	numRealTerms := len(cls.terms)
	if extraTerms != nil {
		cls = cls.appendTerms(extraTerms)
	}
	for i, t := range cls.terms {
		v := abs(t)
		switch {
		case v == NumFalse:
			usedF = true
		case v == NumTrue:
			usedT = true
		case v < 1 || v >= len(s.num2name):
			throw("Bad variable number: %d", v)
		case i < numRealTerms:
			if useTermOverride != nil {
				useTermOverride(t)
			} else {
				s.useFormulaTerm(t, nil)
			}
		}
	}
	s.fUsed = s.fUsed || usedF
	s.tUsed = s.tUsed || usedT
	s.clauses = append(s.clauses, cls)
}

type deferredClauses struct {
	clauses    []*clause
	extraTerms []int
}

// useFormulaTerm generates the clauses of the formula behind variable |t|
// for the polarity of t, the first time that polarity is used. Nested uses
// are queued and worked off last-in first-out, as logic-solver does to
// avoid deep recursion.
func (s *Solver) useFormulaTerm(t int, addClausesOverride func([]*clause, []int)) {
	v := abs(t)
	formula, ok := s.ungeneratedFormulas[v]
	if !ok {
		return
	}
	info := s.getFormulaInfo(formula)
	positive := t > 0

	var queue *[]deferredClauses
	addClauses := addClausesOverride
	if addClauses == nil {
		queue = new([]deferredClauses)
		addClauses = func(clauses []*clause, extraTerms []int) {
			*queue = append(*queue, deferredClauses{clauses, extraTerms})
		}
	}

	if positive && !info.occursPositively {
		info.occursPositively = true
		clauses := s.generateFormula(true, formula, nil)
		addClauses(clauses, []int{-v})
	} else if !positive && !info.occursNegatively {
		info.occursNegatively = true
		clauses := s.generateFormula(false, formula, nil)
		addClauses(clauses, []int{v})
	}
	if info.occursPositively && info.occursNegatively {
		delete(s.ungeneratedFormulas, v)
	}

	if queue == nil || len(*queue) == 0 {
		return
	}
	useTerm := func(t int) { s.useFormulaTerm(t, addClauses) }
	for len(*queue) > 0 {
		next := (*queue)[len(*queue)-1]
		*queue = (*queue)[:len(*queue)-1]
		s.addClauses(next.clauses, next.extraTerms, useTerm)
	}
}

func (s *Solver) addClauses(clauses []*clause, extraTerms []int, useTermOverride func(int)) {
	for _, c := range clauses {
		s.addClause(c, extraTerms, useTermOverride)
	}
}

// Require adds the formulas or terms as constraints.
func (s *Solver) Require(formulas ...any) (err error) {
	defer catch(&err)
	s.requireForbid(true, flatten(formulas))
	return nil
}

// Forbid requires the formulas or terms to be false.
func (s *Solver) Forbid(formulas ...any) (err error) {
	defer catch(&err)
	s.requireForbid(false, flatten(formulas))
	return nil
}

func (s *Solver) requireForbid(isRequire bool, formulas []any) {
	assertArrayOfFormulaOrTerm(formulas)
	for _, f := range formulas {
		switch ff := f.(type) {
		case *notFormula:
			s.requireForbid(!isRequire, []any{ff.operand})
		case Formula:
			info := s.getFormulaInfo(ff)
			if info.varNum != 0 {
				sign := 1
				if !isRequire {
					sign = -1
				}
				s.addClause(&clause{terms: []int{sign * info.varNum}}, nil, nil)
			} else {
				s.addClauses(s.generateFormula(isRequire, ff, nil), nil, nil)
			}
			if isRequire {
				info.isRequired = true
			} else {
				info.isForbidden = true
			}
		default:
			s.addClauses(s.generateFormula(isRequire, f, nil), nil, nil)
		}
	}
}

func (s *Solver) generateFormula(isTrue bool, formula any, t *termifier) []*clause {
	assertFormulaOrTerm(formula)
	switch f := formula.(type) {
	case *notFormula:
		// logic-solver drops the termifier here: evaluating a "not" in a
		// Solution goes on with the solver's own termifier, creating
		// variables.
		return s.generateFormula(!isTrue, f.operand, nil)
	case Formula:
		info := s.getFormulaInfo(f)
		if (isTrue && info.isRequired) || (!isTrue && info.isForbidden) {
			return nil
		} else if (isTrue && info.isForbidden) || (!isTrue && info.isRequired) {
			return []*clause{{}}
		}
		if t == nil {
			t = s.termifier
		}
		return f.generateClauses(isTrue, t)
	}
	n := s.toNumTerm(formula, false)
	sign := 1
	if !isTrue {
		sign = -1
	}
	if n == sign*NumTrue || n == -sign*NumFalse {
		return nil
	} else if n == sign*NumFalse || n == -sign*NumTrue {
		return []*clause{{}}
	}
	return []*clause{{terms: []int{sign * n}}}
}

func (s *Solver) getFormulaInfo(f Formula) *formulaInfo {
	info := s.formulaInfo[f]
	if info == nil {
		info = &formulaInfo{}
		s.formulaInfo[f] = info
	}
	return info
}

func (s *Solver) formulaToTerm(formula any) int {
	assertFormulaOrTerm(formula)
	switch f := formula.(type) {
	case *notFormula:
		return -s.formulaToTerm(f.operand)
	case Formula:
		info := s.getFormulaInfo(f)
		if info.isRequired {
			return NumTrue
		} else if info.isForbidden {
			return NumFalse
		} else if info.varNum == 0 {
			typ := f.FormulaType()
			if s.nextFormulaNumByType[typ] == 0 {
				s.nextFormulaNumByType[typ] = 1
			}
			n := s.nextFormulaNumByType[typ]
			s.nextFormulaNumByType[typ]++
			info.varName = "$" + typ + strconv.Itoa(n)
			info.varNum = s.getVarNum(info.varName, false, true)
			s.ungeneratedFormulas[info.varNum] = f
		}
		return info.varNum
	}
	return s.toNumTerm(formula, false)
}

// Clauses returns the clauses generated so far, as NumTerm lists, including
// the two leading clauses for $F and $T (logic-solver's solver.clauses).
func (s *Solver) Clauses() [][]int {
	out := make([][]int, len(s.clauses))
	for i, c := range s.clauses {
		out[i] = append(make([]int, 0, len(c.terms)), c.terms...)
	}
	return out
}

// Solve returns a satisfying assignment, or nil if there is none.
func (s *Solver) Solve() (sol *Solution, err error) {
	defer catch(&err)
	return s.solve(0), nil
}

func (s *Solver) solve(assumpVar int) *Solution {
	if s.unsat {
		return nil
	}
	for s.numClausesAddedToMiniSat < len(s.clauses) {
		terms := s.clauses[s.numClausesAddedToMiniSat].terms
		stillSat := s.minisat.addClause(terms)
		s.numClausesAddedToMiniSat++
		if !stillSat {
			s.unsat = true
			return nil
		}
	}
	s.minisat.ensureVar(len(s.num2name) - 1)
	var stillSat bool
	if assumpVar != 0 {
		stillSat = s.minisat.solveAssuming(assumpVar)
	} else {
		stillSat = s.minisat.solve()
	}
	if !stillSat {
		if assumpVar == 0 {
			s.unsat = true
		}
		return nil
	}
	return newSolution(s, s.minisat.getSolution())
}

// SolveAssuming solves with the formula temporarily assumed true; it adds
// no lasting constraint (the assumption gets a variable of its own, which
// is retired afterwards).
func (s *Solver) SolveAssuming(formula any) (sol *Solution, err error) {
	defer catch(&err)
	return s.solveAssuming(formula), nil
}

func (s *Solver) solveAssuming(formula any) *Solution {
	assertFormulaOrTerm(formula)
	assump := &assumption{formula: formula}
	assumpVar := s.formulaToTerm(assump)
	s.useFormulaTerm(assumpVar, nil)
	result := s.solve(assumpVar)
	s.minisat.retireVar(assumpVar)
	return result
}

// minisatWrapper is minisat_wrapper.js together with the C entry points
// of logic-solver's MiniSat build.
type minisatWrapper struct {
	s       *minisat
	numVars int
	buf     []lit
}

func newMinisatWrapper() *minisatWrapper { return &minisatWrapper{s: newMinisat()} }

func (w *minisatWrapper) ensureVar(v int) {
	for w.numVars < v {
		w.s.newVar()
		w.numVars++
	}
}

func (w *minisatWrapper) addClause(terms []int) bool {
	lits := w.buf[:0]
	for _, t := range terms {
		v := abs(t)
		w.ensureVar(v)
		lits = append(lits, mkLit(int32(v), t < 0))
	}
	w.buf = lits
	return w.s.addClause(lits)
}

func (w *minisatWrapper) solve() bool {
	w.s.assumptions = w.s.assumptions[:0]
	return isTrue(w.s.solve())
}

func (w *minisatWrapper) solveAssuming(v int) bool {
	w.s.assumptions = append(w.s.assumptions[:0], mkLit(int32(v), false))
	return isTrue(w.s.solve())
}

func (w *minisatWrapper) retireVar(v int) {
	w.buf = append(w.buf[:0], mkLit(int32(v), true))
	w.s.addClause(w.buf)
}

func (w *minisatWrapper) getSolution() []bool {
	sol := make([]bool, w.numVars+1)
	for i := 1; i <= w.numVars; i++ {
		sol[i] = w.s.model[i] == lTrue
	}
	return sol
}

// Stats are counters of the embedded MiniSat, for diagnostics.
type Stats struct {
	Solves, Starts, Decisions, Propagations, Conflicts uint64
	// Learnts is the number of learnt clauses kept now; the other counts
	// say how often learnt clauses were reduced, memory was compacted,
	// the clause database was simplified at level 0, and variable and
	// clause activities were rescaled.
	Learnts, ReduceDBs, GarbageCollects, Simplifies, VarRescales, ClaRescales int
}

// Stats returns the MiniSat counters accumulated so far.
func (s *Solver) Stats() Stats {
	m := s.minisat.s
	return Stats{
		Solves: m.solves, Starts: m.starts, Decisions: m.decisions,
		Propagations: m.propagations, Conflicts: m.conflicts, Learnts: len(m.learnts),
		ReduceDBs: m.reduceDBs, GarbageCollects: m.garbageCollects, Simplifies: m.simplifies,
		VarRescales: m.varRescales, ClaRescales: m.claRescales,
	}
}
