// Package resolve owns the Variability4TOSCA pipeline (variability.md §1):
// loading (§2), enrichment (§5, through package enrich), inputs and presets
// (§6), the validator (§7), encoding and solving with optimisation,
// uniqueness and the tie-break (§8–10), the checker (§11) and the output
// transformation to tosca_simple_yaml_1_3 (§12).
//
// Errors are the reference's messages, verbatim, as *diag.Diagnostic; the
// first error of the first failing stage is returned, as the reference
// throws it.
package resolve

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"v4t/encode"
	"v4t/model/diag"
	"v4t/model/expr"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/resolve/enrich"
)

// Input names what to resolve.
type Input struct {
	// TemplatePath is the variable service template. With TemplateData it
	// is only the template's name in positions ("<stdin>" for standard
	// input), and its directory (that of "<stdin>" is the working
	// directory) is where imports, side files and lib/ are found.
	TemplatePath string
	// TemplateData, when not nil, is the template's content, read by the
	// caller (v4t --template - reads standard input): the resolver then
	// does not read TemplatePath. At most yamlsrc.MaxFileSize bytes.
	TemplateData []byte
	// InputsPath is an optional variability inputs file (YAML, or a
	// FeatureIDE configuration named .xml).
	InputsPath string
	// InputsData, when not nil, is the content of the inputs file (YAML),
	// read by the caller; InputsPath then only names it in positions.
	InputsData []byte
	// Presets are applied in order before the inputs file.
	Presets []string
	// Inputs are single assignments applied after presets and the inputs
	// file (the CLI's --input NAME=VALUE).
	Inputs []Assignment
}

// Assignment is one variability input value, or one option override.
type Assignment struct {
	Name  string
	Value *yamlsrc.Value
	// Origin says where the assignment was written, for a warning about
	// it (names.go): the command-line flag with its text, e.g.
	// "--input siz=large", or the position of its key in a file, e.g.
	// "space.yaml:7:9". Empty: the warning has no origin.
	Origin string
}

// Options tune a run.
type Options struct {
	// LookupEnv reads OPENTOSCA_VINTNER_VARIABILITY_PRESETS and Environ lists
	// the environment for OPENTOSCA_VINTNER_VARIABILITY_INPUT_* variables;
	// both nil means no environment, as in the conformance runner.
	LookupEnv func(string) (string, bool)
	Environ   func() []string
	// Now is the clock for date operators; zero means time.Now.
	Now time.Time
	// Debug keeps stack traces of internal errors.
	Debug bool
	// Overrides set variability options (topology_template.variability.options)
	// before anything else reads them, e.g. optimization_topology=max.
	Overrides []Assignment
	// AllowOutside lets the template's imports and side files leave its
	// directory tree.
	AllowOutside bool
	// Explain adds, when the problem is unsatisfiable ("Could not solve"), a
	// minimal set of conflicting conditions to the diagnostic's Related list.
	Explain bool
	// Dump, when set, receives the encoded formula before solving.
	Dump func(*Formula) error
	// Timings, when set, receives the duration of every stage.
	Timings *Timings
	// Report, when set, receives the present nodes and relations, their
	// total weight and whether the result was unique, when resolving
	// succeeds.
	Report *Report
	// Warn, when set, receives each warning about malformed input that v4t,
	// like the reference, accepts by coercing it (README, "Malformed
	// input"), as soon as it is found.
	Warn diag.Sink
}

// Timings are the durations of the pipeline's stages.
type Timings struct {
	// Parse reads the template, its side files and the type definitions.
	Parse time.Duration
	// Enrich builds graphs #1 and #2, enriches, and assigns the inputs.
	Enrich time.Duration
	// Graph builds graph #3 and runs the validator.
	Graph time.Duration
	// Encode translates conditions and constraints into CNF.
	Encode time.Duration
	// Solve solves, optimises, checks uniqueness and breaks ties.
	Solve time.Duration
	// Transform evaluates property values, runs the checker and builds the
	// output document.
	Transform time.Duration
}

