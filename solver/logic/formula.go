package logic

// Formula is a formula object (logic-solver's Logic.Formula). Formula
// objects are compared by identity: a Solver gives each object it meets
// its own variable ("$or1", "$and2", ...) and generates its clauses once,
// so passing the same object twice is not the same as passing two equal
// objects. The constructors below are the only way to make one.
//
// Operands everywhere in this package are Formula values, NameTerms
// (strings such as "x" or "-x") or NumTerms (non-zero ints); slices of
// these ([]any, []string, []int, []Formula) are flattened, as logic-solver
// flattens nested arrays. Constructors panic with an *Error (logic-solver
// throws) when an operand is neither a Formula nor a Term; use IsTerm to
// check names first.
type Formula interface {
	// FormulaType is the type name logic-solver uses for the formula's
	// variable ("or", "and", "xor", ...).
	FormulaType() string
	generateClauses(isTrue bool, t *termifier) []*clause
}

type clause struct{ terms []int }

func (c *clause) appendTerms(extra []int) *clause {
	terms := make([]int, 0, len(c.terms)+len(extra))
	terms = append(terms, c.terms...)
	terms = append(terms, extra...)
	return &clause{terms: terms}
}

type orFormula struct{ operands []any }
type notFormula struct{ operand any }
type andFormula struct{ operands []any }
type xorFormula struct{ operands []any }
type atMostOneFormula struct{ operands []any }
type impliesFormula struct{ a, b any }
type equivFormula struct{ a, b any }
type exactlyOneFormula struct{ operands []any }
type lteFormula struct{ bits1, bits2 *Bits }
type ltFormula struct{ bits1, bits2 *Bits }
type equalBitsFormula struct{ bits1, bits2 *Bits }
type halfAdderSum struct{ a, b any }
type halfAdderCarry struct{ a, b any }
type fullAdderSum struct{ a, b, c any }
type fullAdderCarry struct{ a, b, c any }
type assumption struct{ formula any }

func (*orFormula) FormulaType() string         { return "or" }
func (*notFormula) FormulaType() string        { return "not" }
func (*andFormula) FormulaType() string        { return "and" }
func (*xorFormula) FormulaType() string        { return "xor" }
func (*atMostOneFormula) FormulaType() string  { return "atMostOne" }
func (*impliesFormula) FormulaType() string    { return "implies" }
func (*equivFormula) FormulaType() string      { return "equiv" }
func (*exactlyOneFormula) FormulaType() string { return "exactlyOne" }
func (*lteFormula) FormulaType() string        { return "lte" }
func (*ltFormula) FormulaType() string         { return "lt" }
func (*equalBitsFormula) FormulaType() string  { return "equalBits" }
func (*halfAdderSum) FormulaType() string      { return "hsum" }
func (*halfAdderCarry) FormulaType() string    { return "hcarry" }
func (*fullAdderSum) FormulaType() string      { return "fsum" }
func (*fullAdderCarry) FormulaType() string    { return "fcarry" }
func (*assumption) FormulaType() string        { return "assump" }

// Not negates a formula or term. A NameTerm gets or loses a leading '-', a
// NumTerm changes sign (both stay terms); a Formula is wrapped in a new
// "not" formula.
func Not(operand any) any {
	assertFormulaOrTerm(operand)
	switch v := operand.(type) {
	case Formula:
		return &notFormula{operand: v}
	case int:
		return -v
	case string:
		if v[0] == '-' {
			return v[1:]
		}
		return "-" + v
	}
	panic("unreachable")
}

// nary flattens and checks the operands of an n-ary formula and makes it
// with build; with fewer than two operands it is empty for none and the
// operand for one.
func nary(args []any, empty any, build func(ops []any) any) any {
	args = flatten(args)
	switch len(args) {
	case 0:
		return empty
	case 1:
		assertFormulaOrTerm(args[0])
		return args[0]
	}
	assertArrayOfFormulaOrTerm(args)
	return build(args)
}

// Or is true if any operand is. No operands give False, one operand is
// returned as it is.
func Or(args ...any) any {
	return nary(args, False, func(ops []any) any { return &orFormula{operands: ops} })
}

// And is true if all operands are. No operands give True, one operand is
// returned as it is.
func And(args ...any) any {
	return nary(args, True, func(ops []any) any { return &andFormula{operands: ops} })
}

// Xor is true if an odd number of operands is.
func Xor(args ...any) any {
	return nary(args, False, func(ops []any) any { return &xorFormula{operands: ops} })
}

// AtMostOne is true if at most one operand is; with fewer than two
// operands it is True.
func AtMostOne(args ...any) any {
	args = flatten(args)
	if len(args) <= 1 {
		return True
	}
	assertArrayOfFormulaOrTerm(args)
	return &atMostOneFormula{operands: args}
}

// ExactlyOne is true if exactly one operand is.
func ExactlyOne(args ...any) any {
	return nary(args, False, func(ops []any) any { return &exactlyOneFormula{operands: ops} })
}

// Implies is "a implies b".
func Implies(a, b any) any {
	assertFormulaOrTerm(a)
	assertFormulaOrTerm(b)
	return &impliesFormula{a: a, b: b}
}

