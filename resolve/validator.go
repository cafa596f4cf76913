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

func validate(ctx context.Context, g *graph.Graph, assigned *yamlsrc.Value) error {
	inputs := g.Variability().Get("inputs")
	if !inputs.IsMap() {
		return nil
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
		return nil
	}
	fail := func(msg string) error { return diag.At(diag.Pos{File: g.File}, diag.StageValidate, msg) }
	b := encode.NewBuilder()
	term := func(s string) (encode.Lit, error) {
		t, err := encode.ParseTerm(s)
		if err != nil {
			return 0, fail(err.Error())
		}
		l := b.Var(t.Name)
		switch t.Name {
		case "$T":
			l = encode.True
		case "$F":
			l = encode.False
		}
		if t.Negated {
			return -l, nil
		}
		return l, nil
	}
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
			return err
		}
		for _, f := range features {
			v := def.Get(f.key)
			if v.IsNull() {
				continue
			}
			names, ls, err := lits(v, f.wrap)
			if err != nil {
				return err
			}
			if err := f.add(self, names, ls); err != nil {
				return err
			}
		}
	}
	for i, name := range inputs.Map.Keys() {
		def := inputs.Map.Val(i)
		v := assigned.Get(name)
		if v.IsNull() {
			v = def.Get("default")
		}
		l, err := term(name)
		if err != nil {
			return err
		}
		if v.IsNull() || v.IsFalse() || (v.Kind == yamlsrc.KindNumber && v.Num == 0) {
			b.Require(-l)
		} else {
			b.Require(l)
		}
	}
	if b.Unsat() {
		return fail("Variability inputs constraints are violated")
	}
	res, err := solver.Solve(ctx, &solver.CNF{NumVars: b.NumVars(), Clauses: b.Clauses()}, nil, nil)
	if err != nil {
		return err
	}
	if !res.Sat {
		return fail("Variability inputs constraints are violated")
	}
	return nil
}
