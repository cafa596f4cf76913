package resolve

import (
	"context"
	"strings"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/solver"
)

// Spec variability.md §7 (validator): feature constraints between
// variability inputs, checked on their own small SAT problem.

var featureKeys = []string{"mandatory", "optional", "choices", "alternatives", "requires", "excludes"}

// validatorPrefix is the namespace of the validator's variables in a
// space's formula: names starting with $ cannot be written in a template,
// so they never clash with its terms.
const validatorPrefix = "$validator."

// validate runs the validator. With deferCheck it checks the form of the
// feature constraints (reporting their errors in the resolver's order) but
// not whether the assigned values satisfy them: BuildSpace defers that when
// inputs may be open, and adds the constraints to the space instead.
func validate(ctx context.Context, g *graph.Graph, assigned *yamlsrc.Value, deferCheck bool) error {
	c, err := buildInputConstraints(g, encode.NewBuilder(), "")
	if err != nil || c == nil {
		return err
	}
	if deferCheck {
		return nil
	}
	for i, name := range c.inputs.Map.Keys() {
		l, err := c.term(name)
		if err != nil {
			return err
		}
		if inputFalsy(c.value(i, name, assigned)) {
			c.b.Require(-l)
		} else {
			c.b.Require(l)
		}
	}
	b := c.b
	if b.Unsat() {
		return c.fail("Variability inputs constraints are violated")
	}
	res, err := solver.Solve(ctx, &solver.CNF{NumVars: b.NumVars(), Clauses: b.Clauses()}, nil, nil)
	if err != nil {
		return err
	}
	if !res.Sat {
		return c.fail("Variability inputs constraints are violated")
	}
	return nil
}

// inputConstraints are the validator's feature constraints, built into a
// builder whose variables for input names carry a prefix.
type inputConstraints struct {
	g      *graph.Graph
	b      *encode.Builder
	prefix string
	inputs *yamlsrc.Value
}

func (c *inputConstraints) fail(msg string) error {
	return diag.At(diag.Pos{File: c.g.File}, diag.StageValidate, msg)
}

// term is a feature name as a literal of the reference's SAT library.
func (c *inputConstraints) term(s string) (encode.Lit, error) {
	t, err := encode.ParseTerm(s)
	if err != nil {
		return 0, c.fail(err.Error())
	}
	switch t.Name {
	case "$T":
		if t.Negated {
			return encode.False, nil
		}
		return encode.True, nil
	case "$F":
		if t.Negated {
			return encode.True, nil
		}
		return encode.False, nil
	}
	l := c.b.Var(c.prefix + t.Name)
	if t.Negated {
		return -l, nil
	}
	return l, nil
}

// value is an input's value as the validator reads it: assigned ?? default
// (default_expression is ignored).
func (c *inputConstraints) value(i int, name string, assigned *yamlsrc.Value) *yamlsrc.Value {
	v := assigned.Get(name)
	if v.IsNull() {
		v = c.inputs.Map.Val(i).Get("default")
	}
	return v
}

// inputFalsy is the validator's falsiness: undefined or null, false, or the
// number 0 (an empty string is truthy).
func inputFalsy(v *yamlsrc.Value) bool {
	return v.IsNull() || v.IsFalse() || (v.Kind == yamlsrc.KindNumber && v.Num == 0)
}

// requireSpace adds, for a space with open inputs, each input's value: an
// assigned input's truthiness is fixed; an open input is true exactly when
// it takes one of its truthy values.
func (c *inputConstraints) requireSpace(assigned *yamlsrc.Value, open map[string]*OpenInput) error {
	for i, name := range c.inputs.Map.Keys() {
		l, err := c.term(name)
		if err != nil {
			return err
		}
		in := open[name]
		if in == nil {
			if inputFalsy(c.value(i, name, assigned)) {
				c.b.Require(-l)
			} else {
				c.b.Require(l)
			}
			continue
		}
		var truthy []encode.Lit
		for j, v := range in.Values {
			if !inputFalsy(v) {
				truthy = append(truthy, c.b.Var(encode.OneHotTerm(name, j)))
			}
		}
		c.b.Require(c.b.Equiv(l, c.b.Or(truthy...)))
	}
	return nil
}

