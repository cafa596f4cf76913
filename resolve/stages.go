package resolve

import (
	"context"
	"errors"
	"time"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/expr"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/resolve/enrich"
	"v4t/solver"
)

// Spec variability.md §1 (the pipeline). The stages below run in this
// order. Each is a plain function whose parameters are the typed results of
// earlier stages and whose result is what later stages require, as
// go/analysis passes declare theirs: a stage cannot run before the stages
// whose results it takes. A stage owns what it is given and may change it
// (enrichment and graph #3 change the document and the graph in place), so
// each result goes to the stages after it only. The last column is the
// Timings field the stage's duration is added to.
//
//	stage           §1 steps  requires                            returns         lap
//	loadStage       2         Input                               *loaded         Parse
//	enrichStage     3         *loaded                             enriched        Enrich
//	inputsStage     4, 5      enriched                            assigned inputs Enrich
//	graphStage      6, 7      enriched, assigned inputs           *prepared       Graph
//	encodeStage     8         *prepared                           *encode.Result  Encode
//	solveStage      8         *prepared, *encode.Result           solved          Solve
//	finishStage     8–10      *prepared, *encode.Result, solved   the document    Transform
//
// Resolve runs them all; prepareFor the first four, which BuildSpace and
// Prepare share.

// enriched is enrichStage's result: the document after the option
// overrides and enrichment (§5), and graph #2 built from it.
type enriched struct {
	file string
	doc  *yamlsrc.Value
	// g is graph #2 after condition and constraint enrichment and the
	// cleanup.
	g *graph.Graph
	// topology is the template's topology_template where it is a list or
	// a date (loaded.topology), for the output.
	topology *yamlsrc.Value
	// names warns about unknown input names; the inputs stage uses it.
	names *nameCheck
	// aliased says that the template uses an alias (loaded.aliased).
	aliased bool
}

// prepared is graphStage's result: graph #3 after the validator, with what
// encoding, solving and the output need.
type prepared struct {
	in   Input
	opts Options
	file string
	// doc is the enriched document graph #3 was built from; g is graph #3.
	doc      *yamlsrc.Value
	g        *graph.Graph
	assigned *yamlsrc.Value
	ev       *expr.Evaluator
	now      time.Time
	// topology is the template's topology_template where it is a list or
	// a date (loaded.topology), for the output.
	topology *yamlsrc.Value
	// aliased says that the template uses an alias (loaded.aliased).
	aliased bool
}

// solved is solveStage's result.
type solved struct {
	// model is the presence of every variable of the encoding.
	model []bool
	// unique is false when the tie-break had to choose (§10.4).
	unique bool
	// stats is the solver's work.
	stats solver.Stats
}

// prepareFor runs the stages up to graph #3 and the validator, adding their
// durations to sw (nil: not timed). With deferInputs the validator checks
// the form of the feature constraints between inputs but not the assigned
// values, which a space with open inputs constrains instead (BuildSpace).
// rebuilds says that graphs are built anew from the enriched document
// later (a space's variants), which then must hold the final conditions.
func prepareFor(ctx context.Context, in Input, opts Options, deferInputs, rebuilds bool, sw *stopwatch) (*prepared, error) {
	l, err := loadStage(in, opts)
	if err != nil {
		return nil, err
	}
	sw.lap(parseLap)
	e, err := enrichStage(l, in, opts, rebuilds || opts.Explain || l.aliased || opts.writeBack)
	if err != nil {
		return nil, err
	}
	assigned, err := inputsStage(&e, in, opts)
	if err != nil {
		return nil, err
	}
	sw.lap(enrichLap)
	p, err := graphStage(ctx, &e, assigned, in, opts, deferInputs)
	if err != nil {
		return nil, err
	}
	sw.lap(graphLap)
	return p, nil
}

// loadStage is §1 step 2 (§2): the template, its side files and the type
// definitions.
func loadStage(in Input, opts Options) (*loaded, error) {
	// Every entry point loads once: what the last one with this Scratch
	// allocated there is free again.
	opts.Scratch.reset()
	if opts.Templates != nil && in.TemplateData == nil {
		return opts.Templates.load(in.TemplatePath, opts.AllowOutside, opts.Warn, opts.Scratch.parts().copies)
	}
	return loadTemplate(in.TemplatePath, in.TemplateData, opts.AllowOutside, opts.Warn)
}

