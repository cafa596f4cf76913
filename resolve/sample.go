package resolve

import (
	"context"
	"errors"
	"math/big"
	"v4t/solver"
)

// Spec spaces.md §3 (uniform and t-wise sampling) on the compiled circuit.

// SampleOptions tune Sample.
type SampleOptions struct {
	Space SpaceOptions
	// Uniform draws this many variants, independently and exactly
	// uniformly (with replacement).
	Uniform int
	// T, when positive, builds a T-wise covering sample instead: every
	// combination of T element presences or absences and open input values
	// that some variant has appears in a sampled variant.
	T int
	// Seed seeds the generator: the same seed gives the same sample.
	Seed uint64
}

// Sampled is the result of Sample.
type Sampled struct {
	// Variants are the sampled variants, in the order drawn.
	Variants []Variant
	// Count is the number of variants of the space.
	Count *big.Int
	// Inputs are the open inputs.
	Inputs   []OpenInput
	Warnings []string
}

// Sample draws variants of a template: uniformly or as a t-wise covering
// sample. A space without variants gives none.
func Sample(ctx context.Context, in Input, opts Options, so SampleOptions) (res *Sampled, err error) {
	defer recoverInternal(in, opts, &err)
	if (so.Uniform > 0) == (so.T > 0) {
		return nil, errors.New("resolve: Sample needs either Uniform or T")
	}
	s, err := BuildSpace(ctx, in, opts, so.Space)
	if err != nil {
		return nil, err
	}
	c, err := s.Compile(ctx)
	if err != nil {
		return nil, err
	}
	res = &Sampled{Count: c.Count(), Inputs: s.Inputs, Warnings: s.Warnings}
	if !c.Satisfiable() {
		return res, nil
	}
	if so.Uniform > 0 {
		smp := c.NewSampler(so.Seed)
		values := make([]bool, len(c.Projection()))
		for range so.Uniform {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			smp.Next(values)
			res.Variants = append(res.Variants, s.Variant(values))
		}
		return res, nil
	}
	rows, err := c.CoveringSample(ctx, solver.CoveringOptions{T: so.T, Features: s.features(), Seed: so.Seed})
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		res.Variants = append(res.Variants, s.Variant(r))
	}
	return res, nil
}

// features are the literals a covering sample covers: every element
// present and absent, and every open input value (projection indices).
func (s *Space) features() []int {
	var fs []int
	for i := range s.Elements {
		fs = append(fs, i+1, -(i + 1))
	}
	k := len(s.Elements)
	for _, in := range s.Inputs {
		for range in.Vars {
			k++
			fs = append(fs, k)
		}
	}
	return fs
}
