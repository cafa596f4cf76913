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

	"v4t/model/diag"
	"v4t/model/expr"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
	"v4t/resolve/enrich"
)

// Input names what to resolve.
type Input struct {
	// TemplatePath is the variable service template.
	TemplatePath string
	// InputsPath is an optional variability inputs file (YAML).
	InputsPath string
	// Presets are applied in order before the inputs file.
	Presets []string
	// Inputs are single assignments applied after presets and the inputs
	// file (the CLI's --input NAME=VALUE).
	Inputs []Assignment
}

// Assignment is one variability input value.
type Assignment struct {
	Name  string
	Value *yamlsrc.Value
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
}

// Resolve runs the pipeline and returns the resolved document. A failure is
// returned as a *diag.Diagnostic whose Message is the reference's message.
func Resolve(ctx context.Context, in Input, opts Options) (out *yamlsrc.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("internal error: %v (please report this as a bug)", r)
			if opts.Debug {
				msg += "\n" + string(debug.Stack())
			}
			out, err = nil, diag.At(diag.Pos{File: in.TemplatePath}, "internal", msg)
		}
	}()
	return run(ctx, in, opts)
}

func run(ctx context.Context, in Input, opts Options) (*yamlsrc.Value, error) {
	l, err := loadTemplate(in.TemplatePath)
	if err != nil {
		return nil, err
	}
	doc := l.doc
	file := in.TemplatePath

	// Enrichment (§5): graph #1, element enrichment, graph #2, conditions,
	// constraints, cleanup.
	g1, err := graph.Build(doc, file)
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
	enrich.Cleanup(g2)

	// Inputs (§6).
	assigned, err := assignments(doc, in, opts)
	if err != nil {
		return nil, err
	}

	hotfixBratans(doc)

	g3, err := graph.Build(doc, file)
	if err != nil {
		return nil, err
	}
	if err := validate(ctx, g3, assigned); err != nil {
		return nil, err
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	vb := g3.Variability()
	ev := expr.New(expr.Env{
		Expressions: vb.Get("expressions"),
		Inputs:      vb.Get("inputs"),
		Assigned:    assigned,
		Now:         now,
		File:        file,
	})
	if err := solve(ctx, g3, ev); err != nil {
		return nil, err
	}
	// Values of present properties (§10.3).
	for _, p := range g3.Properties {
		if !p.Present {
			continue
		}
		if !p.Expression.IsNull() {
			v, err := ev.Eval(p.Expression)
			if err != nil {
				return nil, withPos(err, p)
			}
			p.Value = v
		}
		if p.Value.IsNull() {
			return nil, diag.At(p.Pos(), diag.StageSolve, p.DisplayUpper()+" has no value")
		}
	}
	if err := check(g3); err != nil {
		return nil, err
	}
	if err := transform(g3); err != nil {
		return nil, err
	}
	return doc, nil
}

// hotfixBratans marks the document so that graph #3 does not add fallback
// properties again (the reference's "bratans unknown" hot fix, §1 step 5).
func hotfixBratans(doc *yamlsrc.Value) {
	topo := doc.Get("topology_template")
	if topo.IsNull() {
		return
	}
	vb := topo.Get("variability")
	if !vb.IsMap() {
		vb = yamlsrc.NewMap()
		topo.Map.Set("variability", vb)
	}
	o := vb.Get("options")
	if !o.IsMap() {
		o = yamlsrc.NewMap()
		vb.Map.Set("options", o)
	}
	o.Map.Set("bratans_unknown", yamlsrc.NewBool(true))
}

func withPos(err error, e *graph.Element) error {
	if d, ok := diag.As(err); ok && !d.Pos.Known() {
		d.Pos = e.Pos()
	}
	return err
}
