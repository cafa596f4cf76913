package resolve

import (
	"context"
	"math/big"

	"v4t/model/diag"
	"v4t/solver"
)

// Spec spaces.md §3 (queries): the number of variants, core and dead
// elements and the commonality of every element and open input value,
// from one compiled circuit (two linear passes).

// Analysis is the configuration-space analysis of a template.
type Analysis struct {
	// Variants is the number of variants.
	Variants *big.Int
	// Elements are the projected elements (nodes and relations) in global
	// element order, each with the number of variants that hold it.
	Elements []ElementCount
	// Inputs are the open inputs with the number of variants per value.
	Inputs []InputCount
	// Warnings are the space's warnings (Space.Warnings).
	Warnings []string
}

// ElementCount is an element and the number of variants that hold it.
type ElementCount struct {
	ID    string
	Pos   diag.Pos
	Count *big.Int
}

// InputCount is an open input and the number of variants per value.
type InputCount struct {
	Input  OpenInput
	Counts []*big.Int
}

// Core reports whether an element is present in every variant (of a space
// that has one).
func (a *Analysis) Core(e ElementCount) bool {
	return a.Variants.Sign() > 0 && e.Count.Cmp(a.Variants) == 0
}

// Dead reports whether an element is present in no variant (of a space
// that has one).
func (a *Analysis) Dead(e ElementCount) bool {
	return a.Variants.Sign() > 0 && e.Count.Sign() == 0
}

// Commonality is the fraction of the variants that hold count, as the
// nearest float64 (0 when there is no variant).
func (a *Analysis) Commonality(count *big.Int) float64 {
	if a.Variants.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(count, a.Variants).Float64()
	return f
}

// Analyze counts the variants of a template and how many hold each
// element and each open input value.
func Analyze(ctx context.Context, in Input, opts Options, so SpaceOptions) (a *Analysis, err error) {
	defer recoverInternal(in, opts, &err)
	s, err := BuildSpace(ctx, in, opts, so)
	if err != nil {
		return nil, err
	}
	c, err := s.Compile(ctx)
	if err != nil {
		return nil, err
	}
	s.namePositions()
	return s.analyze(c), nil
}

func (s *Space) analyze(c *solver.Circuit) *Analysis {
	a := &Analysis{Variants: c.Count(), Warnings: s.Warnings}
	marg := c.Marginals()
	for i, e := range s.Elements {
		a.Elements = append(a.Elements, ElementCount{ID: e.ID, Pos: e.Pos, Count: marg[i]})
	}
	k := len(s.Elements)
	for _, in := range s.Inputs {
		ic := InputCount{Input: in}
		for range in.Vars {
			ic.Counts = append(ic.Counts, marg[k])
			k++
		}
		a.Inputs = append(a.Inputs, ic)
	}
	return a
}
