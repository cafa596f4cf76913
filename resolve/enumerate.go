package resolve

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/solver"
)

// listNodes bounds the circuit that counts the variants before listing
// them: a few seconds of compilation.
var listNodes = 1_000_000

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
	// Max variants: the variants are counted first (exactly, by the
	// compiled circuit), and a larger space is an error instead of a run
	// that would not end.
	Max int
	// Space opens inputs (spaces.md §4).
	Space SpaceOptions
}

// Variant is one distinct set of present nodes and relations, with the
// values of the open inputs.
type Variant struct {
	// Present lists the ids of the present nodes and relations in global
	// element order.
	Present []string
	// Inputs holds the value of every open input (SpaceOptions.OpenInputs),
	// in declaration order.
	Inputs []Assignment
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
	// Warnings are the space's warnings (Space.Warnings).
	Warnings []string
}

// Enumerate lists every variant of a template: the distinct sets of present
// nodes and relations (and open input values) over all models of its
// conditions and constraints, without optimisation or uniqueness checks.
// Variants are sorted canonically: by the global positions of their present
// elements, lexicographically, then by their input values.
func Enumerate(ctx context.Context, in Input, opts Options, eo EnumerateOptions) (res *Enumeration, err error) {
	defer recoverInternal(in, opts, &err)
	s, err := BuildSpace(ctx, in, opts, eo.Space)
	if err != nil {
		return nil, err
	}
	res = &Enumeration{Count: big.NewInt(0), Complete: true, Warnings: s.Warnings}
	if s.Unsat {
		return res, nil
	}
	proj := s.Projection()
	var found [][]bool
	if eo.Limit <= 0 {
		// Count first, exactly: listing a space that is too large would
		// not end, and the circuit lists the others in linear time. Before
		// a refusal the count is bounded too: a circuit that outgrows
		// listNodes is refused without its count (deterministically, on
		// every machine), so that listing never hangs before it refuses.
		budget := 0
		if eo.Max > 0 && !eo.CountOnly {
			budget = listNodes
		}
		c, err := s.compile(ctx, budget)
		if errors.Is(err, solver.ErrTooLarge) && budget > 0 {
			d := diag.At(diag.Pos{File: s.File}, diag.StageSolve, fmt.Sprintf(
				"the template has too many variants to list (counting them needs more than %d circuit nodes): give --limit N to list the first N, or --count to count them", budget))
			d.Code = CodeTooManyVariants
			return nil, d
		}
		if err != nil {
			return nil, err
		}
		res.Count = c.Count()
		if eo.CountOnly {
			return res, nil
		}
		if eo.Max > 0 && res.Count.Cmp(big.NewInt(int64(eo.Max))) > 0 {
			d := diag.At(diag.Pos{File: s.File}, diag.StageSolve, fmt.Sprintf(
				"the template has %s variants, more than %d: give --limit N to list the first N, or --count to count them", res.Count, eo.Max))
			d.Code = CodeTooManyVariants
			return nil, d
		}
		c.Enumerate(func(values []bool) bool {
			found = append(found, append([]bool(nil), values...))
			return true
		})
	} else {
		cnf := s.CNF
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
	}
	// Canonical order: the lists of present positions, lexicographically,
	// then the open inputs' value positions (declaration, then domain order).
	positions := func(values []bool) []int {
		var out []int
		for i, present := range values {
			if present {
				out = append(out, i)
			}
		}
		return out
	}
	ne := len(s.Elements)
	slices.SortFunc(found, func(a, b []bool) int {
		if c := slices.Compare(positions(a[:ne]), positions(b[:ne])); c != 0 {
			return c
		}
		return slices.Compare(positions(a[ne:]), positions(b[ne:]))
	})
	for _, values := range found {
		v := s.Variant(values)
		if eo.Resolve {
			v.Doc, v.Err = s.p.resolveVariant(ctx, s.enc, proj, values, v.Inputs)
		}
		res.Variants = append(res.Variants, v)
	}
	return res, nil
}

// resolveVariant resolves the template with the presence of nodes and
// relations fixed to one variant; the remaining elements follow the
// tie-break. It works on a copy of the enriched document.
func (p *prepared) resolveVariant(ctx context.Context, enc *encode.Result, proj []int, values []bool, inputs []Assignment) (*yamlsrc.Value, error) {
	cnf := &solver.CNF{NumVars: enc.NumVars, Clauses: make([][]int, 0, len(enc.Clauses.Refs)+len(proj))}
	cnf.Clauses = append(cnf.Clauses, solver.Packed(enc.Clauses).List()...)
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
		return nil, diag.At(diag.Pos{File: p.file}, diag.StageSolve, msgCouldNotSolve)
	}
	doc := yamlsrc.Clone(p.doc)
	g, err := graph.Build(doc, p.file)
	if err != nil {
		return nil, err
	}
	if len(g.Elements) != len(p.g.Elements) {
		panic("resolve: the rebuilt graph of a variant differs from graph #3")
	}
	assigned := yamlsrc.Clone(p.assigned)
	for _, a := range inputs {
		assigned.Map().Set(a.Name, yamlsrc.Clone(a.Value))
	}
	if err := p.finish(g, p.evaluator(g, assigned), enc, res.Model); err != nil {
		return nil, err
	}
	return doc, nil
}
