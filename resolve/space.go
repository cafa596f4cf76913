package resolve

import (
	"context"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/solver"
)

// Spec spaces.md §1 (what is counted) and §4 (open inputs): the formula of
// a template's configuration space, shared by enumerate, analyze and
// sample. It is an analysis over the formula resolve solves; it never
// changes what resolve does.

// SpaceOptions tune BuildSpace.
type SpaceOptions struct {
	// OpenInputs makes the variability inputs that the inputs file, the
	// presets and the single assignments leave unassigned free over their
	// finite domains (spaces.md §4).
	OpenInputs bool
	// Open, when not nil, restricts OpenInputs to these inputs.
	Open []string
}

// Space is the encoded configuration space of a template.
type Space struct {
	// File is the template.
	File string
	// CNF is the formula: the encoding of graph #3, plus the one-hot
	// constraints of open inputs.
	CNF *solver.CNF
	// Unsat is set when a requirement folded to false: no variant.
	Unsat bool
	// Elements are the projected elements: the nodes and relations, in
	// global element order, one per distinct variable.
	Elements []SpaceElement
	// Inputs are the open inputs, in declaration order.
	Inputs []OpenInput
	// Warnings say what the analysis had to assume, one line each.
	Warnings []string

	p   *prepared
	enc *encode.Result
}

// SpaceElement is one projected element.
type SpaceElement struct {
	// ID is the element's id, as enumerate prints it (node.x, relation...).
	ID  string
	Pos diag.Pos
	Var int
	el  *graph.Element
}

// OpenInput is an input that is free over a finite domain.
type OpenInput struct {
	Name string
	// Pos is the input's definition.
	Pos diag.Pos
	// Values is the domain; Vars[i] is true when the input has Values[i].
	Values []*yamlsrc.Value
	Vars   []int
}

// Projection returns the projection variables: the elements', then every
// open input's value variables.
func (s *Space) Projection() []int {
	out := make([]int, 0, len(s.Elements))
	for _, e := range s.Elements {
		out = append(out, e.Var)
	}
	for _, in := range s.Inputs {
		out = append(out, in.Vars...)
	}
	return out
}

// BuildSpace prepares and encodes a template's configuration space. With
// SpaceOptions.OpenInputs, the unassigned inputs become free over their
// domains (openInputs): expressions that read them are split into cases
// over one-hot input variables, and the validator's constraints
// (variability.md §7) hold in the space instead of failing the run.
func BuildSpace(ctx context.Context, in Input, opts Options, so SpaceOptions) (s *Space, err error) {
	defer recoverInternal(in, opts, &err)
	p, err := prepareFor(ctx, in, opts, so.OpenInputs, true, nil)
	if err != nil {
		return nil, err
	}
	var open []OpenInput
	var warnings []string
	if so.OpenInputs {
		if open, warnings, err = openInputs(p, so.Open); err != nil {
			return nil, err
		}
		if len(open) == 0 {
			// Nothing is open: the validator runs as in resolve.
			if err := validate(ctx, p.g, p.assigned, false); err != nil {
				return nil, err
			}
		}
	}
	var enc *encode.Result
	if len(open) > 0 {
		var excluded []string
		if enc, excluded, err = p.encodeOpen(open); err != nil {
			return nil, err
		}
		warnings = append(warnings, excluded...)
	} else if enc, err = encodeStage(p); err != nil {
		return nil, err
	}
	if opts.Dump != nil {
		if err := opts.Dump(p.formula(enc)); err != nil {
			return nil, err
		}
	}
	s = &Space{File: p.file, CNF: &solver.CNF{NumVars: enc.NumVars, Packed: solver.Packed(enc.Clauses)}, Unsat: enc.Unsat,
		Inputs: open, Warnings: warnings, p: p, enc: enc}
	seen := map[int]bool{}
	for i, e := range p.g.Elements {
		if e.Kind != graph.KindNode && e.Kind != graph.KindRelation {
			continue
		}
		v := enc.ElementVars[i]
		if !seen[v] {
			seen[v] = true
			s.Elements = append(s.Elements, SpaceElement{ID: e.ID(), Pos: e.Pos(), Var: v, el: e})
		}
	}
	return s, nil
}

// Compile compiles the space into a circuit over its projection.
func (s *Space) Compile(ctx context.Context) (*solver.Circuit, error) {
	return s.compile(ctx, 0)
}

// compile compiles the space within maxNodes decision nodes (0: the
// solver's default bound).
func (s *Space) compile(ctx context.Context, maxNodes int) (*solver.Circuit, error) {
	cnf := s.CNF
	if s.Unsat {
		// A requirement folded to false: an empty clause says so.
		cnf = &solver.CNF{NumVars: cnf.NumVars, Clauses: [][]int{{}}}
	}
	return solver.Compile(ctx, cnf, s.Projection(), solver.CompileOptions{MaxNodes: maxNodes})
}

// Variant reads one projected assignment (projection order) as a variant:
// the ids of its present elements and the values of its open inputs.
func (s *Space) Variant(values []bool) Variant {
	var v Variant
	for i, e := range s.Elements {
		if values[i] {
			v.Present = append(v.Present, e.ID)
		}
	}
	k := len(s.Elements)
	for _, in := range s.Inputs {
		for j := range in.Vars {
			if values[k+j] {
				v.Inputs = append(v.Inputs, Assignment{Name: in.Name, Value: in.Values[j]})
			}
		}
		k += len(in.Vars)
	}
	return v
}
