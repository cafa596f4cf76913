package validate

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Constraint clauses (TOSCA 1.3 §3.6.3): read while decoding property,
// schema, input and data type definitions (syntax: the operator is one of
// TOSCA's, its argument has the operator's shape), and checked against the
// literal values that rendering type-checks (render.go, checkValue).

// constraintOps are the operators of TOSCA 1.3 §3.6.3.
var constraintOps = []string{"equal", "greater_than", "greater_or_equal", "less_than", "less_or_equal",
	"in_range", "valid_values", "length", "min_length", "max_length", "pattern", "schema"}

// constraintAliases are operator names of other languages (TOSCA 2.0's
// $-functions aside) that users write for TOSCA's, for the "did you mean"
// hint where the spelling alone suggests nothing.
var constraintAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"between": "in_range", "range": "in_range", "within": "in_range",
		"in": "valid_values", "enum": "valid_values", "one_of": "valid_values", "allowed_values": "valid_values",
		"eq": "equal", "equals": "equal",
		"gt": "greater_than", "ge": "greater_or_equal", "gte": "greater_or_equal", "min": "greater_or_equal",
		"lt": "less_than", "le": "less_or_equal", "lte": "less_or_equal", "max": "less_or_equal",
		"regex": "pattern", "regexp": "pattern", "match": "pattern", "matches": "pattern",
		"len": "length", "minlength": "min_length", "maxlength": "max_length",
	}
})

// constraint is one constraint clause.
type constraint struct {
	op  string
	arg *yamlsrc.Value
	re  *regexp.Regexp // pattern, when it compiles
}