// enrichStage is §1 step 3, after the option overrides: graph #1, element
// enrichment, graph #2, condition and constraint enrichment and the
// cleanup (§5). writeBack says that the document is read again after the
// cleanup (enrich.Cleanup).
func enrichStage(l *loaded, in Input, opts Options, writeBack bool) (enriched, error) {
	names, err := applyOptions(l, in, opts)
	if err != nil {
		return enriched{}, err
	}
	file := in.TemplatePath
	// Without the write-back, nothing writes into a type's map after the
	// build, and nothing reads the document's technology lists again.
	sp := opts.Scratch.parts()
	g1, err := graph.BuildWith(l.doc, file, graph.BuildOptions{Warn: opts.Warn, Lean: !writeBack, Arrays: sp.graphs, Values: sp.values})
	if err != nil {
		return enriched{}, err
	}
	changed, err := enrich.Elements(g1)
	if err != nil {
		return enriched{}, err
	}
	// Graph #2 is a rebuild of the document after element enrichment; when
	// that changed nothing, the rebuild would reproduce graph #1 exactly
	// (fallback properties included), so it is skipped.
	g2 := g1
	if changed {
		if g2, err = graph.BuildWith(l.doc, file, graph.BuildOptions{Arrays: sp.graphs, Values: sp.values}); err != nil {
			return enriched{}, err
		}
	}
	// Conditions, Constraints and Cleanup, in one (enrich.Enrich).
	if err := enrich.Enrich(g2, writeBack); err != nil {
		return enriched{}, err
	}
	return enriched{file: file, doc: l.doc, g: g2, topology: l.topology, names: names, aliased: l.aliased}, nil
}

// applyOptions warns about unknown option names, then sets the option
// overrides in the loaded document (§4). The returned check warns about
// unknown input names later.
func applyOptions(l *loaded, in Input, opts Options) (*nameCheck, error) {
	names := newNameCheck(in, opts, l.doc)
	names.options(opts.Overrides)
	if err := applyOverrides(l.doc, opts.Overrides); err != nil {
		return nil, err
	}
	return names, nil
}

// inputsStage is §1 steps 4 and 5: the presets, the inputs file and the
// single assignments (§6) give the assigned inputs; then the "bratans
// unknown" hot fix marks the document for graph #3.
func inputsStage(e *enriched, in Input, opts Options) (*yamlsrc.Value, error) {
	assigned, err := assignments(e.doc, in, opts, e.names)
	if err != nil {
		return nil, err
	}
	if err := hotfixBratans(e.doc, e.file); err != nil {
		return nil, err
	}
	return assigned, nil
}

