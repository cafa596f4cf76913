package resolve

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/solver"
)

// CodeTooManyVariants is the code of the diagnostic of EnumerateOptions.Max:
// a refusal to list, not a problem of the template.
const CodeTooManyVariants = "too-many-variants"

// EnumerateOptions tune Enumerate.
type EnumerateOptions struct {
	// Limit stops after this many variants (0: all).
	Limit int
	// CountOnly counts the variants without listing them.
	CountOnly bool
	// Resolve produces the resolved template of each variant.
	Resolve bool
	// Max, when positive and without a Limit, refuses to list more than
	// Max variants: the variants are counted first (which is fast), and a
	// larger space is an error instead of a run that would not end.
	Max int
}

// Variant is one distinct set of present nodes and relations.
type Variant struct {
	// Present lists the ids of the present nodes and relations in global
	// element order.
	Present []string
	// Doc is the resolved template (with EnumerateOptions.Resolve), or nil
	// when Err explains why the variant could not be resolved.
	Doc *yamlsrc.Value
	Err error
}

// Enumeration is the result of Enumerate.
type Enumeration struct {
	Variants []Variant
	// Count is the number of variants: exact when Complete, otherwise the
	// number found before the limit.
	Count    *big.Int
	Complete bool
}

// Enumerate lists every variant of a template: the distinct sets of present
// nodes and relations over all models of its conditions and constraints,
// without optimisation or uniqueness checks. Variants are sorted
// canonically: by the global positions of their present elements,
// lexicographically.
func Enumerate(ctx context.Context, in Input, opts Options, eo EnumerateOptions) (res *Enumeration, err error) {
	defer recoverInternal(in, opts, &err)
	p, err := prepare(ctx, in, opts)
	if err != nil {
		return nil, err
	}
	enc, err := p.encode()
	if err != nil {
		return nil, err
	}
	if opts.Dump != nil {
		if err := opts.Dump(p.formula(enc)); err != nil {
			return nil, err
		}
	}
	res = &Enumeration{Count: big.NewInt(0), Complete: true}
	if enc.Unsat {
		return res, nil
	}
	// The projection: node and relation variables, in global order.
	var proj []int
	var projElems []*graph.Element
	seen := map[int]bool{}
	for i, e := range p.g.Elements {
		if e.Kind != graph.KindNode && e.Kind != graph.KindRelation {
			continue
		}
		v := enc.ElementVars[i]
		if !seen[v] {
			seen[v] = true
			proj = append(proj, v)
			projElems = append(projElems, e)
		}
	}
	cnf := &solver.CNF{NumVars: enc.NumVars, Clauses: enc.Clauses}
	if eo.CountOnly && eo.Limit <= 0 {
		n, err := solver.Count(ctx, cnf, proj)
		if err != nil {
			return nil, err
		}
		res.Count = n
		return res, nil
	}
	if eo.Max > 0 && eo.Limit <= 0 {
		n, err := solver.Count(ctx, cnf, proj)
		if err != nil {
			return nil, err
		}
		if n.Cmp(big.NewInt(int64(eo.Max))) > 0 {
			d := diag.At(diag.Pos{File: p.file}, diag.StageSolve, fmt.Sprintf(
				"the template has %s variants, more than %d: give --limit N to list the first N, or --count to count them", n, eo.Max))
			d.Code = CodeTooManyVariants
			return nil, d
		}
	}
	var found [][]bool
	n, complete, err := solver.Enumerate(ctx, cnf, proj, eo.Limit, func(values []bool) bool {
		found = append(found, append([]bool(nil), values...))
		return true
	})
	if err != nil {
		return nil, err
	}
	res.Count = big.NewInt(int64(n))
	res.Complete = complete
	if eo.CountOnly {
		return res, nil
	}
	// Canonical order: the lists of present positions, lexicographically.
	positions := func(values []bool) []int {
		var out []int
		for i, present := range values {
			if present {
				out = append(out, i)
			}
		}
		return out
	}
	slices.SortFunc(found, func(a, b []bool) int { return slices.Compare(positions(a), positions(b)) })
	for _, values := range found {
		var v Variant
		for i, present := range values {
			if present {
				v.Present = append(v.Present, projElems[i].ID())
			}
		}
		if eo.Resolve {
			v.Doc, v.Err = p.resolveVariant(ctx, enc, proj, values)
		}
		res.Variants = append(res.Variants, v)
	}
	return res, nil
}

// resolveVariant resolves the template with the presence of nodes and
// relations fixed to one variant; the remaining elements follow the
// tie-break. It works on a copy of the enriched document.
func (p *prepared) resolveVariant(ctx context.Context, enc *encode.Result, proj []int, values []bool) (*yamlsrc.Value, error) {
	cnf := &solver.CNF{NumVars: enc.NumVars, Clauses: make([][]int, 0, len(enc.Clauses)+len(proj))}
	cnf.Clauses = append(cnf.Clauses, enc.Clauses...)
	for i, v := range proj {
		if values[i] {
			cnf.Clauses = append(cnf.Clauses, []int{v})
		} else {
			cnf.Clauses = append(cnf.Clauses, []int{-v})
		}
	}
	res, err := solver.Solve(ctx, cnf, nil, enc.ElementVars)
	if err != nil {
		return nil, err
	}
	if !res.Sat {
		return nil, diag.At(diag.Pos{File: p.file}, diag.StageSolve, "Could not solve")
	}
	doc := yamlsrc.Clone(p.doc)
	g, err := graph.Build(doc, p.file)
	if err != nil {
		return nil, err
	}
	if len(g.Elements) != len(p.g.Elements) {
		panic("resolve: the rebuilt graph of a variant differs from graph #3")
	}
	if err := p.finish(g, p.evaluator(g, yamlsrc.Clone(p.assigned)), enc, res.Model); err != nil {
		return nil, err
	}
	return doc, nil
}
