package suite

import (
	"context"

	"v4t/resolve/sd"
)

// SD runs the Solution-Descriptor cases (sd-merge.md §13): a directory
// holding params.yaml, run in process by resolve/sd's case runner.
type SD struct{}

var _ Runner = SD{}

// Format implements Runner.
func (SD) Format() string { return "sd" }

// Detect implements Runner.
func (SD) Detect(d DirInfo) bool { return d.Has(sd.CaseMarker) }

// Run implements Runner.
func (SD) Run(ctx context.Context, c Case) Outcome {
	o := sd.RunCase(ctx, c.Dir)
	out := Outcome{Pass: o.Pass, Reason: o.Reason}
	if o.WantName != "" {
		out.Diff = Diff(o.WantName, o.Want, o.GotName, o.Got)
	}
	return out
}
