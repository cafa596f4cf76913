package logic

import (
	"maps"
	"sort"
	"strings"
	"unicode/utf16"
)

// Solution is a satisfying assignment (Logic.Solution). It keeps the
// variables that existed when it was found.
type Solution struct {
	solver        *Solver
	assignment    []bool // index 0 unused
	ungenerated   map[int]Formula
	valueCache    map[Formula]bool
	termifier     *termifier
	ignoreUnknown bool
}

func newSolution(s *Solver, assignment []bool) *Solution {
	sol := &Solution{
		solver:      s,
		assignment:  assignment,
		ungenerated: maps.Clone(s.ungeneratedFormulas),
		valueCache:  map[Formula]bool{},
	}
	sol.termifier = &termifier{solver: s, termFn: func(f any) int {
		if sol.evaluate(f) {
			return NumTrue
		}
		return NumFalse
	}}
	return sol
}

// IgnoreUnknownVariables makes Evaluate treat unknown variables, and
// variables created after the solution was found, as false instead of
// failing.
func (sol *Solution) IgnoreUnknownVariables() { sol.ignoreUnknown = true }

// GetMap maps every non-generated variable name to its value.
func (sol *Solution) GetMap() map[string]bool {
	result := map[string]bool{}
	for i := 1; i < len(sol.assignment); i++ {
		name := sol.solver.getVarName(i)
		if name != "" && name[0] != '$' {
			result[name] = sol.assignment[i]
		}
	}
	return result
}

// GetTrueVars lists the non-generated variables that are true, sorted as
// JavaScript sorts strings (by UTF-16 code units).
func (sol *Solution) GetTrueVars() []string {
	var result []string
	for i := 1; i < len(sol.assignment); i++ {
		if sol.assignment[i] {
			name := sol.solver.getVarName(i)
			if name != "" && name[0] != '$' {
				result = append(result, name)
			}
		}
	}
	sort.SliceStable(result, func(i, j int) bool { return jsLess(result[i], result[j]) })
	return result
}

// Assignment returns the value of every variable by number (index 0
// unused), generated variables included.
func (sol *Solution) Assignment() []bool { return append([]bool(nil), sol.assignment...) }

