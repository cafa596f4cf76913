package expr

import (
	"math"
	"time"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// Env is what value expressions can see.
type Env struct {
	// Expressions is topology_template.variability.expressions (a map) or nil.
	Expressions *yamlsrc.Value
	// Inputs is topology_template.variability.inputs, the variability input
	// declarations (a map) or nil.
	Inputs *yamlsrc.Value
	// Assigned is the assignment map (presets and inputs merged). Lookups
	// that fall back to default or default_expression remember the value
	// here (variability.md §6). It must be a map.
	Assigned *yamlsrc.Value
	// Now is "now" for weekday and for missing date operands. The zero time
	// means time.Now() at New.
	Now time.Time
	// Location is the local time zone of the reference process: zone-less
	// date strings, Date strings and weekday use it. Nil means time.Local.
	Location *time.Location
	// File names the document in diagnostic positions; optional.
	File string
	// Open, when set, makes inputs open (spaces.md §4): it reports whether
	// a declared input is open and, if so, its value in the current partial
	// assignment of the open inputs (nil when the assignment leaves it
	// unknown). Reading an open input that is unknown fails with an
	// *OpenInputError, so that the caller can split on its values. Results
	// that depend on open inputs are neither cached nor remembered.
	Open func(name string) (value *yamlsrc.Value, open bool)
}

// OpenInputError is returned by evaluation when it reads an open input
// (Env.Open) that the current partial assignment leaves unknown.
type OpenInputError struct {
	Name string
}

func (e *OpenInputError) Error() string {
	return "open variability input \"" + e.Name + "\" has no value in this case"
}

// Evaluator evaluates value expressions in one resolver run. It holds the
// per-map-object result cache of the reference (variability.md §9.1), so one
// Evaluator must be used for the whole run and not concurrently.
type Evaluator struct {
	env     Env
	loc     *time.Location
	now     float64 // epoch milliseconds
	weekday string
	// cache is the reference's _cached_result property: a key is present
	// once a map has been evaluated, with a nil value for an undefined result
	// (which is evaluated again next time).
	cache resultCache
	depth int
	// readsOpen is set while evaluating (with Env.Open) once the current
	// map has read an open input: its result is then not cached.
	readsOpen bool
}

// New returns an evaluator for env. The weekday is fixed here, as the
// reference computes it once per run.
func New(env Env) *Evaluator {
	loc := env.Location
	if loc == nil {
		loc = time.Local
	}
	now := env.Now
	if now.IsZero() {
		now = time.Now()
	}
	if env.Assigned == nil {
		env.Assigned = yamlsrc.NewMap()
	}
	return &Evaluator{
		env:     env,
		loc:     loc,
		now:     float64(now.UnixMilli()),
		weekday: weekdayNames[now.In(loc).Weekday()],
		cache:   newResultCache(cacheHint(env.Expressions)),
	}
}

// cacheHint sizes the result cache for every named expression to be
// evaluated once, with one nested map each (a comparison of an input, as
// on the ring): grown from empty to the ring's 40,000 results at seed
// 10,000, the cache allocated two and a half times its final size.
func cacheHint(exprs *yamlsrc.Value) int {
	if !exprs.IsMap() {
		return 0
	}
	return min(2*exprs.Map().Len(), 1<<20)
}

var weekdayNames = [...]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// cachedResultKey is the property the reference stores results under; a
// user-written key of that name short-cuts evaluation like a cached result.
const cachedResultKey = "_cached_result"

// maxDepth bounds nested evaluation. Documents nest at most 100 levels in the
// reference (js-yaml's maxDepth), so only cycles through aliases get here,
// where the reference overflows its stack.
const maxDepth = 10000

// Eval evaluates a value expression (variability.md §9). A nil result means
// undefined. Errors are *diag.Diagnostic values with the reference's
// verbatim message.
func (e *Evaluator) Eval(x *yamlsrc.Value) (*yamlsrc.Value, error) {
	return e.eval(x)
}

// Cached reports the result cached on map m by an earlier evaluation, as the
// reference's _cached_result property would show it.
func (e *Evaluator) Cached(m *yamlsrc.Value) (result *yamlsrc.Value, ok bool) {
	r, ok := e.cache.get(m)
	return r, ok && r != nil
}

// JSON renders v like the reference's JSON.stringify(v) at this point of the
// run: maps that have been evaluated carry their _cached_result property.
func (e *Evaluator) JSON(v *yamlsrc.Value) (string, error) {
	return marshal(v, "", &e.cache)
}

// Pretty is JSON with 4-space indentation (JSON.stringify(v, null, 4)).
func (e *Evaluator) Pretty(v *yamlsrc.Value) (string, error) {
	return marshal(v, "    ", &e.cache)
}

// Location returns the evaluator's local time zone.
func (e *Evaluator) Location() *time.Location { return e.loc }

// boolValue returns the boolean b. The two are shared: no stage changes a
// boolean in place, and a large template's conditions evaluate tens of
// thousands of comparisons.
func boolValue(b bool) *yamlsrc.Value {
	if b {
		return valueTrue
	}
	return valueFalse
}

var valueTrue, valueFalse = yamlsrc.NewBool(true), yamlsrc.NewBool(false)

// eval is the reference's evaluateValueExpression (variability.md §9.1):
// map results are cached per map object, undefined results are not.
//
// Quirk: null operand (variability.md §17; not listed there yet). The reference reads the cache
// property of every object first, and typeof null is "object", so null fails
// with a TypeError rather than "Received undefined condition".
//
// Quirk: user-written _cached_result (variability.md §17; not listed there
// yet). A map that already
// has a non-null _cached_result key evaluates to it.
func (e *Evaluator) eval(x *yamlsrc.Value) (*yamlsrc.Value, error) {
	if x != nil && x.Kind == yamlsrc.KindNull {
		return nil, typeError("Cannot read properties of null (reading '" + cachedResultKey + "')")
	}
	if x == nil || x.Kind != yamlsrc.KindMap {
		return e.run(x)
	}
	if r, _ := e.cache.get(x); r != nil {
		return r, nil
	}
	if r := x.Get(cachedResultKey); !r.IsNull() {
		return r, nil
	}
	if x == fnValue {
		// A function from Object.prototype: its length property selects the
		// length operator, whose operand (1)[0] is undefined.
		return nil, e.fail(nil, "Received undefined condition")
	}
	if e.depth >= maxDepth {
		return nil, rangeError("Maximum call stack size exceeded")
	}
	if e.env.Open != nil {
		return e.evalOpen(x)
	}
	e.depth++
	r, err := e.run(x)
	e.depth--
	if err != nil {
		return nil, err
	}
	e.cache.set(x, r)
	return r, nil
}

// evalOpen is eval's map case with open inputs: a result is cached only
// when its evaluation read no open input, so that it holds for every
// assignment of them.
func (e *Evaluator) evalOpen(x *yamlsrc.Value) (*yamlsrc.Value, error) {
	outer := e.readsOpen
	e.readsOpen = false
	e.depth++
	r, err := e.run(x)
	e.depth--
	reads := e.readsOpen
	e.readsOpen = outer || reads
	if err != nil {
		return nil, err
	}
	if !reads {
		e.cache.set(x, r)
	}
	return r, nil
}

// run is evaluateValueExpressionRunner: primitives and lists are their own
// value (lists are not evaluated element-wise); maps dispatch on the first
// defined operator key; dates and unknown maps fail with their pretty JSON.
func (e *Evaluator) run(x *yamlsrc.Value) (*yamlsrc.Value, error) {
	if x == nil {
		return nil, e.fail(nil, "Received undefined condition")
	}
	switch x.Kind {
	case yamlsrc.KindString, yamlsrc.KindBool, yamlsrc.KindNumber, yamlsrc.KindList:
		return x, nil
	case yamlsrc.KindMap:
		// The first operator in dispatch order with a value wins.
		if best, arg := x.Map().FirstRanked(operatorRank); arg != nil {
			r, err := operators[best].fn(e, x, arg)
			if err != nil {
				e.locate(err, x)
			}
			return r, err
		}
	}
	p, err := e.Pretty(x)
	if err != nil {
		return nil, err
	}
	return nil, e.fail(x, `Unknown value expression "`+p+`"`)
}

type operator struct {
	name string
	fn   func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error)
}

