package resolve

import (
	"context"
	"io"
	"math"
	"sort"
	"strings"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/js"
	"v4t/model/yamlsrc"
	"v4t/solver"
)

// Spec variability.md §10 (solving, optimisation, uniqueness, tie-break).

// weightError is the reference's whole-number check on optimisation weights
// (×100 in double arithmetic): "<weights> is not an array of a whole number
// (integer >= 0)", at the first bad weight. elems are the elements the
// weights belong to, in the same order.
func weightError(ws []float64, elems []*graph.Element) error {
	for i, w := range ws {
		if w != math.Trunc(w) || w < 0 || w > math.MaxInt32 {
			parts := make([]string, len(ws))
			for i, x := range ws {
				parts[i] = js.FormatNumber(x)
			}
			return diag.At(elems[i].WeightPos(), diag.StageSolve, msgNotWholeNumbers(strings.Join(parts, ",")))
		}
	}
	return nil
}

// plan is the sequence of optimisation and uniqueness steps, each with the
// message to report when its uniqueness check fails, and a weight error to
// report once the steps before it have succeeded.
type plan struct {
	steps     []solver.Step
	messages  []string
	badWeight error
	badAt     int
}

func buildPlan(g *graph.Graph, enc *encode.Result) *plan {
	p := &plan{badAt: -1}
	o := g.Options.Solver
	add := func(s solver.Step, msg string) {
		p.steps = append(p.steps, s)
		p.messages = append(p.messages, msg)
	}
	weightCheck := func(ws []float64, elems []*graph.Element) bool {
		if p.badWeight != nil {
			return false
		}
		if err := weightError(ws, elems); err != nil {
			p.badWeight, p.badAt = err, len(p.steps)
			return false
		}
		return true
	}
	objective := func(lits []int, ws []float64, maximize bool) *solver.Objective {
		ob := &solver.Objective{Lits: lits, Weights: make([]int64, len(ws)), Maximize: maximize}
		for i, w := range ws {
			ob.Weights[i] = int64(w)
		}
		return ob
	}

	// Topology.
	mode := "without"
	if o.Topology.Optimize {
		mode = "besides"
	}
	topoMsg := msgAmbiguousResult("nodes", mode)
	var topo solver.Step
	if o.Topology.Optimize {
		lits := make([]int, len(g.Nodes))
		ws := make([]float64, len(g.Nodes))
		for i, n := range g.Nodes {
			lits[i] = enc.ElementVars[i+len(g.Types)]
			if o.Topology.Mode == "weight" {
				ws[i] = n.Weight * 100
			} else {
				ws[i] = 1
			}
		}
		if !weightCheck(ws, g.Nodes) {
			return p
		}
		topo.Objective = objective(lits, ws, !o.Topology.Min)
	}
	if o.Topology.Unique {
		topo.Unique = true
		topo.Projection = enc.NodeVars
	}
	if topo.Objective != nil || topo.Unique {
		add(topo, topoMsg)
	}

	// Technologies.
	t := o.Technologies
	mode = "without"
	if t.Optimize {
		mode = "besides"
	}
	techMsg := msgAmbiguousResult("technologies", mode)
	if t.Optimize {
		techStart := len(g.Types) + len(g.Nodes) + len(g.Relations) + len(g.Properties) + len(g.Policies) +
			len(g.Groups) + len(g.Inputs) + len(g.Artifacts) + len(g.Imports)
		if strings.Contains(t.Mode, "weight") {
			lits := make([]int, len(g.Technologies))
			ws := make([]float64, len(g.Technologies))
			for i, tech := range g.Technologies {
				lits[i] = enc.ElementVars[techStart+i]
				ws[i] = tech.Weight * 100
			}
			if !weightCheck(ws, g.Technologies) {
				return p
			}
			maximize := true
			if !strings.Contains(t.Mode, "count") {
				maximize = !t.Min
			}
			add(solver.Step{Objective: objective(lits, ws, maximize)}, techMsg)
		}
		if strings.Contains(t.Mode, "count") {
			ws := make([]float64, len(enc.TechnologyNameLits))
			for i := range ws {
				ws[i] = 1
			}
			maximize := false
			if !strings.Contains(t.Mode, "weight") {
				maximize = !t.Min
			}
			add(solver.Step{Objective: objective(enc.TechnologyNameLits, ws, maximize)}, techMsg)
		}
	}
	if t.Unique {
		if t.Optimize && len(p.steps) > 0 && p.steps[len(p.steps)-1].Objective != nil && p.messages[len(p.messages)-1] == techMsg {
			last := &p.steps[len(p.steps)-1]
			last.Unique = true
			last.Projection = enc.TechnologyVars
		} else {
			add(solver.Step{Unique: true, Projection: enc.TechnologyVars}, techMsg)
		}
	}
	return p
}