// stopwatch records stage durations into optional Timings.
type stopwatch struct {
	t    *Timings
	last time.Time
}

func newStopwatch(t *Timings) *stopwatch { return &stopwatch{t: t, last: time.Now()} }

// skip starts the next lap now, leaving out the time since the last one.
func (s *stopwatch) skip() { s.last = time.Now() }

// lap adds the time since the previous lap to *field.
func (s *stopwatch) lap(field func(*Timings) *time.Duration) {
	if s.t == nil {
		return
	}
	now := time.Now()
	*field(s.t) += now.Sub(s.last)
	s.last = now
}

// Resolve runs the pipeline and returns the resolved document. A failure is
// returned as a *diag.Diagnostic whose Message is the reference's message.
func Resolve(ctx context.Context, in Input, opts Options) (out *yamlsrc.Value, err error) {
	defer recoverInternal(in, opts, &err)
	p, err := prepare(ctx, in, opts)
	if err != nil {
		return nil, err
	}
	sw := newStopwatch(opts.Timings)
	enc, err := p.encode()
	if err != nil {
		return nil, err
	}
	sw.lap(func(t *Timings) *time.Duration { return &t.Encode })
	if opts.Dump != nil {
		if err := opts.Dump(p.formula(enc)); err != nil {
			return nil, err
		}
		sw.skip()
	}
	model, unique, err := solve(ctx, p.g, enc, p.ev, opts.Explain)
	if err != nil {
		return nil, err
	}
	sw.lap(func(t *Timings) *time.Duration { return &t.Solve })
	if err := p.finish(p.g, p.ev, enc, model); err != nil {
		return nil, err
	}
	sw.lap(func(t *Timings) *time.Duration { return &t.Transform })
	if opts.Report != nil {
		*opts.Report = *report(p.g, unique)
	}
	return p.doc, nil
}

// recoverInternal turns a panic into an internal-error diagnostic.
func recoverInternal(in Input, opts Options, err *error) {
	if r := recover(); r != nil {
		msg := fmt.Sprintf("internal error: %v (please report this as a bug)", r)
		if opts.Debug {
			msg += "\n" + string(debug.Stack())
		}
		*err = diag.At(diag.Pos{File: in.TemplatePath}, "internal", msg)
	}
}

// prepared is the pipeline up to graph #3 and the validator.
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
}

func prepare(ctx context.Context, in Input, opts Options) (*prepared, error) {
	return prepareFor(ctx, in, opts, false)
}