func jsLess(a, b string) bool {
	if isASCII(a) && isASCII(b) {
		return a < b
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// GetFormula is the conjunction of the values of all non-generated
// variables; forbidding it excludes this solution.
func (sol *Solution) GetFormula() any {
	var terms []any
	for i := 1; i < len(sol.assignment); i++ {
		name := sol.solver.getVarName(i)
		if name != "" && name[0] != '$' {
			if sol.assignment[i] {
				terms = append(terms, i)
			} else {
				terms = append(terms, -i)
			}
		}
	}
	return And(terms)
}

// Evaluate returns the value of a formula or term under the solution.
func (sol *Solution) Evaluate(formula any) (v bool, err error) {
	defer catch(&err)
	if _, ok := formula.(*Bits); ok {
		throw("Bits evaluate to a number: use EvaluateBits")
	}
	if !isFormulaOrTerm(formula) {
		throw("%s is not a Formula, Term, or Bits", display(formula))
	}
	return sol.evaluate(formula), nil
}

// EvaluateBits returns the integer value of bits under the solution.
func (sol *Solution) EvaluateBits(b *Bits) (n int, err error) {
	defer catch(&err)
	if b == nil {
		throw("null is not a Formula, Term, or Bits")
	}
	ret := 0
	for i, f := range b.bits {
		if sol.evaluate(f) {
			ret += int(int32(1) << (uint(i) % 32))
		}
	}
	return ret, nil
}

func (sol *Solution) evaluate(formula any) bool {
	solver := sol.solver
	switch f := formula.(type) {
	case *notFormula:
		return !sol.evaluate(f.operand)
	case Formula:
		if v, ok := sol.valueCache[f]; ok {
			return v
		}
		var value bool
		info := solver.formulaInfo[f]
		if info != nil && info.varNum != 0 && info.varNum < len(sol.assignment) {
			if _, ungen := sol.ungenerated[info.varNum]; !ungen {
				value = sol.assignment[info.varNum]
				sol.valueCache[f] = value
				return value
			}
		}
		clauses := solver.generateFormula(true, f, sol.termifier)
		value = true
		for _, c := range clauses {
			any := false
			for _, t := range c.terms {
				if sol.evaluate(t) {
					any = true
					break
				}
			}
			if !any {
				value = false
				break
			}
		}
		sol.valueCache[f] = value
		return value
	}
	numTerm := solver.toNumTerm(formula, true)
	if numTerm == 0 {
		if sol.ignoreUnknown {
			return false
		}
		throw("No such variable: %s", strings.TrimLeft(jsString(formula), "-"))
	}
	v, isNot := numTerm, false
	if numTerm < 0 {
		v, isNot = -v, true
	}
	if v < 1 || v >= len(sol.assignment) {
		vname := jsString(v)
		if v >= 1 && v < len(solver.num2name) {
			vname = solver.num2name[v]
		}
		if sol.ignoreUnknown {
			return false
		}
		throw("Variable not part of solution: %s", vname)
	}
	return sol.assignment[v] != isNot
}

// GetWeightedSum is the sum of weights[i] over the true formulas[i].
func (sol *Solution) GetWeightedSum(formulas []any, weights []int) (total int, err error) {
	defer catch(&err)
	return sol.getWeightedSum(formulas, weights), nil
}

func (sol *Solution) getWeightedSum(formulas []any, weights []int) int {
	checkWeightedSumArgs(formulas, weights)
	total := 0
	for i, f := range formulas {
		if sol.evaluate(f) {
			total += weights[i]
		}
	}
	return total
}

func nonZeroWeightedTerms(terms []any, weights []int) []any {
	out := []any{}
	for i, t := range terms {
		if weights[i] != 0 {
			out = append(out, t)
		}
	}
	return out
}

// MinimizeWeightedSum lowers the weighted sum of the formulas, starting
// from solution, until it is minimal, then requires the optimum
// (logic-solver's default strategy: first try cost 0 under an assumption,
// then require "sum < cost" after each improvement). It returns a solution
// with the optimal cost. The solver keeps the added constraints.
func (s *Solver) MinimizeWeightedSum(solution *Solution, formulas []any, weights []int) (sol *Solution, err error) {
	defer catch(&err)
	return s.minMaxWS(solution, formulas, weights, true), nil
}

// MaximizeWeightedSum raises the weighted sum until it is maximal; see
// MinimizeWeightedSum.
func (s *Solver) MaximizeWeightedSum(solution *Solution, formulas []any, weights []int) (sol *Solution, err error) {
	defer catch(&err)
	return s.minMaxWS(solution, formulas, weights, false), nil
}

func (s *Solver) minMaxWS(solution *Solution, costTerms []any, costWeights []int, isMin bool) *Solution {
	if solution == nil {
		throw("Cannot read properties of null (reading 'getWeightedSum')")
	}
	curSolution := solution
	curCost := curSolution.getWeightedSum(costTerms, costWeights)
	weightedSum := WeightedSum(costTerms, costWeights)

	var nonZeroTerms []any
	if isMin && curCost > 0 {
		nonZeroTerms = nonZeroWeightedTerms(costTerms, costWeights)
		if zero := s.solveAssuming(Not(Or(nonZeroTerms))); zero != nil {
			curSolution = zero
			curCost = 0
		}
	}

	for !isMin || curCost > 0 {
		var improvement Formula
		if isMin {
			improvement = LessThan(weightedSum, ConstantBits(curCost))
		} else {
			improvement = GreaterThan(weightedSum, ConstantBits(curCost))
		}
		newSolution := s.solveAssuming(improvement)
		if newSolution == nil {
			break
		}
		s.requireForbid(true, []any{improvement})
		curSolution = newSolution
		curCost = curSolution.getWeightedSum(costTerms, costWeights)
	}

	if isMin && curCost == 0 {
		if nonZeroTerms == nil {
			nonZeroTerms = nonZeroWeightedTerms(costTerms, costWeights)
		}
		s.requireForbid(false, nonZeroTerms)
	} else {
		s.requireForbid(true, []any{EqualBits(weightedSum, ConstantBits(curCost))})
	}
	return curSolution
}