// operators in the reference's dispatch order (variability.md §9.1).
var operators []operator

func init() {
	operators = []operator{
		{"add", (*Evaluator).opAdd},
		{"sub", (*Evaluator).opSub},
		{"mul", (*Evaluator).opMul},
		{"div", (*Evaluator).opDiv},
		{"mod", (*Evaluator).opMod},
		{"variability_input", (*Evaluator).opVariabilityInput},
		{"value_expression", (*Evaluator).opValueExpression},
		{"concat", (*Evaluator).opConcat},
		{"join", (*Evaluator).opJoin},
		{"token", (*Evaluator).opToken},
		{"equal", (*Evaluator).opEqual},
		{"greater", relational(func(c int) bool { return c > 0 })},
		{"greater_or_equal", relational(func(c int) bool { return c >= 0 })},
		{"less", relational(func(c int) bool { return c < 0 })},
		{"less_or_equal", relational(func(c int) bool { return c <= 0 })},
		{"in_range", (*Evaluator).opInRange},
		{"valid_values", (*Evaluator).opValidValues},
		{"length", lengthOp(func(n, m float64) bool { return n == m })},
		{"min_length", lengthOp(func(n, m float64) bool { return n >= m })},
		{"max_length", lengthOp(func(n, m float64) bool { return n <= m })},
		{"sum", statistic(rounded(statsSum))},
		{"count", statistic(statsCount)},
		{"min", (*Evaluator).opMin},
		{"max", (*Evaluator).opMax},
		{"median", statistic(statsMedian)},
		{"mean", statistic(rounded(statsMean))},
		{"variance", statistic(rounded(statsVariance))},
		{"standard_deviation", statistic(rounded(statsStandardDeviation))},
		{"linear_regression", regression(linearRegression)},
		{"polynomial_regression", (*Evaluator).opPolynomialRegression},
		{"logarithmic_regression", regression(logarithmicRegression)},
		{"exponential_regression", regression(exponentialRegression)},
		{"weekday", (*Evaluator).opWeekday},
		{"same", dateOp(func(a, b float64) bool { return a == b })},
		{"before", dateOp(func(a, b float64) bool { return a < b })},
		{"before_or_same", dateOp(func(a, b float64) bool { return a <= b })},
		{"after", dateOp(func(a, b float64) bool { return a > b })},
		{"after_or_same", dateOp(func(a, b float64) bool { return a >= b })},
		{"within", (*Evaluator).opWithin},
	}
	names := make([]string, len(operators))
	for i, op := range operators {
		names[i] = op.name
	}
	operatorRank = yamlsrc.NewRanks(names...)
}