// Formula is the encoded problem handed to a dump: the CNF with a name per
// variable and the first optimisation objective, if any.
type Formula struct {
	CNF       *solver.CNF
	Names     []string
	Objective *solver.Objective
}

// WriteDIMACS writes the formula in DIMACS CNF with a comment line naming
// each variable.
func (f *Formula) WriteDIMACS(w io.Writer) error { return solver.WriteDIMACS(w, f.CNF, f.Names) }

// WriteOPB writes the formula in OPB with the first optimisation objective.
func (f *Formula) WriteOPB(w io.Writer) error {
	return solver.WriteOPB(w, f.CNF, f.Objective, f.Names)
}

func (p *prepared) formula(enc *encode.Result) *Formula {
	f := &Formula{CNF: &solver.CNF{NumVars: enc.NumVars, Packed: solver.Packed(enc.Clauses)}, Names: enc.Names()}
	for _, s := range buildPlan(p.g, enc).steps {
		if s.Objective != nil {
			f.Objective = s.Objective
			break
		}
	}
	return f
}

// solve solves the encoded graph #3, optimises, checks uniqueness and
// breaks ties; it returns the model and whether the steps decided every
// element (false when the tie-break had to choose, §10.4).
func solve(ctx context.Context, g *graph.Graph, enc *encode.Result, ev encode.Evaluator, explain bool, stats *solver.Stats) ([]bool, bool, error) {
	couldNot := func() error {
		d := diag.At(diag.Pos{File: g.File}, diag.StageSolve, msgCouldNotSolve)
		if explain {
			d.Related = explainUnsat(ctx, g, enc)
		}
		return d
	}
	if enc.Unsat {
		return nil, false, couldNot()
	}
	p := buildPlan(g, enc)
	cnf := &solver.CNF{NumVars: enc.NumVars, Packed: solver.Packed(enc.Clauses)}
	steps := p.steps
	if p.badWeight != nil {
		steps = steps[:p.badAt]
	}
	// One more uniqueness step, over all element variables, tells whether
	// the element assignment is decided by the steps (almost always); only a
	// tie needs a rule to pick a model (§10.4).
	withTie := append(append([]solver.Step(nil), steps...), solver.Step{Unique: true, Projection: enc.ElementVars})
	res, err := solver.Solve(ctx, cnf, withTie, nil)
	if err != nil {
		return nil, false, err
	}
	stats.Add(res.Stats)
	if !res.Sat {
		return nil, false, couldNot()
	}
	if res.Ambiguous >= 0 && res.Ambiguous < len(steps) {
		return nil, false, diag.At(diag.Pos{File: g.File}, diag.StageSolve, p.messages[res.Ambiguous])
	}
	if p.badWeight != nil {
		return nil, false, p.badWeight
	}
	if res.Ambiguous < 0 {
		return res.Model, true, nil
	}
	// A tie: replay the reference's solver to pick its model, and check the
	// replay against our own encoding before trusting it.
	if len(enc.Clauses.Refs) <= emulationLimit {
		if present, ok := emulate(g, ev); ok {
			if model, ok := completeModel(ctx, cnf, enc, present, stats); ok {
				return model, false, nil
			}
		}
	}
	res, err = solver.Solve(ctx, cnf, steps, enc.ElementVars)
	if err != nil {
		return nil, false, err
	}
	stats.Add(res.Stats)
	return res.Model, false, nil
}