// Equiv is "a if and only if b".
func Equiv(a, b any) any {
	assertFormulaOrTerm(a)
	assertFormulaOrTerm(b)
	return &equivFormula{a: a, b: b}
}

// group splits xs into groups of n; the last one may be shorter.
func group(xs []any, n int) [][]any {
	var ret [][]any
	for i := 0; i < len(xs); i += n {
		j := min(i+n, len(xs))
		g := make([]any, j-i)
		copy(g, xs[i:j])
		ret = append(ret, g)
	}
	return ret
}

func (f *notFormula) generateClauses(bool, *termifier) []*clause {
	throw("Cannot generate this Formula; it must be expanded")
	return nil
}

func (f *orFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	if isTrue {
		return []*clause{t.clause(f.operands)}
	}
	var result []*clause
	for _, o := range f.operands {
		result = append(result, t.generate(false, o)...)
	}
	return result
}

func (f *andFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	if isTrue {
		var result []*clause
		for _, o := range f.operands {
			result = append(result, t.generate(true, o)...)
		}
		return result
	}
	negs := make([]any, len(f.operands))
	for i, o := range f.operands {
		negs[i] = Not(o)
	}
	return []*clause{t.clause(negs)}
}

func (f *xorFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	args := f.operands
	if len(args) > 3 {
		groups := group(args, 3)
		xs := make([]any, len(groups))
		for i, g := range groups {
			xs[i] = Xor(g)
		}
		return t.generate(isTrue, Xor(xs))
	}
	if isTrue {
		switch len(args) {
		case 0:
			return []*clause{t.clause()}
		case 1:
			return []*clause{t.clause(args[0])}
		case 2:
			a, b := args[0], args[1]
			return []*clause{t.clause(a, b), t.clause(Not(a), Not(b))}
		default:
			a, b, c := args[0], args[1], args[2]
			return []*clause{
				t.clause(a, b, c),
				t.clause(a, Not(b), Not(c)),
				t.clause(Not(a), b, Not(c)),
				t.clause(Not(a), Not(b), c),
			}
		}
	}
	switch len(args) {
	case 0:
		return nil
	case 1:
		return []*clause{t.clause(Not(args[0]))}
	case 2:
		a, b := args[0], args[1]
		return []*clause{t.clause(a, Not(b)), t.clause(Not(a), b)}
	default:
		a, b, c := args[0], args[1], args[2]
		return []*clause{
			t.clause(Not(a), Not(b), Not(c)),
			t.clause(Not(a), b, c),
			t.clause(a, Not(b), c),
			t.clause(a, b, Not(c)),
		}
	}
}

func (f *atMostOneFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	args := f.operands
	switch {
	case len(args) <= 1:
		return nil
	case len(args) == 2:
		return t.generate(isTrue, Not(And(args)))
	case isTrue && len(args) == 3:
		var clauses []*clause
		for i := range args {
			for j := i + 1; j < len(args); j++ {
				clauses = append(clauses, t.clause(Not(args[i]), Not(args[j])))
			}
		}
		return clauses
	case !isTrue && len(args) == 3:
		a, b, c := args[0], args[1], args[2]
		return []*clause{t.clause(a, b), t.clause(a, c), t.clause(b, c)}
	}
	// Commander variables: at most one group has a true member, and each
	// group has at most one.
	groups := group(args, 3)
	ors := make([]any, len(groups))
	for i, g := range groups {
		ors[i] = Or(g)
	}
	if len(groups[len(groups)-1]) < 2 {
		groups = groups[:len(groups)-1]
	}
	atMostOnes := make([]any, len(groups))
	for i, g := range groups {
		atMostOnes[i] = AtMostOne(g)
	}
	return t.generate(isTrue, And(AtMostOne(ors), atMostOnes))
}

func (f *impliesFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	return t.generate(isTrue, Or(Not(f.a), f.b))
}

func (f *equivFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	return t.generate(!isTrue, Xor(f.a, f.b))
}

func (f *exactlyOneFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	args := f.operands
	if len(args) < 3 {
		return t.generate(isTrue, Xor(args))
	}
	return t.generate(isTrue, And(AtMostOne(args), Or(args)))
}

func (f *halfAdderSum) generateClauses(isTrue bool, t *termifier) []*clause {
	return t.generate(isTrue, Xor(f.a, f.b))
}

func (f *halfAdderCarry) generateClauses(isTrue bool, t *termifier) []*clause {
	return t.generate(isTrue, And(f.a, f.b))
}

func (f *fullAdderSum) generateClauses(isTrue bool, t *termifier) []*clause {
	return t.generate(isTrue, Xor(f.a, f.b, f.c))
}

func (f *fullAdderCarry) generateClauses(isTrue bool, t *termifier) []*clause {
	return t.generate(!isTrue, AtMostOne(f.a, f.b, f.c))
}

func (f *assumption) generateClauses(isTrue bool, t *termifier) []*clause {
	if isTrue {
		return []*clause{t.clause(f.formula)}
	}
	return []*clause{t.clause(Not(f.formula))}
}
