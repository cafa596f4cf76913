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
		name := strings.TrimLeft(s, "-")
		if strings.Trim(name, "0123456789") == "" {
			q := yamlsrc.JSON(yamlsrc.NewString(s))
			return 0, fail(q + " is not a Formula or Term")
		}
		if strings.HasPrefix(name, "$") {
			switch name {
			case "$T":
				return encode.True, nil
			case "$F":
				return encode.False, nil
			}
			return 0, fail("Only generated variable names can start with $")
		}
		l := b.Var(name)
		if (len(s)-len(name))%2 == 1 {
			return -l, nil
		}
		return l, nil
	}
	strings_ := func(v *yamlsrc.Value, wrap bool) ([]string, error) {
		if wrap && v.IsString() {
			return []string{v.Str}, nil
		}
		if !v.IsList() {
			return nil, fail("Element \"" + graph.JSONOf(v) + "\" is not an array")
		}
		out := make([]string, len(v.List))
		for i, x := range v.List {
			if !x.IsString() {
				return nil, fail("Element \"" + graph.JSONOf(x) + "\" is not a string")
			}
			out[i] = x.Str
		}
		return out, nil
	}
	lits := func(names []string) ([]encode.Lit, error) {
		out := make([]encode.Lit, len(names))
		for i, n := range names {
			l, err := term(n)
			if err != nil {
				return nil, err
			}
			out[i] = l
		}
		return out, nil
	}
	for i, name := range inputs.Map.Keys() {
		def := inputs.Map.Val(i)
		self, err := term(name)
		if err != nil {
			return err
		}
		if m := def.Get("mandatory"); !m.IsNull() {
			names, err := strings_(m, true)
			if err != nil {
				return err
			}
			ls, err := lits(names)
			if err != nil {
				return err
			}
			for _, l := range ls {
				b.Require(b.Equiv(self, l))
			}
		}
		if o := def.Get("optional"); !o.IsNull() {
			// Quirk: a string "optional" fails (variability.md §17.10).
			names, err := strings_(o, false)
			if err != nil {
				return err
			}
			ls, err := lits(names)
			if err != nil {
				return err
			}
			for _, l := range ls {
				b.Require(b.Implies(l, self))
			}
		}
		if c := def.Get("choices"); !c.IsNull() {
			names, err := strings_(c, false)
			if err != nil {
				return err
			}
			ls, err := lits(names)
			if err != nil {
				return err
			}
			b.Require(b.Implies(self, b.Or(ls...)))
		}
		if a := def.Get("alternatives"); !a.IsNull() {
			names, err := strings_(a, false)
			if err != nil {
				return err
			}
			ls, err := lits(names)
			if err != nil {
				return err
			}
			b.Require(b.Implies(self, b.Exo(ls...)))
		}
		if r := def.Get("requires"); !r.IsNull() {
			names, err := strings_(r, true)
			if err != nil {
				return err
			}
			for _, n := range names {
				l, err := term(n)
				if err != nil {
					return err
				}
				b.Require(b.Implies(self, l))
			}
		}
		if x := def.Get("excludes"); !x.IsNull() {
			names, err := strings_(x, true)
			if err != nil {
				return err
			}
			if len(names) > 0 {
				// Quirk: the whole list is negated, which the reference's SAT
				// library rejects (variability.md §17.10).
				return fail(strings.Join(names, ",") + " is not a Formula or Term")
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
