package encode

import (
	"strconv"
	"strings"

	"v4t/model/diag"
	"v4t/model/expr"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §8 (SAT encoding): element conditions, manual
// variables, constraints, implies, logic operators and presence operators.

// Evaluator evaluates value expressions (variability.md §9); a nil result is
// undefined.
type Evaluator interface {
	Eval(x *yamlsrc.Value) (*yamlsrc.Value, error)
}

// CaseEvaluator is an Evaluator that can also evaluate a value expression
// over open inputs (spaces.md §4): once per combination of the values of the
// open inputs it reads. A value expression in logic position (§8.6) then
// becomes the disjunction, over the cases whose value is true, of the
// conjunction of their one-hot input literals (OneHotTerm).
type CaseEvaluator interface {
	Evaluator
	// Cases evaluates x in every case. A single case that assumes nothing
	// means that x reads no open input. An error refuses x as a whole.
	Cases(x *Value) ([]Case, error)
	// Excluded is told about every case whose evaluation failed or was not
	// a boolean in logic position: its combination is excluded from the
	// formula, as the resolver would reject it.
	Excluded(x *Value, c Case, err error)
}

// Case is one evaluation of a value expression under a partial assignment
// of open inputs.
type Case struct {
	// Assumed are the open inputs the evaluation read, each with the index
	// of its value in the input's domain, in the order they were read.
	Assumed []Assumption
	Value   *Value
	Err     error
}

// Assumption is an open input's value: the index into its domain.
type Assumption struct {
	Input string
	Index int
}

// OneHotTerm names the variable that is true when open input name has the
// value of index i in its domain. Names starting with $ cannot be written
// in a template (ParseTerm rejects them), so they never clash with terms.
func OneHotTerm(name string, i int) string {
	return "$input." + name + "=" + strconv.Itoa(i)
}

type (
	// Value is a document node.
	Value = yamlsrc.Value
	// Element is a graph element.
	Element = graph.Element
)

// Result is the encoded problem.
type Result struct {
	NumVars int
	Clauses Packed
	// Unsat is set when a requirement folded to false.
	Unsat bool
	// ElementVars holds the variable of each element, in global order.
	ElementVars []int
	// NodeVars and TechnologyVars are the named variables whose names start
	// with "node" and "technology" (the reference's uniqueness projections).
	NodeVars, TechnologyVars []int
	// TechnologyNameLits holds, per distinct technology name in order of
	// first occurrence, the literal or(technologies with that name).
	TechnologyNameLits []int
	// ClauseGroups holds the origin of every clause as an index into
	// Groups plus one; 0 marks definitions that are always satisfiable.
	ClauseGroups []int
	Groups       []Group
	// UnsatGroup is the group (index plus one) whose requirement folded to
	// false when Unsat is set.
	UnsatGroup int

	builder *Builder
}

// Group is the origin of a set of requirements: an element's conditions,
// one constraint, or an element's implies list.
type Group struct {
	Element    *Element
	Constraint *Value
	Implies    bool
}

// Builder exposes the builder, e.g. to add objective literals.
func (r *Result) Builder() *Builder { return r.builder }

// Backend is a formula representation the translator builds into: our CNF
// builder, or another one such as an emulation of the reference's solver.
// The translator calls it in exactly the order in which the reference calls
// its SAT library.
type Backend[F any] interface {
	True() F
	False() F
	// Term is a named variable (the name is valid and not a constant).
	Term(name string) F
	// Element and Manual are an element's variable and manual variable.
	Element(e *Element) F
	Manual(e *Element) F
	Not(F) F
	And(...F) F
	Or(...F) F
	Xor(...F) F
	Exo(...F) F
	Amo(...F) F
	Implies(a, b F) F
	Require(F)
	RequireEquiv(a, b F)
	// Group announces the origin of the requirements that follow.
	Group(Group)
}

type encoder[F any] struct {
	g     *graph.Graph
	b     Backend[F]
	ev    Evaluator
	warn  diag.Sink
	exprs *Value
	// named finds the variable of an expression by its value, which two
	// names share through an alias; nil in a document without aliases.
	named map[*Value]F
	// exprVars caches the variable of each named expression by the
	// expression's position in exprs, where exprSeen is set: most
	// expressions are referred to more than once, and the position, which
	// finding the expression gives anyway, replaced a map by name whose
	// lookups and insertions were a sixth of encoding the ring.
	exprVars []F
	exprSeen []bool
	// lastName and lastVar are the name value (a string) of the last named
	// expression found or translated, and its variable: an element with
	// one condition translates it twice (its manual presence, then its
	// presence), and the second time skips finding the name again.
	lastName *Value
	lastVar  F
	// nextExpr is the position after the last named expression found:
	// templates tend to refer to their expressions in the order they
	// define them, and comparing the key there first saves most lookups
	// in the expressions' key index, which miss the cache (on the ring
	// at seed 10,000, 40,000 of them).
	nextExpr int
	// raw passes strings in logic position to the backend as they are
	// written (display).
	raw bool
	// dollar is the error of a term named with a leading $ since the last
	// requirement (settle).
	dollar error
	// ops translates the logic operators by rank (logicOpsFor).
	ops []logicOp[F]
	// once names a logic expression's variable, each asked for once
	// (Builder.TermOnce), where the backend has such a method.
	once func(name string) F
	// stack holds the operands of the n-ary operators being translated,
	// where the backend keeps none of the operand lists it is given
	// (operandStack): a list per operator was the largest of what a
	// batch run allocates beyond its Scratch (13 MB per batch of the
	// 256-run space of benchmarks/scaling.sh).
	stack *[]F
	// kept is withoutGenerated's list.
	kept []*Value
}

// operandStack is a backend that copies what it needs of the operand
// lists of And, Or, Xor, Exo and Amo, and keeps none of them, so that the
// encoder may hand it slices of one reused stack; its stack is where the
// encoder keeps them.
type operandStack[F any] interface {
	operandStack() *[]F
}

// exprTerm returns the variable of a logic expression's term name, asked
// for once per expression.
func (e *encoder[F]) exprTerm(name string) F {
	if e.once != nil {
		return e.once(name)
	}
	return e.b.Term(name)
}

// settle returns, after a requirement, the error of a term named with a
// leading $ in it: the reference's SAT library accepts such a name in a
// formula and refuses it when the formula is required, after every other
// error of its translation.
func (e *encoder[F]) settle() error {
	err := e.dollar
	e.dollar = nil
	return err
}

func zero[F any]() F {
	var z F
	return z
}

func errf(msg string) error { return diag.New(diag.StageSolve, msg) }

// Translate translates the graph's conditions, constraints and implies into
// any backend, in the reference's order (§8.2, §8.3).
func Translate[F any](g *graph.Graph, ev Evaluator, b Backend[F]) error {
	return translateAll(g, ev, b, nil, false)
}

// translateAll is Translate, passing warnings about coerced input to warn
// (when not nil); unshared is Options.Unshared.
func translateAll[F any](g *graph.Graph, ev Evaluator, b Backend[F], warn diag.Sink, unshared bool) error {
	exprs := g.Variability().Get("expressions")
	// Sized for every expression to be used, as on the ring: grown one
	// expression at a time to its 20,000 (seed 10,000), each map was
	// rehashed about ten times.
	n := numExpressions(exprs)
	e := &encoder[F]{g: g, b: b, ev: ev, warn: warn, exprs: exprs, exprVars: make([]F, n), exprSeen: make([]bool, n), ops: logicOpsFor[F]()}
	if !unshared {
		e.named = make(map[*Value]F, n)
	}
	if o, ok := b.(interface{ TermOnce(string) F }); ok {
		e.once = o.TermOnce
	}
	if o, ok := b.(operandStack[F]); ok {
		e.stack = o.operandStack()
	}
	for _, el := range g.Groups {
		if el.Variability {
			return diag.At(el.Pos(), diag.StageSolve, msgVariabilityGroups)
		}
	}
	for _, el := range g.Elements {
		b.Group(Group{Element: el})
		if err := e.element(el); err != nil {
			return withPos(err, el.Pos())
		}
	}
	if cs := g.Variability().Get("constraints"); !cs.IsNull() {
		items, err := e.constraints(cs)
		if err != nil {
			return err
		}
		for _, c := range items {
			b.Group(Group{Constraint: c})
			if c != nil && c.Kind == yamlsrc.KindString && !IsNameTerm(c.Str()) {
				// The reference requires the string as it is, and its SAT
				// library checks what require is given as an array.
				return diag.At(diag.Pos{File: g.File, Line: int(c.Line), Col: int(c.Col)}, diag.StageSolve, MsgNotTerms(c.Str()))
			}
			l, err := e.translate(c, nil)
			if err != nil {
				return withPos(err, diag.Pos{File: g.File, Line: int(c.Line), Col: int(c.Col)})
			}
			b.Require(l)
			if err := e.settle(); err != nil {
				return withPos(err, diag.Pos{File: g.File, Line: int(c.Line), Col: int(c.Col)})
			}
		}
	}
	withImplies := g.Elements
	if g.AnyKeys()&graph.KeyImplies == 0 {
		withImplies = nil // no element has implies
	}
	for _, el := range withImplies {
		if el.Keys&graph.KeyImplies == 0 || el.Raw.Get("implies").IsNull() {
			continue
		}
		b.Group(Group{Element: el, Implies: true})
		if err := e.implies(el); err != nil {
			return withPos(err, el.Pos())
		}
	}
	return nil
}

// numExpressions returns the number of named logic expressions.
func numExpressions(exprs *Value) int {
	if !exprs.IsMap() {
		return 0
	}
	return exprs.Map().Len()
}

// constraints returns the items of variability.constraints as the
// reference's for-of loop meets them: a list's items, a string's
// characters (code points); anything else is not iterable.
func (e *encoder[F]) constraints(cs *Value) ([]*Value, error) {
	pos := diag.Pos{File: e.g.File, Line: int(cs.Line), Col: int(cs.Col)}
	msg := "expected the variability constraints as a list, found " + graph.Describe(cs)
	switch cs.Kind {
	case yamlsrc.KindList:
		return cs.List(), nil
	case yamlsrc.KindString:
		// Quirk: scalar maps (README, "Malformed input").
		if e.warn != nil && cs.Str() != "" {
			e.warn(diag.Warning(pos, diag.StageSolve, msg+": each character is read as a constraint, as the reference does"))
		}
		var items []*Value
		for _, r := range cs.Str() {
			c := yamlsrc.NewString(string(r))
			c.Line, c.Col = cs.Line, cs.Col
			items = append(items, c)
		}
		return items, nil
	case yamlsrc.KindNumber:
		return nil, diag.AtRef(pos, diag.StageSolve, msg, graph.MsgNotIterableSymbol("number "+yamlsrc.String(cs)))
	case yamlsrc.KindBool:
		return nil, diag.AtRef(pos, diag.StageSolve, msg, graph.MsgNotIterableSymbol("boolean "+yamlsrc.String(cs)))
	}
	return nil, diag.AtRef(pos, diag.StageSolve, msg, graph.MsgNotIterableSymbol("object"))
}

// cnfBackend builds our CNF.
type cnfBackend struct {
	*Builder
	// evars and mvars hold each element's variable and manual variable,
	// indexed by Seq, so that the hot path avoids name lookups.
	evars, mvars []Lit
	groups       []Group
	// operands is the encoder's operand stack: the Builder's gates copy
	// their operands into their clauses and keys.
	operands []Lit
}

func (c *cnfBackend) operandStack() *[]Lit { return &c.operands }

func (c *cnfBackend) True() Lit              { return True }
func (c *cnfBackend) False() Lit             { return False }
func (c *cnfBackend) Term(name string) Lit   { return c.Var(name) }
func (c *cnfBackend) Element(e *Element) Lit { return c.evars[e.Seq] }
func (c *cnfBackend) Manual(e *Element) Lit  { return c.mvars[e.Seq] }
func (c *cnfBackend) Not(l Lit) Lit          { return -l }
func (c *cnfBackend) Exo(ls ...Lit) Lit      { return c.Builder.Exo(ls...) }
func (c *cnfBackend) Amo(ls ...Lit) Lit      { return c.Builder.Amo(ls...) }
func (c *cnfBackend) Implies(a, b Lit) Lit   { return c.Builder.Implies(a, b) }
func (c *cnfBackend) Group(g Group) {
	if !c.trackGroups {
		return
	}
	c.groups = append(c.groups, g)
	c.SetGroup(len(c.groups))
}

// Options tune Encode.
type Options struct {
	// Groups records the origin of every clause (Result.ClauseGroups) for
	// explanations of unsatisfiability.
	Groups bool
	// Warn, when set, receives a warning for each malformed input that the
	// encoding reads as the reference does (README, "Malformed input").
	Warn diag.Sink
	// Unshared says that the document shares no value between two places
	// (it has no YAML alias), so that two expression names never name one
	// expression and the encoding does not look expressions up by value.
	Unshared bool
	// Arrays, when set, is where the clauses are stored (Arrays).
	Arrays *Arrays
}

// Encode translates the graph's conditions, constraints and implies into CNF.
func Encode(g *graph.Graph, ev Evaluator, opts Options) (*Result, error) {
	n := len(g.Elements)
	lazy := g.UniqueIDs()
	// Room for a named variable per logic expression, which most
	// templates' conditions refer to (the ring's do, 20,000 at seed
	// 10,000), and for the element variables where they are not lazy.
	// The expressions' variables are not indexed (TermOnce).
	exprs := numExpressions(g.Variability().Get("expressions"))
	indexed := 64
	if !lazy {
		indexed += 2 * n
	}
	b := &cnfBackend{Builder: newBuilder(indexed+exprs, indexed, opts.Arrays)}
	b.DeferTerms("expression.")
	b.ExpectPairs(n)
	if opts.Groups {
		b.TrackGroups()
	}
	res := &Result{builder: b.Builder}
	// A batch worker's runs take these from the run before (Arrays).
	res.ElementVars = opts.Arrays.intArrays().Make(n)
	vars := opts.Arrays.litArrays().Make(2 * n)
	b.evars, b.mvars = vars[:n:n], vars[n:]
	lazyBase := 0
	if lazy {
		// An element's manual variable is named "manual." and its id
		// (graph.Element.ManualID).
		first := b.LazyPairs(n, func(i int) string { return g.Elements[i].ID() }, "manual.", mayBeElementVar)
		lazyBase = int(first)
		for i := range g.Elements {
			b.evars[i] = first + Lit(i)
			b.mvars[i] = first + Lit(n+i)
		}
	} else {
		// Elements with equal ids share a variable, as in the reference,
		// whose variables are their names.
		for i, el := range g.Elements {
			b.evars[i] = b.Var(el.ID())
		}
		for i, el := range g.Elements {
			b.mvars[i] = b.Var(el.ManualID())
		}
	}
	for i := range g.Elements {
		res.ElementVars[i] = int(b.evars[i])
	}
	if err := translateAll[Lit](g, ev, b, opts.Warn, opts.Unshared); err != nil {
		return nil, err
	}
	b.SetGroup(0)
	res.Groups = b.groups
	// Technology names in order of first occurrence.
	var names []string
	byName := map[string][]Lit{}
	for _, t := range g.Technologies {
		if _, ok := byName[t.Name]; !ok {
			names = append(names, t.Name)
		}
		byName[t.Name] = append(byName[t.Name], b.evars[t.Seq])
	}
	for _, n := range names {
		res.TechnologyNameLits = append(res.TechnologyNameLits, int(b.Materialize(b.Builder.Or(byName[n]...))))
	}
	if len(g.Nodes) > 0 {
		res.NodeVars = make([]int, 0, len(g.Nodes))
	}
	if len(g.Technologies) > 0 {
		res.TechnologyVars = make([]int, 0, len(g.Technologies))
	}
	k := 0
	for v := 1; v <= b.nv; v++ {
		if lazy && v >= lazyBase && v < lazyBase+2*n {
			if i := v - lazyBase; i < n {
				switch g.Elements[i].Kind {
				case graph.KindNode:
					res.NodeVars = append(res.NodeVars, v)
				case graph.KindTechnology:
					res.TechnologyVars = append(res.TechnologyVars, v)
				}
			}
			continue
		}
		name := b.name(Lit(v), &k)
		switch {
		case strings.HasPrefix(name, "node"):
			res.NodeVars = append(res.NodeVars, v)
		case strings.HasPrefix(name, "technology"):
			res.TechnologyVars = append(res.TechnologyVars, v)
		}
	}
	res.NumVars = b.NumVars()
	res.Clauses = b.Packed()
	res.Unsat = b.unsat
	res.UnsatGroup = b.unsatGroup
	res.ClauseGroups = b.clauseGroups
	return res, nil
}

// Names returns the variable names indexed by variable (index 0 unused;
// auxiliary variables have empty names).
func (r *Result) Names() []string { return r.builder.Names() }

// mayBeElementVar reports whether name could be an element's variable or
// manual variable: its first dot-separated part is an element kind or
// "manual".
func mayBeElementVar(name string) bool {
	first, _, _ := strings.Cut(name, ".")
	if first == "manual" {
		return true
	}
	for k := graph.KindNode; k <= graph.KindImport; k++ {
		if k.String() == first {
			return true
		}
	}
	return false
}

func withPos(err error, p diag.Pos) error {
	if d, ok := diag.As(err); ok && !d.Pos.Known() {
		d.Pos = p
	}
	return err
}

func isGenerated(c *Value) bool {
	return c.IsMap() && c.Get("_generated").IsTrue()
}

// withoutGenerated returns the conditions that are not generated: conds
// itself where none is, as with most elements, which saves a copy per
// element; else a list in the encoder's buffer, valid until the next
// call (the pruning family generates a condition for most elements, and
// a list each was a seventh of a batch run's allocations).
func (e *encoder[F]) withoutGenerated(conds []*Value) []*Value {
	for i, c := range conds {
		if !isGenerated(c) {
			continue
		}
		out := append(e.kept[:0], conds[:i]...)
		for _, c := range conds[i+1:] {
			if !isGenerated(c) {
				out = append(out, c)
			}
		}
		e.kept = out
		return out
	}
	return conds
}

// element encodes one element's conditions (§8.2).
func (e *encoder[F]) element(el *Element) error {
	id := e.b.Element(el)
	manual := e.b.Manual(el)
	conds := el.Conditions
	if el.ContainerPresence {
		return e.containerPresence(el, id, manual)
	}
	if len(conds) == 0 {
		e.b.Require(manual)
		e.b.Require(id)
		return nil
	}
	m, err := e.and(e.withoutGenerated(conds), el)
	if err != nil {
		return err
	}
	e.b.RequireEquiv(manual, m)
	if err := e.settle(); err != nil {
		return err
	}
	if len(conds) == 1 {
		c := conds[0]
		switch {
		case c.IsTrue():
			e.b.Require(id)
			return nil
		case c.IsFalse():
			e.b.Require(e.b.Not(id))
			return nil
		}
		l, err := e.translate(c, el)
		if err != nil {
			return err
		}
		e.b.RequireEquiv(id, l)
		return e.settle()
	}
	all, err := e.and(conds, el)
	if err != nil {
		return err
	}
	e.b.RequireEquiv(id, all)
	return e.settle()
}

// containerPresence encodes an element whose one condition is the
// generated presence of its container (graph.Element.ContainerPresence)
// as element does that condition: the manual variable is the and of no
// conditions, the element's the container's presence.
func (e *encoder[F]) containerPresence(el *Element, id, manual F) error {
	m, err := e.and(nil, el)
	if err != nil {
		return err
	}
	e.b.RequireEquiv(manual, m)
	if err := e.settle(); err != nil {
		return err
	}
	e.b.RequireEquiv(id, e.b.Element(el.Container))
	return e.settle()
}

// and is T(and(conds)) (the reference's andify).
func (e *encoder[F]) and(conds []*Value, ctx *Element) (F, error) {
	return e.nary("and", conds, ctx)
}

// nary applies the n-ary operator key (and, or, xor, exo, amo) to the
// translations of items, with the checks of the reference's SAT library.
func (e *encoder[F]) nary(key string, items []*Value, ctx *Element) (F, error) {
	for _, c := range items {
		if c != nil && c.Kind == yamlsrc.KindString && !IsNameTerm(c.Str()) {
			return e.badOperands(key, items, ctx)
		}
	}
	var ls []F
	if e.stack != nil {
		// The operands go on the encoder's stack, above those of the
		// operators this one is inside of: an operand's own operators
		// push theirs above it and take them off before it returns.
		base := len(*e.stack)
		defer func() { *e.stack = (*e.stack)[:base] }()
		for _, c := range items {
			l, err := e.translate(c, ctx)
			if err != nil {
				return zero[F](), err
			}
			*e.stack = append(*e.stack, l)
		}
		ls = (*e.stack)[base:]
	} else {
		ls = make([]F, len(items))
		for i, c := range items {
			l, err := e.translate(c, ctx)
			if err != nil {
				return zero[F](), err
			}
			ls[i] = l
		}
	}
	b := e.b
	switch key {
	case "and":
		return b.And(ls...), nil
	case "or":
		return b.Or(ls...), nil
	case "xor":
		return b.Xor(ls...), nil
	case "exo":
		return b.Exo(ls...), nil
	}
	return b.Amo(ls...), nil
}

// badOperands is nary where a string operand is no valid term (§8.1): the
// reference translates every operand (a string stays as it is), so the
// errors of the others come first; its SAT library then checks a single
// operand on its own ("\"\" is not a Formula or Term") and several as a
// whole, printing the array as JavaScript joins it: each operand's
// translation, strings as they are, formulas as [object Object] ("a, is
// not an array of a Formula or Term"). at_most_one of at most one operand
// is true without a check.
func (e *encoder[F]) badOperands(key string, items []*Value, ctx *Element) (F, error) {
	for _, c := range items {
		if c != nil && c.Kind == yamlsrc.KindString {
			continue
		}
		if _, err := e.translate(c, ctx); err != nil {
			return zero[F](), err
		}
	}
	if key == "amo" && len(items) <= 1 {
		return e.b.True(), nil
	}
	if len(items) == 1 {
		return zero[F](), errf(msgStringNotTerm(items[0].Str()))
	}
	parts := make([]string, len(items))
	for i, c := range items {
		if c != nil && c.Kind == yamlsrc.KindString {
			parts[i] = c.Str()
		} else {
			parts[i] = e.display(c, ctx)
		}
	}
	return zero[F](), errf(MsgNotTerms(strings.Join(parts, ",")))
}

// display is what the reference's translation of x is as a JavaScript
// string: a term's name, $T or $F, or [object Object] for a formula. It
// translates x again into a backend that builds these strings.
func (e *encoder[F]) display(x *Value, ctx *Element) string {
	d := &encoder[string]{g: e.g, b: displayBackend{}, ev: plainEvaluator{e.ev}, exprs: e.exprs,
		named: map[*Value]string{}, ops: logicOpsFor[string](), raw: true}
	s, err := d.translate(x, ctx)
	if err != nil {
		return jsObject
	}
	return s
}

// jsObject is a formula object of the reference's SAT library as a string.
const jsObject = "[object Object]"

// displayBackend builds the values of the reference's SAT library as
// JavaScript strings (display): terms stay strings, and the operators
// return one of their operands, a constant, or a formula object.
type displayBackend struct{}

func (displayBackend) True() string               { return "$T" }
func (displayBackend) False() string              { return "$F" }
func (displayBackend) Term(name string) string    { return name }
func (displayBackend) Element(e *Element) string  { return e.ID() }
func (displayBackend) Manual(e *Element) string   { return e.ManualID() }
func (displayBackend) Implies(_, _ string) string { return jsObject }
func (displayBackend) Require(string)             {}
func (displayBackend) RequireEquiv(_, _ string)   {}
func (displayBackend) Group(Group)                {}
func (displayBackend) Not(f string) string {
	switch {
	case f == jsObject:
		return jsObject
	case strings.HasPrefix(f, "-"):
		return f[1:]
	}
	return "-" + f
}
func (displayBackend) And(fs ...string) string { return pick(fs, "$T") }
func (displayBackend) Or(fs ...string) string  { return pick(fs, "$F") }
func (displayBackend) Xor(fs ...string) string { return pick(fs, "$F") }
func (displayBackend) Exo(fs ...string) string { return pick(fs, "$F") }
func (displayBackend) Amo(fs ...string) string {
	if len(fs) <= 1 {
		return "$T"
	}
	return jsObject
}

// pick is an n-ary operator's value: none for no operand, the operand
// itself for one, else a formula.
func pick(fs []string, none string) string {
	switch len(fs) {
	case 0:
		return none
	case 1:
		return fs[0]
	}
	return jsObject
}

// plainEvaluator hides a CaseEvaluator's cases from display, which must
// not report excluded cases again.
type plainEvaluator struct{ Evaluator }

// implies encodes an element's implies list (§8.3).
func (e *encoder[F]) implies(el *Element) error {
	list := el.Raw.Get("implies")
	if list.IsNull() {
		return nil
	}
	if !list.IsList() {
		return errf(graph.MsgNotArray(list))
	}
	id := e.b.Element(el)
	for _, imp := range list.List() {
		// The reference reads implies.length and destructures
		// [target, condition] = implies.
		var items []*Value
		length := 0
		switch {
		case imp.IsList():
			items, length = imp.List(), len(imp.List())
		case imp.IsString():
			// Quirk: a string is destructured into its characters
			// (code points) but its length counts UTF-16 units.
			for _, r := range imp.Str() {
				if len(items) < 2 {
					c := yamlsrc.NewString(string(r))
					c.Line, c.Col = imp.Line, imp.Col
					items = append(items, c)
				}
				length++
				if r > 0xFFFF {
					length++
				}
			}
			if length <= 2 && e.warn != nil {
				e.warn(diag.Warning(e.pos(imp, el), diag.StageSolve, "expected an implies entry of "+el.Display()+
					" as a list [target, condition], found a string: its characters are read as target and condition, as the reference does"))
			}
		default:
			msg := "expected an implies entry of " + el.Display() + " as a list [target, condition], found " + graph.Describe(imp)
			if imp.IsNull() {
				return diag.AtRef(e.pos(imp, el), diag.StageSolve, msg, graph.MsgCannotReadNull("length"))
			}
			return diag.AtRef(e.pos(imp, el), diag.StageSolve, msg, graph.MsgNotIterable("implies"))
		}
		if length > 2 {
			return diag.At(e.pos(imp, el), diag.StageSolve, msgImpliesTooLong(el))
		}
		var target, cond *Value
		if len(items) > 0 {
			target = items[0]
		}
		if len(items) > 1 {
			cond = items[1]
		}
		if target.IsNull() {
			return diag.At(e.pos(imp, el), diag.StageSolve, msgImpliesNoTarget(el))
		}
		left := id
		if !cond.IsNull() {
			l, err := e.translate(yamlsrc.MapOf("and", yamlsrc.NewList(yamlsrc.NewString(el.ID()), cond)), el)
			if err != nil {
				return err
			}
			left = l
		}
		right, err := e.translate(target, el)
		if err != nil {
			return err
		}
		e.b.Require(e.b.Implies(left, right))
		if err := e.settle(); err != nil {
			return err
		}
	}
	return nil
}

// Term is a string in logic position (§8.1) after parsing: a variable name
// or a constant, possibly negated.
type Term struct {
	Name     string
	Negated  bool
	Constant bool // Name is "$T" or "$F"
}

// ParseTerm parses a string in logic position with the reference's SAT
// library's rules: leading dashes negate, digit-only names are invalid, and
// names starting with $ are reserved ("$T" and "$F" are the constants).
func ParseTerm(s string) (Term, error) {
	if !IsNameTerm(s) {
		return Term{}, errf(msgStringNotTerm(s))
	}
	name := strings.TrimLeft(s, "-")
	t := Term{Name: name, Negated: (len(s)-len(name))%2 == 1}
	if strings.HasPrefix(name, "$") {
		if name != "$T" && name != "$F" {
			return Term{}, errf(msgGeneratedName)
		}
		t.Constant = true
	}
	return t, nil
}

// IsNameTerm is the NameTerm test of the reference's SAT library: not
// only dashes followed by digits (^-*[0-9]*$). solver/logic spells the same
// test (numLike) for its port of that library; encode cannot import it. Every string in logic
// position goes through it: a loop over the bytes, where strings.Trim
// with a cutset built its byte set anew for each (1% of a batch of small
// runs).
func IsNameTerm(s string) bool {
	i := 0
	for i < len(s) && s[i] == '-' {
		i++
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return true
		}
	}
	return false
}