// operatorRank is the position of each operator in operators.
var operatorRank *yamlsrc.Ranks

// Operators reports the value-expression operator names in dispatch order.
func Operators() []string {
	names := make([]string, len(operators))
	for i, op := range operators {
		names[i] = op.name
	}
	return names
}

// logicOperators are the keys of logic expressions in the resolver's
// dispatch order (variability.md §8.4, §8.5).
var logicOperators = []string{
	"logic_expression", "and", "or", "not", "xor", "exo", "implies", "amo",
	"node_presence", "host_presence", "has_source", "has_incoming_relation", "has_incoming_relation_naive",
	"has_outgoing_relation", "has_outgoing_relation_naive", "has_artifact", "has_artifact_naive",
	"relation_presence", "source_presence", "target_presence", "container_presence", "policy_presence",
	"has_present_target", "group_presence", "has_present_member", "artifact_presence", "is_managed",
	"node_property_presence", "relation_property_presence", "group_property_presence", "policy_property_presence",
	"artifact_property_presence", "input_presence", "is_consumed", "output_presence", "is_produced",
	"import_presence", "technology_presence", "node_type_presence", "relation_type_presence",
	"group_type_presence", "policy_type_presence", "artifact_type_presence",
}

// LogicOperators reports the logic-expression operator names in dispatch
// order: encode translates them, validate checks them.
func LogicOperators() []string { return append([]string(nil), logicOperators...) }

// ---------------------------------------------------------------------------
// errors