// buildInputConstraints adds the feature constraints between the inputs
// (variability.md §7) to b, or returns nil when the validator does not
// apply (no input has a feature key).
func buildInputConstraints(g *graph.Graph, b *encode.Builder, prefix string) (*inputConstraints, error) {
	inputs := g.Variability().Get("inputs")
	if !inputs.IsMap() {
		return nil, nil
	}
	required := false
	for i := 0; i < inputs.Map.Len(); i++ {
		for _, k := range featureKeys {
			if !inputs.Map.Val(i).Get(k).IsNull() {
				required = true
			}
		}
	}
	if !required {
		return nil, nil
	}
	c := &inputConstraints{g: g, b: b, prefix: prefix, inputs: inputs}
	fail, term := c.fail, c.term
	// lits reads a feature list: strings (a single string where wrap allows
	// it), each a term.
	lits := func(v *yamlsrc.Value, wrap bool) ([]string, []encode.Lit, error) {
		if wrap && v.IsString() {
			v = yamlsrc.NewList(v)
		}
		if !v.IsList() {
			return nil, nil, fail("Element \"" + graph.JSONOf(v) + "\" is not an array")
		}
		names := make([]string, len(v.List))
		for i, x := range v.List {
			if !x.IsString() {
				return nil, nil, fail("Element \"" + graph.JSONOf(x) + "\" is not a string")
			}
			names[i] = x.Str
		}
		ls := make([]encode.Lit, len(names))
		for i, n := range names {
			l, err := term(n)
			if err != nil {
				return nil, nil, err
			}
			ls[i] = l
		}
		return names, ls, nil
	}
	// features, in the reference's order: the key, whether a single string
	// is accepted, and the constraint on the input (self) and the listed ones.
	features := []struct {
		key  string
		wrap bool
		add  func(self encode.Lit, names []string, ls []encode.Lit) error
	}{
		{"mandatory", true, func(self encode.Lit, _ []string, ls []encode.Lit) error {
			for _, l := range ls {
				b.Require(b.Equiv(self, l))
			}
			return nil
		}},
		// Quirk: a string "optional" fails (variability.md §17.10).
		{"optional", false, func(self encode.Lit, _ []string, ls []encode.Lit) error {
			for _, l := range ls {
				b.Require(b.Implies(l, self))
			}
			return nil
		}},
		{"choices", false, func(self encode.Lit, _ []string, ls []encode.Lit) error {
			b.Require(b.Implies(self, b.Or(ls...)))
			return nil
		}},
		{"alternatives", false, func(self encode.Lit, _ []string, ls []encode.Lit) error {
			b.Require(b.Implies(self, b.Exo(ls...)))
			return nil
		}},
		{"requires", true, func(self encode.Lit, _ []string, ls []encode.Lit) error {
			for _, l := range ls {
				b.Require(b.Implies(self, l))
			}
			return nil
		}},
		{"excludes", true, func(_ encode.Lit, names []string, _ []encode.Lit) error {
			if len(names) > 0 {
				// Quirk: the whole list is negated, which the reference's SAT
				// library rejects (variability.md §17.10).
				return fail(strings.Join(names, ",") + " is not a Formula or Term")
			}
			return nil
		}},
	}
	for i, name := range inputs.Map.Keys() {
		def := inputs.Map.Val(i)
		self, err := term(name)
		if err != nil {
			return nil, err
		}
		for _, f := range features {
			v := def.Get(f.key)
			if v.IsNull() {
				continue
			}
			names, ls, err := lits(v, f.wrap)
			if err != nil {
				return nil, err
			}
			if err := f.add(self, names, ls); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}