// graphStage is §1 steps 6 and 7: graph #3, what rebuilding the enriched
// document would give, and the validator (§7). It returns graph #3 with
// the evaluator of its value expressions.
func graphStage(ctx context.Context, e *enriched, assigned *yamlsrc.Value, in Input, opts Options, deferInputs bool) (*prepared, error) {
	g3 := e.g
	if err := graph.AfterCleanup(g3); err != nil {
		return nil, err
	}
	if err := validate(ctx, g3, assigned, deferInputs); err != nil {
		return nil, err
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	p := &prepared{in: in, opts: opts, file: e.file, doc: e.doc, g: g3, assigned: assigned, now: now, topology: e.topology, aliased: e.aliased}
	p.ev = p.evaluator(g3, assigned)
	return p, nil
}

// encodeStage is the first half of §1 step 8: conditions, constraints and
// implications of graph #3 as CNF (§8).
func encodeStage(p *prepared) (*encode.Result, error) {
	return encode.Encode(p.g, p.ev, encode.Options{Groups: p.opts.Explain, Warn: p.opts.Warn, Unshared: !p.aliased,
		Arrays: p.opts.Scratch.parts().clauses})
}

// solveStage is the second half of §1 step 8: solving, optimisation,
// uniqueness and the tie-break (§9–10).
func solveStage(ctx context.Context, p *prepared, enc *encode.Result) (solved, error) {
	var stats solver.Stats
	model, unique, err := solve(ctx, p.g, enc, p.ev, p.opts.Explain, &stats)
	return solved{model: model, unique: unique, stats: stats}, err
}

// finishStage is §1 steps 8 (the end) to 10 on graph #3: it applies the
// model and returns the output document (finish).
func finishStage(p *prepared, enc *encode.Result, s solved) (*yamlsrc.Value, error) {
	if err := p.finish(p.g, p.ev, enc, s.model); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// evaluator returns a value-expression evaluator for a graph build.
func (p *prepared) evaluator(g *graph.Graph, assigned *yamlsrc.Value) *expr.Evaluator {
	vb := g.Variability()
	return expr.New(expr.Env{
		Expressions: vb.Get("expressions"),
		Inputs:      vb.Get("inputs"),
		Assigned:    assigned,
		Now:         p.now,
		File:        p.file,
	})
}

// finish applies a model to a graph, graph #3 or a rebuild of its document
// (enumerate): presence, property values (§10.3), the checker (§11) and
// the output transformation (§12).
func (p *prepared) finish(g *graph.Graph, ev *expr.Evaluator, enc *encode.Result, model []bool) error {
	for i, e := range g.Elements {
		e.Present = model[enc.ElementVars[i]]
	}
	if err := propertyValues(g, ev); err != nil {
		return err
	}
	if err := check(g, p.opts.Scratch.parts().present); err != nil {
		return err
	}
	return transform(g, p.topology)
}

// propertyValues evaluates the value expressions of the present properties
// (§10.3); a present property must have a value.
func propertyValues(g *graph.Graph, ev *expr.Evaluator) error {
	for _, prop := range g.Properties {
		if !prop.Present {
			continue
		}
		if !prop.Expression.IsNull() {
			v, err := ev.Eval(prop.Expression)
			if err != nil {
				return withPos(err, prop)
			}
			prop.Value = v
		}
		if prop.Value.IsNull() {
			return diag.At(prop.Pos(), diag.StageSolve, msgHasNoValue(prop))
		}
	}
	return nil
}

// Stages runs the pipeline one stage at a time, so that benchmarks can time
// each stage on its own. Resolve is the same sequence in one call.
type Stages struct {
	p   *prepared
	enc *encode.Result
	// s is the last Solve's result; s.model is nil before a successful one.
	s    solved
	done bool
}

// Prepare loads the template and runs enrichment, inputs, graph #3 and the
// validator.
func Prepare(ctx context.Context, in Input, opts Options) (s *Stages, err error) {
	defer recoverInternal(in, opts, &err)
	p, err := prepareFor(ctx, in, opts, false, false, nil)
	if err != nil {
		return nil, err
	}
	return &Stages{p: p}, nil
}

// Encode translates graph #3 into CNF; it may be repeated.
func (s *Stages) Encode() (vars, clauses int, err error) {
	defer recoverInternal(s.p.in, s.p.opts, &err)
	enc, err := encodeStage(s.p)
	if err != nil {
		return 0, 0, err
	}
	s.enc = enc
	return enc.NumVars, len(enc.Clauses.Refs), nil
}

// Solve solves the encoded problem with optimisation, uniqueness checks and
// the tie-break; it may be repeated after Encode.
func (s *Stages) Solve(ctx context.Context) (err error) {
	defer recoverInternal(s.p.in, s.p.opts, &err)
	if s.enc == nil {
		return errors.New("resolve: Solve before Encode")
	}
	s.s, err = solveStage(ctx, s.p, s.enc)
	return err
}

// Transform evaluates property values, runs the checker and builds the
// output document. It changes the document, so it runs once.
func (s *Stages) Transform() (doc *yamlsrc.Value, err error) {
	defer recoverInternal(s.p.in, s.p.opts, &err)
	if s.s.model == nil {
		return nil, errors.New("resolve: Transform before Solve")
	}
	if s.done {
		return nil, errors.New("resolve: Transform runs once")
	}
	s.done = true
	return finishStage(s.p, s.enc, s.s)
}