// fail returns the reference's error message as a diagnostic, positioned at
// the expression map when it has a position.
func (e *Evaluator) fail(at *yamlsrc.Value, msg string) error {
	d := diag.New(diag.StageSolve, msg)
	if at != nil && at.Line > 0 {
		d.Pos = diag.Pos{File: e.env.File, Line: int(at.Line), Col: int(at.Col)}
	}
	return d
}

// locate gives an error without a position (the JavaScript runtime errors)
// the position of the innermost expression map that failed.
func (e *Evaluator) locate(err error, at *yamlsrc.Value) {
	if d, ok := diag.As(err); ok && !d.Pos.Known() && at.Line > 0 {
		d.Pos = diag.Pos{File: e.env.File, Line: int(at.Line), Col: int(at.Col)}
	}
}

// typeError and rangeError are the JavaScript runtime errors the reference
// throws on malformed operands; only the message is kept.
func typeError(msg string) error  { return diag.New(diag.StageSolve, msg) }
func rangeError(msg string) error { return diag.New(diag.StageSolve, msg) }

// elementError builds `Element "<json>" is <what>`.
func (e *Evaluator) elementError(at, v *yamlsrc.Value, what string) error {
	j, err := e.JSON(v)
	if err != nil {
		return err
	}
	return e.fail(at, `Element "`+j+`" is `+what)
}

func (e *Evaluator) number(at, v *yamlsrc.Value) (float64, error) {
	if v == nil || v.Kind != yamlsrc.KindNumber {
		return 0, e.elementError(at, v, "not a number")
	}
	return v.Num(), nil
}

func (e *Evaluator) str(at, v *yamlsrc.Value) (string, error) {
	if v == nil || v.Kind != yamlsrc.KindString {
		return "", e.elementError(at, v, "not a string")
	}
	return v.Str(), nil
}

func (e *Evaluator) array(at, v *yamlsrc.Value) error {
	if !v.IsList() {
		return e.elementError(at, v, "not an array")
	}
	return nil
}

