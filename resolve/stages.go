package resolve

import (
	"context"
	"errors"

	"v4t/encode"
	"v4t/model/yamlsrc"
)

// Stages runs the pipeline one stage at a time, so that benchmarks can time
// each stage on its own. Resolve is the same sequence in one call.
type Stages struct {
	p     *prepared
	enc   *encode.Result
	model []bool
	done  bool
}

// Prepare loads the template and runs enrichment, inputs, graph #3 and the
// validator.
func Prepare(ctx context.Context, in Input, opts Options) (s *Stages, err error) {
	defer recoverInternal(in, opts, &err)
	p, err := prepare(ctx, in, opts)
	if err != nil {
		return nil, err
	}
	return &Stages{p: p}, nil
}

// Encode translates graph #3 into CNF; it may be repeated.
func (s *Stages) Encode() (vars, clauses int, err error) {
	defer recoverInternal(s.p.in, s.p.opts, &err)
	enc, err := s.p.encode()
	if err != nil {
		return 0, 0, err
	}
	s.enc = enc
	return enc.NumVars, len(enc.Clauses), nil
}

// Solve solves the encoded problem with optimisation, uniqueness checks and
// the tie-break; it may be repeated after Encode.
func (s *Stages) Solve(ctx context.Context) (err error) {
	defer recoverInternal(s.p.in, s.p.opts, &err)
	if s.enc == nil {
		return errors.New("resolve: Solve before Encode")
	}
	s.model, _, err = solve(ctx, s.p.g, s.enc, s.p.ev, false)
	return err
}

// Transform evaluates property values, runs the checker and builds the
// output document. It changes the document, so it runs once.
func (s *Stages) Transform() (doc *yamlsrc.Value, err error) {
	defer recoverInternal(s.p.in, s.p.opts, &err)
	if s.model == nil {
		return nil, errors.New("resolve: Transform before Solve")
	}
	if s.done {
		return nil, errors.New("resolve: Transform runs once")
	}
	s.done = true
	if err := s.p.finish(s.p.g, s.p.ev, s.enc, s.model); err != nil {
		return nil, err
	}
	return s.p.doc, nil
}
