// Package resolve owns the Variability4TOSCA pipeline (variability.md §1):
// loading (§2), enrichment (§5, through package enrich), inputs and presets
// (§6), the validator (§7), encoding and solving with optimisation,
// uniqueness and the tie-break (§8–10), the checker (§11) and the output
// transformation to tosca_simple_yaml_1_3 (§12).
//
// Resolve is the entry point: Input and Options in, a Result (the document,
// its Report, the stages' Timings) out. The stages, their order and what
// each requires and returns are listed in stages.go. Errors are the
// reference's messages, verbatim, as *diag.Diagnostic; the first error of
// the first failing stage is returned, as the reference throws it, and
// warnings go to Options.Warn.
package resolve

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/solver"
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
	// Report asks for Result.Report: the present nodes and relations, their
	// total weight and whether the result was unique. It costs a pass over
	// the nodes and relations, so it is made only when asked for.
	Report bool
	// Warn, when set, receives each warning about malformed input that v4t,
	// like the reference, accepts by coercing it (README, "Malformed
	// input"), as soon as it is found.
	Warn diag.Sink
	// Templates, when set, loads the template through that cache, for
	// many resolves of the same files (Templates); nil reads it anew.
	Templates *Templates
	// Scratch, when set, is where the resolve takes memory that it hands
	// on to the next one with the same Scratch (Scratch): what it returns
	// is then valid until that one starts.
	Scratch *Scratch

	// writeBack makes the cleanup write the final conditions back into the
	// document even where nothing reads them (enrich.Cleanup), so that
	// tests can show that skipping it changes nothing.
	writeBack bool
}

// Result is a resolved template.
type Result struct {
	// Doc is the resolved document (tosca_simple_yaml_1_3, §12).
	Doc *yamlsrc.Value
	// Report is what Doc contains, with Options.Report; else nil.
	Report *Report
	// Timings are the durations of the stages.
	Timings Timings
	// Solver is the solver's work in the solve stage (not the
	// validator's): no SAT call (Solves) and no search of our own
	// (OwnSearches) where propagation alone decided.
	Solver SolverStats
}

// SolverStats counts a solver's work (solver.Stats), for the packages
// above resolve, which do not import the solver.
type SolverStats = solver.Stats

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

// stopwatch records stage durations into Timings; a nil *stopwatch records
// nothing.
type stopwatch struct {
	t    *Timings
	last time.Time
}

func newStopwatch(t *Timings) stopwatch { return stopwatch{t: t, last: time.Now()} }

// skip starts the next lap now, leaving out the time since the last one.
func (s *stopwatch) skip() {
	if s != nil {
		s.last = time.Now()
	}
}

// lap adds the time since the previous lap to *field.
func (s *stopwatch) lap(field func(*Timings) *time.Duration) {
	if s == nil {
		return
	}
	now := time.Now()
	*field(s.t) += now.Sub(s.last)
	s.last = now
}

// The laps of Timings.
func parseLap(t *Timings) *time.Duration     { return &t.Parse }
func enrichLap(t *Timings) *time.Duration    { return &t.Enrich }
func graphLap(t *Timings) *time.Duration     { return &t.Graph }
func encodeLap(t *Timings) *time.Duration    { return &t.Encode }
func solveLap(t *Timings) *time.Duration     { return &t.Solve }
func transformLap(t *Timings) *time.Duration { return &t.Transform }

// Resolve runs the pipeline, the stages of stages.go in their order, and
// returns the resolved document with the stages' durations. A failure is
// returned as a *diag.Diagnostic whose Message is the reference's message;
// warnings go to Options.Warn as they are found.
func Resolve(ctx context.Context, in Input, opts Options) (res *Result, err error) {
	defer recoverInternal(in, opts, &err)
	out := &Result{}
	sw := newStopwatch(&out.Timings)
	p, err := prepareFor(ctx, in, opts, false, false, &sw)
	if err != nil {
		return nil, err
	}
	enc, err := encodeStage(p)
	if err != nil {
		return nil, err
	}
	sw.lap(encodeLap)
	if opts.Dump != nil {
		if err := opts.Dump(p.formula(enc)); err != nil {
			return nil, err
		}
		sw.skip()
	}
	s, err := solveStage(ctx, p, enc)
	if err != nil {
		return nil, err
	}
	sw.lap(solveLap)
	out.Solver = s.stats
	if out.Doc, err = finishStage(p, enc, s); err != nil {
		return nil, err
	}
	sw.lap(transformLap)
	if opts.Report {
		out.Report = report(p.g, s.unique)
	}
	return out, nil
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

// applyOverrides sets variability options from the command line.
func applyOverrides(doc *yamlsrc.Value, overrides []Assignment) error {
	if len(overrides) == 0 {
		return nil
	}
	topo := doc.Get("topology_template")
	if !topo.IsMap() {
		topo = yamlsrc.NewMap()
		doc.Map().Set("topology_template", topo)
	}
	o := childMap(childMap(topo, "variability"), "options")
	for _, a := range overrides {
		o.Map().Set(a.Name, yamlsrc.Clone(a.Value))
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
			"expected variability options as a map, found "+graph.Describe(o), graph.MsgCannotCreateProperty("bratans_unknown", o))
	}
	childMap(vb, "options").Map().Set("bratans_unknown", yamlsrc.NewBool(true))
	return nil
}

// childMap returns m's map under key, replacing a missing or non-map value
// by a new map.
func childMap(m *yamlsrc.Value, key string) *yamlsrc.Value {
	c := m.Get(key)
	if !c.IsMap() {
		c = yamlsrc.NewMap()
		m.Map().Set(key, c)
	}
	return c
}

func withPos(err error, e *graph.Element) error {
	if d, ok := diag.As(err); ok && !d.Pos.Known() {
		d.Pos = e.Pos()
	}
	return err
}
