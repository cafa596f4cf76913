package suite

import (
	"context"

	"v4t/resolve/complete"
)

// Toskeriser runs the TosKeriser completion cases (completion.md §15,
// conformance/toskeriser/README.md) through resolve/complete's runner.
type Toskeriser struct{}

var _ Runner = Toskeriser{}

// Format implements Runner.
func (Toskeriser) Format() string { return "toskeriser" }

// Detect implements Runner: a case directory holds args.yaml.
func (Toskeriser) Detect(d DirInfo) bool { return d.Has(complete.CaseMarker) }

// Run implements Runner.
func (Toskeriser) Run(ctx context.Context, c Case) Outcome {
	out := complete.RunCase(ctx, c.Dir)
	o := Outcome{Pass: out.Pass, Reason: out.Reason}
	if !out.Pass && (out.Expected != "" || out.Actual != "") {
		o.Diff = Diff("expected", out.Expected, "actual", out.Actual)
	}
	return o
}