// term resolves a string in logic position.
func (e *encoder[F]) term(s string) (F, error) {
	if e.raw {
		if !IsNameTerm(s) {
			return zero[F](), errf(msgStringNotTerm(s))
		}
		return e.b.Term(s), nil
	}
	t, err := ParseTerm(s)
	if err != nil {
		if !IsNameTerm(s) {
			return zero[F](), err
		}
		// A name with a leading $: refused when required (settle).
		if e.dollar == nil {
			e.dollar = err
		}
		t = Term{Name: strings.TrimLeft(s, "-"), Negated: (len(s)-len(strings.TrimLeft(s, "-")))%2 == 1}
	}
	var l F
	switch {
	case t.Name == "$T":
		l = e.b.True()
	case t.Name == "$F":
		l = e.b.False()
	default:
		l = e.b.Term(t.Name)
	}
	if t.Negated {
		return e.b.Not(l), nil
	}
	return l, nil
}

// logicKeys is the dispatch order of §8.4/§8.5.
var logicKeys = expr.LogicOperators()

var logicRank = yamlsrc.NewRanks(logicKeys...)

// translate is T(x) of §8.4 with context element ctx.
func (e *encoder[F]) translate(x *Value, ctx *Element) (F, error) {
	if x == nil {
		return zero[F](), diag.AtRef(diag.Pos{}, diag.StageSolve, "expected a condition, found nothing",
			graph.MsgCannotReadUndefined("_cached_element"))
	}
	switch x.Kind {
	case yamlsrc.KindString:
		// Generated constraints name elements by their id values: the
		// element's variable is the one named by its id (or manual id),
		// which begins with a kind and so parses as itself, and taking it
		// straight spares the lookup and, in most runs, the index of
		// every element's name that the first lookup builds.
		if el, manual, ok := e.g.ElementOfID(x); ok {
			if manual {
				return e.b.Manual(el), nil
			}
			return e.b.Element(el), nil
		}
		return e.term(x.Str())
	case yamlsrc.KindBool:
		if x.Bool {
			return e.b.True(), nil
		}
		return e.b.False(), nil
	case yamlsrc.KindNull:
		return zero[F](), diag.AtRef(e.valuePos(x), diag.StageSolve, "expected a condition, found null",
			graph.MsgCannotReadNull("_cached_element"))
	case yamlsrc.KindMap:
		// The first recognised key in dispatch order wins.
		if best, arg := x.Map().FirstRanked(logicRank); arg != nil {
			return e.operator(logicKeys[best], best, x, arg, ctx)
		}
	}
	if ce, ok := e.ev.(CaseEvaluator); ok {
		l, err := e.cases(ce, x)
		return l, e.at(err, x)
	}
	v, err := e.ev.Eval(x)
	l, err := e.constant(v, err)
	return l, e.at(err, x)
}

