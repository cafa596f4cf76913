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

// checkTerms is the check of the reference's SAT library on the operands
// of or and exactlyOne: one operand on its own, several as an array that
// JavaScript prints joined by commas (encode's n-ary operators do the
// same).
func checkTerms(names []string, fail func(string) error) error {
	for _, n := range names {
		if !encode.IsNameTerm(n) {
			if len(names) == 1 {
				_, err := encode.ParseTerm(n)
				return fail(err.Error())
			}
			return fail(encode.MsgNotTerms(strings.Join(names, ",")))
		}
	}
	return nil
}

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
	for i, name := range c.inputs.Map().Keys() {
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
		return c.fail(msgConstraintsViolated)
	}
	res, err := solver.Solve(ctx, &solver.CNF{NumVars: b.NumVars(), Clauses: b.Clauses()}, nil, nil)
	if err != nil {
		return err
	}
	if !res.Sat {
		return c.fail(msgConstraintsViolated)
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
		v = c.inputs.Map().Val(i).Get("default")
	}
	return v
}

// inputFalsy is the validator's falsiness: undefined or null, false, or the
// number 0 (an empty string is truthy).
func inputFalsy(v *yamlsrc.Value) bool {
	return v.IsNull() || v.IsFalse() || (v.Kind == yamlsrc.KindNumber && v.Num() == 0)
}

// requireSpace adds, for a space with open inputs, each input's value: an
// assigned input's truthiness is fixed; an open input is true exactly when
// it takes one of its truthy values.
func (c *inputConstraints) requireSpace(assigned *yamlsrc.Value, open map[string]*OpenInput) error {
	for i, name := range c.inputs.Map().Keys() {
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
	for i := 0; i < inputs.Map().Len(); i++ {
		for _, k := range featureKeys {
			if !inputs.Map().Val(i).Get(k).IsNull() {
				required = true
			}
		}
	}
	if !required {
		return nil, nil
	}
	c := &inputConstraints{g: g, b: b, prefix: prefix, inputs: inputs}
	fail, term := c.fail, c.term
	notString := func(x *yamlsrc.Value) error {
		return fail(graph.MsgNotString(x))
	}
	// strs reads a feature list whose items must all be strings.
	strs := func(v *yamlsrc.Value) ([]string, error) {
		names := make([]string, len(v.List()))
		for i, x := range v.List() {
			if !x.IsString() {
				return nil, notString(x)
			}
			names[i] = x.Str()
		}
		return names, nil
	}
	// The features in the reference's order, each read as it reads them;
	// the reference's SAT library checks the input's name (self) and the
	// listed names where they first appear in a formula.
	for i, name := range inputs.Map().Keys() {
		def := inputs.Map().Val(i)
		if def.IsNull() {
			// The reference reads input.mandatory of every definition in
			// turn (graph #3 stopped at the first one with a feature key).
			return nil, graph.NullInputDefinition(g.File, name, def)
		}
		var selfLit encode.Lit
		self := func() (encode.Lit, error) {
			if selfLit == 0 {
				l, err := term(name)
				if err != nil {
					return 0, err
				}
				selfLit = l
			}
			return selfLit, nil
		}
		for _, key := range featureKeys {
			v := def.Get(key)
			if v.IsNull() {
				continue
			}
			// Quirk: a string "optional" fails (variability.md §17.10);
			// the others take a single string as a list of it.
			if v.IsString() && key != "optional" && key != "choices" && key != "alternatives" {
				v = yamlsrc.NewList(v)
			}
			if !v.IsList() {
				return nil, fail(graph.MsgNotArray(v))
			}
			switch key {
			case "requires", "excludes":
				// Each item is checked as the loop reaches it.
				for _, x := range v.List() {
					if !x.IsString() {
						return nil, notString(x)
					}
					if key == "excludes" {
						// Quirk: the whole list is negated, which the
						// reference's SAT library rejects (§17.10).
						return nil, fail(encode.MsgNotTerm(yamlsrc.String(v)))
					}
					s, err := self()
					if err != nil {
						return nil, err
					}
					r, err := term(x.Str())
					if err != nil {
						return nil, err
					}
					b.Require(b.Implies(s, r))
				}
				continue
			}
			names, err := strs(v)
			if err != nil {
				return nil, err
			}
			switch key {
			case "mandatory", "optional":
				for _, n := range names {
					var s, l encode.Lit
					if key == "mandatory" {
						s, err = self()
						if err == nil {
							l, err = term(n)
						}
					} else {
						l, err = term(n)
						if err == nil {
							s, err = self()
						}
					}
					if err != nil {
						return nil, err
					}
					if key == "mandatory" {
						b.Require(b.Equiv(s, l))
					} else {
						b.Require(b.Implies(l, s))
					}
				}
			case "choices", "alternatives":
				// or / exactlyOne of the names, then implies(self, ...).
				if err := checkTerms(names, fail); err != nil {
					return nil, err
				}
				ls := make([]encode.Lit, len(names))
				for i, n := range names {
					if ls[i], err = term(n); err != nil {
						return nil, err
					}
				}
				s, err := self()
				if err != nil {
					return nil, err
				}
				if key == "choices" {
					b.Require(b.Implies(s, b.Or(ls...)))
				} else {
					b.Require(b.Implies(s, b.Exo(ls...)))
				}
			}
		}
	}
	return c, nil
}
