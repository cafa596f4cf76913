package resolve

import (
	"strings"

	"v4t/encode"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/solver/logic"
)

// Spec variability.md §10.4 (ties). When several optimal models survive the
// optimisation and uniqueness steps, the reference reports whichever model
// its SAT solver (MiniSat inside logic-solver) returns. Package solver/logic
// is a bit-exact port of both; replaying the reference's calls on it gives
// the reference's model. This only runs when our own solver found a tie.

// emulationLimit bounds the size of the problems that are replayed; larger
// ties fall back to the greedy-false rule.
const emulationLimit = 200000

// logicBackend receives the translator's calls as logic-solver formulas.
type logicBackend struct {
	s   *logic.Solver
	err error
}

var _ encode.Backend[any] = (*logicBackend)(nil)

func (b *logicBackend) True() any                    { return logic.True }
func (b *logicBackend) False() any                   { return logic.False }
func (b *logicBackend) Term(name string) any         { return name }
func (b *logicBackend) Element(e *graph.Element) any { return e.ID() }
func (b *logicBackend) Manual(e *graph.Element) any  { return e.ManualID() }
func (b *logicBackend) Not(f any) any                { return logic.Not(f) }
func (b *logicBackend) And(fs ...any) any            { return logic.And(fs...) }
func (b *logicBackend) Or(fs ...any) any             { return logic.Or(fs...) }
func (b *logicBackend) Xor(fs ...any) any            { return logic.Xor(fs...) }
func (b *logicBackend) Exo(fs ...any) any            { return logic.ExactlyOne(fs...) }
func (b *logicBackend) Amo(fs ...any) any            { return logic.AtMostOne(fs...) }
func (b *logicBackend) Implies(x, y any) any         { return logic.Implies(x, y) }
func (b *logicBackend) Group(encode.Group)           {}
func (b *logicBackend) Require(f any) {
	if b.err == nil {
		b.err = b.s.Require(f)
	}
}
func (b *logicBackend) RequireEquiv(x, y any) { b.Require(logic.Equiv(x, y)) }

// emulate replays the reference's solver calls (§8, §10.2) and returns the
// presence of every element in the model the reference would report, or
// false when the replay cannot be trusted (it failed, or its verdicts differ
// from ours).
func emulate(g *graph.Graph, ev encode.Evaluator) (present []bool, ok bool) {
	defer func() {
		// The port panics only on bugs; fall back rather than fail.
		if r := recover(); r != nil {
			present, ok = nil, false
		}
	}()
	s := logic.NewSolver()
	b := &logicBackend{s: s}
	if err := encode.Translate[any](g, ev, b); err != nil || b.err != nil {
		return nil, false
	}
	current, err := s.Solve()
	if err != nil || current == nil {
		return nil, false
	}
	ids := func(es []*graph.Element) []any {
		out := make([]any, len(es))
		for i, e := range es {
			out[i] = e.ID()
		}
		return out
	}
	optimize := func(min bool, formulas []any, weights []int) bool {
		var next *logic.Solution
		var err error
		if min {
			next, err = s.MinimizeWeightedSum(current, formulas, weights)
		} else {
			next, err = s.MaximizeWeightedSum(current, formulas, weights)
		}
		if err != nil || next == nil {
			return false
		}
		current = next
		return true
	}
	// unique replays a uniqueness check; another model means our verdict and
	// the replay disagree.
	unique := func(prefix string, wrap bool) bool {
		var present, absent []any
		m := current.GetMap()
		for v := 1; v <= len(current.Assignment())-1; v++ {
			name, err := s.GetVarName(v)
			if err != nil || name == "" || name[0] == '$' || !strings.HasPrefix(name, prefix) {
				continue
			}
			if m[name] {
				present = append(present, name)
			} else {
				absent = append(absent, name)
			}
		}
		f := logic.And(logic.And(present...), logic.Not(logic.Or(absent...)))
		if wrap {
			f = logic.And(f)
		}
		another, err := s.SolveAssuming(logic.Not(f))
		return err == nil && another == nil
	}
	o := g.Options.Solver
	if o.Topology.Optimize {
		ws := make([]int, len(g.Nodes))
		for i, n := range g.Nodes {
			ws[i] = 1
			if o.Topology.Mode == "weight" {
				ws[i] = int(n.Weight * 100)
			}
		}
		if !optimize(o.Topology.Min, ids(g.Nodes), ws) {
			return nil, false
		}
	}
	if o.Topology.Unique && !unique("node", false) {
		return nil, false
	}
	t := o.Technologies
	if t.Optimize {
		if strings.Contains(t.Mode, "weight") {
			ws := make([]int, len(g.Technologies))
			for i, tech := range g.Technologies {
				ws[i] = int(tech.Weight * 100)
			}
			min := t.Min
			if strings.Contains(t.Mode, "count") {
				min = false
			}
			if !optimize(min, ids(g.Technologies), ws) {
				return nil, false
			}
		}
		if strings.Contains(t.Mode, "count") {
			// The reference groups technologies by name in a JavaScript
			// object, whose key order puts array-index names first.
			order := yamlsrc.NewMap()
			groups := map[string][]*graph.Element{}
			for _, tech := range g.Technologies {
				if _, seen := groups[tech.Name]; !seen {
					order.Map().Set(tech.Name, yamlsrc.NewNull())
				}
				groups[tech.Name] = append(groups[tech.Name], tech)
			}
			var formulas []any
			var ws []int
			for _, name := range order.Map().Keys() {
				formulas = append(formulas, logic.Or(ids(groups[name])...))
				ws = append(ws, 1)
			}
			min := t.Min
			if strings.Contains(t.Mode, "weight") {
				min = true
			}
			if !optimize(min, formulas, ws) {
				return nil, false
			}
		}
	}
	if t.Unique && !unique("technology", true) {
		return nil, false
	}
	m := current.GetMap()
	present = make([]bool, len(g.Elements))
	for i, e := range g.Elements {
		v, known := m[e.ID()]
		if !known {
			return nil, false
		}
		present[i] = v
	}
	return present, true
}