// prepareFor is prepare; with deferInputs the validator checks the form of
// the feature constraints between inputs but not the assigned values, which
// a space with open inputs constrains instead (BuildSpace).
func prepareFor(ctx context.Context, in Input, opts Options, deferInputs bool) (*prepared, error) {
	sw := newStopwatch(opts.Timings)
	l, err := loadTemplate(in.TemplatePath, in.TemplateData, opts.AllowOutside, opts.Warn)
	if err != nil {
		return nil, err
	}
	sw.lap(func(t *Timings) *time.Duration { return &t.Parse })
	doc := l.doc
	file := in.TemplatePath
	names := newNameCheck(in, opts, doc)
	names.options(opts.Overrides)
	if err := applyOverrides(doc, opts.Overrides); err != nil {
		return nil, err
	}

	// Enrichment (§5): graph #1, element enrichment, graph #2, conditions,
	// constraints, cleanup.
	g1, err := graph.BuildWarn(doc, file, opts.Warn)
	if err != nil {
		return nil, err
	}
	changed, err := enrich.Elements(g1)
	if err != nil {
		return nil, err
	}
	// Graph #2 is a rebuild of the document after element enrichment; when
	// that changed nothing, the rebuild would reproduce graph #1 exactly
	// (fallback properties included), so it is skipped.
	g2 := g1
	if changed {
		if g2, err = graph.Build(doc, file); err != nil {
			return nil, err
		}
	}
	if err := enrich.Conditions(g2); err != nil {
		return nil, err
	}
	if err := enrich.Constraints(g2); err != nil {
		return nil, err
	}
	if err := enrich.Cleanup(g2); err != nil {
		return nil, err
	}

	// Inputs (§6).
	assigned, err := assignments(doc, in, opts, names)
	if err != nil {
		return nil, err
	}

	if err := hotfixBratans(doc, file); err != nil {
		return nil, err
	}
	sw.lap(func(t *Timings) *time.Duration { return &t.Enrich })

	// Graph #3: what rebuilding the enriched document would give.
	g3 := g2
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
	p := &prepared{in: in, opts: opts, file: file, doc: doc, g: g3, assigned: assigned, now: now, topology: l.topology}
	p.ev = p.evaluator(g3, assigned)
	sw.lap(func(t *Timings) *time.Duration { return &t.Graph })
	return p, nil
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

func (p *prepared) encode() (*encode.Result, error) {
	return encode.Encode(p.g, p.ev, encode.Options{Groups: p.opts.Explain, Warn: p.opts.Warn})
}

// finish applies a model to a graph: presence, property values (§10.3), the
// checker (§11) and the output transformation (§12).
func (p *prepared) finish(g *graph.Graph, ev *expr.Evaluator, enc *encode.Result, model []bool) error {
	for i, e := range g.Elements {
		e.Present = model[enc.ElementVars[i]]
	}
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
			return diag.At(prop.Pos(), diag.StageSolve, prop.DisplayUpper()+" has no value")
		}
	}
	if err := check(g); err != nil {
		return err
	}
	return transform(g, p.topology)
}

// applyOverrides sets variability options from the command line.
func applyOverrides(doc *yamlsrc.Value, overrides []Assignment) error {
	if len(overrides) == 0 {
		return nil
	}
	topo := doc.Get("topology_template")
	if !topo.IsMap() {
		topo = yamlsrc.NewMap()
		doc.Map.Set("topology_template", topo)
	}
	o := childMap(childMap(topo, "variability"), "options")
	for _, a := range overrides {
		o.Map.Set(a.Name, yamlsrc.Clone(a.Value))
	}
	return nil
}

// hotfixBratans marks the document so that graph #3 does not add fallback
// properties again (the reference's "bratans unknown" hot fix, §1 step 5).
// It sets the option where the reference does, which fails on variability
// options that are a string (the cleanup removed empty ones, and the
// normaliser refused numbers and booleans). A list or a date takes the
// key in the reference and has no others that are read: it is replaced by
// a map here (childMap), which the output drops with the options as well.
func hotfixBratans(doc *yamlsrc.Value, file string) error {
	topo := doc.Get("topology_template")
	if topo.IsNull() {
		return nil
	}
	vb := childMap(topo, "variability")
	if o := vb.Get("options"); o != nil && (o.Kind == yamlsrc.KindString || o.Kind == yamlsrc.KindNumber || o.Kind == yamlsrc.KindBool) {
		return diag.AtRef(diag.Pos{File: file, Line: int(o.Line), Col: int(o.Col)}, diag.StageInputs,
			"expected variability options as a map, found "+graph.Describe(o), graph.CannotCreateProperty("bratans_unknown", o))
	}
	childMap(vb, "options").Map.Set("bratans_unknown", yamlsrc.NewBool(true))
	return nil
}

// childMap returns m's map under key, replacing a missing or non-map value
// by a new map.
func childMap(m *yamlsrc.Value, key string) *yamlsrc.Value {
	c := m.Get(key)
	if !c.IsMap() {
		c = yamlsrc.NewMap()
		m.Map.Set(key, c)
	}
	return c
}

func withPos(err error, e *graph.Element) error {
	if d, ok := diag.As(err); ok && !d.Pos.Known() {
		d.Pos = e.Pos()
	}
	return err
}