// constraints reads the constraint clauses of a definition: a list of
// single-entry maps {operator: argument}. The kind of the list itself is
// checked by the grammar.
func (v *validator) constraints(u *unit, x *yamlsrc.Value, what subject) []constraint {
	if !x.IsList() {
		return nil
	}
	var out []constraint
	for _, e := range x.List() {
		if !e.IsMap() || e.Map().Len() != 1 {
			v.add(u.at(e), "kind", "expected a constraint clause (a map with one operator) in the constraints of %s, found %s", what.text(), entryKind(e))
			continue
		}
		op, arg := e.Map().Key(0), e.Map().Val(0)
		if !knownOp(op) {
			v.add(u.keyAt(e, 0), "unknown-operator", "unknown constraint operator %q in the constraints of %s%s", op, what.text(), v.suggestOp(op))
			continue
		}
		c := constraint{op: op, arg: arg}
		if !v.constraintArg(u, &c, what) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func knownOp(op string) bool {
	return slices.Contains(constraintOps, op)
}

func (v *validator) suggestOp(op string) string {
	name := strings.TrimPrefix(op, "$")
	if name != op && knownOp(name) {
		return ` (did you mean "` + name + `"?)`
	}
	if s := v.suggest(name, allOf(constraintOps)); s != "" {
		return s
	}
	if a, ok := constraintAliases()[strings.ToLower(name)]; ok {
		return ` (did you mean "` + a + `"?)`
	}
	return ""
}

// constraintArg checks the shape of a clause's argument: a range for
// in_range, a list for valid_values, a non-negative integer for the length
// operators, a string for pattern, a scalar for the comparisons.
func (v *validator) constraintArg(u *unit, c *constraint, what subject) bool {
	x := c.arg
	bad := func(expected string) bool {
		v.add(u.at(x), "kind", "expected %s as the argument of constraint %q in the constraints of %s, found %s", expected, c.op, what.text(), graph.Describe(x))
		return false
	}
	switch c.op {
	case "in_range":
		if !x.IsList() || len(x.List()) != 2 || kindBit(x.List()[0])&kScalar == 0 || kindBit(x.List()[1])&kScalar == 0 {
			return bad("a range [lower, upper]")
		}
	case "valid_values":
		if !x.IsList() {
			return bad("a list")
		}
	case "length", "min_length", "max_length":
		if x == nil || x.Kind != yamlsrc.KindNumber || x.Num() < 0 || x.Num() != math.Trunc(x.Num()) {
			return bad("a non-negative integer")
		}
	case "pattern":
		if !x.IsString() {
			return bad("a string")
		}
		// Patterns that Go's regular expressions do not read (back
		// references, look-arounds) are left unchecked: TOSCA names no
		// dialect.
		c.re, _ = regexp.Compile(`^(?:` + x.Str() + `)$`)
	case "greater_than", "greater_or_equal", "less_than", "less_or_equal":
		if kindBit(x)&kScalar == 0 {
			return bad("a scalar")
		}
	}
	return true
}

// checkConstraints checks a value, of the right kind for its primitive type
// typ already, against the constraints of its definition and of its data
// type and the data type's parents. It reports the first violation only.
func (v *validator) checkConstraints(u *unit, x *yamlsrc.Value, def *propDef, typ string, what subject) {
	if v.skipCons {
		return
	}
	for i := range def.cons {
		if v.violates(u, x, &def.cons[i], typ, what, def, nil) {
			return
		}
	}
	for dt := def.dt; dt != nil; dt = dt.parent {
		for i := range dt.cons {
			if v.violates(u, x, &dt.cons[i], typ, what, nil, dt) {
				return
			}
		}
	}
}

// violates reports the value when it violates c (from the definition def
// or the data type dt), and says whether it did. Clauses whose argument
// cannot be compared with the value (a string bound for a number) are
// not errors of the value and are skipped.
func (v *validator) violates(u *unit, x *yamlsrc.Value, c *constraint, typ string, what subject, def *propDef, dt *typeDef) bool {
	var phrase string
	length := -1
	switch c.op {
	case "equal":
		if eq, ok := same(x, c.arg, typ); !ok || eq {
			return false
		}
		phrase = "be equal to " + flow(c.arg)
	case "greater_than", "greater_or_equal", "less_than", "less_or_equal":
		d, ok := compare(x, c.arg, typ)
		if !ok {
			return false
		}
		switch c.op {
		case "greater_than":
			ok, phrase = d > 0, "be greater than "
		case "greater_or_equal":
			ok, phrase = d >= 0, "be greater than or equal to "
		case "less_than":
			ok, phrase = d < 0, "be less than "
		default:
			ok, phrase = d <= 0, "be less than or equal to "
		}
		if ok {
			return false
		}
		phrase += flow(c.arg)
	case "in_range":
		lo, ok1 := compare(x, c.arg.List()[0], typ)
		hi, ok2 := compare(x, c.arg.List()[1], typ)
		upper := c.arg.List()[1]
		if upper.IsString() && upper.Str() == "UNBOUNDED" {
			hi, ok2 = -1, true
		}
		if !ok1 || !ok2 || (lo >= 0 && hi <= 0) {
			return false
		}
		phrase = "be in range " + flow(c.arg)
	case "valid_values":
		comparable := true
		for _, a := range c.arg.List() {
			eq, ok := same(x, a, typ)
			if eq {
				return false
			}
			comparable = comparable && ok
		}
		if !comparable {
			return false
		}
		phrase = "be one of " + flow(c.arg)
	case "length", "min_length", "max_length":
		n, ok := lengthOf(x, typ)
		if !ok {
			return false
		}
		want := int(c.arg.Num())
		switch c.op {
		case "length":
			ok, phrase = n == want, "have length "
		case "min_length":
			ok, phrase = n >= want, "have a length of at least "
		default:
			ok, phrase = n <= want, "have a length of at most "
		}
		if ok {
			return false
		}
		phrase += strconv.Itoa(want)
		length = n
	case "pattern":
		if c.re == nil || !x.IsString() || c.re.MatchString(x.Str()) {
			return false
		}
		phrase = "match pattern " + strconv.Quote(c.arg.Str())
	default:
		return false
	}
	m := v.msg().s("expected ").subj(what).s(" to ", phrase, " (constraint ").q(c.op).s(" of ")
	if dt != nil {
		m.s(kindNames[dt.kind], " ").q(dt.name)
	} else {
		m.s(def.source())
	}
	m.s("), found ", describe(x))
	if length >= 0 {
		m.s(" of length ", strconv.Itoa(length))
	}
	v.addMsg(u.at(x), "constraint", m.String())
	return true
}

// source names the definition a constraint clause of p belongs to.
func (p *propDef) source() string {
	switch {
	case p.of != nil:
		return "the entry_schema of " + p.of.source()
	case p.owner != nil:
		return string(sub("property", p.name, &subject{noun: kindNames[p.owner.kind], name: p.owner.name, named: true}).append(nil))
	case p.noun != "":
		return string(sub(p.noun, p.name, nil).append(nil))
	}
	return "its definition"
}

// scalarOf returns the number a value of primitive type typ compares by:
// the number itself, a scalar-unit in its base unit, a timestamp's instant.
func scalarOf(x *yamlsrc.Value, typ string) (float64, bool) {
	if x == nil {
		return 0, false
	}
	switch typ {
	case "integer", "float":
		if x.Kind == yamlsrc.KindNumber {
			return x.Num(), true
		}
	case "timestamp":
		if x.Kind == yamlsrc.KindTime {
			return x.Num(), true
		}
	case "scalar-unit.size", "scalar-unit.time", "scalar-unit.frequency", "scalar-unit.bitrate":
		if x.IsString() {
			return scalarUnitValue(x.Str(), typ)
		}
	}
	return 0, false
}

// compare returns the sign of x - a, for values of an ordered type.
func compare(x, a *yamlsrc.Value, typ string) (int, bool) {
	xv, ok1 := scalarOf(x, typ)
	av, ok2 := scalarOf(a, typ)
	if !ok1 || !ok2 {
		return 0, false
	}
	switch {
	case xv < av:
		return -1, true
	case xv > av:
		return 1, true
	}
	return 0, true
}

// same reports whether x equals a, and whether they are comparable at
// all: scalars of the same kind, scalar-units by their quantity, lists and
// maps entry by entry. Versions are left alone ("1.0" and 1.0 are one
// version).
func same(x, a *yamlsrc.Value, typ string) (eq, ok bool) {
	if typ == "version" || x == nil || a == nil {
		return false, false
	}
	if xv, ok := scalarOf(x, typ); ok {
		av, ok := scalarOf(a, typ)
		return ok && xv == av, ok
	}
	if x.Kind != a.Kind {
		return false, false
	}
	return deepEqual(x, a), true
}

func deepEqual(a, b *yamlsrc.Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yamlsrc.KindBool:
		return a.Bool == b.Bool
	case yamlsrc.KindNumber, yamlsrc.KindTime:
		return a.Num() == b.Num()
	case yamlsrc.KindString:
		return a.Str() == b.Str()
	case yamlsrc.KindList:
		return slices.EqualFunc(a.List(), b.List(), deepEqual)
	case yamlsrc.KindMap:
		if a.Map().Len() != b.Map().Len() {
			return false
		}
		for i, k := range a.Map().Keys() {
			o, ok := b.Map().Lookup(k)
			if !ok || !deepEqual(a.Map().Val(i), o) {
				return false
			}
		}
		return true
	}
	return false
}

// lengthOf is the length the length operators constrain: a string's
// characters, a list's or a map's entries.
func lengthOf(x *yamlsrc.Value, typ string) (int, bool) {
	switch {
	case x.IsString() && typ == "string":
		return len([]rune(x.Str())), true
	case x.IsList():
		return len(x.List()), true
	case x.IsMap():
		return x.Map().Len(), true
	}
	return 0, false
}

// unitFactors are the sizes of the units of the scalar-unit types in their
// base unit (TOSCA 1.3 §3.3.6), by lower-case name.
var unitFactors = sync.OnceValue(func() map[string]map[string]float64 {
	return map[string]map[string]float64{
		"scalar-unit.size": {"b": 1, "kb": 1e3, "kib": 1 << 10, "mb": 1e6, "mib": 1 << 20, "gb": 1e9, "gib": 1 << 30,
			"tb": 1e12, "tib": 1 << 40},
		"scalar-unit.time":      {"d": 86400, "h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9},
		"scalar-unit.frequency": {"hz": 1, "khz": 1e3, "mhz": 1e6, "ghz": 1e9},
		"scalar-unit.bitrate": {"bps": 1, "kbps": 1e3, "kibps": 1 << 10, "mbps": 1e6, "mibps": 1 << 20, "gbps": 1e9,
			"gibps": 1 << 30, "tbps": 1e12, "tibps": 1 << 40},
	}
})

// scalarUnitValue returns the quantity of "<number> <unit>" in the base
// unit of typ.
func scalarUnitValue(s, typ string) (float64, bool) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexFunc(s, func(r rune) bool { return (r >= '0' && r <= '9') || r == '.' })
	if i < 0 {
		return 0, false
	}
	num, unit := strings.TrimSpace(s[:i+1]), strings.ToLower(strings.TrimSpace(s[i+1:]))
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, false
	}
	k, ok := unitFactors()[typ][unit]
	return f * k, ok
}

// flow renders a constraint's argument for messages, in YAML's flow style
// with JSON scalars, cut short when long.
func flow(x *yamlsrc.Value) string {
	var b strings.Builder
	yamlsrc.WriteFlow(&b, x, 80, nil, nil)
	s := b.String()
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