// at gives an error without a position the position of the value
// expression x that produced it, when x is a map or a list written in the
// template: conditions that enrichment copies from type-specific condition
// files are rebuilt without positions, except for their scalars, whose
// lines belong to another file; those errors keep the position of the
// element, which Translate gives them.
func (e *encoder[F]) at(err error, x *Value) error {
	if err != nil && (x.IsMap() || x.IsList()) && x.Line > 0 {
		return withPos(err, diag.Pos{File: e.g.File, Line: int(x.Line), Col: int(x.Col)})
	}
	return err
}

// valuePos is the position of v in the template, unknown for a value
// without one or a scalar, whose line may belong to a type-specific
// conditions file (see at); the caller then supplies the element's.
func (e *encoder[F]) valuePos(v *Value) diag.Pos {
	if v == nil || v.Line == 0 || !(v.IsMap() || v.IsList()) {
		return diag.Pos{}
	}
	return diag.Pos{File: e.g.File, Line: int(v.Line), Col: int(v.Col)}
}

// pos is the position of v, or of el where v has none.
func (e *encoder[F]) pos(v *Value, el *Element) diag.Pos {
	if v == nil || v.Line == 0 {
		return el.Pos()
	}
	return diag.Pos{File: e.g.File, Line: int(v.Line), Col: int(v.Col)}
}