// numbers is assert.isNumbers: an array of numbers.
func (e *Evaluator) numbers(at, v *yamlsrc.Value) ([]float64, error) {
	if err := e.array(at, v); err != nil {
		return nil, err
	}
	out := make([]float64, len(v.List()))
	for i, x := range v.List() {
		n, err := e.number(at, x)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// JavaScript property access on operands

// member is base[key] on an operand: list and string indexes and length,
// own map keys. Reading from null or undefined is a TypeError.
func member(base *yamlsrc.Value, key string) (*yamlsrc.Value, error) {
	if base == nil {
		return nil, typeError("Cannot read properties of undefined (reading '" + key + "')")
	}
	switch base.Kind {
	case yamlsrc.KindNull:
		return nil, typeError("Cannot read properties of null (reading '" + key + "')")
	case yamlsrc.KindList:
		if key == "length" {
			return yamlsrc.NewNumber(float64(len(base.List()))), nil
		}
		if i, ok := arrayIndex(key); ok && i < len(base.List()) {
			return base.List()[i], nil
		}
	case yamlsrc.KindString:
		if key == "length" {
			return yamlsrc.NewNumber(float64(js.UTF16Len(base.Str()))), nil
		}
		if i, ok := arrayIndex(key); ok {
			if c, ok := js.CharAt(base.Str(), i); ok {
				return yamlsrc.NewString(c), nil
			}
		}
	case yamlsrc.KindMap:
		return base.Map().Get(key), nil
	}
	return nil, nil
}

// index is member for operand positions of an operator argument that the
// reference has already checked to be defined.
func index(base *yamlsrc.Value, i int) *yamlsrc.Value {
	v, _ := member(base, itoa(i))
	return v
}

func itoa(i int) string {
	if i >= 0 && i < 10 {
		return string(rune('0' + i))
	}
	return js.FormatNumber(float64(i))
}

// notAFunction is the TypeError of calling an array method on a non-array.
func notAFunction(expr string) error {
	return typeError(expr + " is not a function")
}

// Quirk: inherited names (variability.md §17; not listed there yet). The reference looks inputs,
// assignments and named expressions up as plain JavaScript objects, so names
// like "constructor" or "toString" find Object.prototype's methods (which
// then fail evaluation with "Received undefined condition", through the
// length operator matching Function.length) and "__proto__" finds
// Object.prototype itself (which fails as the unknown expression {}).
//
// The two stand-ins below are never mutated and never returned as results.
var (
	// fnValue stands for an inherited method (a function).
	fnValue = yamlsrc.NewMap()
	// protoValue stands for __proto__, i.e. Object.prototype, which JSON
	// renders as {}.
	protoValue = yamlsrc.NewMap()
)

var objectProtoMethods = map[string]bool{
	"constructor": true, "__defineGetter__": true, "__defineSetter__": true, "hasOwnProperty": true,
	"__lookupGetter__": true, "__lookupSetter__": true, "isPrototypeOf": true,
	"propertyIsEnumerable": true, "toString": true, "valueOf": true, "toLocaleString": true,
}

// objGet is obj[name] for an object the reference built itself (the
// declarations, expressions and assignment maps), including inherited
// Object.prototype members.
func objGet(obj *yamlsrc.Value, name string) *yamlsrc.Value {
	if obj.IsMap() {
		if v, ok := obj.Map().Lookup(name); ok {
			return v
		}
		if objectProtoMethods[name] {
			return fnValue
		}
		if name == "__proto__" {
			return protoValue
		}
		return nil
	}
	v, _ := member(obj, name)
	return v
}

// orEmpty is `x || {}`.
func orEmpty(x *yamlsrc.Value) *yamlsrc.Value {
	if !x.Truthy() {
		return yamlsrc.NewMap()
	}
	return x
}

// ---------------------------------------------------------------------------
// arithmetic

// evalNumber evaluates el and requires a number.
func (e *Evaluator) evalNumber(x, el *yamlsrc.Value) (float64, error) {
	v, err := e.eval(el)
	if err != nil {
		return 0, err
	}
	return e.number(x, v)
}

// evalString evaluates el and requires a string.
func (e *Evaluator) evalString(x, el *yamlsrc.Value) (string, error) {
	v, err := e.eval(el)
	if err != nil {
		return "", err
	}
	return e.str(x, v)
}

// reduce folds f over the evaluated operands, starting from acc.
func (e *Evaluator) reduce(x *yamlsrc.Value, operands []*yamlsrc.Value, acc float64, f func(a, b float64) float64) (*yamlsrc.Value, error) {
	for _, el := range operands {
		n, err := e.evalNumber(x, el)
		if err != nil {
			return nil, err
		}
		acc = f(acc, n)
	}
	return yamlsrc.NewNumber(acc), nil
}

func (e *Evaluator) opAdd(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	if !arg.IsList() {
		return nil, notAFunction("expression.add.reduce")
	}
	return e.reduce(x, arg.List(), 0, func(a, b float64) float64 { return a + b })
}

func (e *Evaluator) opMul(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	if !arg.IsList() {
		return nil, notAFunction("expression.mul.reduce")
	}
	return e.reduce(x, arg.List(), 1, func(a, b float64) float64 { return a * b })
}

// fold is sub and div: the first operand, then the others from .slice(1).
func (e *Evaluator) fold(name string, x, arg *yamlsrc.Value, f func(a, b float64) float64) (*yamlsrc.Value, error) {
	acc, err := e.evalNumber(x, index(arg, 0))
	if err != nil {
		return nil, err
	}
	if !arg.IsList() {
		if arg.Kind == yamlsrc.KindString {
			return nil, notAFunction("expression." + name + ".slice(...).reduce")
		}
		return nil, notAFunction("expression." + name + ".slice")
	}
	return e.reduce(x, arg.List()[1:], acc, f)
}

func (e *Evaluator) opSub(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return e.fold("sub", x, arg, func(a, b float64) float64 { return a - b })
}

func (e *Evaluator) opDiv(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return e.fold("div", x, arg, func(a, b float64) float64 { return a / b })
}

func (e *Evaluator) opMod(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	var n [2]float64
	for i := range n {
		var err error
		if n[i], err = e.evalNumber(x, index(arg, i)); err != nil {
			return nil, err
		}
	}
	return yamlsrc.NewNumber(math.Mod(n[0], n[1])), nil
}

// ---------------------------------------------------------------------------
// lookups

// Spec variability.md §9.2 (variability_input, value_expression) and §6
// (value lookup).
func (e *Evaluator) opVariabilityInput(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	name, err := e.str(x, arg)
	if err != nil {
		return nil, err
	}
	v, err := e.input(x, name)
	if err != nil {
		return nil, err
	}
	return e.eval(v)
}

func (e *Evaluator) opValueExpression(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	name, err := e.str(x, arg)
	if err != nil {
		return nil, err
	}
	found := objGet(orEmpty(e.env.Expressions), name)
	if found.IsNull() {
		return nil, e.fail(x, `Did not find value expression "`+name+`"`)
	}
	return e.eval(found)
}

// InputValue is the variability-input value lookup of variability.md §6:
// the input must be declared; its value is the assigned value, else its
// default, else its default_expression evaluated (both remembered in
// Env.Assigned); the value found is then evaluated as a value expression.
func (e *Evaluator) InputValue(name string) (*yamlsrc.Value, error) {
	v, err := e.input(nil, name)
	if err != nil {
		return nil, err
	}
	return e.eval(v)
}

// input is the reference's getInput (without the final evaluation).
func (e *Evaluator) input(at *yamlsrc.Value, name string) (*yamlsrc.Value, error) {
	definition := objGet(orEmpty(e.env.Inputs), name)
	if definition.IsNull() {
		return nil, e.fail(at, `Variability input "`+name+`" is not defined`)
	}
	if e.env.Open != nil {
		if v, open := e.env.Open(name); open {
			e.readsOpen = true
			if v == nil {
				return nil, &OpenInputError{Name: name}
			}
			return v, nil
		}
	}
	if v := objGet(e.env.Assigned, name); !v.IsNull() {
		return v, nil
	}
	if d := definitionMember(definition, "default"); !d.IsNull() {
		e.remember(name, d)
		return d, nil
	}
	de := definitionMember(definition, "default_expression")
	if de.IsNull() {
		return nil, e.fail(at, `Variability input "`+name+`" has no value nor default (expression) assigned`)
	}
	outer := e.readsOpen
	e.readsOpen = false
	v, err := e.eval(de)
	reads := e.readsOpen
	e.readsOpen = outer || reads
	if err != nil {
		return nil, err
	}
	if v.IsNull() {
		return nil, e.fail(at, `Did not find variability input "`+name+`"`)
	}
	if !reads {
		// A value computed from open inputs holds in this case only.
		e.remember(name, v)
	}
	return v, nil
}

func definitionMember(definition *yamlsrc.Value, key string) *yamlsrc.Value {
	if definition == fnValue || definition == protoValue {
		return nil
	}
	v, _ := member(definition, key)
	return v
}

func (e *Evaluator) remember(name string, v *yamlsrc.Value) {
	if e.env.Assigned.IsMap() {
		e.env.Assigned.Map().Set(name, v)
	}
}

// ---------------------------------------------------------------------------
// strings

// Spec variability.md §9.2 and §9.3 (concat, join, token).
func (e *Evaluator) opConcat(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	if !arg.IsList() {
		return nil, notAFunction("expression.concat.map")
	}
	items, err := e.evalAll(arg.List())
	if err != nil {
		return nil, err
	}
	s, err := join(items, "", e.loc)
	if err != nil {
		return nil, err
	}
	return yamlsrc.NewString(s), nil
}

func (e *Evaluator) opJoin(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	list, err := member(arg, "0")
	if err != nil {
		return nil, err
	}
	if list == nil {
		return nil, typeError("Cannot read properties of undefined (reading 'map')")
	}
	if list.Kind == yamlsrc.KindNull {
		return nil, typeError("Cannot read properties of null (reading 'map')")
	}
	if !list.IsList() {
		return nil, notAFunction("expression.join[0].map")
	}
	items, err := e.evalAll(list.List())
	if err != nil {
		return nil, err
	}
	// Quirk: the join delimiter is not evaluated (variability.md §17).
	sep := ","
	if d := index(arg, 1); d != nil {
		if sep, err = toString(d, e.loc); err != nil {
			return nil, err
		}
	}
	s, err := join(items, sep, e.loc)
	if err != nil {
		return nil, err
	}
	return yamlsrc.NewString(s), nil
}

func (e *Evaluator) evalAll(list []*yamlsrc.Value) ([]*yamlsrc.Value, error) {
	out := make([]*yamlsrc.Value, len(list))
	for i, el := range list {
		v, err := e.eval(el)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (e *Evaluator) opToken(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	s, err := e.evalString(x, index(arg, 0))
	if err != nil {
		return nil, err
	}
	// Quirk: the token separator and index are not evaluated
	// (variability.md §17); the index is a property key, so "1", [1] and
	// "length" work too.
	sep, i := index(arg, 1), index(arg, 2)
	pieces := []string{s}
	if sep != nil {
		str, err := toString(sep, e.loc)
		if err != nil {
			return nil, err
		}
		pieces = js.Split(s, str)
	}
	key, err := toString(i, e.loc) // ToPropertyKey
	if err != nil {
		return nil, err
	}
	if key == "length" {
		return yamlsrc.NewNumber(float64(len(pieces))), nil
	}
	if n, ok := arrayIndex(key); ok && n < len(pieces) {
		return yamlsrc.NewString(pieces[n]), nil
	}
	return nil, nil
}

// ---------------------------------------------------------------------------
// comparisons

// opEqual is JavaScript's === against the first operand, short-circuiting
// like Array.prototype.every (variability.md §9.2).
func (e *Evaluator) opEqual(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	first, err := e.eval(index(arg, 0))
	if err != nil {
		return nil, err
	}
	if !arg.IsList() {
		return nil, notAFunction("expression.equal.every")
	}
	for _, el := range arg.List() {
		v, err := e.eval(el)
		if err != nil {
			return nil, err
		}
		if !StrictEqual(v, first) {
			return boolValue(false), nil
		}
	}
	return boolValue(true), nil
}

func relational(holds func(c int) bool) func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
		a, err := e.eval(index(arg, 0))
		if err != nil {
			return nil, err
		}
		b, err := e.eval(index(arg, 1))
		if err != nil {
			return nil, err
		}
		c, ok, err := Compare(a, b, e.loc)
		if err != nil {
			return nil, err
		}
		return boolValue(ok && holds(c)), nil
	}
}

// opInRange is lower <= x && x <= upper.
//
// Quirk: the bounds are not evaluated (variability.md §17).
func (e *Evaluator) opInRange(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	el, err := e.eval(index(arg, 0))
	if err != nil {
		return nil, err
	}
	bounds := index(arg, 1)
	lower, err := member(bounds, "0")
	if err != nil {
		return nil, err
	}
	upper, _ := member(bounds, "1")
	c, ok, err := Compare(lower, el, e.loc)
	if err != nil {
		return nil, err
	}
	if !ok || c > 0 {
		return boolValue(false), nil
	}
	c, ok, err = Compare(el, upper, e.loc)
	if err != nil {
		return nil, err
	}
	return boolValue(ok && c <= 0), nil
}

// opValidValues evaluates every candidate, then tests membership with
// SameValueZero (Array.prototype.includes).
func (e *Evaluator) opValidValues(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	el, err := e.eval(index(arg, 0))
	if err != nil {
		return nil, err
	}
	list, err := member(arg, "1")
	if err != nil {
		return nil, err
	}
	switch {
	case list == nil:
		return nil, typeError("Cannot read properties of undefined (reading 'map')")
	case list.Kind == yamlsrc.KindNull:
		return nil, typeError("Cannot read properties of null (reading 'map')")
	case !list.IsList():
		return nil, notAFunction("expression.valid_values[1].map")
	}
	valid, err := e.evalAll(list.List())
	if err != nil {
		return nil, err
	}
	for _, v := range valid {
		if SameValueZero(v, el) {
			return boolValue(true), nil
		}
	}
	return boolValue(false), nil
}

func lengthOp(holds func(n, m float64) bool) func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
		s, err := e.evalString(x, index(arg, 0))
		if err != nil {
			return nil, err
		}
		n, err := e.evalNumber(x, index(arg, 1))
		if err != nil {
			return nil, err
		}
		return boolValue(holds(float64(js.UTF16Len(s)), n)), nil
	}
}

func (e *Evaluator) opWeekday(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return yamlsrc.NewString(e.weekday), nil
}
