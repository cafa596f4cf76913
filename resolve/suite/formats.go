package suite

import (
	"context"

	"v4t/resolve/complete"
	"v4t/resolve/sd"
)

// byMarker is the Runner of a format whose case directories hold a marker
// file and whose own package runs a case directory.
type byMarker struct {
	format, marker string
	run            func(ctx context.Context, dir string) Outcome
}

var _ Runner = byMarker{}

// Format implements Runner.
func (r byMarker) Format() string { return r.format }

// Detect implements Runner.
func (r byMarker) Detect(d DirInfo) bool { return d.Has(r.marker) }

// Run implements Runner.
func (r byMarker) Run(ctx context.Context, c Case) Outcome { return r.run(ctx, c.Dir) }

// toskeriser runs the TosKeriser completion cases (completion.md §15,
// conformance/toskeriser/README.md) through resolve/complete's runner: a
// case directory holds args.yaml.
var toskeriser = byMarker{format: "toskeriser", marker: complete.CaseMarker, run: func(ctx context.Context, dir string) Outcome {
	out := complete.RunCase(ctx, dir)
	o := Outcome{Pass: out.Pass, Reason: out.Reason}
	if !out.Pass && (out.Expected != "" || out.Actual != "") {
		o.Diff = Diff("expected", out.Expected, "actual", out.Actual)
	}
	return o
}}

// solutionDescriptor runs the Solution-Descriptor cases (sd-merge.md §13):
// a directory holding params.yaml, run in process by resolve/sd's case
// runner.
var solutionDescriptor = byMarker{format: "sd", marker: sd.CaseMarker, run: func(ctx context.Context, dir string) Outcome {
	o := sd.RunCase(ctx, dir)
	out := Outcome{Pass: o.Pass, Reason: o.Reason}
	if o.WantName != "" {
		out.Diff = Diff(o.WantName, o.Want, o.GotName, o.Got)
	}
	return out
}}