// constant is the literal of an evaluated value expression in logic
// position (§8.6): it must be a boolean.
func (e *encoder[F]) constant(v *Value, err error) (F, error) {
	if err != nil {
		return zero[F](), err
	}
	if v == nil || v.Kind != yamlsrc.KindBool {
		return zero[F](), errf(graph.MsgNotBoolean(v))
	}
	if v.Bool {
		return e.b.True(), nil
	}
	return e.b.False(), nil
}

// cases translates a value expression in logic position over open inputs
// (spaces.md §4): OR over the cases where it is true of AND(their one-hot
// literals). A case that fails or is not a boolean is a combination the
// resolver would reject: it is excluded from the formula.
func (e *encoder[F]) cases(ce CaseEvaluator, x *Value) (F, error) {
	cs, err := ce.Cases(x)
	if err != nil {
		return zero[F](), err
	}
	if len(cs) == 1 && len(cs[0].Assumed) == 0 {
		return e.constant(cs[0].Value, cs[0].Err)
	}
	var trues []F
	for _, c := range cs {
		lits := make([]F, len(c.Assumed))
		for i, a := range c.Assumed {
			lits[i] = e.b.Term(OneHotTerm(a.Input, a.Index))
		}
		conj := e.b.And(lits...)
		if _, err := e.constant(c.Value, c.Err); err != nil {
			ce.Excluded(x, c, err)
			e.b.Require(e.b.Not(conj))
			continue
		}
		if c.Value.Bool {
			trues = append(trues, conj)
		}
	}
	return e.b.Or(trues...), nil
}

func (e *encoder[F]) ids(es []*Element) []F {
	out := make([]F, len(es))
	for i, el := range es {
		out[i] = e.b.Element(el)
	}
	return out
}