// completeModel checks that fixing every element to the given presence is
// consistent with the encoding and returns a full model if so.
func completeModel(ctx context.Context, cnf *solver.CNF, enc *encode.Result, present []bool, stats *solver.Stats) ([]bool, bool) {
	fixed := &solver.CNF{NumVars: cnf.NumVars, Clauses: make([][]int, 0, len(enc.Clauses.Refs)+len(present))}
	fixed.Clauses = append(fixed.Clauses, solver.Packed(enc.Clauses).List()...)
	for i, v := range enc.ElementVars {
		if present[i] {
			fixed.Clauses = append(fixed.Clauses, []int{v})
		} else {
			fixed.Clauses = append(fixed.Clauses, []int{-v})
		}
	}
	res, err := solver.Solve(ctx, fixed, nil, nil)
	if err != nil {
		return nil, false
	}
	stats.Add(res.Stats)
	if !res.Sat {
		return nil, false
	}
	return res.Model, true
}

// explainUnsat names a minimal set of conflicting conditions: for each, the
// element or constraint, the conditions as written, and the position.
func explainUnsat(ctx context.Context, g *graph.Graph, enc *encode.Result) []diag.Related {
	var groups []int
	if enc.Unsat {
		if enc.UnsatGroup > 0 {
			groups = []int{enc.UnsatGroup}
		}
	} else {
		var err error
		groups, err = solver.MinimalUnsat(ctx, &solver.CNF{NumVars: enc.NumVars, Packed: solver.Packed(enc.Clauses)}, enc.ClauseGroups)
		if err != nil {
			return []diag.Related{{Message: "no explanation: " + err.Error()}}
		}
	}
	sort.Ints(groups)
	var out []diag.Related
	for _, gi := range groups {
		gr := enc.Groups[gi-1]
		switch {
		case gr.Element != nil && gr.Implies:
			implies := gr.Element.Raw.Get("implies")
			out = append(out, diag.Related{Pos: valuePos(gr.Element, implies),
				Message: gr.Element.DisplayUpper() + " implies " + yamlsrc.JSON(implies)})
		case gr.Element != nil:
			out = append(out, diag.Related{Pos: conditionsPos(gr.Element), Message: describeConditions(gr.Element)})
		default:
			pos := diag.Pos{}
			what := "generated constraint "
			if c := gr.Constraint; c != nil && c.Line > 0 {
				pos = diag.Pos{File: g.File, Line: int(c.Line), Col: int(c.Col)}
				what = "constraint "
			}
			out = append(out, diag.Related{Pos: pos, Message: what + yamlsrc.JSON(gr.Constraint)})
		}
	}
	return out
}

// conditionsPos is where an element's conditions are written, for a
// conflict that involves them all (the encoding groups an element's whole
// condition list): the first of its final conditions that the element
// itself writes, else its conditions value, else the element. Generated
// conditions (defaults, pruning, type-specific ones from another file)
// have no position in the template.
func conditionsPos(e *graph.Element) diag.Pos {
	written := e.Raw.Get("conditions")
	at := map[[2]int32]bool{}
	if written.IsList() {
		for _, c := range written.List() {
			at[[2]int32{c.Line, c.Col}] = true
		}
	} else if written != nil {
		at[[2]int32{written.Line, written.Col}] = true
	}
	for _, c := range e.Conditions {
		if c != nil && c.Line > 0 && at[[2]int32{c.Line, c.Col}] {
			return valuePos(e, c)
		}
	}
	return valuePos(e, written)
}

// valuePos is the position of v, a value of element e's document, or the
// element's where v has none.
func valuePos(e *graph.Element, v *yamlsrc.Value) diag.Pos {
	if v == nil || v.Line == 0 {
		return e.Pos()
	}
	p := e.Pos()
	p.Line, p.Col = int(v.Line), int(v.Col)
	return p
}

// describeConditions renders an element's conditions, marking generated
// (default-condition and pruning) ones.
func describeConditions(e *graph.Element) string {
	if len(e.Conditions) == 0 {
		return e.DisplayUpper() + " is present (no conditions)"
	}
	parts := make([]string, len(e.Conditions))
	for i, c := range e.Conditions {
		if c.IsMap() && c.Get("_generated").IsTrue() {
			clone := yamlsrc.Clone(c)
			clone.Map().Delete("_generated")
			parts[i] = "generated " + yamlsrc.JSON(clone)
		} else if c.IsMap() && c.Get("_bratan").IsTrue() {
			clone := yamlsrc.Clone(c)
			clone.Map().Delete("_bratan")
			parts[i] = "default alternative " + yamlsrc.JSON(clone)
		} else {
			parts[i] = yamlsrc.JSON(c)
		}
	}
	return e.DisplayUpper() + " has conditions " + strings.Join(parts, ", ")
}
